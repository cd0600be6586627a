// Live runs: Run presses planned by the core (shared runs trained once), queued on the worker
// pool, followed message by message (docs/worker.md), and each experiment's results made by the
// core once its runs have all ended. Also Pause, Stop, and a live run's model saved. Owns the
// batch of runs, the Run pressed last, the news that runs moved on and that a model was trained
// (state/runs.js), and the news that a live experiment settled (state/experiments.js); shows
// live runs in the experiments' records (state/experiments.js), which their sections follow.
// A worker's reply goes one way: runner -> onWorker here -> the experiment's record and the
// stores above -> the views that subscribe to them.
import { t } from '../i18n/i18n.js';
import { experimentConfig, runData } from '../state/state.js';
import { errorText } from '../base/dom.js';
import { core, pool } from '../state/engine.js';
import { addRuns, change, experiments, liveSettled, reset, resultsStem, runAllNames, runRank, runsMoved } from '../state/experiments.js';
import { batch, lastRun, modelTrained, newId, runsChanged } from '../state/runs.js';
import { configValid, runAllConfig, settings } from '../state/settings.js';
import { notice } from '../base/notices.js';
import {
  active, complete, endedParts, failed, failedStatus, finishedRuns, firstFailure, isSettled, stepsTrained, tally,
} from '../state/run-status.js';
import { appendProgress } from './live-record.js';
import { planRuns } from './plan.js';
import { makeResults } from '../results/analysis.js';
import { download } from '../results/export.js';

// What an experiment does not keep (experiments(): not_kept) stays out of the JSON handed to
// makeResults, which would leave it empty anyway: a shared run's W_o snapshots are large.
function kept(exp, record) {
  return { ...record, ...Object.fromEntries(exp.info.not_kept.map((part) => [part, []])) };
}

// Once every run of a live experiment has ended, its results from the same C++ code as the CLI:
// one call per experiment, not one per finished run, in the analysis worker. Runs that kept
// W_o matrices (wo_heatmap) give a document with the matrices apart, for the summary and the
// analysis, which read only their figures; the whole document, matrices inline, is made when
// the reader exports it (wholeResults). Resolves to false when the experiment was reset
// meanwhile (the answer is then dropped).
async function summarize(exp) {
  change(exp, { resultsBlob: null, woApart: false, summary: null });
  const { config, records, failures } = resultsInputs(exp);
  if (!records.length) return true;
  const epoch = exp.epoch;
  const woStem = records.some((r) => r.wo.length > 0) ? resultsStem(exp.name) : null;
  // With the matrices apart, only their figures go to the worker: a structured clone of every
  // run's matrices (MBs at d_model 256, for each experiment that shares the run) was one of the
  // main thread's longest tasks.
  const figures = woStem ? records.map((r) => ({ ...r, wo: r.wo.map(({ data, ...rest }) => rest) })) : records;
  try {
    const { blob, summary } = await makeResults(exp.name, config, [...figures, ...failures], woStem);
    return change(exp, { resultsBlob: blob, woApart: Boolean(woStem), summary }, { epoch });
  } catch (e) {
    if (exp.epoch !== epoch) return false;
    notice(errorText(e), 'error', { experiment: exp.name });
  }
  return true;
}

// What an experiment's results are made of: its config, the records of its finished runs and
// its failed runs. A run whose worker failed goes in as the core lists it apart (docs/results.md,
// "Failed runs"), so that the claims it would have decided say it failed.
function resultsInputs(exp) {
  return {
    config: JSON.stringify(exp.config),
    records: finishedRuns(exp).map((r) => kept(exp, r.record)),
    failures: exp.runs.filter(failed).map((r) => ({ variant: r.variant, seed: r.seed, lr: r.lr, status: r.status, error: r.error })),
  };
}

// A live experiment's whole results document, its W_o matrices inline (exp.woApart), for the
// export: a promise of its Blob.
export async function wholeResults(exp) {
  const { config, records, failures } = resultsInputs(exp);
  return (await makeResults(exp.name, config, [...records, ...failures])).blob;
}

// Experiments whose Run was pressed before the pool was made (a list, or 'all'), and those whose
// Run was pressed in this task (requestRun).
let pending = null;
let requested = null;
// job id -> live job: one training run, shared by experiments, until its worker is done with it.
const jobs = new Map();

// Run presses made in one task (a script pressing several Run buttons, or a press and the
// engine's load) are planned together once that task ends, so the core shares their runs.
// pressed: the button pressed, where focus returns after the runs.
export function requestRun(names, pressed = null) {
  if (pressed) lastRun.set(pressed);
  if (!requested) {
    requested = new Set();
    queueMicrotask(() => {
      const asked = requested;
      requested = null;
      runExperiments(asked.has('all') ? 'all' : [...asked]);
    });
  }
  for (const name of names === 'all' ? ['all'] : names) requested.add(name);
}

// Runs Run presses made before the pool existed: called once it does.
export function runPending() {
  if (pending) runExperiments(pending);
  return Boolean(pending);
}

// A job of this batch that gives the run `p` plans (the same config JSON, as the core writes
// it) and keeps what it needs: one still queued takes on what `p` keeps besides (a shared run
// keeps the union, as in the core's plan); one training, or trained to its end since the pool
// was last idle, serves if it keeps it already. Presses of Run one after another then share
// runs too, however quickly the first one's runs finish.
function liveJob(p) {
  const text = JSON.stringify(p.config);
  const wanted = Object.keys(p.keep).filter((part) => p.keep[part]);
  for (const job of batch.get().jobs) {
    if (JSON.stringify(job.plan.config) !== text) continue;
    const keep = job.plan.keep;  // the object the runner's queue holds until a worker takes it
    if (pool.get().isQueued(job.id)) {
      for (const part of wanted) keep[part] = true;
      return job;
    }
    const serves = jobs.has(job.id) || (job.runs[0].finished && complete(job.runs[0]));
    if (serves && wanted.every((part) => keep[part])) return job;
  }
  return null;
}

// Queues the runs of these experiments as the core plans them (Embind plan(), docs/api.md): a
// (variant, seed, lr, clip) that several of them compare is trained once and shared, as the
// CLI does for `--experiment all`, and keeps what each of its experiments keeps; a run that a
// live job already trains joins it (liveJob).
// names: a list of experiments, or 'all'.
function runExperiments(names) {
  const runner = pool.get();
  if (!runner && !core.get().failed) {  // run once the engine is loaded and the pool made
    const all = names === 'all' || pending === 'all';
    pending = all ? 'all' : [...new Set([...(pending || []), ...names])];
  }
  if (!runner || !configValid()) return;
  if (names === 'all') names = runAllNames();
  const free = names.filter((name) => !experiments.get(name).runs.some(active));
  if (!free.length) return;
  let plan;
  try {
    plan = planRuns(runAllConfig(), free);
  } catch (e) {
    notice(errorText(e), 'error');
    return;
  }
  if (!runner.busy) batch.set({ jobs: [], start: performance.now(), end: 0, settings: runAllConfig() });
  const { values } = settings.get();
  for (const name of free) {
    const exp = experiments.get(name);
    const replaced = exp.source === 'recorded' ? exp.file : '';
    reset(exp, { config: experimentConfig(values, name), source: 'live', replaced }, true);
  }
  const added = [];
  const shownRuns = new Map(free.map((name) => [name, []]));  // experiment -> its new runs
  for (const p of plan) {
    let job = liveJob(p);
    if (job) runner.rerank(job.id, runRank(p));
    else {
      job = {
        id: newId(),
        plan: p,         // the plan's entry: { config, keep, variant, seed, lr, experiments, cost }
        runs: [],        // one run per experiment that shows this training run
        record: null,    // the live record (live-record.js), from the worker's 'started' on
        probed: 0,       // the last probe step appended to it
      };
      added.push(job);
      jobs.set(job.id, job);
    }
    const now = job.runs[0];  // a joined job's state so far, which its new runs start from
    for (const name of p.experiments.filter((e) => free.includes(e))) {
      const exp = experiments.get(name);
      // A run as an experiment shows it (imported and recorded runs have the same fields).
      const run = {
        id: newId(), job: job.id, experiment: name, variant: p.variant, seed: p.seed, lr: p.lr,
        steps: p.config.train.steps,  // planned
        stepsDone: 0,
        status: { state: 'queued' },  // run-status.js
        rate: 0,                      // steps/s: its average so far, and once finished
        lastAt: 0, startedAt: 0,      // performance.now() of its last message and of its start
        endedAt: 0,                   // performance.now() of its 'finished'
        finished: false,              // its record is the trainer's final one
        error: '',                    // the worker's message when it failed
        record: null,                 // the job's record (results.md's run record)
      };
      if (now) for (const key of ['stepsDone', 'status', 'rate', 'lastAt', 'startedAt', 'endedAt', 'finished', 'record']) run[key] = now[key];
      job.runs.push(run);
      shownRuns.get(name).push(run);
    }
  }
  batch.update({ jobs: [...batch.get().jobs, ...added] });
  // The sections show their queued runs in the next frames (frames.js), not in this task (six
  // of them rendered at once made Run all's press a long task); their state changes now.
  for (const name of free) {
    const exp = experiments.get(name);
    addRuns(exp, shownRuns.get(name));
    settle(exp);  // its runs may all have trained already
  }
  runner.enqueue(added.map((job) => ({
    id: job.id, config: job.plan.config, keep: job.plan.keep, data: runData(job.plan.config), rank: runRank(job.plan),
  })));
  runsChanged.emit(true);
}

// A worker's message about a job (docs/worker.md) updates the job's record and its runs.
export function onWorker(msg) {
  const job = jobs.get(msg.id);
  if (!job) return;
  const now = performance.now();
  if (msg.type === 'started') job.record = msg.record;
  if (msg.type === 'progress') job.probed = appendProgress(job.record, msg, job.probed);
  if (msg.type === 'finished') {
    hold(job.id, msg.checkpoint);
    // A view that uses the model itself (the word box of real words) takes it too, unless the
    // run diverged (its weights are then not a model to read).
    if (msg.record.status.state !== 'diverged') for (const run of job.runs) modelTrained.emit({ run, bytes: msg.checkpoint });
  }
  for (const run of job.runs) updateRun(run, job, msg, now);
  if (['finished', 'stopped', 'error'].includes(msg.type)) jobs.delete(job.id);  // its runs keep the results
  if (!pool.get().busy && !batch.get().end) batch.update({ end: now });
  for (const exp of new Set(job.runs.map((r) => experiments.get(r.experiment)))) {
    settle(exp);
    runsMoved(exp);
  }
  runsChanged.emit(false);
}

function updateRun(run, job, msg, now) {
  switch (msg.type) {
    case 'started':
      run.status = { state: 'running' };
      run.record = job.record;  // shared with the job's other runs until it finishes
      run.lastAt = now;
      run.startedAt = now;
      break;
    case 'progress': {
      // Its steps over its time since it began: messages that arrive together (handled in one
      // task) would make a rate from message to message swing by tens of times.
      const elapsed = (now - run.startedAt) / 1000;
      run.rate = elapsed > 0.2 ? msg.stepsDone / elapsed : 0;
      run.lastAt = now;
      run.stepsDone = msg.stepsDone;
      break;
    }
    case 'finished': {
      // Done, stopped or diverged: the core's record, with its final metrics and status.
      run.record = msg.record;
      run.status = msg.record.status;
      run.finished = true;
      run.endedAt = now;
      const steps = run.record.curve.step;
      run.stepsDone = stepsTrained(run.status, run.steps);
      if (steps.length) run.rate = run.stepsDone / Math.max(1e-3, (now - run.startedAt) / 1000);  // the run's average
      break;
    }
    case 'stopped':  // before its worker began it
      run.status = { state: 'stopped', step: 0 };
      break;
    case 'error':  // the run never had a core status, or lost it with its worker
      run.status = failedStatus();
      run.error = msg.message;
      break;
    default:
  }
}

// Once every run of a live experiment has ended: its results, then whatever reads them; with no
// finished run to compare, the recording it replaced comes back (restoreRecording).
async function settle(exp) {
  if (exp.source === 'live' && !exp.settled && isSettled(exp)) {
    if (!finishedRuns(exp).length) {
      const k = tally(exp.runs);
      const parts = endedParts(k).join(t('partSep'));
      const message = firstFailure(exp.runs);
      const ended = t(exp.replaced ? 'noneFinishedRecorded' : 'noneFinished', { total: k.total, parts })
        + (message ? t('firstFailure', { message }) : '');
      change(exp, { settled: true, liveEnded: ended });
      await summarize(exp);
      liveSettled.emit({ exp, ended });
      return;
    }
    change(exp, { settled: true });
    if (await summarize(exp)) liveSettled.emit({ exp, ended: '' });
  }
}

export function stopAll() {
  const runner = pool.get();
  for (const queued of runner.stop()) {
    for (const run of jobs.get(queued.id).runs) run.status = { state: 'stopped', step: 0 };
    jobs.delete(queued.id);
  }
  if (!runner.busy && !batch.get().end) batch.update({ end: performance.now() });
  for (const exp of experiments.values()) {
    settle(exp);
    runsMoved(exp);
  }
  runsChanged.emit(false);
}

export function togglePause() {
  const runner = pool.get();
  if (runner.paused) runner.resume();
  else runner.pause();
  runsChanged.emit(true);
}

// The models (safetensors bytes) of the latest finished runs, by job id, oldest first, for a
// download: as many as fit in HELD_BYTES, and always the latest.
const HELD_BYTES = 128 * 1024 * 1024;
const held = new Map();

function hold(id, bytes) {
  held.set(id, bytes);
  let total = 0;
  for (const b of held.values()) total += b.byteLength;
  for (const [key, b] of held) {
    if (total <= HELD_BYTES || key === id) break;
    held.delete(key);
    total -= b.byteLength;
  }
}

export function saveModel(run) {
  const bytes = held.get(run.job);
  if (!bytes) {
    notice(t('modelMissing', { variant: run.variant, seed: run.seed }), 'error', { experiment: run.experiment });
    return;
  }
  download(`wolab-${run.experiment}-${run.variant}-seed${run.seed}.safetensors`, bytes, 'application/octet-stream');
}
