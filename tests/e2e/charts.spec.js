// The charts, read from the Chart.js instances in the page: no line drawn entirely under another
// without its legend saying so, each variant with one look (colour, dash, marker) everywhere, the
// band exactly min–max over seeds, only the charts an experiment has data for, one colour per
// variant in the gradient charts. On the recorded Quick results shown on load, and on live runs.
import { test, expect } from '@playwright/test';
import { chartData, docScreenshot, openPage, query, runAndWait, TINY, untilAttribute } from './helpers.js';

const EXPERIMENTS = ['remove_wo', 'freeze_wo', 'wo_heatmap', 'activation_stats', 'gain_vs_learning', 'lr_stability'];

// Waits until an experiment shows its recorded results, unfolded (the question skipped).
async function showRecorded(page, name) {
  const section = page.locator(`#exp-${name}`);
  await expect(section.locator('.config-line')).toContainText('Recorded natively', { timeout: 20_000 });
  await untilAttribute(section, 'data-state', 'settled', 20_000);
  const show = section.locator('.predict button.predict-show');
  if (await show.count()) await show.click();
  await expect(section).toHaveAttribute('data-fold', 'open');
  return section;
}

// Scrolls every shown chart of `scope` into view until it is drawn (charts are drawn near the
// viewport only); returns their canvases' data-chart names.
async function drawAll(page, scope) {
  const names = await page.locator(`${scope} figure.chart-box:not([hidden]) canvas`)
    .evaluateAll((cs) => cs.filter((c) => c.checkVisibility()).map((c) => c.dataset.chart));
  for (const name of names) await chartData(page, `${scope} canvas[data-chart="${name}"]`);
  return names;
}

// Per chart: each drawn mean line that lies entirely under another (every one of its points
// within 1 px of the other's polyline, in the canvas's pixels), with its legend text. The page's
// own rule is on data (charts.js, OVERLAP_TOLERANCE); this reads what Chart.js drew.
function hiddenLines(page, scope) {
  return page.evaluate((sel) => {
    const out = [];
    for (const canvas of document.querySelectorAll(`${sel} canvas[data-chart]`)) {
      const chart = Chart.getChart(canvas);
      if (!chart || canvas.closest('figure').hidden) continue;
      const legend = new Map(chart.legend.legendItems.map((item) => [item.datasetIndex, item.text]));
      const lines = chart.data.datasets.map((d, i) => ({ d, i }))
        .filter(({ d, i }) => d.role === 'mean' && chart.isDatasetVisible(i))
        .map(({ d, i }) => ({
          i, label: d.label, legend: legend.get(i),
          px: chart.getDatasetMeta(i).data.filter((p) => !p.skip && Number.isFinite(p.y)).map((p) => [p.x, p.y]),
        }))
        .filter((l) => l.px.length > 0);
      // The y of b's polyline at pixel x, or null outside it.
      const yAt = (b, x) => {
        for (let k = 0; k < b.px.length; k++) {
          const [x1, y1] = b.px[k];
          if (Math.abs(x1 - x) < 0.01) return y1;
          const next = b.px[k + 1];
          if (next && x1 < x && x < next[0]) return y1 + ((x - x1) / (next[0] - x1)) * (next[1] - y1);
        }
        return null;
      };
      for (const a of lines) {
        const under = lines.filter((b) => b !== a && a.px.every(([x, y]) => {
          const yb = yAt(b, x);
          return yb !== null && Math.abs(yb - y) <= 1;
        }));
        if (under.length) out.push({ chart: canvas.dataset.chart, label: a.label, legend: a.legend, under: under.map((b) => b.label) });
      }
    }
    return out;
  }, scope);
}

// variant -> the looks its mean lines have in the charts of `scope` (colour left out: the
// activation charts colour by site).
function looks(page, scope) {
  return page.evaluate((sel) => {
    const out = {};
    for (const canvas of document.querySelectorAll(`${sel} canvas[data-chart]`)) {
      const chart = Chart.getChart(canvas);
      if (!chart) continue;
      for (const d of chart.data.datasets) {
        if (d.role !== 'mean' || !d.variant) continue;
        (out[d.variant] ??= new Set()).add(JSON.stringify([d.borderDash, d.pointStyle]));
      }
    }
    return Object.fromEntries(Object.entries(out).map(([v, s]) => [v, [...s]]));
  }, scope);
}

test('recorded Quick: no line hidden under another without its legend saying so; one look per variant', async ({ page }) => {
  const problems = await openPage(page);
  const overlapping = [];
  for (const name of EXPERIMENTS) {
    await showRecorded(page, name);
    const scope = `#exp-${name}`;
    // The heatmap's charts wait for the W_o file of the run drawn, fetched once it comes near.
    await page.locator(scope).scrollIntoViewIfNeeded();
    await expect.poll(async () => (await drawAll(page, scope)).length, { timeout: 20_000 }).toBeGreaterThan(0);
    for (const h of await hiddenLines(page, scope)) {
      overlapping.push(`${name}/${h.chart}: ${h.label}`);
      // Its legend entry names every line it is drawn under.
      expect(h.legend, `${name}/${h.chart}: ${h.label} lies under ${h.under}`).toMatch(/\(overlaps .+\)$/);
      for (const other of h.under) expect(h.legend).toContain(other);
    }
  }
  // Experiment 5's frozen W_o at step 0: frozen_random's is learned's initial matrix, and
  // frozen_orthogonal's singular values are all 1, like the identity's.
  expect(overlapping).toEqual(expect.arrayContaining([
    'gain_vs_learning/wo-sv: learned', 'gain_vs_learning/wo-sv: frozen_random',
    'gain_vs_learning/wo-sv: identity', 'gain_vs_learning/wo-sv: frozen_orthogonal',
  ]));
  const legend = await page.evaluate(() => Chart.getChart(document.querySelector('#exp-gain_vs_learning canvas[data-chart="wo-sv"]'))
    .legend.legendItems.map((i) => i.text));
  expect(legend).toEqual(expect.arrayContaining(['frozen_random (overlaps learned)', 'frozen_orthogonal (overlaps identity)']));

  // Each variant has one dash and marker in every chart, and no two variants share them.
  const all = await looks(page, 'main');
  const seen = new Set();
  for (const [variant, list] of Object.entries(all)) {
    expect(list, variant).toHaveLength(1);
    expect(seen.has(list[0]), `${variant} looks like another variant`).toBe(false);
    seen.add(list[0]);
  }
  expect(Object.keys(all).sort()).toEqual(['frozen_orthogonal', 'frozen_random', 'frozen_random_scaled', 'identity', 'learned', 'learned_identity_init']);

  // In Chinese the legend says so too.
  await page.locator('#lang').selectOption('zh');
  await chartData(page, '#exp-gain_vs_learning canvas[data-chart="wo-sv"]');
  const zh = await page.evaluate(() => Chart.getChart(document.querySelector('#exp-gain_vs_learning canvas[data-chart="wo-sv"]'))
    .legend.legendItems.map((i) => i.text));
  expect(zh.some((text) => /^frozen_random.*（与 learned.* 重合）$/.test(text))).toBe(true);
  expect(problems).toEqual([]);
});

test('recorded Quick: the band is min–max over seeds at each step drawn, the mean their mean', async ({ page }) => {
  const problems = await openPage(page);
  for (const name of ['remove_wo', 'freeze_wo', 'gain_vs_learning']) {
    await showRecorded(page, name);
    const results = await (await page.request.get(`recorded/quick/results.${name}.json`)).json();
    const datasets = await chartData(page, `#exp-${name} canvas[data-chart="loss"]`);
    const variants = [...new Set(results.runs.map((r) => r.variant))];
    expect(datasets.filter((d) => d.role === 'mean').map((d) => d.group)).toEqual(variants);
    for (const v of variants) {
      const runs = results.runs.filter((r) => r.variant === v);
      expect(runs.length).toBeGreaterThan(1);
      const [lo, hi, mean] = ['min', 'max', 'mean'].map((role) => datasets.find((d) => d.group === v && d.role === role));
      expect(lo.x).toEqual(mean.x);
      expect(hi.x).toEqual(mean.x);
      // Thinned to at most 150 points, from the first step to the last.
      expect(mean.x.length).toBeLessThanOrEqual(150);
      expect(mean.x[0]).toBe(runs[0].curve.step[0]);
      expect(mean.x.at(-1)).toBe(runs[0].curve.step.at(-1));
      mean.x.forEach((step, i) => {
        const at = runs.map((r) => r.curve.loss[r.curve.step.indexOf(step)]);
        expect(lo.y[i]).toBe(Math.min(...at));
        expect(hi.y[i]).toBe(Math.max(...at));
        expect(mean.y[i]).toBeCloseTo(at.reduce((a, b) => a + b, 0) / at.length, 12);
      });
    }
  }
  expect(problems).toEqual([]);
});

test('recorded Quick: experiment 1 (no frozen variant) has no singular-value chart; 2 and 5 do', async ({ page }) => {
  const problems = await openPage(page);
  for (const name of ['remove_wo', 'freeze_wo', 'gain_vs_learning']) await showRecorded(page, name);
  await expect(page.locator('#exp-remove_wo figure:has(canvas[data-chart="wo-sv"])')).toBeHidden();
  expect(await drawAll(page, '#exp-remove_wo')).toEqual(['loss', 'accuracy']);
  for (const name of ['freeze_wo', 'gain_vs_learning']) {
    await expect(page.locator(`#exp-${name} figure:has(canvas[data-chart="wo-sv"])`)).toBeVisible();
    const sv = await chartData(page, `#exp-${name} canvas[data-chart="wo-sv"]`);
    expect(sv.filter((d) => d.role === 'mean').length).toBeGreaterThan(1);
  }
  expect(problems).toEqual([]);
});

test('recorded Quick: the gradient charts draw one head at a time, one colour per variant', async ({ page }) => {
  const problems = await openPage(page);
  const section = await showRecorded(page, 'activation_stats');
  const results = await (await page.request.get('recorded/quick/results.activation_stats.json')).json();
  const heads = results.config.model.heads;
  const pick = section.locator('select.head-select');
  await expect(pick.locator('option')).toHaveCount(heads);
  const colours = (sel) => page.evaluate((s) => Chart.getChart(document.querySelector(s)).data.datasets
    .map((d) => ({ variant: d.variant, role: d.role, color: d.role === 'mean' ? d.borderColor : d.backgroundColor })), sel);
  for (const head of [0, heads - 1]) {
    await pick.selectOption(String(head));
    for (let layer = 0; layer < results.config.model.layers; layer++) {
      const sel = `#exp-activation_stats canvas[data-chart="grad-${layer}"]`;
      const grad = await chartData(page, sel);
      const means = grad.filter((d) => d.role === 'mean');
      expect(means.map((d) => d.variant)).toEqual(['learned', 'identity']);
      // One line per variant, in its colour; its band in the same colour, lighter.
      const drawn = await colours(sel);
      for (const v of ['learned', 'identity']) {
        const mine = drawn.filter((d) => d.variant === v);
        expect(new Set(mine.filter((d) => d.role === 'mean').map((d) => d.color)).size).toBe(1);
        const rgb = (c) => (c.startsWith('#') ? [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)).join() : c.match(/\d+, \d+, \d+/)[0].replace(/ /g, ''));
        const band = mine.filter((d) => d.role === 'max');  // filled down to its 'min'
        expect(band).toHaveLength(1);  // Quick records 3 seeds
        expect(rgb(band[0].color)).toBe(rgb(mine.find((d) => d.role === 'mean').color));
      }
      expect(new Set(drawn.filter((d) => d.role === 'mean').map((d) => d.color)).size).toBe(2);
      // The mean over seeds of the record's gradient norm at that head.
      for (const d of means) {
        const runs = results.runs.filter((r) => r.variant === d.variant);
        d.x.forEach((step, i) => {
          const at = runs.map((r) => r.stats.find((s) => s.layer === layer && s.step === step).head_grad_norm[head]);
          expect(d.y[i]).toBeCloseTo(at.reduce((a, b) => a + b, 0) / at.length, 9);
        });
      }
    }
  }
  await expect(section.locator('figcaption').filter({ hasText: 'gradient norm at head' }).first())
    .toContainText(`Layer 0: gradient norm at head ${heads - 1}’s slice`);
  expect(problems).toEqual([]);
});

test('live, one seed: no band; the learning-rate charts name the lines they hide', async ({ page }) => {
  const problems = await openPage(page, query({ ...TINY, seeds: 1 }));
  const remove = await runAndWait(page, 'remove_wo');
  for (const name of ['loss', 'accuracy']) {
    const data = await chartData(page, `#exp-remove_wo canvas[data-chart="${name}"]`);
    expect(data.map((d) => `${d.group}:${d.role}`)).toEqual(['learned:mean', 'identity:mean']);
  }
  await expect(remove.locator('figure:has(canvas[data-chart="wo-sv"])')).toBeHidden();

  await runAndWait(page, 'lr_stability', 60_000);
  const names = await drawAll(page, '#exp-lr_stability');
  expect(names).toEqual(['trained', 'loss']);
  for (const h of await hiddenLines(page, '#exp-lr_stability')) {
    expect(h.legend, `${h.chart}: ${h.label} lies under ${h.under}`).toMatch(/\(overlaps .+\)$/);
    for (const other of h.under) expect(h.legend).toContain(other);
  }
  expect(problems).toEqual([]);
});

// For docs/screenshots/, with WOLAB_DOCS_SCREENSHOTS=1: pictures, not checks (the tests above
// check the same charts).
test('screenshots of the charts, light theme at 1280 px', async ({ page }) => {
  test.skip(!process.env.WOLAB_DOCS_SCREENSHOTS, 'docs screenshots: WOLAB_DOCS_SCREENSHOTS=1');
  await page.setViewportSize({ width: 1280, height: 900 });
  const problems = await openPage(page, '?theme=light');
  for (const name of ['gain_vs_learning', 'remove_wo', 'activation_stats', 'lr_stability']) await showRecorded(page, name);
  const shot = async (name, sel) => {
    const figure = page.locator(sel).locator('xpath=ancestor::figure[1]');
    await chartData(page, sel);
    await docScreenshot(page, name, figure, name);
  };
  await shot('charts_gain_sv', '#exp-gain_vs_learning canvas[data-chart="wo-sv"]');
  await shot('charts_gain_loss', '#exp-gain_vs_learning canvas[data-chart="loss"]');
  await shot('charts_remove_loss', '#exp-remove_wo canvas[data-chart="loss"]');
  await shot('charts_lr_trained', '#exp-lr_stability canvas[data-chart="trained"]');
  await docScreenshot(page, 'charts_stats_layer0', page.locator('#exp-activation_stats .layer-panel').first(), 'charts_stats_layer0');
  expect(problems).toEqual([]);
});
