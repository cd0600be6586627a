// Where focus goes when the focused control goes away: Stop while runs train, else the Run
// button pressed last, else the first Run on the page.
import { $ } from './dom.js';
import { pool } from '../state/engine.js';
import { lastRun } from '../state/runs.js';

export function focusTarget() {
  const usable = (el) => el && !el.disabled && el.offsetParent !== null;
  const runner = pool.get();
  if (runner && runner.busy && usable($('#stop'))) return $('#stop');
  return [lastRun.get(), $('#run-all'), ...document.querySelectorAll('.experiment .run')].find(usable) || $('#experiments');
}
