// How long runs take here: before Run, each experiment's Run and Run all (a range); while runs
// train, the time left. Both schedule the core's cost of each planned run (plan(): cost, in
// multiply-adds, docs/api.md) over the pool's workers in the order the pool takes them, and
// convert it to time with what this device measured. The estimate is this module's own: it
// measures again when the settings change or a batch of runs ends, and the control bar and the
// experiments' sections subscribe to it (onEstimate).
import { t } from '../i18n/i18n.js';
import { runData } from '../state/state.js';
import { core, pool } from '../state/engine.js';
import { experiments, runAllNames, runRank } from '../state/experiments.js';
import { batch } from '../state/runs.js';
import { configValid, runAllConfig, settings } from '../state/settings.js';
import { store } from '../state/store.js';
import { stepsTrained } from '../state/run-status.js';
import { analysisBusy } from '../results/analysis.js';
import { planRunsAside } from './plan.js';
import { nearViewport } from '../results/recorded.js';
import { sectionId } from '../base/dom.js';

export const SPEED_DELAY_MS = 600;        // after the last edit, or after runs end
export const LOAD_SPEED_DELAY_MS = 1500;  // after load: once the recorded results are drawn

// What this device measured: { key: the Run all config it was measured for, units: name ->
// makespan, groups: name -> the group whose speeds time it ('all', or a data experiment's own
// name), own: the experiments timed on their own run } (measureSpeed), or null. This module's alone.
const speed = store(null);
let speedTimer = 0;  // the timeout that will measure it

// The seconds one cost unit took on one worker while the others trained too, as this device
// showed them, the last HISTORY of each group of each Run all config (a unit of a wider model
// takes less time: Quick's and Article's figures are kept apart): every worker's figure of each
// timing (Runner.time,
// 0.3 s a worker), and each run of a batch that trained to its end (its wall time over its cost),
// which is the time a Run takes as it takes it. A range from one timing alone swung threefold on
// a busy machine (one worker had a core, the other waited), and missed the actual time; the range
// spans what the recent figures say, so it moves as they do, and holds the actual time as long as
// the load is one the figures saw. This module's alone.
const HISTORY = 12;
// The range reaches this share past the fastest and the slowest figure: two workers timed for
// 0.3 s each are a small sample (a Quick Run all estimated at 17 to 26 s from them took 15.6 s).
const MARGIN = 0.15;
const observed = new Map();  // `${Run all config}\n${group}` -> seconds
const seen = (all, group) => observed.get(`${all}\n${group}`) || [];
function observe(all, group, seconds) {
  const list = [...seen(all, group), ...seconds.filter((s) => Number.isFinite(s) && s > 0)];
  observed.set(`${all}\n${group}`, list.slice(-HISTORY));
}
const groupOf = (plan) => plan.experiments.find((name) => experiments.get(name)?.info.needs_data) || 'all';

// A batch's runs that trained to their end, as figures of their group under the settings they
// trained with, and the estimate updated.
function observeBatch({ jobs, settings: all }) {
  for (const job of jobs) {
    const run = job.runs[0];
    if (!run || run.status.state !== 'done' || !run.startedAt || !run.endedAt) continue;
    observe(all, groupOf(job.plan), [(run.endedAt - run.startedAt) / 1000 / job.plan.cost.total]);
  }
  if (speed.get()) speed.set({ ...speed.get() });
}

// fn() whenever the estimate changes; returns the function that unsubscribes it.
export const onEstimate = (fn) => speed.subscribe(() => fn());

export function scheduleSpeed(ms) {
  clearTimeout(speedTimer);
  speedTimer = setTimeout(measureSpeed, ms);
}
const later = () => scheduleSpeed(SPEED_DELAY_MS);

// Measured again after the last edit of the settings, and once a batch of runs has ended
// (skipped while the runs trained). Meanwhile the estimate of the settings before is not shown
// for the new ones: its readers are told at once, and estimateText gives nothing until then.
settings.subscribe(() => {
  if (speed.get()) speed.set({ ...speed.get() });
  scheduleSpeed(SPEED_DELAY_MS);
});
batch.subscribe((b) => {
  if (!b.end) return;
  observeBatch(b);
  scheduleSpeed(SPEED_DELAY_MS);
});

// List scheduling, as the pool runs its queue: each cost in order goes to the worker that is
// free first. busy: what the workers still have of the runs they train. The time until the last
// one ends, in the costs' unit.
export function makespan(costs, workers, busy = []) {
  const free = [...busy, ...new Array(Math.max(0, workers - busy.length)).fill(0)];
  for (const cost of costs) {
    const first = free.indexOf(Math.min(...free));
    free[first] += cost;
  }
  return Math.max(0, ...free);
}

// A plan in the order the pool will train it (Runner.queued: by rank, then plan order).
const poolOrder = (plan) => plan.map((p, i) => [runRank(p), i, p]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);

// The timings of this browser tab, by key: a promise of Runner.time's answers (null if they
// failed). Held by the first window of this origin in the tab: the page itself, or the first of a
// blog post's embeds (docs/embed.md), which its sibling frames of this origin reach directly.
// Storage and Web Locks are refused to an embed on another site, so they cannot share through
// those. Only the tab's top window and its frames are searched; a frame found nowhere keeps its own.
function tabTimings() {
  const windows = [];
  try {
    windows.push(window.top, ...Array.from({ length: window.top.frames.length }, (_, i) => window.top.frames[i]));
  } catch {
    // a top window that hides its frames: this window's own table
  }
  for (const w of windows) {
    try {
      if (w.location.origin !== window.location.origin) continue;
      w.wolabTimings ||= new Map();
      return w.wolabTimings;
    } catch {
      // a window of another origin
    }
  }
  window.wolabTimings ||= new Map();
  return window.wolabTimings;
}

// How long a frame waits for another frame's timing before it times on its own (the other frame
// may have been closed meanwhile).
const TIMING_WAIT_MS = 30_000;

// The answers of Runner.time for one run config, timed once per browser tab: the frames of a page
// that embeds several experiments wait for the first one's timing and reuse it (tabTimings).
// Timed at once, four embeds' pools shared the cores four ways and each read a quarter of the
// speed. null when the pool could not time it now.
async function timedOnce(runner, first) {
  const key = `${core.get().engine.script}:${runner.size}:${JSON.stringify([first.config, first.keep])}`;
  const timings = tabTimings();
  if (timings.has(key)) {
    const waited = await Promise.race([timings.get(key), new Promise((done) => setTimeout(done, TIMING_WAIT_MS, null))]);
    if (waited) return waited;
  }
  const timing = runner.time(first.config, first.keep, runData(first.config))
    .then((answers) => (answers && !answers.some((a) => a.error || !a.steps) ? answers : null));
  timings.set(key, timing);
  const answers = await timing;
  if (!answers && timings.get(key) === timing) timings.delete(key);
  return answers;
}

// Seconds per cost unit on each worker, from the answers of Runner.time for the run `first`.
const unitSeconds = (answers, first) => answers.map((a) => a.ms / 1000 / (a.steps * first.cost.step + a.probes * first.cost.probe));

// Every worker of the pool times the first run that Run all would train, at once (Runner.time),
// which gives the seconds one cost unit takes on a worker while the others train too: the
// fastest and the slowest worker bound the range. Each plan's runs are scheduled over the
// workers in pool order. An experiment that trains on a data file (real words: another task, a
// wider model) times its own first run instead, once its section comes near the viewport (the
// timing loads the data file). Skipped while runs train; put off while results are being
// analysed.
async function measureSpeed() {
  const runner = pool.get();
  if (!runner || !configValid()) return;
  // Nothing to time while runs train or wait (Runner.time would answer null), and the plans below
  // would take the cores from them: the batch's end schedules the timing again.
  if (!runner.timeable) return;
  const all = runAllConfig();
  // The experiments timed on their own run: those with data, near, and whose data is there.
  const own = [...experiments.values()].filter((exp) => exp.info.needs_data && exp.missing === ''
    && nearViewport(document.getElementById(sectionId(exp.name)), later)).map((exp) => exp.name);
  const measured = speed.get();
  if (measured && measured.key === all && own.every((name) => measured.own.has(name))) return;
  if (analysisBusy()) return later();
  const names = [...experiments.keys()].filter((name) => !experiments.get(name).info.needs_data);
  const lists = [...names, ...own, 'all'];
  let planned;
  try {
    planned = await Promise.all(lists.map((name) => planRunsAside(all, name === 'all' ? runAllNames() : [name])));
  } catch {
    return;  // settings the core refuses: no estimate (Run says why)
  }
  if (runAllConfig() !== all) return;
  if (analysisBusy()) return later();
  const plans = new Map(lists.map((name, i) => [name, poolOrder(planned[i])]));
  const units = new Map();
  const groups = new Map();  // name -> its group
  // One timing per group: Run all's first run for the toy experiments, each data experiment's own.
  for (const [timed, members] of [['all', [...names, 'all']], ...own.map((name) => [name, [name]])]) {
    const first = plans.get(timed)[0];
    const answers = first && await timedOnce(runner, first);
    if (!answers || answers.some((a) => a.error || !a.steps) || runAllConfig() !== all) return;
    const seconds = unitSeconds(answers, first);
    observe(all, timed, seconds);
    // What a run costs besides its steps (worker.js, timeSteps: run_ms), in units, added to each run.
    const fixed = Math.max(...answers.map((a, i) => (a.run_ms || 0) / 1000 / seconds[i]));
    for (const name of members) {
      units.set(name, makespan(plans.get(name).map((p) => p.cost.total + fixed), runner.size));
      groups.set(name, timed);
    }
  }
  speed.set({ key: all, units, groups, own: new Set(own) });
}

// The estimate for an experiment's Run ('all': Run all), or '' when none is measured for the
// settings shown.
export function estimateText(name) {
  const measured = speed.get();
  if (!measured || !configValid() || measured.key !== runAllConfig() || !measured.units.has(name)) return '';
  const units = measured.units.get(name);
  const seconds = seen(measured.key, measured.groups.get(name));
  const fast = Math.min(...seconds) * (1 - MARGIN), slow = Math.max(...seconds) * (1 + MARGIN);
  const low = Math.max(1, Math.floor(units * fast));
  return t('estimate', { low, high: Math.max(low + 1, Math.ceil(units * slow)) });
}

// Seconds until the pool's runs of this batch end, or null before anything is measured: the
// schedule of what is left (the rest of each running run, then the queue in the pool's order)
// at the seconds per cost unit that the batch's runs have taken on their workers so far. The
// measurement before Run counts as one more run at first, so that the first runs' steps do not
// swing the readout.
export function secondsLeft(now = performance.now()) {
  let spent = 0, done = 0;
  const busy = [];
  const { jobs } = batch.get();
  const costs = jobs.map((job) => job.plan.cost.total);
  jobs.forEach((job, i) => {
    const run = job.runs[0];
    if (!run.startedAt) return;
    const share = run.finished ? stepsTrained(run.status, run.steps) / run.steps : run.stepsDone / run.steps;
    done += costs[i] * share;
    spent += ((run.endedAt || now) - run.startedAt) / 1000;
    if (run.status.state === 'running') busy.push(costs[i] * (1 - share));
  });
  // A queued job is one of this batch's: a batch ends only once the pool is idle.
  const runner = pool.get();
  const queued = runner.queued().map((q) => jobs.find((job) => job.id === q.id).plan.cost.total);
  const left = makespan(queued, runner.size, busy);
  const measured = speed.get();
  const timed = measured && measured.key === runAllConfig() ? seen(measured.key, 'all') : [];
  const prior = timed.length ? (Math.min(...timed) + Math.max(...timed)) / 2 : null;
  const weight = prior === null ? 0 : costs.reduce((a, b) => a + b, 0) / costs.length;
  if (done + weight === 0) return null;
  return (left * (spent + (prior || 0) * weight)) / (done + weight);
}
