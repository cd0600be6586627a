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
  real_words: /^Guess first, or show the recorded result: On real words, .*\(identity\).*\(learned\): which will end with fewer phonemes of the held-out words wrong \(a lower PER\)\?$/,
  wo_purpose: /^Guess first, or show the recorded result: Without W_o, what brings back most of what a learned W_o gives: .*wider FFN\?$/,
};

// The answer sentence's measured part, and the verdict it should carry for `guess`.
const SENTENCE = /^You expected (.+?); (the recorded runs|your live runs) measured (.+)\. (That is what you expected|That is not what you expected|That leaves your guess open)\.$/;

// The verdict of an answer `guess` (a variant, to learn faster) against the measured lead, as
// predict-questions.js reads the comparison: a clear lead bears out its leader; a lead in at least
// 80% of the seeds whose interval is not past the size called clear leaves the guess open; anything
// else bears out "no clear difference".
function verdictOf(measured, guess) {
  const lead = measured.match(/^(\S+) ahead in (\d+) of (\d+) seeds|^(\S+) ahead in the only seed/);
  if (!lead) return 'That is not what you expected';
  const leader = lead[1] || lead[4];
  if (!/called clear/.test(measured)) return leader === guess ? 'That is what you expected' : 'That is not what you expected';
  const consistent = lead[4] || Number(lead[2]) / Number(lead[3]) >= 0.8;
  return consistent ? 'That leaves your guess open' : 'That is not what you expected';
}

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
  if (measured.startsWith('no clear difference')) expect(measured).toContain(speed);
  else expect(measured).toBe(speed);
  expect(verdict).toBe(verdictOf(measured, 'identity'));
  await expect(freeze.locator('.predict')).toHaveAttribute('data-verdict',
    { 'That is what you expected': 'agreed', 'That is not what you expected': 'disagreed', 'That leaves your guess open': 'open' }[verdict]);
  await screenshot(page, 'predict_answered', freeze);
  expect(problems).toEqual([]);
});

test('an answer given on the recording is read again against the live run that replaces it', async ({ page }) => {
  const problems = await openPage(page);
  const section = page.locator('#exp-remove_wo');
  await untilAttribute(section, 'data-state', 'settled');
  await section.getByRole('button', { name: 'learned learns faster' }).click();
  const answer = section.locator('.predict .predict-answer');
  await expect(answer).toHaveText(/^You expected learned to learn faster; the recorded runs measured /);
  // One seed, few steps: quick to train, yet long enough to be seen training (at 60 steps the runs
  // could end before the first look).
  await page.locator('#settings summary').click();
  await page.locator('#s-seeds').fill('1');
  await page.locator('#s-steps').fill('600');
  await page.locator('#s-probe_every').fill('100');
  await section.locator('button.run').click();
  await expect(answer).toHaveText('You expected learned to learn faster; the verdict follows when your live runs have all ended.');
  await untilAttribute(section, 'data-state', 'settled', 30_000);
  await expect(answer).toHaveText(SENTENCE);
  const [, , source, measured, verdict] = (await answer.textContent()).match(SENTENCE);
  expect(source).toBe('your live runs');
  // One seed: the comparison is the verdict box's, worded for the only seed; one seed gives no
  // interval, so a lead leaves the guess open.
  expect(measured).toMatch(/only seed/);
  await expect(section.locator('.verdict-box p').first()).toContainText(measured.replace(/^no clear difference \((.*); clear means .*\)$/, '$1'));
  expect(verdict).toBe(verdictOf(measured, 'learned'));
  await expect(section.locator('.predict')).toHaveAttribute('data-verdict',
    { 'That is what you expected': 'agreed', 'That is not what you expected': 'disagreed', 'That leaves your guess open': 'open' }[verdict]);
  expect(problems).toEqual([]);
});

test('with nothing recorded the question comes before the first run, and the answer after it', async ({ page }) => {
  const problems = await openPage(page, query({ ...TINY, lang: 'zh' }));
  const section = page.locator('#exp-activation_stats');
  await expect(section).toHaveAttribute('data-fold', 'open');
  await expect(section.locator('.predict-question')).toHaveText(/^先猜一猜：训练初期，W_o 的输出/);
  await expect(section.locator('button.predict-show')).toHaveCount(0);
  await page.locator('#lang').selectOption('en');
  await expect(section.locator('.predict-question')).toHaveText(/^Guess first: Early in training, will W_o’s output/);
  await section.getByRole('button', { name: 'smaller', exact: true }).click();
  const answer = section.locator('.predict .predict-answer');
  await expect(answer).toHaveText('You expected W_o’s output to start smaller than its input. Press Run to measure it.');
  await runAndWait(page, 'activation_stats');
  await expect(answer).toHaveText(SENTENCE);
  const [, , , measured, verdict] = (await answer.textContent()).match(SENTENCE);
  // The std ratio at the first probe, its mean and range over the seeds: smaller in every seed
  // agrees, bigger in every seed does not, seeds on both sides of 1 leave it open.
  const ratios = measured.match(/^W_o’s output at (.+) times its input’s standard deviation at the first probe$/)[1]
    .match(/\d+\.\d+/g).map(Number);
  const expected = ratios.every((r) => r < 1) ? 'That is what you expected'
    : ratios.every((r) => r > 1) ? 'That is not what you expected' : 'That leaves your guess open';
  expect(verdict).toBe(expected);
  await screenshot(page, 'predict_live_answer', section);
  expect(problems).toEqual([]);
});

test('every experiment’s answer is read from its own analysis, in both languages', async ({ page }) => {
  const problems = await openPage(page, '?lang=zh');
  const names = Object.keys(QUESTION);
  for (const name of names) {
    const section = page.locator(`#exp-${name}`);
    await untilAttribute(section, 'data-state', 'settled');
    await section.locator('button.predict-option').first().click();
  }
  // Each sentence quotes a measurement (no text key left bare, no "—" for a missing figure).
  const ZH = /^你预计.+；录制的运行测得：(.+)。(与你的预期一致|与你的预期不一致|这还不能判定你的猜测)。$/;
  for (const name of names) {
    const answer = page.locator(`#exp-${name} .predict-answer`);
    await expect(answer).toHaveText(ZH);
    expect(await answer.textContent()).not.toMatch(/\b(p[aem]\w*|predict\w*)_\w|—/);
  }
  await page.locator('#lang').selectOption('en');
  for (const name of names) {
    const answer = page.locator(`#exp-${name} .predict-answer`);
    await expect(answer).toHaveText(SENTENCE);
    expect(await answer.textContent()).not.toMatch(/\b(p[aem]\w*|predict\w*)_\w|—/);
    await expect(page.locator(`#exp-${name} .predict`)).toHaveAttribute('data-verdict', /^(agreed|disagreed|open)$/);
  }
  // Experiment 6 names each variant's highest trainable rate, in the experiment's order.
  await expect(page.locator('#exp-lr_stability .predict-answer'))
    .toHaveText(/measured the highest learning rate each variant trained at: learned (\d|none).*, identity .*, frozen_random .*, learned_identity_init /);
  expect(problems).toEqual([]);
});
