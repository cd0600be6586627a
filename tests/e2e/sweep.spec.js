// Experiments 5 (gain_vs_learning) and 6 (lr_stability): live with a tiny model, imported from
// the native CLI's files, embedded; and the page's scripts hold no list of experiment names.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { chartData, importAndWait, openPage, query, screenshot, tableCells, TINY, untilAttribute } from './helpers.js';

const CLI = path.resolve(process.env.WOLAB_CLI || 'build/wolab');
const FIXTURES = path.resolve('tests/e2e/fixtures');
const LRS = [0.003, 0.03];  // two rates: 4 variants × 2 rates × 2 seeds = 16 runs of 40 steps
const TINY_FLAGS = ['--d-model', '8', '--heads', '2', '--layers', '2', '--d-ff', '16', '--length', '4', '--alphabet', '5',
  '--batch', '8', '--lr', '0.01', '--steps', '40', '--seeds', '2', '--probe-every', '10'];

// A fresh file of `wolab run --experiment <experiment>` when the native build is present, else
// the committed one the same command wrote (tests/e2e/fixtures/README.md).
function cliResults(experiment) {
  if (!fs.existsSync(CLI)) return path.join(FIXTURES, `cli.${experiment}.json`);
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wolab-e2e-')), `cli.${experiment}.json`);
  execFileSync(CLI, ['run', '--experiment', experiment, ...TINY_FLAGS, '--lrs', LRS.join(','), '--out', out], { stdio: 'pipe' });
  return out;
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

// The W_o singular-value chart: per variant, index by index, the mean over seeds and layers of
// the runs' wo_sv.
function expectSvChart(sv, runs, variants) {
  expect(sv.filter((d) => d.role === 'mean').map((d) => d.group)).toEqual(variants);
  for (const v of variants) {
    const lists = runs.filter((r) => r.variant === v).flatMap((r) => r.wo_sv);
    const line = sv.find((d) => d.group === v && d.role === 'mean');
    expect(line.x).toEqual(lists[0].map((_, i) => i + 1));
    line.y.forEach((y, i) => expect(y).toBeCloseTo(mean(lists.map((l) => l[i])), 5));
  }
}

test('experiment 5 runs live: five variants, their curves, table and the singular values of each W_o', async ({ page }) => {
  const problems = await openPage(page, query(TINY));
  const section = page.locator('#exp-gain_vs_learning');
  await section.locator('button.run').click();
  await untilAttribute(section, 'data-state', 'settled', 60_000);
  await expect(section.locator('.runs-table tbody tr[data-status="done"]')).toHaveCount(10);
  const variants = ['learned', 'identity', 'frozen_random', 'frozen_random_scaled', 'frozen_orthogonal'];
  const cells = await tableCells(section.locator('table.summary-table'));
  expect(cells.slice(1).map((r) => r[0])).toEqual(variants);

  const [json] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Results JSON' }).click()]);
  const results = JSON.parse(fs.readFileSync(await json.path(), 'utf8'));
  expect(results.experiment).toBe('gain_vs_learning');
  const sv = await chartData(page, '#exp-gain_vs_learning canvas[data-chart="wo-sv"]');
  expectSvChart(sv, results.runs, variants);
  const line = (v) => sv.find((d) => d.group === v && d.role === 'mean').y;
  // What the chart is there to show: the identity and an orthogonal matrix have every singular
  // value 1, and the scaled matrix is frozen_random's times √3.
  for (const y of [...line('identity'), ...line('frozen_orthogonal')]) expect(y).toBeCloseTo(1, 4);
  line('frozen_random_scaled').forEach((y, i) => expect(y).toBeCloseTo(Math.sqrt(3) * line('frozen_random')[i], 4));
  await screenshot(page, 'gain_vs_learning_live', section);
  expect(problems).toEqual([]);
});

test('experiment 6 runs live over the learning rates of the link: share trained by rate, curves of one rate, the table', async ({ page }) => {
  const problems = await openPage(page, query({ ...TINY, lrs: LRS.join(',') }));
  await expect(page.locator('#s-lrs')).toHaveValue(LRS.join(','));
  const section = page.locator('#exp-lr_stability');
  await section.locator('button.run').click();
  await untilAttribute(section, 'data-state', 'settled', 60_000);
  await expect(section.locator('.runs-table tbody tr')).toHaveCount(16);
  // More than 12 runs: the table is folded under its title and count, and opens on a click.
  const fold = section.locator('details.runs-fold');
  await expect(fold).toHaveJSProperty('open', false);
  await fold.locator('summary').click();
  await expect(fold).toHaveJSProperty('open', true);
  await expect(section.locator('.runs-table tbody tr[data-status="queued"], .runs-table tbody tr[data-status="running"]')).toHaveCount(0);
  // The runs of a sweep say their learning rate: the plan's order, each variant and seed at each rate.
  await expect(section.locator('.runs-table thead th').nth(2)).toHaveText('Learning rate');
  const rates = await section.locator('.runs-table tbody tr td:nth-child(3)').allTextContents();
  expect(rates.slice(0, 2)).toEqual(LRS.map(String));

  const [json] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Results JSON' }).click()]);
  const results = JSON.parse(fs.readFileSync(await json.path(), 'utf8'));
  expect([...new Set(results.runs.map((r) => r.lr))]).toEqual(LRS);
  expect(results.runs.every((r) => r.clip === 0)).toBe(true);  // unclipped unless the setting says so
  await expectSweepShown(page, section, results);
  await screenshot(page, 'lr_stability_live', section);
  expect(problems).toEqual([]);
});

// Whether a run's training loss, as a trailing mean over `window` steps, went under 0.1 (docs/
// claims.md: the threshold's window is 10 steps, or 5% of a shorter run, at least 1).
function reachedThreshold(curve, steps) {
  const window = Math.min(10, Math.max(1, Math.round(0.05 * steps)));
  return curve.step.some((s, i) => {
    if (s < window) return false;
    const inWindow = curve.loss.filter((_, j) => curve.step[j] > s - window && curve.step[j] <= s);
    return inWindow.reduce((a, b) => a + b, 0) / inWindow.length < 0.1;
  });
}

// The sweep's chart, select and table against a results document: one row and one point per
// (variant, rate), the share of its seeds whose run is done and whose smoothed loss reached 0.1.
async function expectSweepShown(page, section, results) {
  const variants = ['learned', 'identity', 'frozen_random', 'learned_identity_init'];
  const rows = variants.flatMap((v) => LRS.map((lr) => {
    const runs = results.runs.filter((r) => r.variant === v && r.lr === lr);
    const reached = runs.filter((r) => r.status.state === 'done' && reachedThreshold(r.curve, results.config.train.steps)).length;
    return { v, lr, reached, n: runs.length, diverged: runs.filter((r) => r.status.state === 'diverged').length };
  }));
  const trained = await chartData(page, '#exp-lr_stability canvas[data-chart="trained"]');
  expect(trained.filter((d) => d.role === 'mean').map((d) => d.group)).toEqual(variants);
  for (const v of variants) {
    const line = trained.find((d) => d.group === v && d.role === 'mean');
    expect(line.x).toEqual(LRS);
    expect(line.y).toEqual(rows.filter((r) => r.v === v).map((r) => (100 * r.reached) / r.n));
  }
  expect(await page.evaluate(() => Chart.getChart(document.querySelector('#exp-lr_stability canvas[data-chart="trained"]')).options.scales.x.type)).toBe('logarithmic');

  const cells = await tableCells(section.locator('table.lr-table'));
  expect(cells.slice(1).map((c) => [c[0], Number(c[1]), c[2], c[5]])).toEqual(rows.map((r) => [r.v, r.lr, `${r.reached} of ${r.n}`, String(r.diverged)]));

  // The loss curves of the chosen rate: the mean over that rate's seeds.
  const select = section.locator('select.lr-select');
  await expect(select.locator('option')).toHaveText(LRS.map(String));
  await select.selectOption(String(LRS[0]));
  const loss = await chartData(page, '#exp-lr_stability canvas[data-chart="loss"]');
  for (const v of variants) {
    const runs = results.runs.filter((r) => r.variant === v && r.lr === LRS[0]);
    const line = loss.find((d) => d.group === v && d.role === 'mean');
    expect(line.y[0]).toBeCloseTo(mean(runs.map((r) => r.curve.loss[0])), 5);
  }
}

test('CLI files of experiments 5 and 6 import like live runs', async ({ page }) => {
  const problems = await openPage(page, query({ lrs: LRS.join(',') }));
  const gainFile = cliResults('gain_vs_learning');
  const lrFile = cliResults('lr_stability');
  const [gain, lr] = await importAndWait(page, [gainFile, lrFile]);
  await expect(gain.locator('.config-line')).toContainText(`Imported from ${path.basename(gainFile)} (wolab `);
  const gainResults = JSON.parse(fs.readFileSync(gainFile, 'utf8'));
  expectSvChart(await chartData(page, '#exp-gain_vs_learning canvas[data-chart="wo-sv"]'), gainResults.runs,
    ['learned', 'identity', 'frozen_random', 'frozen_random_scaled', 'frozen_orthogonal']);
  await expect(gain.locator('.runs-table tbody tr')).toHaveCount(gainResults.runs.length);
  // The why: frozen_random's singular values at step 0, as the file has them, against identity's.
  const sv = gainResults.runs.filter((r) => r.variant === 'frozen_random').flatMap((r) => r.wo_sv.flat());
  const rms = Math.sqrt(mean(sv.map((x) => x * x)));
  await expect(gain.locator('.verdict-box')).toContainText(`Why: the singular values of W_o at step 0 (identity’s: 1.00): frozen_random ${
    mean(sv).toFixed(2)} (${Math.min(...sv).toFixed(2)} to ${Math.max(...sv).toFixed(2)}), root mean square ${rms.toFixed(2)}: it `);

  await expect(lr.locator('.config-line')).toContainText(`Imported from ${path.basename(lrFile)} (wolab `);
  const lrResults = JSON.parse(fs.readFileSync(lrFile, 'utf8'));
  await expectSweepShown(page, lr, lrResults);
  // The why: per rate, the runs that ended within 10% of chance, ln(alphabet), and those that diverged.
  const chance = Math.log(lrResults.config.task.alphabet);
  const stalls = LRS.map((rate) => {
    const runs = lrResults.runs.filter((r) => r.lr === rate && r.status.state !== 'stopped');
    const near = runs.filter((r) => r.status.state === 'done' && Math.abs(r.final.loss - chance) <= 0.1 * chance).length;
    const n = runs.length;
    const which = n === 1 ? 'the only run that trained to its end'
      : near === n ? `all ${n} runs that trained to their end` : `${near} of the ${n} runs that trained to their end`;
    return near ? `At lr ${rate}, ${which} stalled near chance` : null;
  }).filter(Boolean);
  const lines = await lr.locator('.verdict-box p').allTextContents();
  expect(lines.filter((l) => l.includes('stalled near chance')).map((l) => l.replace(/: final loss .*/, ''))).toEqual(stalls);
  expect(problems).toEqual([]);
});

test('?embed=lr_stability shows experiment 6 alone and runs it', async ({ page }) => {
  const problems = await openPage(page, query({ ...TINY, lrs: '0.01', seeds: 1 }, { embed: 'lr_stability' }));
  await expect(page.locator('section.experiment:visible')).toHaveCount(1);
  const section = page.locator('#exp-lr_stability');
  await expect(section).toBeVisible();
  await section.locator('button.run').click();
  await untilAttribute(section, 'data-state', 'settled', 30_000);
  await expect(section.locator('table.lr-table tbody tr')).toHaveCount(4);
  expect(problems).toEqual([]);
});

// The experiments, their variants and what they keep are the core's (Embind experiments()):
// apart from the texts (i18n*.js) and comments, no script of the page names one.
test('the page scripts hold no experiment names outside the texts', async () => {
  const names = ['remove_wo', 'freeze_wo', 'wo_heatmap', 'activation_stats', 'gain_vs_learning', 'lr_stability', 'real_words', 'wo_purpose',
    'words_purpose'];
  const dir = path.resolve('web');
  const scripts = fs.readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.js') && !f.startsWith('i18n'));
  expect(scripts.length).toBeGreaterThan(10);
  for (const file of scripts) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
    expect(names.filter((n) => text.includes(n)), file).toEqual([]);
  }
});
