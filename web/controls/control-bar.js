// The control bar: Run all, Pause, Stop, the overall progress and its label. It follows the
// state it shows (the engine, the settings, the runs, the estimate) by subscribing to it.
import { t } from '../i18n/i18n.js';
import { $ } from '../views/dom.js';
import { invalidate, renderNow } from '../views/frames.js';
import { core, pool } from '../state/engine.js';
import { experiments } from '../state/experiments.js';
import { batch, runsChanged } from '../state/runs.js';
import { configValid, settings } from '../state/settings.js';
import { estimateText, onEstimate, secondsLeft } from '../runs/estimate.js';
import { active, complete, started } from '../state/run-status.js';
import { focusTarget } from './focus.js';

const fmtTime = (ms) => t('seconds', { s: (ms / 1000).toFixed(1) });

// The control bar: overall progress, steps/s and time left, button states.
export const overall = {
  render() {
    const { jobs, start, end } = batch.get();
    const runs = jobs.map((job) => job.runs[0]);  // a job's runs share their state
    const runner = pool.get();
    const busy = Boolean(runner && runner.busy);
    let total = 0, done = 0, rate = 0;
    for (const r of runs) {
      total += r.steps;
      done += complete(r) ? r.steps : r.stepsDone;  // a stopped run counts the steps it trained
      if (r.status.state === 'running') rate += r.rate;
    }
    const bar = $('#overall-progress');
    bar.value = total ? done / total : 0;
    const finished = runs.filter((r) => !active(r)).length;
    let label = [t('overallIdle'), estimateText('all')].join(' ').trim();
    if (busy && runner.paused) label = t('overallPaused', { done: finished, total: runs.length });
    else if (busy) {
      const left = secondsLeft();
      const eta = left === null ? '…' : fmtTime(1000 * left);
      label = t('overallRunning', { done: finished, total: runs.length, rate: rate.toFixed(0), eta });
    } else if (runs.some((r) => r.status.state === 'stopped')) {
      const stopped = runs.filter((r) => r.status.state === 'stopped');
      const partway = stopped.filter(started).length;
      const parts = [
        [partway, 'partPartway'], [stopped.length - partway, 'partNotStarted'],
        [runs.filter((r) => r.status.state === 'error').length, 'partFailed'],
      ].filter(([k]) => k > 0).map(([k, key]) => t('partSep') + t(key, { k }));
      label = t('overallStopped', { done: runs.filter(complete).length, total: runs.length, parts: parts.join('') });
    } else if (runs.length) {
      label = t('overallDone', { done: runs.filter(complete).length, total: runs.length, time: fmtTime(end - start) });
    }
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
    const b = $('.run', exp.section);
    const running = exp.runs.some(active);
    b.disabled = !ready || running;
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
