// Results files written by the native CLI are drawn like a live run; anything else is refused
// with a message and leaves the page as it was.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { chartData, importAndWait, openPage, screenshot, tableCells, TINY } from './helpers.js';

const CLI = path.resolve(process.env.WOLAB_CLI || 'build/wolab');
const FIXTURES = path.resolve('tests/e2e/fixtures');

const EXPERIMENTS = ['remove_wo', 'freeze_wo', 'wo_heatmap', 'activation_stats'];
let written = null;

// Fresh results files from `wolab run --experiment all` (one per experiment) when the native
// build is present, made once per test process; else the committed ones that the same
// command wrote (tests/e2e/fixtures/README.md). Returns the file of `experiment`.
function cliResults(experiment) {
  if (!written) {
    let dir = FIXTURES;
    if (fs.existsSync(CLI)) {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wolab-e2e-'));
      execFileSync(CLI, ['run', '--experiment', 'all', '--d-model', '8', '--heads', '2', '--layers', '2',
        '--d-ff', '16', '--length', '4', '--alphabet', '5', '--batch', '8', '--lr', '0.01', '--steps', '40',
        '--seeds', '2', '--probe-every', '10', '--words-d-model', '8', '--words-heads', '2', '--words-layers', '1',
        '--words-d-ff', '16', '--words-steps', '5', '--words-heldout', '16', '--out', path.join(dir, 'cli.json')],
        { stdio: 'pipe' });
    }
    written = Object.fromEntries(EXPERIMENTS.map((e) => [e, path.join(dir, `cli.${e}.json`)]));
  }
  return written[experiment];
}

test('the four files of `wolab run --experiment all` import at once, each into its experiment', async ({ page }) => {
  const problems = await openPage(page);
  await importAndWait(page, EXPERIMENTS.map(cliResults));
  for (const e of EXPERIMENTS) {
    await expect(page.locator(`#exp-${e} .config-line`)).toContainText(`Imported from cli.${e}.json (wolab `);
  }
  await expect(page.locator('#exp-freeze_wo .runs-table tbody tr')).toHaveCount(8);
  await expect(page.locator('#exp-activation_stats table.early-late-table tbody tr')).toHaveCount(12);
  expect(problems).toEqual([]);
});

test('a CLI results file renders like a live run: curves, table and sentence from its numbers', async ({ page }) => {
  const problems = await openPage(page);
  const file = cliResults('remove_wo');
  const results = JSON.parse(fs.readFileSync(file, 'utf8'));
  const [section] = await importAndWait(page, file);
  await expect(section.locator('.config-line')).toContainText(`Imported from ${path.basename(file)} (wolab `);

  // The mean line is the mean over the file's seeds, step by step.
  const loss = await chartData(page, '#exp-remove_wo canvas[data-chart="loss"]');
  for (const variant of ['learned', 'identity']) {
    const runs = results.runs.filter((r) => r.variant === variant);
    const mean = loss.find((d) => d.group === variant && d.role === 'mean');
    expect(mean.x).toEqual(runs[0].curve.step);
    mean.y.forEach((y, i) => {
      const expected = runs.reduce((a, r) => a + r.curve.loss[i], 0) / runs.length;
      expect(y).toBeCloseTo(expected, 6);
    });
  }
  const cells = await tableCells(section.locator('table.summary-table'));
  expect(cells.slice(1).map((r) => r[0])).toEqual(results.summary.map((s) => s.variant));
  cells.slice(1).forEach((row, i) => {
    const s = results.summary[i];
    expect(row[2]).toBe(`${(100 * s.token_acc.mean).toFixed(1)} ± ${(100 * s.token_acc.std).toFixed(1)}%`);
    expect(row[7]).toBe(String(s.parameters));
  });
  await expect(section.locator('.sentence')).toHaveText(/^learned against identity: /);
  await expect(section.locator('.runs-table caption')).toHaveText('Runs (imported)');
  // No steps/s measured here and no weights to download: those columns are for live runs.
  await expect(section.locator('.runs-table thead th')).toHaveText(['Variant', 'Seed', 'Progress', 'Status']);
  await expect(section.locator('.runs-table tbody tr')).toHaveCount(results.runs.length);
  expect(problems).toEqual([]);
});

test('a CLI heatmap file shows its W_o snapshots', async ({ page }) => {
  const problems = await openPage(page);
  const file = cliResults('wo_heatmap');
  const results = JSON.parse(fs.readFileSync(file, 'utf8'));
  const [section] = await importAndWait(page, file);
  await expect(section.locator('.heatmap canvas[data-layer="0"]')).toHaveAttribute('data-rows', String(TINY.d_model));
  const steps = [...new Set(results.runs[0].wo.map((w) => w.step))];
  await expect(section.locator('input.snapshot-slider')).toHaveAttribute('max', String(steps.length - 1));
  // One colour scale for every snapshot of the run: the largest |value| in any, as in the file.
  const scale = Math.max(...results.runs[0].wo.flatMap((w) => w.data.map(Math.abs)));
  const shown = Number(await section.locator('.heatmap canvas[data-layer="0"]').getAttribute('data-scale'));
  expect(shown).toBeCloseTo(scale, 5);
  // The OV-circuit singular values of the file's last snapshot, head by head.
  const last = Math.max(...steps);
  const ov = await chartData(page, '#exp-wo_heatmap canvas[data-chart="ov-0"]');
  const heads = results.runs[0].ov.filter((o) => o.layer === 0 && o.step === last);
  expect(heads).toHaveLength(results.config.model.heads);
  for (const o of heads) expect(ov.find((d) => d.group === `h${o.head}`).y).toEqual(o.values);
  await screenshot(page, 'import_wo_heatmap', section);
  expect(problems).toEqual([]);
});

// No setting the validator allows makes this model diverge, so a diverged run is made from a
// real one the way the trainer records it: curves stop before the bad step, final metrics come
// from the last finite eval, greedy_exact and steps_to_loss_0_1 are null.
test('a diverged run shows "diverged at step N" in its row; the others are summarised without it', async ({ page }) => {
  const problems = await openPage(page);
  const results = JSON.parse(fs.readFileSync(cliResults('remove_wo'), 'utf8'));
  const run = results.runs.find((r) => r.variant === 'identity');
  const k = 25;
  run.curve.step = run.curve.step.slice(0, k);
  run.curve.loss = run.curve.loss.slice(0, k);
  const evals = run.eval.step.filter((s) => s <= k).length;
  for (const f of ['step', 'loss', 'token_acc', 'exact']) run.eval[f] = run.eval[f].slice(0, evals);
  run.stats = run.stats.filter((s) => s.step <= k);
  run.status = { state: 'diverged', step: k + 1 };
  run.final = {
    loss: run.eval.loss[evals - 1], token_acc: run.eval.token_acc[evals - 1], exact: run.eval.exact[evals - 1],
    greedy_exact: null, steps_to_loss_0_1: null,
  };
  const text = JSON.stringify(results);
  const [section] = await importAndWait(page, { name: 'diverged.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(section.locator('.runs-table tbody tr[data-status="diverged"] td').nth(3)).toHaveText(`diverged at step ${k + 1}`);
  await expect(section.locator('.runs-table tbody tr[data-status="done"]')).toHaveCount(3);
  const cells = await tableCells(section.locator('table.summary-table'));
  expect(cells[2][0]).toBe('identity');
  expect(cells[2][8]).toBe('1');  // diverged
  expect(cells[2][2]).toMatch(/^\d+\.\d%$/);  // one done run: its value, no spread
  await expect(section.locator('.sentence')).toContainText('identity diverged in 1 of');
  const loss = await chartData(page, '#exp-remove_wo canvas[data-chart="loss"]');
  const identity = loss.find((d) => d.group === 'identity' && d.role === 'mean');
  expect(identity.x).toHaveLength(TINY.steps);  // the other seed goes on to the end
  expect(problems).toEqual([]);
});

test('malformed or foreign JSON is refused with a message and changes nothing', async ({ page }) => {
  const problems = await openPage(page);
  const good = cliResults('remove_wo');
  const [section] = await importAndWait(page, good);
  const before = await chartData(page, '#exp-remove_wo canvas[data-chart="loss"]');
  const line = await section.locator('.config-line').textContent();

  const text = fs.readFileSync(good, 'utf8');
  const broken = JSON.parse(text);
  broken.runs[0].curve.loss.pop();  // curve.step and curve.loss no longer the same length
  // A PNG's first bytes (its signature and IHDR chunk): what "choose a file" picks by mistake.
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000100000001008060000001ff3ff61', 'hex');
  // Each file, the sentence that says what it is, and the core's message folded under it.
  const cases = [
    ['freeze_loss.png', png, 'freeze_loss.png is not a W_o Lab results file (it is not JSON).', 'results: not valid JSON ('],
    ['truncated.json', text.slice(0, text.length / 2), 'truncated.json is cut short: it ends before its JSON does, as a download or copy that stopped partway would. Save or copy the whole file again.', 'results: truncated: the file ends before its JSON does ('],
    ['config.json', JSON.stringify({ seeds: 3, model: { d_model: 16 } }),
      'config.json is not a W_o Lab results file (it is JSON, but not results written by wolab or this page).',
      'results: not a W_o Lab results file'],
    ['foreign.json', JSON.stringify({ format: 'something-else', version: 1, data: [1, 2, 3] }),
      'foreign.json is not a W_o Lab results file (it is JSON, but not results written by wolab or this page).',
      'results: not a W_o Lab results file'],
    ['future.json', JSON.stringify({ ...JSON.parse(text), version: 99 }),
      'future.json is a W_o Lab results file of a version this page cannot read.',
      'results: version: 99 is not supported; this build reads versions 1 and 2'],
    ['inconsistent.json', JSON.stringify(broken),
      'inconsistent.json is a W_o Lab results file, but part of it is wrong or missing, so it was not imported.',
      'results: runs[0].curve'],
  ];
  for (const [name, body, sentence, details] of cases) {
    await page.locator('#import-file').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(body) });
    const refusal = page.locator('#notices .notice.error').last();
    await expect(refusal.locator('.notice-text > p')).toHaveText(sentence);
    // The parser's words stay out of the sentence, folded under "Details" for whoever wants them.
    const fold = refusal.locator('details.notice-details');
    await expect(fold).not.toHaveAttribute('open', '');
    await expect(fold.locator('summary')).toHaveText('Details');
    await expect(fold.locator('p')).toContainText(details);
  }
  expect(await chartData(page, '#exp-remove_wo canvas[data-chart="loss"]')).toEqual(before);
  await expect(section.locator('.config-line')).toHaveText(line);
  expect(problems).toEqual([]);
});

test('in Chinese, a refused file is named in Chinese, the details folded', async ({ page }) => {
  const problems = await openPage(page, '?lang=zh');
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  await page.locator('#import-file').setInputFiles({ name: 'freeze_loss.png', mimeType: 'image/png', buffer: png });
  const refusal = page.locator('#notices .notice.error').last();
  await expect(refusal.locator('.notice-text > p')).toHaveText('freeze_loss.png 不是 W_o Lab 结果文件（它不是 JSON）。');
  await expect(refusal.locator('details.notice-details summary')).toHaveText('详细信息');
  expect(problems).toEqual([]);
});
