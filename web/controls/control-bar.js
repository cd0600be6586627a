// The control bar: Run all, Pause, Stop, the overall progress and its label. It follows the
// state it shows (the engine, the settings, the runs, the estimate) by subscribing to it.
import { t } from '../i18n/i18n.js';
import { $, sectionId } from '../base/dom.js';
import { invalidate, renderNow } from '../base/frames.js';
import { core, pool } from '../state/engine.js';
import { dataChecked, experiments } from '../state/experiments.js';
import { batch, runsChanged } from '../state/runs.js';
import { configValid, runAllConfig, settings } from '../state/settings.js';
import { estimateText, onEstimate, secondsLeft } from '../runs/estimate.js';
import { active, complete, endedParts, failed, firstFailure, tally } from '../state/run-status.js';
import { focusTarget } from '../base/focus.js';

const fmtTime = (ms) => t('seconds', { s: (ms / 1000).toFixed(1) });

// The batch's steps/s over the last RATE_WINDOW_MS: the steps its runs trained in that window
// over its length, from the bar's renders (a few a second). A rate from message to message swung
// by 25 times (two messages handled in one task look like a burst), so none is shown until the
// window holds RATE_MIN_MS. trained: the batch's steps so far. null: not measured yet.
const RATE_WINDOW_MS = 2000;
const RATE_MIN_MS = 500;
// A batch is known by its start (state/runs.js): a press that adds jobs to it keeps its samples.
const samples = { start: null, list: [] };  // [{ at, trained }] of the batch

function batchRate(start, trained, now = performance.now()) {
  if (samples.start !== start) {
    samples.start = start;
    samples.list = [];
  }
  const list = samples.list;
  list.push({ at: now, trained });
  while (list.length > 2 && now - list[1].at >= RATE_WINDOW_MS) list.shift();
  const span = now - list[0].at;
  return span < RATE_MIN_MS ? null : (1000 * (trained - list[0].trained)) / span;
}

// The control bar: overall progress, steps/s and time left, button states.
export const overall = {
  render() {
    const { jobs, start, end, settings: pressedWith } = batch.get();
    const runs = jobs.map((job) => job.runs[0]);  // a job's runs share their state
    const runner = pool.get();
    const busy = Boolean(runner && runner.busy);
    let total = 0, done = 0, trained = 0;
    for (const r of runs) {
      total += r.steps;
      done += complete(r) ? r.steps : r.stepsDone;  // a stopped run counts the steps it trained
      trained += r.stepsDone;
    }
    const rate = batchRate(start, trained);
    const bar = $('#overall-progress');
    bar.value = total ? done / total : 0;
    const finished = runs.filter((r) => !active(r)).length;
    // Once the settings are changed, how the last batch ended is old news: the bar says what Run
    // all would take with the new ones.
    const ended = runs.length > 0 && pressedWith === runAllConfig();
    let label = [t('overallIdle'), estimateText('all')].join(' ').trim();
    if (busy && runner.paused) label = t('overallPaused', { done: finished, total: runs.length });
    else if (busy) {
      const left = secondsLeft();
      const eta = left === null ? '…' : fmtTime(1000 * left);
      label = t('overallRunning', { done: finished, total: runs.length, rate: rate === null ? '…' : rate.toFixed(0), eta });
    } else if (ended) {
      // How the batch ended: every run trained to its end, or some stopped (partway or before
      // they began) or failed, each counted as such.
      const k = tally(runs);
      const parts = endedParts(k).map((part) => t('partSep') + part).join('');
      const time = fmtTime(end - start);
      if (k.partway + k.notStarted > 0) label = t('overallStopped', { done: k.done, total: k.total, parts });
      else if (k.failed) label = t('overallFailed', { done: k.done, total: k.total, time, parts, message: firstFailure(runs) });
      else label = t('overallDone', { done: k.done, total: k.total, time });
    }
    $('#overall-label').classList.toggle('error', !busy && ended && runs.some(failed));
    $('#overall-label').textContent = label;
    const controls = $('#controls');
    controls.dataset.state = busy ? (runner.paused ? 'paused' : 'running') : 'idle';
    if (runs.length) controls.dataset.ran = 'true';  // an embed shows the bar from its first run on
    refreshButtons();
  },
  redraw: () => invalidate(overall, overall.render),
  renderNow: () => renderNow(overall, overall.render),
};

// The Run buttons follow the engine and the settings; the whole bar follows the runs (at once
// after a press, in the next frame after a worker's message) and the estimate.
core.subscribe(refreshButtons);
settings.subscribe(refreshButtons);
dataChecked.subscribe(refreshButtons);
runsChanged.subscribe((now) => (now ? overall.renderNow() : overall.redraw()));
onEstimate(() => overall.redraw());

function refreshButtons() {
  // Before the engine has loaded, Run is not disabled: a press is kept and run once it has.
  const ready = !core.get().failed && configValid();
  const runner = pool.get();
  const busy = Boolean(runner && runner.busy);
  const paused = Boolean(runner && runner.paused);
  const focused = document.activeElement;
  for (const exp of experiments.values()) {
    const b = $(`#${sectionId(exp.name)} .run`);
    const running = exp.runs.some(active);
    b.disabled = !ready || running || Boolean(exp.missing);
    b.textContent = t(!running ? 'run' : paused ? 'runPaused' : 'runBusy');
  }
  $('#run-all').disabled = !ready || (experiments.size > 0 && [...experiments.values()].every((e) => e.runs.some(active)));
  const pause = $('#pause');
  pause.disabled = !busy;
  pause.textContent = t(paused ? 'resume' : 'pause');
  pause.setAttribute('aria-pressed', String(paused));
  $('#stop').disabled = !busy;
  // A focused control that has just disabled itself would drop focus to <body>.
  if (focused && focused.disabled) focusTarget().focus();
}

// The sticky control bar's height, for style.css's scroll-margin-top (0 where it is not sticky).
export function trackBarHeight() {
  const bar = $('#controls');
  new ResizeObserver(() => {
    const sticky = getComputedStyle(bar).position === 'sticky';
    document.documentElement.style.setProperty('--bar-height', `${sticky ? bar.offsetHeight : 0}px`);
  }).observe(bar);
}
