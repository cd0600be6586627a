// Section 7 on load leads with real words trained to the end natively (recorded/converged/, which
// build-wasm.sh copies to dist/converged/): per size its curves over the whole run, the PER/WER
// table with seeds and spread, the paired verdicts and claim 2's verdict, labelled with the
// CPU-hours of the manifest; the word box answers from those models, with the build's example
// words; and the claims panel has a real-words column per size that reads them.
import fs from 'fs';
import { test, expect } from '@playwright/test';
import { chartData, docScreenshot, openPage, tableCells, untilAttribute, NUMBER } from './helpers.js';

const VARIANTS = ['learned', 'identity', 'frozen_random', 'learned_identity_init'];
const manifest = JSON.parse(fs.readFileSync('recorded/converged/manifest.json', 'utf8'));
const results = (preset) => JSON.parse(fs.readFileSync(`recorded/converged/${preset}/results.real_words.json`, 'utf8'));
const examples = fs.readFileSync('recorded/converged/examples.txt', 'utf8').split('\n').filter(Boolean);

test('section 7 leads with the runs trained to the end, and the word box answers from their models', async ({ page }) => {
  const problems = await openPage(page);
  const section = page.locator('#exp-real_words');
  await untilAttribute(section, 'data-state', 'settled', 20_000);
  // Unfold the section's results if its question folds them.
  const show = section.locator('.predict-show');
  if (await show.count()) await show.click();
  const lead = section.locator('.converged');
  await lead.scrollIntoViewIfNeeded();
  await expect(lead).toBeVisible({ timeout: 20_000 });
  const hours = (manifest.cpu_seconds / 3600).toFixed(1);
  await expect(lead.locator('.converged-title')).toHaveText(`Trained to the end natively, ${hours} CPU-hours, recorded`);
  // It comes before the short runs' charts.
  const order = await section.evaluate((s) => [...s.querySelectorAll('.converged, .words-short-title')].map((e) => e.className));
  expect(order).toEqual(['converged', 'words-short-title']);
  const sizes = lead.locator('.converged-size');
  await expect(sizes).toHaveCount(manifest.presets.length);
  for (const [i, preset] of manifest.presets.entries()) {
    const size = sizes.nth(i);
    const r = results(preset);
    await expect(size).toHaveAttribute('data-preset', preset);
    await expect(size.locator('h4')).toContainText(`d_model ${r.config.real_words.d_model}, ${r.config.real_words.heads} heads`);
    // Curves over the whole run: the last point of the PER chart is the last step.
    const per = await chartData(page, `#exp-real_words .converged-size[data-preset="${preset}"] canvas[data-chart="converged-per"]`);
    expect(new Set(per.map((d) => d.variant))).toEqual(new Set(VARIANTS));
    expect(Math.max(...per.flatMap((d) => d.x))).toBe(r.config.real_words.steps);
    const rows = (await tableCells(size.locator('.converged-table'))).slice(1);
    expect(rows.map((row) => row[0])).toEqual(VARIANTS);
    for (const [k, row] of rows.entries()) {
      const s = r.summary.find((x) => x.variant === VARIANTS[k]);
      expect(row[1]).toBe(String(s.n));
      expect(row[2]).toMatch(NUMBER);
      expect(row[2]).toBe(`${(100 * s.per.mean).toFixed(1)} ± ${(100 * s.per.std).toFixed(1)}%`);
      expect(row[3]).toBe(`${(100 * s.wer.mean).toFixed(1)} ± ${(100 * s.wer.std).toFixed(1)}%`);
    }
    await expect(size.locator('.converged-verdicts p').first()).not.toBeEmpty();
    const verdict = JSON.parse(fs.readFileSync(`recorded/converged/${preset}/analysis.json`, 'utf8')).words_claims.find((c) => c.id === 2).verdict;
    await expect(size.locator('.converged-claim')).toHaveAttribute('data-verdict', verdict);
  }

  // The word box: the converged models by default, the build's example words as chips.
  const box = section.locator('.word-box');
  await box.scrollIntoViewIfNeeded();
  await untilAttribute(box, 'data-models', '4', 20_000);
  await expect(box.locator('.word-chip')).toHaveText(examples);
  await box.locator('.word-chip').first().click();
  await untilAttribute(box, 'data-state', 'answered', 10_000);
  await expect(box.locator('.word-dictionary')).toContainText('held out');
  const answers = (await tableCells(box.locator('.word-table'))).slice(1);
  expect(answers.map((row) => row[1])).toEqual(VARIANTS.map(() => 'trained to the end, recorded, seed 0'));
  // The chips are words on which the variants differ.
  expect(new Set(answers.map((row) => row[2])).size).toBeGreaterThan(1);
  await docScreenshot(page, 'words-converged', box, 'words_converged_try_a_word');

  // The claims panel: a real-words column per size, claim 2 with the recorded verdict.
  for (const preset of manifest.presets) {
    const cell = page.locator(`#claims-body tr[data-claim="2"] td[data-preset="${preset}"] .words-verdict`);
    const verdict = JSON.parse(fs.readFileSync(`recorded/converged/${preset}/analysis.json`, 'utf8')).words_claims.find((c) => c.id === 2).verdict;
    await expect(cell).toHaveAttribute('data-verdict', verdict, { timeout: 20_000 });
  }
  expect(problems).toEqual([]);
});
