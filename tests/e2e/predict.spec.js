// Predict, then run: each experiment's recorded results stay folded behind its question until it
// is answered or they are shown; the answer says, in a sentence, whether the results shown agreed;
// a live run after an answer says whether the live measurement did.
import { test, expect } from '@playwright/test';
import { openPage, query, runAndWait, screenshot, TINY, untilAttribute } from './helpers.js';

const QUESTION = {
  remove_wo: /^Guess first, or show the recorded result: Which will learn faster: .* learned W_o, .* \(identity\)\?$/,
  freeze_wo: /frozen_random.*identity.*which will learn faster\?$/,
  wo_heatmap: /will the learned W_o look diagonal/,
  activation_stats: /smaller or bigger than its input/,
  gain_vs_learning: /Scaled up to the identity’s size .* as fast as no W_o \(identity\)\?$/,
  lr_stability: /As the learning rate grows, which variant will stop training first\?$/,
};

// The answer sentence's measured part, and the verdict it should carry for `guess`.
const SENTENCE = /^You expected (.+?); (the recorded runs|your live runs) measured (.+)\. (That is what you expected|That is not what you expected|That leaves your guess open)\.$/;

test('on load every recorded result is folded behind its own question; showing or answering unfolds it', async ({ page }) => {
  const problems = await openPage(page);
  const index = await (await page.request.get('recorded/index.json')).json();
  const names = Object.keys(index.presets.quick);
  expect(names.sort()).toEqual(Object.keys(QUESTION).sort());
  for (const name of names) {
    const section = page.locator(`#exp-${name}`);
    await untilAttribute(section, 'data-state', 'settled');
    await expect(section).toHaveAttribute('data-fold', 'folded');
    // The verdict, the charts and the tables are there, and hidden.
    await expect(section.locator('.verdict-box p').first()).not.toHaveText(/No runs yet|Not enough/);
    await expect(section.locator('.verdict-box')).toBeHidden();
    await expect(section.locator('canvas').first()).toBeHidden();
    await expect(section.locator('.predict .predict-question')).toHaveText(QUESTION[name]);
    await expect(section.locator('.predict button.predict-show')).toHaveText('Show the recorded result');
    expect(await section.locator('.predict button.predict-option').count()).toBeGreaterThanOrEqual(2);
  }
  await screenshot(page, 'predict_folded', page.locator('#exp-freeze_wo'));

  // "Show the recorded result": unfolded, and the question goes.
  const remove = page.locator('#exp-remove_wo');
  await remove.locator('button.predict-show').click();
  await expect(remove).toHaveAttribute('data-fold', 'open');
  await expect(remove.locator('.verdict-box')).toBeVisible();
  await expect(remove.locator('table.summary-table')).toBeVisible();
  await expect(remove.locator('.predict')).toBeHidden();

  // An answer: unfolded, and one sentence says what was expected, what the recording measured
  // (the comparison the verdict box gives) and whether they agree.
  const freeze = page.locator('#exp-freeze_wo');
  await freeze.getByRole('button', { name: 'identity learns faster' }).click();
  await expect(freeze).toHaveAttribute('data-fold', 'open');
  await expect(freeze.locator('.verdict-box')).toBeVisible();
  const answer = freeze.locator('.predict .predict-answer');
  await expect(answer).toHaveText(SENTENCE);
  const [, expected, source, measured, verdict] = (await answer.textContent()).match(SENTENCE);
  expect([expected, source]).toEqual(['identity to learn faster', 'the recorded runs']);
  const line = (await freeze.locator('.verdict-box p').allTextContents()).find((s) => s.startsWith('frozen_random against identity: '));
  // The verdict box's speed figure is the answer's, or the answer says there was no clear lead.
  const speed = line.replace(/^frozen_random against identity: [^:]+: /, '').split(/; (?=token accuracy|exact match|both at)/)[0];
  if (measured.startsWith('no clear difference')) {
    expect(measured).toContain(speed);
    expect(verdict).toBe('That is not what you expected');
  } else {
    expect(measured).toBe(speed);
    expect(verdict).toBe(measured.startsWith('identity ahead') ? 'That is what you expected' : 'That is not what you expected');
  }
  await expect(freeze.locator('.predict')).toHaveAttribute('data-verdict', verdict === 'That is what you expected' ? 'agreed' : 'disagreed');
  await screenshot(page, 'predict_answered', freeze);
  expect(problems).toEqual([]);
});
