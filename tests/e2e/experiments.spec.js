// Each of the four experiments, trained in the page's workers with a tiny config: the charts
// hold the expected series and points, the tables hold numbers, the heatmap shows d × d cells,
// and the downloads (results JSON, W_o .npy, model .safetensors) are what they claim to be.
import fs from 'node:fs';
import { test, expect } from '@playwright/test';
import { chartData, importAndWait, NUMBER, openPage, query, runAndWait, screenshot, tableCells, TINY, untilAttribute } from './helpers.js';

const STEPS = Array.from({ length: TINY.steps }, (_, i) => i + 1);
const PROBES = [10, 20, 30, 40];

const means = (datasets) => datasets.filter((d) => d.role === 'mean');

// A summary table row from column `from` on: numbers, but for "Steps to loss < 0.1 (seeds
// reaching it)", which has none to show: in TINY's 40 steps no seed gets under 0.1.
function expectSummaryNumbers(row, from) {
  const REACH = 5;
  expect(row[REACH]).toBe('— (0/2)');
  for (const c of row.filter((_, i) => i >= from && i !== REACH)) expect(c).toMatch(NUMBER);
}

test('remove W_o: loss and accuracy bands per variant, summary table, one honest sentence', async ({ page }) => {
  const problems = await openPage(page, query(TINY));
  const section = await runAndWait(page, 'remove_wo');

  const loss = await chartData(page, '#exp-remove_wo canvas[data-chart="loss"]');
  expect(loss.map((d) => `${d.group}:${d.role}`)).toEqual([
    'learned:min', 'learned:max', 'learned:mean', 'identity:min', 'identity:max', 'identity:mean',
  ]);
  for (const d of loss) {
    expect(d.x).toEqual(STEPS);
    for (const y of d.y) expect(y).toBeGreaterThan(0);
  }
  // The band holds the mean: min <= mean <= max at every step.
  for (let g = 0; g < 2; g++) {
    const [lo, hi, mid] = loss.slice(3 * g, 3 * g + 3);
    mid.y.forEach((m, i) => {
      expect(lo.y[i]).toBeLessThanOrEqual(m + 1e-6);
      expect(hi.y[i]).toBeGreaterThanOrEqual(m - 1e-6);
    });
  }
  const acc = await chartData(page, '#exp-remove_wo canvas[data-chart="accuracy"]');
  expect(means(acc).map((d) => d.label)).toEqual(['learned', 'identity']);
  for (const d of acc) {
    expect(d.x).toEqual(PROBES);
    for (const y of d.y) expect(y >= 0 && y <= 100).toBe(true);
  }

  const cells = await tableCells(section.locator('table.summary-table'));
  expect(cells.map((r) => r[0])).toEqual(['Variant', 'learned', 'identity']);
  for (const row of cells.slice(1)) {
    expect(row[1]).toBe('2');
    expectSummaryNumbers(row, 2);
  }
  // identity has no W_o: 2 layers × (8·8 weights + 8 biases) fewer parameters.
  expect(Number(cells[1][7]) - Number(cells[2][7])).toBe(2 * (8 * 8 + 8));

  const sentence = await section.locator('.sentence').textContent();
  // Paired seed by seed: who was ahead in how many of the 2 seeds (lesson.js, from analyze()).
  expect(sentence).toMatch(/^learned against identity: steps to loss < 0\.1|^learned against identity: loss at step /);
  expect(sentence).toMatch(/ of 2 seeds|no leader/);

  await expect(section.locator('.runs-table thead th')).toHaveText(['Variant', 'Seed', 'Progress', 'Steps/s', 'Status', 'Model']);
  await expect(section.locator('.runs-table tbody tr')).toHaveCount(4);
  await expect(section.locator('.runs-table tbody tr[data-status="done"]')).toHaveCount(4);

  const pngButton = section.getByRole('button', { name: /^Download “Held-out token accuracy.*” as PNG$/ });
  const [png] = await Promise.all([page.waitForEvent('download'), pngButton.click()]);
  expect(png.suggestedFilename()).toBe('wolab-remove_wo-accuracy.png');
  expect(fs.readFileSync(await png.path()).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  await screenshot(page, 'remove_wo', section);
  expect(problems).toEqual([]);
});

test('remove W_o: held-out accuracy is drawn while the runs train, then the records hold the same points', async ({ page }) => {
  // Runs long enough to be caught training (8000 steps were over in 3.4 s on a quiet machine,
  // before a poll caught both running with points); one seed, so that each mean line is one run's
  // eval series and the live points can be compared one by one with its finished record.
  const config = { ...TINY, steps: 24000, seeds: 1, probe_every: 400 };
  const problems = await openPage(page, query(config));
  const section = page.locator('#exp-remove_wo');
  const selector = '#exp-remove_wo canvas[data-chart="accuracy"]';
  await section.locator('button.run').click();
  await page.locator(selector).scrollIntoViewIfNeeded();  // charts are drawn only near the viewport

  // The chart's datasets and the run rows' statuses, read at one moment. A row is rendered with
  // (or after) the data the chart draws, so a row still "running" means the points came from
  // the live run, not from its finished record. The chart is made in the first frame that finds
  // it near the viewport, which the claims panel above, growing as its recordings come in, may
  // delay: none yet reads as no points yet.
  const look = () => page.evaluate((sel) => ({
    datasets: (Chart.getChart(document.querySelector(sel))?.data.datasets ?? []).map((d) => ({
      group: d.group, role: d.role, x: d.data.map((p) => p.x), y: d.data.map((p) => p.y),
    })),
    status: Object.fromEntries([...document.querySelectorAll('#exp-remove_wo .runs-table tbody tr')]
      .map((tr) => [tr.cells[0].textContent, tr.dataset.status])),
  }), selector);
  let live = null;
  await expect.poll(async () => {
    live = await look();
    return ['learned', 'identity'].filter((v) => live.status[v] === 'running'
      && live.datasets.some((d) => d.group === v && d.role === 'mean' && d.x.length > 0));
  }, { intervals: [50], timeout: 30_000 }).toEqual(['learned', 'identity']);

  // One seed: no spread over seeds, so no band.
  expect(live.datasets.map((d) => `${d.group}:${d.role}`)).toEqual(['learned:mean', 'identity:mean']);
  for (const d of live.datasets) {
    expect(d.x.length).toBeLessThan(config.steps / config.probe_every);
    d.x.forEach((x, i) => expect(x).toBe(config.probe_every * (i + 1)));
    for (const y of d.y) expect(y >= 0 && y <= 100).toBe(true);
  }

  await untilAttribute(section, 'data-state', 'settled', 60_000);
  await expect(section.locator('.runs-table tbody tr[data-status="done"]')).toHaveCount(2);
  const done = await chartData(page, selector);
  const probes = Array.from({ length: config.steps / config.probe_every }, (_, i) => config.probe_every * (i + 1));
  for (const d of done) {
    expect(d.x).toEqual(probes);
    // The live points, from the trainer's floats, and the record's, the same floats written as
    // shortest decimals: equal to float precision.
    const was = live.datasets.find((l) => l.group === d.group && l.role === d.role);
    was.y.forEach((y, i) => expect(d.y[i]).toBeCloseTo(y, 4));
  }
  expect(problems).toEqual([]);
});

test('freeze W_o: four variants drawn and summarised', async ({ page }) => {
  const problems = await openPage(page, query(TINY));
  const section = await runAndWait(page, 'freeze_wo');
  const loss = await chartData(page, '#exp-freeze_wo canvas[data-chart="loss"]');
  expect(means(loss).map((d) => d.label)).toEqual(['learned', 'identity', 'frozen_random', 'learned_identity_init']);
  expect(loss).toHaveLength(12);
  for (const d of loss) expect(d.x).toEqual(STEPS);
  const cells = await tableCells(section.locator('table.summary-table'));
  expect(cells.slice(1).map((r) => r[0])).toEqual(['learned', 'identity', 'frozen_random', 'learned_identity_init']);
  for (const row of cells.slice(1)) expectSummaryNumbers(row, 1);
  // frozen_random's W_o is never trained, so it counts as many trainable parameters as
  // identity; learned_identity_init as many as learned.
  expect(cells[3][7]).toBe(cells[2][7]);
  expect(cells[4][7]).toBe(cells[1][7]);
  await expect(section.locator('.sentence')).toContainText('frozen_random');
  await screenshot(page, 'freeze_wo', section);
  expect(problems).toEqual([]);
});

test('W_o heatmap: d × d cells per layer, snapshots, diff toggle, tooltip, norms, OV, .npy', async ({ page }) => {
  const problems = await openPage(page, query(TINY));
  const section = await runAndWait(page, 'wo_heatmap');
  const canvas = section.locator('.heatmap canvas[data-layer="0"]');
  await expect(section.locator('.heatmap canvas[data-layer]')).toHaveCount(2);
  await expect(section.locator('.layer-panel h3')).toHaveText(['Layer 0', 'Layer 1']);
  await expect(canvas).toHaveAttribute('data-rows', '8');
  await expect(canvas).toHaveAttribute('data-cols', '8');

  // Sample every cell: each is one flat colour, and the map is not blank.
  const sample = () => canvas.evaluate((c) => {
    const n = Number(c.dataset.rows), cell = Number(c.dataset.cell);
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const at = (x, y) => Array.from(px.slice((y * c.width + x) * 4, (y * c.width + x) * 4 + 4)).join(',');
    const colours = [];
    let uniform = true;
    for (let r = 0; r < n; r++) {
      for (let col = 0; col < n; col++) {
        const cx = col * cell + Math.floor(cell / 2), cy = r * cell + Math.floor(cell / 2);
        colours.push(at(cx, cy));
        uniform = uniform && at(cx, cy) === at(cx - 3, cy + 3) && at(cx, cy) === at(cx + 3, cy - 3);
      }
    }
    return { cells: colours.length, distinct: new Set(colours).size, uniform, colours };
  });
  const trained = await sample();
  expect(trained.cells).toBe(64);
  expect(trained.uniform).toBe(true);
  expect(trained.distinct).toBeGreaterThan(16);

  // Snapshots at step 0 and every probe step, on one colour scale; at step 0, W_o − W_o(init)
  // is zero, which the section says in words instead of drawing a blank map.
  const slider = section.locator('input.snapshot-slider');
  await expect(slider).toHaveAttribute('max', String(PROBES.length));
  const runScale = await canvas.getAttribute('data-scale');
  await slider.fill('0');
  await expect(section.locator('.slider-label span')).toHaveText('Snapshot: step 0');
  await expect(canvas).toHaveAttribute('data-scale', runScale);
  // Each snapshot on its own scale: the run's scale is the largest of them over both layers.
  await section.locator('input.scale-toggle').check();
  const own = [];
  for (let i = 0; i <= PROBES.length; i++) {
    await slider.fill(String(i));
    await expect(section.locator('.slider-label span')).toHaveText(`Snapshot: step ${[0, ...PROBES][i]}`);
    for (const c of await section.locator('.heatmap canvas[data-layer]').all()) own.push(Number(await c.getAttribute('data-scale')));
  }
  expect(Math.max(...own)).toBeCloseTo(Number(runScale), 6);
  expect(new Set(own).size).toBeGreaterThan(1);
  await section.locator('input.scale-toggle').uncheck();
  await slider.fill('0');
  await section.locator('input.diff-toggle').check();
  await expect(canvas).toBeHidden();
  await expect(section.locator('.heat-note').first()).toHaveText(/^At step 0 W_o still equals its initial value.*nothing to show yet/);
  await slider.fill(String(PROBES.length));
  await expect(canvas).toBeVisible();
  expect((await sample()).distinct).toBeGreaterThan(16);
  await section.locator('input.diff-toggle').uncheck();

  // Hover and keyboard both show row, column, head and value. The mouse reaches only what is
  // inside the viewport, and the layout above may have moved the map below it.
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + box.width * (5.5 / 8), box.y + box.height * (2.5 / 8));
  await expect(section.locator('.heatmap-tip').first()).toHaveText(/^row 2 · column 5 · head 1 · -?\d/);
  await canvas.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(section.locator('.heatmap-tip').first()).toHaveText(/^row 0 · column 1 · head 0 · /);

  const norms = await chartData(page, '#exp-wo_heatmap canvas[data-chart="norms-0"]');
  expect(norms).toHaveLength(1);
  expect(norms[0].y).toHaveLength(2);
  for (const v of norms[0].y) expect(v).toBeGreaterThan(0);
  const ov = await chartData(page, '#exp-wo_heatmap canvas[data-chart="ov-0"]');
  expect(ov.map((d) => d.label)).toEqual(['head 0', 'head 1']);
  for (const d of ov) {
    expect(d.y).toHaveLength(4);  // d_k = 8 / 2 singular values, largest first
    for (let i = 1; i < 4; i++) expect(d.y[i]).toBeLessThanOrEqual(d.y[i - 1]);
  }

  const [npy] = await Promise.all([page.waitForEvent('download'), section.locator('button.npy').first().click()]);
  const bytes = fs.readFileSync(await npy.path());
  expect(bytes.subarray(0, 6).toString('latin1')).toBe('\x93NUMPY');
  const headerLength = bytes.readUInt16LE(8);
  expect((10 + headerLength) % 64).toBe(0);
  expect(bytes.subarray(10, 10 + headerLength).toString('latin1')).toContain("'shape': (8, 8)");
  expect(bytes.length).toBe(10 + headerLength + 64 * 4);

  // The page analysed this experiment with its matrices apart (makeResultsWoApart); its export
  // is the whole document, every snapshot's matrix inline, no wo_file.
  const [json] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Results JSON' }).click()]);
  const results = JSON.parse(fs.readFileSync(await json.path(), 'utf8'));
  expect(results.experiment).toBe('wo_heatmap');
  expect(results.runs.length).toBeGreaterThan(0);
  for (const run of results.runs) {
    expect(run).not.toHaveProperty('wo_file');
    expect(run.wo.length).toBeGreaterThan(0);
    for (const w of run.wo) expect(w.data).toHaveLength(TINY.d_model * TINY.d_model);
  }
  await screenshot(page, 'wo_heatmap', section);
  expect(problems).toEqual([]);
});

test('activation stats: mean/std per site and layer, per-head gradient norms, early-vs-late table', async ({ page }) => {
  const problems = await openPage(page, query(TINY));
  const section = await runAndWait(page, 'activation_stats');
  await expect(section.locator('.layer-panel h3')).toHaveText(['Layer 0', 'Layer 1']);
  for (const layer of [0, 1]) {
    const std = await chartData(page, `#exp-activation_stats canvas[data-chart="std-${layer}"]`);
    expect(std.map((d) => d.group)).toEqual([
      'concat:learned', 'wo_out:learned', 'residual:learned', 'concat:identity', 'wo_out:identity', 'residual:identity',
    ]);
    for (const d of std) {
      expect(d.x).toEqual(PROBES);
      for (const y of d.y) expect(y).toBeGreaterThan(0);
    }
    // Without W_o, W_o(concat) is the concat itself.
    expect(std[4].y).toEqual(std[3].y);
    // One head at a time (head 0 first): per variant its band over the 2 seeds and mean line.
    const grad = await chartData(page, `#exp-activation_stats canvas[data-chart="grad-${layer}"]`);
    expect(grad.map((d) => `${d.variant}:${d.role}`)).toEqual([
      'learned:min', 'learned:max', 'learned:mean', 'identity:min', 'identity:max', 'identity:mean',
    ]);
    for (const d of grad) expect(d.x).toEqual(PROBES);
  }
  await expect(section.locator('select.head-select option')).toHaveText(['0', '1']);
  await section.locator('select.head-select').selectOption('1');
  await expect(section.locator('figcaption').filter({ hasText: 'Layer 1: gradient norm at head 1’s slice' })).toHaveCount(1);
  const cells = await tableCells(section.locator('table.early-late-table'));
  expect(cells).toHaveLength(1 + 2 * 2 * 3);
  expect(cells[0].at(-1)).toBe('Late / early std');
  for (const row of cells.slice(1)) {
    // identity's W_o(concat) is its concat: said once, not its numbers again.
    if (row[0] === 'identity' && row[2] === 'W_o(concat)') {
      expect(row.slice(3)).toEqual(['= concat (no W_o)']);
      continue;
    }
    for (const c of row.slice(3, 7)) expect(c).toMatch(NUMBER);
    // The core's late / early of the std, as the two std columns show it (4 decimals each).
    expect(row[7]).toMatch(/^\d+\.\d\d×$/);
    expect(Number(row[7].slice(0, -1))).toBeCloseTo(Number(row[6]) / Number(row[4]), 1);
  }
  await expect(section.locator('.early-late-reading')).toHaveText(
    /^(The largest change from early to late: the std of .+ \((learned|identity), layer [01]\) (grows \d+\.\d\d×|shrinks to \d+\.\d\d× its early value)\.|No site's std moves by 20% or more from early to late; the most is .+, \d+\.\d\d×\.)$/);
  await screenshot(page, 'activation_stats', section);
  expect(problems).toEqual([]);
});

test('exports: results JSON re-imports as the same drawing; a run downloads as safetensors', async ({ page }) => {
  const problems = await openPage(page, query(TINY));
  const section = await runAndWait(page, 'remove_wo');
  const before = await chartData(page, '#exp-remove_wo canvas[data-chart="loss"]');
  const table = await tableCells(section.locator('table.summary-table'));

  const [json] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Results JSON' }).click()]);
  const results = JSON.parse(fs.readFileSync(await json.path(), 'utf8'));
  expect(results.format).toBe('wolab-results');
  expect(results.experiment).toBe('remove_wo');
  expect(results.runs).toHaveLength(4);
  expect(results.summary.map((s) => s.variant)).toEqual(['learned', 'identity']);

  const [csv] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Curves CSV' }).click()]);
  const lines = fs.readFileSync(await csv.path(), 'utf8').trim().split('\n');
  expect(lines[0]).toBe('experiment,variant,seed,kind,step,loss,token_acc,exact');
  expect(lines).toHaveLength(1 + 4 * (TINY.steps + PROBES.length));

  const [model] = await Promise.all([page.waitForEvent('download'), section.locator('.runs-table tbody tr').first().locator('button').click()]);
  const st = fs.readFileSync(await model.path());
  const headerLength = Number(st.readBigUInt64LE(0));
  const header = JSON.parse(st.subarray(8, 8 + headerLength).toString('utf8'));
  expect(header['layers.0.attn.W_o.weight'].shape).toEqual([8, 8]);
  expect(header['layers.1.attn.W_o.weight'].dtype).toBe('F32');
  // The model came with the run's record: the idle pool has ended its training workers (their
  // wasm memory never shrinks), and the download did not need them.
  const training = () => page.workers().filter((w) => /\/worker\.js$/.test(w.url())).length;
  await expect.poll(training, { timeout: 15_000 }).toBe(0);

  await importAndWait(page, await json.path());
  expect(await chartData(page, '#exp-remove_wo canvas[data-chart="loss"]')).toEqual(before);
  expect(await tableCells(section.locator('table.summary-table'))).toEqual(table);
  expect(problems).toEqual([]);
});

test('Run all trains each planned (variant, seed, lr, clip) once and shares it between the experiments', async ({ page }) => {
  const problems = await openPage(page, query({ ...TINY, lrs: '0.01' }));
  await page.locator('#run-all').click();
  for (const e of ['remove_wo', 'freeze_wo', 'wo_heatmap', 'activation_stats', 'gain_vs_learning', 'lr_stability', 'wo_purpose']) {
    await untilAttribute(page.locator(`#exp-${e}`), 'data-state', 'settled', 60_000);
  }
  // 6 variants × 2 seeds at train.lr, clipped, experiment 6's 4 variants × 2 seeds at its one rate,
  // unclipped (so none of them is shared), and experiment 8's 3 controls × 2 seeds (its learned and
  // identity shared), though the tables list 4 + 8 + 2 + 4 + 10 + 8 + 10 runs.
  await expect(page.locator('#overall-label')).toHaveText(/^26 of 26 runs finished in [\d.]+ s$/);
  const remove = await chartData(page, '#exp-remove_wo canvas[data-chart="loss"]');
  const freeze = await chartData(page, '#exp-freeze_wo canvas[data-chart="loss"]');
  const gain = await chartData(page, '#exp-gain_vs_learning canvas[data-chart="loss"]');
  expect(freeze.slice(0, 6)).toEqual(remove);  // learned and identity: the same runs
  expect(gain.slice(0, 9)).toEqual(freeze.slice(0, 9));  // learned, identity, frozen_random
  // W_o snapshots stay in experiment 3's results only.
  const section = page.locator('#exp-activation_stats');
  const [json] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Results JSON' }).click()]);
  const results = JSON.parse(fs.readFileSync(await json.path(), 'utf8'));
  expect(results.runs.map((r) => r.wo.length)).toEqual([0, 0, 0, 0]);
  expect(problems).toEqual([]);
});
