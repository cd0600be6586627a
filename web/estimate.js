// The estimate before Run: how long each experiment's Run, and Run all, would take here.
import { t } from './i18n.js';
import { app } from './app-state.js';
import { configValid, runAllConfig } from './settings-form.js';
import { overall } from './control-bar.js';

export const SPEED_DELAY_MS = 600;        // after the last edit, or after runs end
export const LOAD_SPEED_DELAY_MS = 1500;  // after load: once the recorded results are drawn

export function scheduleSpeed(ms) {
  clearTimeout(app.speedTimer);
  app.speedTimer = setTimeout(measureSpeed, ms);
}

// How long each experiment's Run (and Run all) would take on this device with the settings
// shown: an idle worker times the first planned run's steps (Runner.time), and each plan's
// steps share that rate over the pool's workers. Skipped while runs train.
async function measureSpeed() {
  if (!app.wolab || !configValid()) return;
  const all = runAllConfig();
  if (app.speed && app.speed.key === all) return;
  const plans = new Map([...app.exps.keys(), 'all'].map((name) => [name, JSON.parse(app.wolab.plan(all, JSON.stringify(name === 'all' ? [...app.exps.keys()] : [name])))]));
  const first = plans.get('all')[0];
  const timed = first && await app.runner.time(first.config, first.keep);
  if (!timed || timed.error || !timed.steps || runAllConfig() !== all) return;
  const perStep = timed.ms / 1000 / timed.steps;
  const seconds = new Map();
  for (const [name, plan] of plans) {
    const steps = plan.reduce((sum, p) => sum + p.config.train.steps, 0);
    seconds.set(name, (steps * perStep) / Math.max(1, Math.min(app.runner.size, plan.length)));
  }
  app.speed = { key: all, seconds, rate: 1 / perStep };
  for (const exp of app.exps.values()) exp.redraw();
  overall.redraw();
}

// The estimate for an experiment's Run ('all': Run all), or '' when none is measured for the
// settings shown.
export function estimateText(name) {
  const speed = app.speed;
  if (!speed || !configValid() || speed.key !== runAllConfig()) return '';
  const rate = speed.rate >= 10 ? speed.rate.toFixed(0) : speed.rate.toPrecision(2);
  return t('estimate', { s: Math.max(1, Math.round(speed.seconds.get(name))), rate });
}
