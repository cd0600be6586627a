// How runs end, as the page says it: a run that fails is counted and shown as failed (never as
// stopped), and the recording it replaced stays; a build without the lexicon says once that real
// words are unavailable; Stop leaves no started experiment's claim "not tested".
import { test, expect } from '@playwright/test';
import { openPage, untilAttribute } from './helpers.js';

// The browser's own line for a response it was refused (the 404s these tests ask for).
const refused = (p) => /Failed to load resource: the server responded with a status of 404/.test(p);

async function unfold(section) {
  const show = section.locator('.predict-show');
  if (await show.count()) await show.click();
}

test('a run that fails is counted and shown as failed, and the recorded results stay', async ({ page }) => {
  test.setTimeout(90_000);
  // The lexicon is there when the page asks (HEAD), and refused when the runs fetch it.
  await page.route('**/cmudict-g2p.txt', (route) => (route.request().method() === 'HEAD' ? route.continue()
    : route.fulfill({ status: 404, contentType: 'text/plain', body: 'gone' })));
  const problems = await openPage(page);
  const section = page.locator('#exp-real_words');
  await untilAttribute(section, 'data-state', 'settled', 30_000);
  await unfold(section);
  const recordedLine = await section.locator('.config-line').textContent();
  await expect(section.locator('.summary-table tbody tr')).toHaveCount(4);
  await expect(page.locator('#conclusion')).toBeVisible();
  const conclusion = await page.locator('#conclusion-text').textContent();

  await section.locator('button.run').click();
  // Every run failed; the bar says so with the first failure, and never "stopped".
  const label = page.locator('#overall-label');
  await expect(label).toHaveText(/^0 of (\d+) runs finished in [\d.]+ s; \1 failed\. The first failure: .*cmudict-g2p\.txt: 404/, { timeout: 60_000 });
  await expect(label).toHaveClass(/\berror\b/);
  await expect(label).not.toContainText('Stopped');
  // The section says how its runs ended, and shows the recording again.
  await expect(section.locator('.section-notices .notice.error')).toContainText(/^None of the (\d+) runs finished \(\1 failed\), so there is nothing to compare: the section shows the recorded results again\. The first failure: .*404/);
  await untilAttribute(section, 'data-state', 'settled', 30_000);
  await expect(section.locator('.config-line')).toHaveText(recordedLine);
  await expect(section.locator('.summary-table tbody tr')).toHaveCount(4);
  await expect(section.locator('.verdict-box')).not.toContainText('Not enough finished runs');
  await expect(page.locator('#conclusion-text')).toHaveText(conclusion);
  expect(problems.filter((p) => !refused(p))).toEqual([]);
});

test('a build without the lexicon says once that real words are unavailable, and Run is off', async ({ page }) => {
  await page.route('**/cmudict-g2p.txt', (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'gone' }));
  const problems = await openPage(page);
  const section = page.locator('#exp-real_words');
  await expect(section.locator('.missing-line')).toHaveText(/^Real words are not available in this build: the page could not find its lexicon \(cmudict-g2p\.txt: 404/);
  await expect(section.locator('button.run')).toBeDisabled();
  await expect(section.locator('.estimate')).toBeHidden();
  await untilAttribute(section, 'data-state', 'settled', 30_000);
  await unfold(section);
  const box = section.locator('.word-box');
  await box.scrollIntoViewIfNeeded();
  await untilAttribute(box, 'data-available', 'false');
  await expect(box.locator('.word-status')).toHaveText(/^Not available in this build/);
  await expect(box.locator('input')).toBeDisabled();
  await expect(box.locator('.word-error')).toBeEmpty();
  // The other experiments are untouched.
  await expect(page.locator('#exp-remove_wo button.run')).toBeEnabled();
  expect(problems.filter((p) => !refused(p))).toEqual([]);
});

test('Stop early: no claim of an experiment that was started reads "not tested"', async ({ page }) => {
  test.setTimeout(90_000);
  const problems = await openPage(page);
  await untilAttribute(page.locator('#exp-lr_stability'), 'data-state', 'settled', 30_000);
  await page.locator('#run-all').click();
  // Stop once the first runs have trained a few steps: they end stopped partway, the rest unstarted.
  await expect.poll(() => page.locator('#exp-remove_wo .runs-table tbody tr .steps').first().textContent()
    .then((s) => Number(s.split('/')[0])), { timeout: 30_000 }).toBeGreaterThan(0);
  await page.locator('#stop').click();
  await expect(page.locator('#controls')).toHaveAttribute('data-state', 'idle');
  await expect(page.locator('#overall-label')).toHaveText(/^Stopped: /);
  for (const name of ['remove_wo', 'freeze_wo', 'gain_vs_learning', 'lr_stability']) {
    await untilAttribute(page.locator(`#exp-${name}`), 'data-state', 'settled', 30_000);
  }
  // Every claim's Quick cell has settled into a verdict or a reason, none "not tested".
  const cells = page.locator('#claims-body td[data-preset="quick"]');
  await expect.poll(async () => (await cells.evaluateAll((tds) => tds.map((td) => td.dataset.state)))
    .every((s) => s === 'verdict' || s === 'none'), { timeout: 30_000 }).toBe(true);
  for (const id of [1, 2, 3, 4, 7]) {
    const cell = page.locator(`#claims-body tr[data-claim="${id}"] td[data-preset="quick"]`);
    await expect(cell.locator(':scope > .verdict')).not.toHaveText(/not tested/);
    // A verdict read from the recording because the live runs ended unfinished says so.
    if (await cell.getAttribute('data-source') === 'recorded' && await cell.locator('.fallback').count()) {
      await expect(cell.locator('.fallback')).toHaveText(/^Your runs of this experiment ended before any finished/);
    }
  }
  expect(problems).toEqual([]);
});
