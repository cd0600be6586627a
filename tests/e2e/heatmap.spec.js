// The W_o heatmap's views (web/views/heatmap.js): a model too wide to draw weight by weight opens on its
// (heads × heads) head blocks, each the Frobenius norm of its (d_head × d_head) block, whose
// columns combine into the core's head_norms; a block zooms to its weights by click or keyboard,
// and Escape or the back button returns; a narrow model shows every weight. The values are read
// from the tooltips a reader sees, against the W_o the page saves as .npy.
import fs from 'node:fs';
import { test, expect } from '@playwright/test';
import { chartData, openPage, query, runAndWait, screenshot, TIMED, TINY, untilAttribute } from './helpers.js';

// d_model 128 gives each weight 2 px of the 320-px map: too few, so the map opens on 4 × 4 head
// blocks of 32 × 32 weights. Trained for 20 steps in a second.
const WIDE = { ...TINY, d_model: 128, heads: 4, layers: 1, seeds: 1, steps: 20, probe_every: 10 };

// A .npy file's float32 (rows, cols) matrix, row-major.
function readNpy(file) {
  const bytes = fs.readFileSync(file);
  const header = bytes.readUInt16LE(8);
  const body = bytes.subarray(10 + header);
  return new Float32Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.length));
}

// The Frobenius norm of block (i, j) of a (d, d) matrix cut into (n, n) blocks of size d/n.
function blockNorm(w, d, n, i, j) {
  const b = d / n;
  let sq = 0;
  for (let r = i * b; r < (i + 1) * b; r++)
    for (let c = j * b; c < (j + 1) * b; c++) sq += w[r * d + c] * w[r * d + c];
  return Math.sqrt(sq);
}

const tipValue = (text) => Number(text.split(' · ').pop().replace(/^[^-\d]*/, ''));

// How long the page's own heatmap module (the instance app.js loaded) takes on the main thread
// to draw a (d, d) W_o with `heads` heads in its first view, to zoom into a block, back, and to
// draw the next snapshot, in ms: for a Float32Array and for a plain array (a parsed JSON file's).
async function drawTimes(page, d, heads) {
  return page.evaluate(async ([d, heads]) => {
    const { Heatmap } = await import('/views/heatmap.js');
    const host = document.createElement('div');
    document.body.appendChild(host);
    const time = (f) => {
      const t0 = performance.now();
      f();
      return performance.now() - t0;
    };
    const out = [];
    for (const make of [(n, f) => Float32Array.from({ length: n }, f), (n, f) => Array.from({ length: n }, f)]) {
      const map = new Heatmap(host);
      const w = make(d * d, (_, i) => Math.sin(i * 12.9898) * 0.1);
      const next = make(d * d, (_, i) => Math.cos(i * 78.233) * 0.1);
      out.push({
        view: (time(() => map.draw(w, d, d, heads, 'W_o')), map.canvas.dataset.view),
        draw: time(() => map.draw(w, d, d, heads, 'W_o')),
        zoom: time(() => map.zoomIn([1, 2])),
        back: time(() => map.zoomOut()),
        next: time(() => map.draw(next, d, d, heads, 'W_o')),
      });
    }
    host.remove();
    return out;
  }, [d, heads]);
}

// Scrolls `canvas` to the middle of the viewport, clear of the sticky control bar: its section
// (content-visibility: auto) may change height as it comes into view, so until it stays there.
async function inView(canvas) {
  await expect(async () => {
    const top = await canvas.evaluate((el) => new Promise((resolve) => {
      el.scrollIntoView({ block: 'center' });
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(el.getBoundingClientRect().top)));
    }));
    const bar = await canvas.page().locator('#controls').boundingBox();
    expect(top).toBeGreaterThan(bar.y + bar.height);
  }).toPass();
}

// The tooltip of the shown grid's cell (row, col), reached with the mouse.
async function hoverTip(page, canvas, row, col) {
  const [rows, cols] = [Number(await canvas.getAttribute('data-rows')), Number(await canvas.getAttribute('data-cols'))];
  await inView(canvas);
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + box.width * ((col + 0.5) / cols), box.y + box.height * ((row + 0.5) / rows));
  const tip = canvas.locator('xpath=following-sibling::div[contains(@class, "heatmap-tip")]');
  await expect(tip).toBeVisible();
  return tip.textContent();
}

// Checks the head-block view of `canvas` against W_o `w` (d, d) with `heads` heads and the core's
// head_norms: every block's tooltip is its Frobenius norm, and each column of blocks combines
// (root sum of squares) into its head's norm.
async function expectBlocks(page, canvas, w, d, heads, headNorms) {
  await expect(canvas).toHaveAttribute('data-view', 'blocks');
  await expect(canvas).toHaveAttribute('data-rows', String(heads));
  await expect(canvas).toHaveAttribute('data-cols', String(heads));
  const shown = [];
  for (let i = 0; i < heads; i++) {
    for (let j = 0; j < heads; j++) {
      const text = await hoverTip(page, canvas, i, j);
      const b = d / heads;
      expect(text).toMatch(new RegExp(`^rows ${i * b}–${(i + 1) * b - 1} · head ${j} · block norm \\d`));
      shown.push(tipValue(text));
      expect(tipValue(text)).toBeCloseTo(blockNorm(w, d, heads, i, j), 3);
    }
  }
  for (let j = 0; j < heads; j++) {
    const column = Math.sqrt(shown.filter((_, k) => k % heads === j).reduce((a, v) => a + v * v, 0));
    expect(column).toBeCloseTo(headNorms[j], 2);
  }
  // Each block one flat colour, and not all the same.
  const colours = await canvas.evaluate((c, n) => {
    const cell = Number(c.dataset.cell);
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const out = [];
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const at = (x, y) => Array.from(px.slice((y * c.width + x) * 4, (y * c.width + x) * 4 + 3)).join(',');
        // Above the figure written in the middle of each block.
        const x = j * cell + cell / 2, y = i * cell + Math.round(cell / 5);
        out.push([at(x - cell / 4, y), at(x + cell / 4, y)]);
      }
    }
    return out;
  }, heads);
  for (const [a, b] of colours) expect(a).toBe(b);
  expect(new Set(colours.map(([a]) => a)).size).toBeGreaterThan(1);
}

test('a wide model opens on head blocks (the core’s head norms by column); a block zooms by click or keyboard, Escape returns', TIMED, async ({ page }) => {
  const problems = await openPage(page, query(WIDE));
  const section = await runAndWait(page, 'wo_heatmap');
  const canvas = section.locator('.heatmap canvas[data-layer="0"]');
  const caption = section.locator('.heat-caption').first();

  const [npy] = await Promise.all([page.waitForEvent('download'), section.locator('button.npy').first().click()]);
  const w = readNpy(await npy.path());
  expect(w.length).toBe(128 * 128);
  const norms = await chartData(page, '#exp-wo_heatmap canvas[data-chart="norms-0"]');
  await expect(caption).toHaveText(/^Head blocks: at 128 × 128 a weight would get about a pixel, so each of these 4 × 4 cells is one 32 × 32 block/);
  await expectBlocks(page, canvas, w, 128, 4, norms[0].y);
  // The block norms' colour scale runs from the smallest to the largest (not from 0), so that
  // blocks a few percent apart differ in colour.
  const scaleCaption = section.locator('.colorbar-caption').first();
  await expect(scaleCaption).toHaveText(/^Colour scale: block norms, fixed over this run’s snapshots \([\d.]+ to [\d.]+: the smallest to the largest/);
  const [low, high] = (await scaleCaption.textContent()).match(/\(([\d.]+) to ([\d.]+)/).slice(1).map(Number);
  expect(low).toBeGreaterThan(0);
  expect(low).toBeLessThan(high);
  expect(Number(await section.locator('.colorbar-labels > *').first().textContent())).toBeCloseTo(low, 2);

  // A click zooms into the block under it: its 32 × 32 weights, each tooltip naming its place in W_o.
  await inView(canvas);
  const box = await canvas.boundingBox();
  await page.mouse.click(box.x + box.width * (3.5 / 4), box.y + box.height * (2.5 / 4));
  await expect(canvas).toHaveAttribute('data-view', 'zoom');
  await expect(canvas).toHaveAttribute('data-block', '2,3');
  await expect(canvas).toHaveAttribute('data-rows', '32');
  await expect(canvas).toHaveAttribute('data-cols', '32');
  await expect(canvas).toHaveAttribute('data-cell', '10');
  await expect(caption).toHaveText('One block, every weight: rows 64–95, head 3’s columns 96–127, on the whole matrix’s colour scale. Escape or “All head blocks” goes back.');
  await expect(section.locator('.heat-x').first()).toHaveText('columns 96–127: head 3’s output');
  for (const [r, c] of [[0, 0], [5, 17], [31, 31]]) {
    const text = await hoverTip(page, canvas, r, c);
    expect(text).toMatch(new RegExp(`^row ${64 + r} · column ${96 + c} · head 3 · `));
    expect(tipValue(text)).toBeCloseTo(w[(64 + r) * 128 + 96 + c], 4);
  }
  // The weights on the whole matrix's scale: the same as the full view's.
  expect(Number(await canvas.getAttribute('data-scale'))).toBeGreaterThanOrEqual(Math.max(...Array.from(w, Math.abs)) - 1e-6);
  // Back: the blocks, the keyboard's cursor on the block that was shown.
  await section.locator('button.heat-back').first().click();
  await expect(canvas).toHaveAttribute('data-view', 'blocks');
  await expect(section.locator('button.heat-back').first()).toBeHidden();
  await expect(canvas).toBeFocused();
  const tip = section.locator('.heatmap-tip').first();
  await expect(tip).toHaveText(/^rows 64–95 · head 3 · block norm /);

  // The keyboard: arrows move over the blocks, Enter zooms, arrows move over the weights,
  // Escape returns to the block it came from.
  for (const key of ['ArrowLeft', 'ArrowLeft', 'ArrowUp']) await page.keyboard.press(key);
  await expect(tip).toHaveText(/^rows 32–63 · head 1 · block norm /);
  await page.keyboard.press('Enter');
  await expect(canvas).toHaveAttribute('data-block', '1,1');
  await expect(canvas).toBeFocused();
  for (const key of ['ArrowDown', 'ArrowDown', 'ArrowRight']) await page.keyboard.press(key);
  await expect(tip).toHaveText(/^row 33 · column 33 · head 1 · /);
  expect(tipValue(await tip.textContent())).toBeCloseTo(w[33 * 128 + 33], 4);
  await page.keyboard.press('Escape');
  await expect(canvas).toHaveAttribute('data-view', 'blocks');
  await expect(tip).toHaveText(/^rows 32–63 · head 1 · block norm /);

  // The zoom stays on its block over the snapshots; W_o − W_o(init) has its own blocks.
  await page.keyboard.press('Enter');
  const slider = section.locator('input.snapshot-slider');
  await slider.fill('1');
  await expect(section.locator('.slider-label span')).toHaveText('Snapshot: step 10');
  await expect(canvas).toHaveAttribute('data-block', '1,1');
  await section.locator('button.heat-back').first().click();
  await slider.fill('2');
  await section.locator('input.diff-toggle').check();
  await expect(canvas).toHaveAttribute('data-view', 'blocks');
  const changes = await chartData(page, '#exp-wo_heatmap canvas[data-chart="norms-0"]');
  const column0 = [];
  for (let i = 0; i < 4; i++) column0.push(tipValue(await hoverTip(page, canvas, i, 0)));
  expect(Math.hypot(...column0)).toBeCloseTo(changes[0].y[0], 2);

  // Chinese: the captions and tooltips in Chinese.
  await page.locator('#lang').selectOption('zh');
  await expect(caption).toHaveText(/^按头分块：在 128 × 128 的尺寸下/);
  expect(await hoverTip(page, canvas, 0, 2)).toMatch(/^第 0–31 行 · 头 2 · 块范数 \d/);
  await inView(canvas);
  const corner = await canvas.boundingBox();
  await page.mouse.click(corner.x + 5, corner.y + 5);
  await expect(section.locator('button.heat-back').first()).toHaveText('← 所有头块');
  await expect(caption).toHaveText(/^单个块的全部权重：第 0–31 行，头 0 的第 0–31 列/);

  // At the Article preset's size, d_model 256 with 4 heads, each step of drawing it stays far
  // under 100 ms of main thread.
  for (const times of await drawTimes(page, 256, 4)) {
    expect(times.view).toBe('blocks');
    for (const what of ['draw', 'zoom', 'back', 'next']) expect(times[what]).toBeLessThan(100);
  }
  expect(problems).toEqual([]);
});

test('the dark theme: the block norms run from the dark zero colour up, on the colour bar and the map', async ({ page }) => {
  const problems = await openPage(page, query(WIDE, { theme: 'dark' }));
  const section = await runAndWait(page, 'wo_heatmap');
  const canvas = section.locator('.heatmap canvas[data-layer="0"]');
  await expect(canvas).toHaveAttribute('data-view', 'blocks');
  const [zero, pos] = await page.evaluate(() => ['--heat-zero', '--heat-pos'].map((v) => getComputedStyle(document.documentElement).getPropertyValue(v).trim()));
  const hex = (rgb) => '#' + rgb.map((x) => x.toString(16).padStart(2, '0')).join('');
  const bar = await section.locator('.colorbar canvas').first().evaluate((c) => {
    const px = c.getContext('2d').getImageData(0, 5, c.width, 1).data;
    return [Array.from(px.slice(0, 3)), Array.from(px.slice(px.length - 4, px.length - 1))];
  });
  expect(hex(bar[0])).toBe(zero);
  expect(hex(bar[1])).toBe(pos);
  await inView(canvas);
  await screenshot(page, 'heatmap_blocks_dark', section.locator('.heatmap').first());
  expect(problems).toEqual([]);
});

test('the Quick preset (d_model 16, as recorded) shows every weight', async ({ page }) => {
  const problems = await openPage(page);
  const section = page.locator('#exp-wo_heatmap');
  await untilAttribute(section, 'data-state', 'settled', 20_000);
  await section.locator('button.predict-show').click();  // recorded results wait behind a question
  const canvas = section.locator('.heatmap canvas[data-layer="0"]');
  const d = await page.locator('#s-d_model').inputValue();
  await expect(canvas).toHaveAttribute('data-view', 'full');
  await expect(canvas).toHaveAttribute('data-rows', d);
  await expect(canvas).toHaveAttribute('data-cols', d);
  await expect(section.locator('.heat-caption').first()).toHaveText(`Every weight: ${d} × ${d} cells, with lines between the heads’ columns.`);
  await expect(section.locator('button.heat-back').first()).toBeHidden();
  // A click on a weight does not zoom: there are no blocks to leave.
  await inView(canvas);
  await canvas.click();
  await expect(canvas).toHaveAttribute('data-view', 'full');
  expect(problems).toEqual([]);
});

// A float16 bit pattern as a number.
function fromHalf(h) {
  const exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff, sign = h & 0x8000 ? -1 : 1;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

// The run's W_o snapshots with their matrices, read from the float16 file beside its results
// (docs/results.md, "W_o snapshots apart": tensor "step.<s>.layers.<l>.attn.W_o.weight").
function withMatrices(folder, run) {
  const bytes = fs.readFileSync(`${folder}/${run.wo_file}`);
  const n = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + n).toString('utf8'));
  return run.wo.map((s) => {
    const { data_offsets: [begin, end] } = header[`step.${s.step}.layers.${s.layer}.attn.W_o.weight`];
    const data = [];
    for (let i = 8 + n + begin; i < 8 + n + end; i += 2) data.push(fromHalf(bytes.readUInt16LE(i)));
    return { ...s, data };
  });
}

// The Article preset's recording, committed (recorded/presets/, scripts/record.sh): its map is
// checked against the file and screenshotted (docs/screenshots/heatmap_{aggregate,zoom}.png).
const ARTICLE = 'dist/recorded/article';
test('the Article recording: 4 × 4 head blocks of its 256 × 256 W_o, a block zoomed (screenshots)', async ({ page }) => {
  test.setTimeout(120_000);
  const results = JSON.parse(fs.readFileSync(`${ARTICLE}/results.wo_heatmap.json`, 'utf8'));
  const run = { ...results.runs[0] };
  run.wo = withMatrices(ARTICLE, run);
  const last = Math.max(...run.wo.map((s) => s.step));
  const snap = run.wo.find((s) => s.layer === 0 && s.step === last);
  const { d_model: d, heads } = results.config.model;

  const problems = await openPage(page);
  await page.locator('#settings > summary').click();
  await page.locator('#preset').selectOption('article');
  const section = page.locator('#exp-wo_heatmap');
  await expect(section.locator('.config-line')).toContainText(`d_model ${d}, ${heads} heads`, { timeout: 60_000 });
  await untilAttribute(section, 'data-state', 'settled', 60_000);
  await section.locator('button.predict-show').click();
  const canvas = section.locator('.heatmap canvas[data-layer="0"]');
  await expect(section.locator('.slider-label span')).toHaveText(`Snapshot: step ${last}`);
  // The page reads the file through the core, which recomputes head_norms from the weights.
  await expectBlocks(page, canvas, snap.data, d, heads, snap.head_norms);
  await page.mouse.move(0, 0);
  await screenshot(page, 'heatmap_aggregate', section.locator('.layer-panel').first());

  await inView(canvas);
  const box = await canvas.boundingBox();
  await page.mouse.click(box.x + box.width * (0.5 / heads), box.y + box.height * (0.5 / heads));
  await expect(canvas).toHaveAttribute('data-block', '0,0');
  await expect(canvas).toHaveAttribute('data-rows', String(d / heads));
  for (const [r, c] of [[0, 0], [7, 40], [63, 63]]) expect(tipValue(await hoverTip(page, canvas, r, c))).toBeCloseTo(snap.data[r * d + c], 4);
  await page.mouse.move(0, 0);
  await screenshot(page, 'heatmap_zoom', section.locator('.layer-panel').first());

  // Every snapshot, zoomed and not, W_o − W_o(init) and each snapshot on its own scale: still the
  // head blocks' values.
  const slider = section.locator('input.snapshot-slider');
  for (let i = 0; i <= Number(await slider.getAttribute('max')); i++) await slider.fill(String(i));
  await expect(canvas).toHaveAttribute('data-block', '0,0');
  await section.locator('button.heat-back').first().click();
  await section.locator('input.diff-toggle').check();
  await section.locator('input.scale-toggle').check();
  const init = run.wo.find((s) => s.layer === 0 && s.step === 0);
  const change = Float64Array.from(snap.data, (v, i) => v - init.data[i]);
  await expectBlocks(page, canvas, change, d, heads, snap.head_change_norms);
  // On its own scale, the largest block of this snapshot's change is drawn at full colour.
  const largest = Math.max(...Array.from({ length: heads * heads }, (_, k) => blockNorm(change, d, heads, Math.floor(k / heads), k % heads)));
  expect(Number(await canvas.getAttribute('data-scale'))).toBeCloseTo(largest, 3);
  expect(problems).toEqual([]);
});
