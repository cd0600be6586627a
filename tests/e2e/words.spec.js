// Experiment 7, real words: recorded on load (charts of loss, PER and WER, the final table, the
// verdict, and the word box answering from the recorded models), fetched only once the section
// comes near; a live tiny run replacing it; a bad word; the 700 px embed; 中文.
import { test, expect } from '@playwright/test';
import { chartData, docScreenshot, openPage, presets, query, runAndWait, tableCells, TIMED, TINY, untilAttribute, NUMBER } from './helpers.js';

const VARIANTS = ['learned', 'identity', 'frozen_random', 'learned_identity_init'];

// The page opened, section 7 settled on its recording and unfolded: the problems openPage
// collects, the section and its word box.
async function openWordBox(page) {
  const problems = await openPage(page);
  const section = page.locator('#exp-real_words');
  await untilAttribute(section, 'data-state', 'settled', 20_000);
  await unfold(section);
  return { problems, section, box: section.locator('.word-box') };
}

// Unfolds the section's recorded results if its question folds them.
async function unfold(section) {
  const show = section.locator('.predict-show');
  if (await show.count()) await show.click();
}

async function pronounce(section, word) {
  const box = section.locator('.word-box');
  await box.locator('input').fill(word);
  await box.locator('button[type="submit"]').click();
}

test('real words on load: recorded charts, table and verdict, and the word box answering from the recorded models', TIMED, async ({ page }) => {
  const requests = [];
  // The page asks at load whether the lexicon is there (a HEAD request, no body): not a fetch.
  page.on('request', (r) => { if (r.method() !== 'HEAD') requests.push(new URL(r.url()).pathname); });
  const problems = await openPage(page);
  const section = page.locator('#exp-real_words');
  // Neither the lexicon nor a model is part of the first screen (its fusion figure reads a recorded
  // W_o of wo_heatmap, a .safetensors file too, but no model: models/ holds those).
  const isModel = (p) => /\/models\/[^/]+\.safetensors$/.test(p);
  expect(requests.filter((p) => isModel(p) || p.endsWith('cmudict-g2p.txt'))).toEqual([]);
  await untilAttribute(section, 'data-state', 'settled', 20_000);
  await unfold(section);
  // The config line describes the experiment's own model and task, not the toy ones.
  const { quick } = await presets(page);
  await expect(section.locator('.config-line')).toContainText(`g2p (words → sounds), d_model ${quick.real_words.d_model},`);
  await expect(section.locator('.config-line')).toContainText(`${quick.real_words.steps} steps`);
  for (const name of ['loss', 'per', 'wer']) {
    const data = await chartData(page, `#exp-real_words canvas[data-chart="${name}"]`);
    expect(new Set(data.map((d) => d.variant))).toEqual(new Set(VARIANTS));
    expect(data.every((d) => d.y.length > 0 && d.y.every(Number.isFinite))).toBe(true);
  }
  const rows = (await tableCells(section.locator('.summary-table'))).slice(1);
  expect(rows.map((r) => r[0])).toEqual(VARIANTS);
  for (const r of rows) {
    expect(r[2]).toMatch(NUMBER);  // PER
    expect(r[3]).toMatch(NUMBER);  // WER
  }
  await expect(section.locator('.verdict-box p').first()).not.toBeEmpty();
  await expect(section.locator('.words-reference')).toContainText('Yolchuyeva');

  const box = section.locator('.word-box');
  await box.scrollIntoViewIfNeeded();
  await untilAttribute(box, 'data-models', '4', 20_000);
  await pronounce(section, 'Knight');
  await untilAttribute(box, 'data-state', 'answered', 10_000);
  await expect(box.locator('.word-dictionary')).toContainText('N AY T');
  await expect(box.locator('.word-dictionary')).toContainText('held out');
  const answers = (await tableCells(box.locator('.word-table'))).slice(1);
  expect(answers.map((r) => r[0])).toEqual(VARIANTS);
  for (const r of answers) expect(r[2]).toMatch(/^[A-Z]+( [A-Z]+)*/);  // ARPAbet
  // The worker's time for the word with all four Quick models (a first word: its code still cold).
  const ms = Number(await box.getAttribute('data-ms'));
  console.log(`knight, 4 Quick models: ${ms} ms`);
  expect(ms).toBeLessThan(4 * 100);
  // The section fetched its models: one per variant.
  expect(requests.filter(isModel)).toHaveLength(4);
  await docScreenshot(page, 'words-recorded', section, 'words_recorded');
  expect(problems).toEqual([]);
});

test('a word the models cannot read gets the core\'s one line, never an answer', async ({ page }) => {
  const { problems, section, box } = await openWordBox(page);
  // The box says its limit, the core's, before a word is typed.
  await expect(box.locator('label[for^="word-"]').first()).toHaveText('A word (2 to 12 letters a–z)');
  for (const [word, says] of [['b4', '"4" is not a letter'], ['', ''], ['naïve', 'not a letter'], ['abcdefghijklmnop', '16 letters, over the 12']]) {
    await pronounce(section, word);
    await untilAttribute(box, 'data-state', 'refused', 10_000);
    await expect(box.locator('.word-error')).not.toBeEmpty();
    if (says) await expect(box.locator('.word-error')).toContainText(says);
    await expect(box.locator('.word-table')).toBeHidden();
    await box.evaluate((el) => { el.dataset.state = ''; });
  }
  // Spaces around a word are no part of it: the word is answered, and the box shows it trimmed.
  await pronounce(section, '  knight ');
  await expect(box).not.toHaveAttribute('data-state', 'refused');
  await expect(box.locator('input')).toHaveValue('knight');
  await expect(box.locator('.word-error')).toBeEmpty();
  await expect(box.locator('.word-dictionary')).toContainText('N AY T', { timeout: 20_000 });
  await expect(box.locator('.word-caution')).toBeHidden();
  // One letter: read, but shorter than every word the models trained on, so the answer is a guess.
  await pronounce(section, 'x');
  await expect(box.locator('.word-caution')).toHaveText('“x” is shorter than every word the models trained on (2 to 12 letters): their answer is a guess, not something they learned.', { timeout: 20_000 });
  await expect(box.locator('.word-table')).toBeVisible();
  expect(problems).toEqual([]);
});

test('a word asked while the recorded models load is answered once they are in, with a hint meanwhile', async ({ page }) => {
  test.setTimeout(90_000);
  // Each recorded model arrives a second late.
  await page.route('**/recorded/quick/models/*.safetensors', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.continue();
  });
  const { problems, section, box } = await openWordBox(page);
  await box.scrollIntoViewIfNeeded();
  await pronounce(section, 'knight');
  await untilAttribute(box, 'data-state', 'waiting', 20_000);
  await expect(box.locator('.word-status')).toHaveText('The models are still loading: the answer follows when they are in.');
  await expect(box.locator('.word-dictionary')).toContainText('N AY T');
  await untilAttribute(box, 'data-state', 'answered', 30_000);
  await expect(box).toHaveAttribute('data-models', '4');
  const answers = (await tableCells(box.locator('.word-table'))).slice(1);
  expect(answers.map((r) => r[0])).toEqual(VARIANTS);
  await expect(box.locator('.word-status')).toHaveText(/^Models here: /);
  expect(problems).toEqual([]);
});

test('an invalid word after an answered one leaves no grid of the previous word', async ({ page }) => {
  const { problems, section, box } = await openWordBox(page);
  await box.scrollIntoViewIfNeeded();
  await untilAttribute(box, 'data-models', '4', 20_000);
  await pronounce(section, 'knight');
  await untilAttribute(box, 'data-state', 'answered', 10_000);
  await expect(box.locator('.word-attention')).toBeVisible();
  expect(await box.locator('.word-head').count()).toBeGreaterThan(0);
  // Edits are counted in words: "1 edit", "2 edits", never "edit(s)".
  for (const text of await box.locator('.word-table tbody td:last-child').allTextContents()) {
    expect(text).toMatch(/^(same|1 edit|([2-9]|\d\d+) edits|—)$/);
  }
  await pronounce(section, 'w0rd');
  await untilAttribute(box, 'data-state', 'refused', 10_000);
  await expect(box.locator('.word-error')).toContainText('"0" is not a letter');
  await expect(box.locator('.word-attention')).toBeHidden();
  await expect(box.locator('.word-head')).toHaveCount(0);
  await expect(box.locator('.word-table')).toBeHidden();
  expect(problems).toEqual([]);
});

test('a live tiny run replaces the recording, and the word box then answers with its models', TIMED, async ({ page }) => {
  // Each run ends with a pass over all the held-out words (docs/results.md): one seed keeps it short.
  test.setTimeout(240_000);
  const problems = await openPage(page, query({ ...TINY, seeds: 1 }));
  const t0 = Date.now();
  const section = await runAndWait(page, 'real_words', 200_000);
  console.log(`real_words, 4 tiny runs: ${Date.now() - t0} ms`);
  await expect(section.locator('.config-line')).toContainText('Trained here with');
  const rows = (await tableCells(section.locator('.summary-table'))).slice(1);
  expect(rows.map((r) => r[0])).toEqual(VARIANTS);
  const box = section.locator('.word-box');
  await untilAttribute(box, 'data-models', '4', 10_000);
  const asked = Date.now();
  await pronounce(section, 'cat');
  await untilAttribute(box, 'data-state', 'answered', 10_000);
  const wall = Date.now() - asked;
  const answers = (await tableCells(box.locator('.word-table'))).slice(1);
  expect(answers.every((r) => r[1].startsWith('trained here'))).toBe(true);
  await expect(box.locator('.word-dictionary')).toContainText('K AE T');
  // Decoding in the worker, every variant's model: under 100 ms a word at the Quick size (this
  // model is smaller still).
  expect(Number(await box.getAttribute('data-ms'))).toBeLessThan(100 * answers.length);
  expect(wall).toBeLessThan(5_000);
  await docScreenshot(page, 'words-live', section, 'words_live');
  expect(problems).toEqual([]);
});

test('the 700 px embed of real words, in Chinese', async ({ page }) => {
  await page.setViewportSize({ width: 700, height: 900 });
  const problems = await openPage(page, query({}, { embed: 'real_words', lang: 'zh' }));
  const section = page.locator('#exp-real_words');
  await expect(section).toBeVisible();
  await expect(page.locator('#exp-remove_wo')).toBeHidden();
  await expect(section.locator('h2')).toContainText('真实单词');
  await untilAttribute(section, 'data-state', 'settled', 20_000);
  await unfold(section);
  await expect(section.locator('.words-primer')).toContainText('音素');
  const box = section.locator('.word-box');
  await box.scrollIntoViewIfNeeded();
  await untilAttribute(box, 'data-models', '4', 20_000);
  await pronounce(section, 'knight');
  await untilAttribute(box, 'data-state', 'answered', 10_000);
  await expect(box.locator('.word-dictionary')).toContainText('验证单词');
  // Nothing wider than the frame.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(700);
  await docScreenshot(page, 'words-embed-zh', section, 'words_embed_zh');
  expect(problems).toEqual([]);
});
