// The control bar: Run all, Pause, Stop, the overall progress and its label, and where focus
// goes when the focused control goes away.
import { t } from '../i18n/i18n.js';
import { $, app } from '../state/app-state.js';
import { invalidate, renderNow } from '../views/frames.js';
import { configValid } from './settings-form.js';
import { estimateText, secondsLeft } from '../runs/estimate.js';
import { active, complete, started } from '../state/run-status.js';

const fmtTime = (ms) => t('seconds', { s: (ms / 1000).toFixed(1) });

// The control bar: overall progress, steps/s and time left, button states.
export const overall = {
  render() {
    const runs = app.batch.jobs.map((job) => job.runs[0]);  // a job's runs share their state
    const busy = Boolean(app.runner && app.runner.busy);
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
    if (busy && app.runner.paused) label = t('overallPaused', { done: finished, total: runs.length });
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
      label = t('overallDone', { done: runs.filter(complete).length, total: runs.length, time: fmtTime(app.batch.end - app.batch.start) });
    }
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
    b.disabled = !ready || running;
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
