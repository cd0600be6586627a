// Shared steps of the page tests: open the page and collect its errors, read chart data the
// way a test should (Chart.getChart on the canvas), wait for an experiment (run or imported),
// save screenshots.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';

// A model small enough that every experiment trains in about a second; d_model 8 so that the
// heatmap has 8 × 8 cells. probe_every 10 gives probes (and W_o snapshots) at 10, 20, 30, 40.
// The tag of a test that bounds a time (a task's length, an estimate, a landing after layout):
// scripts/test.sh runs these one at a time, after the others have run two at a time.
export const TIMED = { tag: '@timed' };

export const TINY = {
  task: 'copy', d_model: 8, heads: 2, layers: 2, d_ff: 16, ln: 'post', length: 4, alphabet: 5,
  batch: 8, lr: 0.01, steps: 40, seeds: 2, seed: 0, probe_every: 10,
  // experiment 7 (real words): a model and a run as small, so that Run all stays quick
  words_d_model: 8, words_heads: 2, words_layers: 1, words_d_ff: 16, words_steps: 20, words_batch: 8,
  words_probe_every: 10, words_heldout: 16,
};

export function query(settings, extra = {}) {
  return '?' + new URLSearchParams({ ...settings, ...extra }).toString();
}

// Opens the page (`search`: a query for the test build's page, or a whole URL of a page served
// elsewhere) and waits until the wasm engine is ready. Returns the list that collects
// console errors, uncaught page errors and requests to other origins, for a final check.
export async function openPage(page, search = '') {
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('request', (r) => {
    const url = new URL(r.url());
    const origin = new URL(page.url() === 'about:blank' ? r.url() : page.url()).origin;
    if (!['data:', 'blob:'].includes(url.protocol) && url.origin !== origin) problems.push(`off-origin: ${r.url()}`);
  });
  await page.goto(/^https?:/.test(search) ? search : '/' + search);  // a query, or the page served elsewhere
  await untilAttribute(page.locator('body'), 'data-ready', 'true', 20_000);
  return problems;
}

// Serves recorded/index.json as `edit(index)` makes it, from the file the test server serves
// (dist/recorded/index.json), read from disk in the handler. A handler that fetched it instead
// (route.fetch) could still be reading that response when the page closed at the test's end,
// which Playwright reports as "Response has been disposed": the page polls the index, so a
// request can come at any moment. Each test that routes also unroutes before it ends
// (unrouteAll with behavior 'wait'), so no handler outlives its page.
export async function routeIndex(page, edit) {
  await page.route('**/recorded/index.json', (route) => {
    const index = JSON.parse(fs.readFileSync(path.join('dist', 'recorded', 'index.json'), 'utf8'));
    return route.fulfill({ json: edit(index) });
  });
}

// Waits until the element of `locator` (in the page or a frame) has attribute `name` = `value`,
// checked at every animation frame: expect(locator).toHaveAttribute retries at widening intervals,
// up to a second apart, so it sees a change long after it happened; every test waits so for the
// engine, and most for runs.
export async function untilAttribute(locator, name, value, timeout = 5_000) {
  const el = await locator.elementHandle({ timeout });
  try {
    const frame = await el.ownerFrame();
    await frame.waitForFunction(([e, n, v]) => e.getAttribute(n) === v, [el, name, value], { polling: 'raf', timeout });
  } catch (e) {
    const now = await el.getAttribute(name).catch(() => '(gone)');
    throw new Error(`${locator} did not get ${name}="${value}" within ${timeout} ms (it has ${JSON.stringify(now)}): ${e.message}`);
  } finally {
    await el.dispose();
  }
}

export async function runAndWait(page, experiment, timeout = 30_000) {
  const section = page.locator(`#exp-${experiment}`);
  await section.locator('button.run').click();
  await untilAttribute(section, 'data-state', 'settled', timeout);
  // The last render is throttled to a few per second: wait until it has drawn the final state.
  await expect(section.locator('.runs-table tbody tr[data-status="queued"], .runs-table tbody tr[data-status="running"]')).toHaveCount(0);
  return section;
}

// Imports results files through the page's file input (paths, or Playwright's { name, mimeType,
// buffer } payloads) and waits until the section of each file's experiment shows that file (its
// config line names it) with data-state="settled": summary and verdict made from its runs.
// Returns those sections in the files' order. Not for files the page refuses: they never settle.
export async function importAndWait(page, files) {
  const list = [files].flat();
  await page.locator('#import-file').setInputFiles(list);
  const sections = [];
  for (const file of list) {
    const [name, text] = typeof file === 'string' ? [path.basename(file), fs.readFileSync(file, 'utf8')]
      : [file.name, file.buffer.toString('utf8')];
    const section = page.locator(`#exp-${JSON.parse(text).experiment}`);
    // The section may be settled already, with the results it showed before.
    await expect(section.locator('.config-line')).toContainText(`Imported from ${name} (`);
    await untilAttribute(section, 'data-state', 'settled');
    sections.push(section);
  }
  return sections;
}

// Every dataset of the chart drawn on `selector`'s canvas: label, role (mean/min/max), points.
// The page draws a chart only near the viewport and marks its figure data-stale until then.
export async function chartData(page, selector) {
  const canvas = page.locator(selector);
  // Sections above it may still grow as they come into view (content-visibility: auto) and
  // push it out again: scroll until it has been drawn.
  await expect(async () => {
    await canvas.scrollIntoViewIfNeeded();
    await expect(canvas.locator('xpath=ancestor::figure[1]')).not.toHaveAttribute('data-stale', 'true', { timeout: 1000 });
  }).toPass();
  return page.evaluate((sel) => {
    const chart = Chart.getChart(document.querySelector(sel));
    if (!chart) return null;
    return chart.data.datasets.map((d) => ({
      label: d.label, role: d.role, group: d.group, variant: d.variant,
      x: d.data.map((p) => (typeof p === 'object' ? p.x : null)),
      y: d.data.map((p) => (typeof p === 'object' ? p.y : p)),
    }));
  }, selector);
}

// Screenshots are taken with WOLAB_SCREENSHOTS=1 (or WOLAB_DOCS_SCREENSHOTS=1, which copies some
// to docs/screenshots/): encoding them, and growing the viewport to hold each element, cost the
// page tests about a tenth of their time (a half of the layout tests), and no test reads them.
const SHOTS = Boolean(process.env.WOLAB_SCREENSHOTS || process.env.WOLAB_DOCS_SCREENSHOTS);

// Saves test-results/screenshots/<name>.png: of the viewport, or of one element with every
// chart in it drawn (the page draws charts only near the viewport, so the viewport is made as
// tall as the element for the shot, and the sticky control bar is let go so it covers nothing).
export async function screenshot(page, name, locator = null) {
  if (!SHOTS) return null;
  const dir = path.join('test-results', 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  if (!locator) {
    await page.screenshot({ path: file });
    return file;
  }
  const viewport = page.viewportSize();
  await page.locator('#controls').evaluate((el) => { el.style.position = 'static'; });
  // An offscreen section (content-visibility: auto) has a placeholder height until a frame has
  // laid it out in view, so its bottom (below its scroll margin) is read after two frames, and
  // again after each resize until the viewport holds it all.
  let height = 0;
  for (let tries = 0; tries < 5; tries++) {
    const bottom = await locator.evaluate((el) => new Promise((resolve) => {
      el.scrollIntoView({ block: 'start' });
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(el.getBoundingClientRect().bottom)));
    }));
    const wanted = Math.min(4000, Math.ceil(bottom) + 40);
    if (wanted === height) break;
    height = wanted;
    await page.setViewportSize({ width: viewport.width, height });
  }
  // Every drawing in the picture is up to date (a section taller than 4000 px is cut there, and
  // what lies below is drawn only when it comes near the viewport).
  await expect.poll(() => locator.evaluate((el) => [...el.querySelectorAll('[data-stale]')]
    .filter((e) => e.checkVisibility() && e.getBoundingClientRect().top < window.innerHeight).length)).toBe(0);
  await locator.screenshot({ path: file });
  await page.locator('#controls').evaluate((el) => { el.style.position = ''; });
  await page.setViewportSize(viewport);
  return file;
}

// A screenshot (above) that WOLAB_DOCS_SCREENSHOTS=1 also copies to docs/screenshots/<docName>.png.
export async function docScreenshot(page, name, locator, docName) {
  const file = await screenshot(page, name, locator);
  if (file && process.env.WOLAB_DOCS_SCREENSHOTS) fs.copyFileSync(file, path.join('docs', 'screenshots', `${docName}.png`));
  return file;
}

// The text of each cell of a table, row by row (header row first).
export function tableCells(locator) {
  return locator.evaluate((table) => [...table.rows].map((r) => [...r.cells].map((c) => c.textContent)));
}

// A table cell that is a number: a mean, with its ± spread over the seeds where there is one, a
// percentage or not ("28.5 ± 9.1%", "1.56 ± 0.0521", "-0.0324", "1391"); nothing else in the cell.
export const NUMBER = /^-?\d+(\.\d+)?( ± \d+(\.\d+)?)?%?$/;

// The presets as the page gets them: from the wasm module's presets(), so that tests follow
// whatever values the C++ presets hold.
export function presets(page) {
  return page.evaluate(async () => JSON.parse((await createWolab()).presets()));
}
