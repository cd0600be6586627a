// Links within the page land where they point, although the sections grow as their results
// and charts draw (content-visibility: auto keeps a placeholder height until a section is laid
// out near the viewport).
import { test, expect } from '@playwright/test';
import { openPage, untilAttribute } from './helpers.js';

// How far the target's top is from where a jump should put it: just below the sticky control
// bar (style.css's scroll-margin-top, 8 px under --bar-height).
const offset = (page, id) => page.evaluate((id) => {
  const bar = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--bar-height')) || 0;
  return document.getElementById(id).getBoundingClientRect().top - (bar + 8);
}, id);

// Waits until every chart in the viewport has drawn (the page draws charts near the viewport only).
const drawnInView = (page) => expect.poll(() => page.evaluate(() => [...document.querySelectorAll('[data-stale]')]
  .filter((el) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top < innerHeight && r.bottom > 0;
  }).length)).toBe(0);

for (const shown of [false, true]) {
  test(`a claims-panel link lands on its experiment after its charts drew (recorded results ${shown ? 'shown' : 'folded'})`, async ({ page }) => {
    const problems = await openPage(page);
    const index = await (await page.request.get('recorded/index.json')).json();
    for (const name of Object.keys(index.presets.quick)) {
      const section = page.locator(`#exp-${name}`);
      await untilAttribute(section, 'data-state', 'settled');
      if (shown) await section.locator('button.predict-show').click();
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const name of ['activation_stats', 'lr_stability', 'remove_wo']) {
      await page.locator(`#claims a[href="#exp-${name}"]`).first().click();
      // The charts in view drew, and the page around the target settled.
      await drawnInView(page);
      await page.waitForTimeout(500);
      expect(Math.abs(await offset(page, `exp-${name}`)), `#exp-${name}'s top against the bar`).toBeLessThanOrEqual(3);
      await page.evaluate(() => window.scrollTo(0, 0));
    }
    expect(problems).toEqual([]);
  });
}

test('a link to an experiment opens the page on it, once its section exists and has drawn', async ({ page }) => {
  const problems = await openPage(page, '#exp-gain_vs_learning');
  const target = page.locator('#exp-gain_vs_learning');
  await untilAttribute(target, 'data-state', 'settled');
  await target.locator('button.predict-show').click();  // below the fold of the answer: still the top
  await drawnInView(page);
  await page.waitForTimeout(500);
  expect(Math.abs(await offset(page, 'exp-gain_vs_learning'))).toBeLessThanOrEqual(3);
  expect(problems).toEqual([]);
});
