// Run all as a reader meets it: experiments finish in page order (the learning-rate sweep last),
// each verdict as soon as its own runs end; the time estimated before Run against the time Run
// all took; the time-left readout steady; Stop early leaves the sweep's claim undecided.
// WOLAB_RUN_ALL_PRESET=article measures the Article preset (about 5 minutes) in place of Quick.
import { test, expect } from '@playwright/test';
import { openPage, query, TIMED, TINY, untilAttribute } from './helpers.js';

const PRESET = process.env.WOLAB_RUN_ALL_PRESET || 'quick';
const ESTIMATE = /^Idle\. Estimated time: about (\d+) to (\d+) s, timed on this device\.$/;

// In the page, from the click on Run all on: when each experiment settled (its runs ended and
// its verdict was made), every time-left readout of the control bar, and when the bar went idle.
function watchRunAll() {
  const w = { clicked: 0, settled: {}, readouts: [], idle: 0 };
  window.wolabRunAll = w;
  const controls = document.getElementById('controls');
  const label = document.getElementById('overall-label');
  document.getElementById('run-all').addEventListener('click', () => { w.clicked = performance.now(); }, { capture: true, once: true });
  const seconds = (text) => {
    const m = text.match(/about ([\d.]+) s left/);
    return m ? Number(m[1]) : null;
  };
  new MutationObserver(() => {
    if (!w.clicked) return;
    const now = performance.now();
    for (const s of document.querySelectorAll('section.experiment')) {
      if (s.dataset.state === 'settled' && !(s.dataset.exp in w.settled)) w.settled[s.dataset.exp] = now - w.clicked;
    }
    const left = seconds(label.textContent);
    if (left !== null && left !== w.readouts.at(-1)?.left) w.readouts.push({ at: now - w.clicked, left });
    if (controls.dataset.state === 'idle' && !w.idle && Object.keys(w.settled).length === document.querySelectorAll('section.experiment').length) w.idle = now - w.clicked;
  }).observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
}

test(`Run all (${PRESET}) finishes experiment 1 first, takes the time estimated, and its time left never jumps 2×`, TIMED, async ({ page }) => {
  // Article takes about 5 minutes on an idle 2-core machine; a loaded one may take several times that.
  const limit = Number(process.env.WOLAB_RUN_ALL_TIMEOUT_S || (PRESET === 'quick' ? 240 : 1800)) * 1000;
  test.setTimeout(limit);
  const problems = await openPage(page);
  if (PRESET !== 'quick') {
    await page.evaluate(() => { document.getElementById('settings').open = true; });
    await page.locator('#preset').selectOption(PRESET);
  }
  const label = page.locator('#overall-label');
  await expect(label).toHaveText(ESTIMATE, { timeout: 30_000 });
  const [, low, high] = (await label.textContent()).match(ESTIMATE).map(Number);
  console.log(`run all (${PRESET}): estimated ${low} to ${high} s`);
  await page.evaluate(watchRunAll);
  await page.locator('#run-all').click();
  await untilAttribute(page.locator('#exp-remove_wo'), 'data-state', 'settled', limit);
  console.log(`run all (${PRESET}): experiment 1 settled after ${(await page.evaluate(() => window.wolabRunAll.settled.remove_wo / 1000)).toFixed(1)} s`);
  // Experiment 1's verdict is there while the sweep still trains.
  await expect(page.locator('#exp-remove_wo .verdict-box')).not.toBeEmpty();
  await expect(page.locator('#exp-lr_stability')).toHaveAttribute('data-state', 'running');
  await page.waitForFunction(() => window.wolabRunAll.idle > 0, null, { timeout: limit, polling: 250 });
  const w = await page.evaluate(() => window.wolabRunAll);
  const order = Object.entries(w.settled).sort((a, b) => a[1] - b[1]).map(([name]) => name);
  // Readouts of a second or more: below that a readout rounds to a tenth of a second.
  const shown = w.readouts.filter((r) => r.left >= 1);
  const jumps = shown.slice(1).map((r, i) => Math.max(r.left / shown[i].left, shown[i].left / r.left));
  const figures = {
    preset: PRESET, estimate: [low, high], seconds: w.idle / 1000, first_verdict: w.settled.remove_wo / 1000,
    order, readouts: w.readouts.length, largest_jump: Math.max(1, ...jumps),
    first_readouts: w.readouts.slice(0, 8).map((r) => r.left),
  };
  test.info().annotations.push({ type: 'run all', description: JSON.stringify(figures) });
  console.log(`run all: ${JSON.stringify(figures)}`);
  // Experiments 3 and 4 compare runs of experiment 1 only (learned; learned and identity), so
  // they settle with it; each later one once its own runs have ended, in page order (experiment 8's
  // controls train after experiment 6's sweep).
  const at = w.settled;
  for (const shared of ['wo_heatmap', 'activation_stats']) expect(at[shared]).toBeLessThan(at.freeze_wo);
  expect(at.remove_wo).toBeLessThan(at.freeze_wo);
  expect(at.freeze_wo).toBeLessThan(at.gain_vs_learning);
  expect(at.gain_vs_learning).toBeLessThan(at.lr_stability);
  expect(at.lr_stability).toBeLessThan(at.wo_purpose);
  expect(order.at(-1)).toBe('wo_purpose');
  expect(w.idle / 1000).toBeGreaterThanOrEqual(low / 1.25);
  expect(w.idle / 1000).toBeLessThanOrEqual(high * 1.25);
  expect(shown.length).toBeGreaterThan(3);
  expect(figures.largest_jump).toBeLessThanOrEqual(2);
  expect(problems).toEqual([]);
});

test('Stop early in Run all leaves claim 7 without a verdict: stopped and unstarted runs decide nothing', TIMED, async ({ page }) => {
  test.setTimeout(120_000);
  // Long enough runs that Stop catches the sweep partway.
  const problems = await openPage(page, query({ ...TINY, steps: 1500, lrs: '0.003,0.01,0.03' }));
  await page.locator('#run-all').click();
  const sweep = page.locator('#exp-lr_stability');
  await expect(sweep.locator('.runs-table tbody tr[data-status="running"]').first()).toBeAttached({ timeout: 90_000 });
  await expect(page.locator('#exp-remove_wo')).toHaveAttribute('data-state', 'settled');
  await page.locator('#stop').click();
  await expect(page.locator('#controls')).toHaveAttribute('data-state', 'idle');
  await untilAttribute(sweep, 'data-state', 'settled', 10_000);
  await expect(sweep.locator('.partial-line')).toHaveText(/^Not every run trained to its end: /);
  await page.waitForTimeout(1_500);  // the claims panel analyses every section once they have settled
  // The column of these settings (custom) holds the live runs; the presets' columns their recordings.
  const cell = page.locator('#claims-body tr[data-claim="7"] td[data-preset="custom"]');
  await expect(cell).toBeAttached();
  await expect(cell).not.toHaveAttribute('data-verdict', /^(supported|not_supported|partly_supported)$/);
  await expect(cell.locator('.verdict')).not.toHaveText(/^(supported|not supported|partly supported)$/);
  expect(problems).toEqual([]);
});
