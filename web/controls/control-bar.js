// The control bar: Run all, Pause, Stop, the overall progress and its label, and where focus
// goes when the focused control goes away.
import { t } from '../i18n/i18n.js';
import { $, app } from '../state/app-state.js';
import { invalidate, renderNow } from '../views/frames.js';
import { configValid } from './settings-form.js';
import { estimateText, secondsLeft } from '../runs/estimate.js';
import { active, complete, failed, firstFailure, tally } from '../state/run-status.js';
import { endedParts } from '../views/runlist.js';

const fmtTime = (ms) => t('seconds', { s: (ms / 1000).toFixed(1) });

// The batch's steps/s over the last RATE_WINDOW_MS: the steps its runs trained in that window
// over its length, from the bar's renders (a few a second). A rate from message to message swung
// by 25 times (two messages handled in one task look like a burst), so none is shown until the
// window holds RATE_MIN_MS. trained: the batch's steps so far. null: not measured yet.
const RATE_WINDOW_MS = 2000;
const RATE_MIN_MS = 500;
const samples = { batch: null, list: [] };  // [{ at, trained }] of app.batch

function batchRate(trained, now = performance.now()) {
  if (samples.batch !== app.batch) {
    samples.batch = app.batch;
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
    const runs = app.batch.jobs.map((job) => job.runs[0]);  // a job's runs share their state
    const busy = Boolean(app.runner && app.runner.busy);
    let total = 0, done = 0, trained = 0;
    for (const r of runs) {
      total += r.steps;
      done += complete(r) ? r.steps : r.stepsDone;  // a stopped run counts the steps it trained
      trained += r.stepsDone;
    }
    const rate = batchRate(trained);
    const bar = $('#overall-progress');
    bar.value = total ? done / total : 0;
    const finished = runs.filter((r) => !active(r)).length;
    let label = [t('overallIdle'), estimateText('all')].join(' ').trim();
    if (busy && app.runner.paused) label = t('overallPaused', { done: finished, total: runs.length });
    else if (busy) {
      const left = secondsLeft();
      const eta = left === null ? '…' : fmtTime(1000 * left);
      label = t('overallRunning', { done: finished, total: runs.length, rate: rate === null ? '…' : rate.toFixed(0), eta });
    } else if (runs.length) {
      // How the batch ended: every run trained to its end, or some stopped (partway or before
      // they began) or failed, each counted as such.
      const k = tally(runs);
      const parts = endedParts(k).map((part) => t('partSep') + part).join('');
      const time = fmtTime(app.batch.end - app.batch.start);
      if (k.partway + k.notStarted > 0) label = t('overallStopped', { done: k.done, total: k.total, parts });
      else if (k.failed) label = t('overallFailed', { done: k.done, total: k.total, time, parts, message: firstFailure(runs) });
      else label = t('overallDone', { done: k.done, total: k.total, time });
    }
    $('#overall-label').classList.toggle('error', !busy && runs.some(failed));
    $('#overall-label').textContent = label;
    const controls = $('#controls');
    controls.dataset.state = busy ? (app.runner.paused ? 'paused' : 'running') : 'idle';
    if (runs.length) controls.dataset.ran = 'true';  // an embed shows the bar from its first run on
    refreshButtons();
  },
  redraw: () => invalidate(overall, overall.render),
  renderNow: () => renderNow(overall, overall.render),
};

export function refreshButtons() {
  // Before the engine has loaded, Run is not disabled: a press is kept and run once it has.
  const ready = !app.engineFailed && configValid();
  const busy = Boolean(app.runner && app.runner.busy);
  const focused = document.activeElement;
  for (const exp of app.exps.values()) {
    const b = $('.run', exp.section);
    const running = exp.runs.some(active);
    b.disabled = !ready || running || Boolean(exp.missing);
    b.textContent = t(!running ? 'run' : app.runner.paused ? 'runPaused' : 'runBusy');
  }
  $('#run-all').disabled = !ready || (app.exps.size > 0 && [...app.exps.values()].every((e) => e.runs.some(active)));
  const pause = $('#pause');
  pause.disabled = !busy;
  pause.textContent = t(app.runner && app.runner.paused ? 'resume' : 'pause');
  pause.setAttribute('aria-pressed', String(Boolean(app.runner && app.runner.paused)));
  $('#stop').disabled = !busy;
  // A focused control that has just disabled itself would drop focus to <body>.
  if (focused && focused.disabled) focusTarget().focus();
}

// Where focus goes when the focused control goes away: Stop while runs train, else the Run
// button pressed last, else the first Run on the page.
export function focusTarget() {
  const usable = (el) => el && !el.disabled && el.offsetParent !== null;
  if (app.runner && app.runner.busy && usable($('#stop'))) return $('#stop');
  return [app.lastRun, $('#run-all'), ...document.querySelectorAll('.experiment .run')].find(usable) || $('#experiments');
}

// The sticky control bar's height, for style.css's scroll-margin-top (0 where it is not sticky).
export function trackBarHeight() {
  const bar = $('#controls');
  new ResizeObserver(() => {
    const sticky = getComputedStyle(bar).position === 'sticky';
    document.documentElement.style.setProperty('--bar-height', `${sticky ? bar.offsetHeight : 0}px`);
  }).observe(bar);
}
