// W_o (d × d, row-major (out, in); heads split its columns) as a heatmap on a canvas, in one of
// three views, each named by a caption above the map:
//   full    every weight on a diverging scale ±scale, lines between the heads' columns;
//   blocks  when a weight would get fewer than MIN_CELL_PX pixels (d_model 256 in 320 px: one
//           each, which reads as noise), the (heads × heads) grid of its (d_head × d_head) blocks'
//           Frobenius norms on a sequential scale blockFloor..blockScale (the smallest to the
//           largest: a wide model's blocks differ by a few percent, which a scale from 0 would
//           paint one colour). Block (i, j) is output features
//           i·d_head.. of head j's columns, so column j's blocks combine (root sum of squares)
//           into ‖W_o[:, head j]‖, the record's head_norms the analysis reads;
//   zoom    one block's weights at full resolution on the full view's scale: a click on a block,
//           or Enter on the keyboard's cursor block; Escape or the back button returns.
// Axis titles, head labels under the columns, a colour bar, and a tooltip on hover or keyboard
// (arrow keys move a cursor cell). Colours are style.css's --heat-* variables, for both themes.
// The data may be any array type (plain array, Float32Array): only data[i] and length are read.
import { t } from '../i18n/i18n.js';

const MAX_PX = 320;
const MIN_CELL_PX = 4;
const LABEL_MIN_PX = 36;  // cells this wide have room for their block norm in figures
const colors = { neg: [33, 102, 172], zero: [255, 255, 255], pos: [178, 24, 43], line: '#222', cursor: '#000' };

function rgb(css) {  // '#rrggbb' -> [r, g, b]
  const n = parseInt(css.trim().slice(1), 16);
  return [n >> 16, (n >> 8) & 255, n & 255];
}

export function divergingColor(t) {  // t in [-1, 1]
  const c = t < 0 ? colors.neg : colors.pos;
  const a = Math.min(1, Math.abs(t));
  return [0, 1, 2].map((i) => Math.round(colors.zero[i] + (c[i] - colors.zero[i]) * a));
}

// 511 steps from -max to +max, so painting a 256 × 256 matrix is a table lookup per cell. The
// sequential scale of the block norms (0..max) is its upper half.
const LEVELS = 255;
const LUT = new Uint8ClampedArray((2 * LEVELS + 1) * 3);
const maps = new Set();  // every Heatmap, painted again in a new theme

// Reads the theme's heatmap colours and repaints every map.
export function applyHeatTheme() {
  const css = getComputedStyle(document.documentElement);
  colors.neg = rgb(css.getPropertyValue('--heat-neg'));
  colors.zero = rgb(css.getPropertyValue('--heat-zero'));
  colors.pos = rgb(css.getPropertyValue('--heat-pos'));
  colors.line = css.getPropertyValue('--heat-line').trim();
  colors.cursor = css.getPropertyValue('--fg').trim();
  for (let i = 0; i <= 2 * LEVELS; i++) LUT.set(divergingColor(i / LEVELS - 1), i * 3);
  for (const map of maps) {
    map.drawColorBar();
    map.paint();
  }
}
applyHeatTheme();

export function maxAbs(data) {
  let m = 0;
  for (let i = 0; i < data.length; i++) m = Math.max(m, Math.abs(data[i]));
  return m;
}

export function minOf(data) {
  let m = Infinity;
  for (let i = 0; i < data.length; i++) m = Math.min(m, data[i]);
  return m;
}

// The view a (d × d) matrix with `heads` column blocks opens in: every weight while each gets
// MIN_CELL_PX pixels, else the grid of head blocks (when it has more than one block of more
// than one weight, and its cells get MIN_CELL_PX too).
export function defaultView(cols, heads) {
  const fine = Math.floor(MAX_PX / cols) >= MIN_CELL_PX;
  const blocks = heads > 1 && cols / heads > 1 && Math.floor(MAX_PX / heads) >= MIN_CELL_PX;
  return fine || !blocks ? 'full' : 'blocks';
}

// The Frobenius norm of each (rows/heads × cols/heads) block of a (rows, cols) row-major matrix:
// (heads, heads) row-major, block (i, j) = rows i·rows/heads.. × head j's columns.
export function blockNorms(data, rows, cols, heads) {
  const bh = rows / heads, bw = cols / heads;
  const sq = new Float64Array(heads * heads);
  for (let r = 0; r < rows; r++) {
    const base = Math.floor(r / bh) * heads;
    for (let c = 0; c < cols; c++) {
      const v = data[r * cols + c];
      sq[base + Math.floor(c / bw)] += v * v;
    }
  }
  return sq.map(Math.sqrt);
}

// Block (i, j) of that grid, every weight: (rows/heads, cols/heads) row-major.
function blockOf(data, rows, cols, heads, i, j) {
  const bh = rows / heads, bw = cols / heads;
  const out = new Float64Array(bh * bw);
  for (let r = 0; r < bh; r++)
    for (let c = 0; c < bw; c++) out[r * bw + c] = data[(i * bh + r) * cols + j * bw + c];
  return out;
}

const fmt = (v) => (Math.abs(v) >= 1e-3 || v === 0 ? v.toFixed(4) : v.toExponential(2));

export class Heatmap {
  constructor(container) {
    this.matrix = null;  // what draw() was given
    this.shown = null;   // the grid painted: { data, rows, cols, vstep, hstep, sequential, scale, tip }
    this.zoom = null;    // [i, j]: the block shown at full resolution
    this.cursor = null;  // [row, col] of the shown grid while navigating with the keyboard

    const wrap = document.createElement('div');
    wrap.className = 'heatmap';
    this.caption = document.createElement('p');
    this.caption.className = 'heat-caption';
    this.back = document.createElement('button');
    this.back.type = 'button';
    this.back.className = 'small heat-back';
    this.back.hidden = true;
    this.xTitle = document.createElement('div');
    this.xTitle.className = 'heat-x';
    this.yTitle = document.createElement('div');
    this.yTitle.className = 'heat-y';
    const holder = document.createElement('div');
    holder.className = 'heat-map';
    this.heads = document.createElement('div');
    this.heads.className = 'heat-heads';
    this.heads.setAttribute('aria-hidden', 'true');  // the tooltip and the label name the head
    this.note = document.createElement('p');
    this.note.className = 'heat-note';
    this.note.hidden = true;
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'matrix';
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute('role', 'img');
    this.tip = document.createElement('div');
    this.tip.className = 'heatmap-tip';
    this.tip.setAttribute('aria-live', 'polite');
    this.tip.hidden = true;
    const bar = document.createElement('div');
    bar.className = 'colorbar';
    this.barCanvas = document.createElement('canvas');
    this.barCanvas.width = 200;
    this.barCanvas.height = 10;
    this.barCanvas.setAttribute('aria-hidden', 'true');
    const labels = document.createElement('div');
    labels.className = 'colorbar-labels';
    this.barLabels = [0, 1, 2].map(() => labels.appendChild(document.createElement('span')));
    this.barCaption = document.createElement('div');
    this.barCaption.className = 'colorbar-caption';
    bar.append(this.barCanvas, labels, this.barCaption);
    const top = document.createElement('div');
    top.className = 'heat-top';
    top.append(this.caption, this.back);
    holder.append(this.canvas, this.note, this.tip);
    wrap.append(top, this.xTitle, this.yTitle, holder, this.heads, bar);
    container.appendChild(wrap);
    this.drawColorBar();
    maps.add(this);

    this.canvas.addEventListener('mousemove', (e) => this.hover(e));
    this.canvas.addEventListener('mouseleave', () => { this.tip.hidden = true; });
    this.canvas.addEventListener('click', (e) => this.click(e));
    this.canvas.addEventListener('keydown', (e) => this.key(e));
    this.canvas.addEventListener('blur', () => { this.cursor = null; this.tip.hidden = true; this.paint(); });
    this.back.addEventListener('click', () => {
      this.canvas.focus();
      this.zoomOut();
    });
  }

  drawColorBar() {
    const ctx = this.barCanvas.getContext('2d');
    const img = ctx.createImageData(200, 1);
    const from = this.shown && this.shown.sequential ? 0 : -1;
    for (let x = 0; x < 200; x++) {
      const [r, g, b] = divergingColor(from + (x / 199) * (1 - from));
      img.data.set([r, g, b, 255], x * 4);
    }
    for (let y = 0; y < 10; y++) ctx.putImageData(img, 0, y);
  }

  // In place of the matrix, a sentence saying why there is none to draw.
  showNote(text) {
    this.note.textContent = text;
    this.note.hidden = false;
    this.canvas.hidden = true;
    this.heads.hidden = true;
    this.tip.hidden = true;
    this.caption.hidden = true;
    this.back.hidden = true;
  }

  // data: (rows, cols) row-major; heads: how many equal column blocks; label: the canvas's name.
  // scale: the |weight| drawn at full colour (default: this matrix's max|value|), caption: what
  // the colour bar says of it; blockFloor, blockScale and blockCaption: the same for the block
  // norms, from the smallest to the largest (default:
  // this matrix's largest). A zoomed block stays zoomed while the shape stays the same.
  draw(data, rows, cols, heads, label, { scale = maxAbs(data), caption = '', blockFloor = null, blockScale = null, blockCaption = '' } = {}) {
    const prev = this.matrix;
    if (!prev || prev.rows !== rows || prev.cols !== cols || prev.heads !== heads) {
      this.zoom = null;
      this.cursor = null;
    }
    this.matrix = { data, rows, cols, heads, label, scale, caption, blockFloor, blockScale, blockCaption, view: defaultView(cols, heads) };
    this.note.hidden = true;
    this.canvas.hidden = false;
    this.heads.hidden = false;
    this.caption.hidden = false;
    this.render();
  }

  // The grid of the current view, its titles, caption and colour bar, from this.matrix.
  render() {
    const m = this.matrix;
    const view = this.zoom ? 'zoom' : m.view;
    const dh = m.cols / m.heads, bh = m.rows / m.heads;
    const headLabel = (h) => t(m.heads <= 4 ? 'headN' : 'heatHeadShort', { head: h });
    let s, heads, rowsTitle, colsTitle, caption, label;
    if (view === 'full') {
      s = { data: m.data, rows: m.rows, cols: m.cols, vstep: dh, hstep: 0, sequential: false, floor: 0, scale: m.scale,
        tip: (r, c, v) => t('cellTip', { row: r, col: c, head: Math.floor(c / dh), value: fmt(v) }) };
      heads = Array.from({ length: m.heads }, (_, h) => headLabel(h));
      rowsTitle = t('heatRows');
      colsTitle = t('heatCols');
      caption = t('heatViewFull', { rows: m.rows, cols: m.cols });
      label = m.label;
    } else if (view === 'blocks') {
      const norms = blockNorms(m.data, m.rows, m.cols, m.heads);
      s = { data: norms, rows: m.heads, cols: m.heads, vstep: 1, hstep: 1, sequential: true,
        floor: m.blockFloor ?? minOf(norms), scale: m.blockScale ?? maxAbs(norms),
        tip: (i, j, v) => t('blockTip', { r0: i * bh, r1: (i + 1) * bh - 1, head: j, value: fmt(v) }) };
      heads = Array.from({ length: m.heads }, (_, h) => headLabel(h));
      rowsTitle = t('heatBlockRows', { n: bh });
      colsTitle = t('heatCols');
      caption = t('heatViewBlocks', { heads: m.heads, n: bh, d: m.cols });
      label = t('heatBlocksLabel', { name: m.label, heads: m.heads });
    } else {
      const [i, j] = this.zoom;
      const where = { r0: i * bh, r1: (i + 1) * bh - 1, c0: j * dh, c1: (j + 1) * dh - 1, head: j };
      s = { data: blockOf(m.data, m.rows, m.cols, m.heads, i, j), rows: bh, cols: dh, vstep: 0, hstep: 0,
        sequential: false, floor: 0, scale: m.scale,
        tip: (r, c, v) => t('cellTip', { row: i * bh + r, col: j * dh + c, head: j, value: fmt(v) }) };
      heads = [headLabel(j)];
      rowsTitle = t('heatZoomRows', where);
      colsTitle = t('heatZoomCols', where);
      caption = t('heatViewZoom', where);
      label = t('heatZoomLabel', { name: m.label, ...where });
    }
    this.shown = s;
    this.yTitle.textContent = rowsTitle;
    this.xTitle.textContent = colsTitle;
    this.caption.textContent = caption;
    this.back.hidden = view !== 'zoom';
    this.back.textContent = t('heatBack');
    this.canvas.classList.toggle('zoomable', view === 'blocks');
    if (this.heads.childElementCount !== heads.length) {
      this.heads.replaceChildren(...heads.map(() => document.createElement('span')));
    }
    heads.forEach((text, h) => { this.heads.children[h].textContent = text; });
    const cell = Math.max(1, Math.floor(MAX_PX / s.cols));
    this.cell = cell;
    if (this.canvas.width !== s.cols * cell) this.canvas.width = s.cols * cell;
    if (this.canvas.height !== s.rows * cell) this.canvas.height = s.rows * cell;
    Object.assign(this.canvas.dataset, { view, rows: s.rows, cols: s.cols, heads: m.heads, cell, scale: s.scale });
    if (this.zoom) this.canvas.dataset.block = this.zoom.join(',');
    else delete this.canvas.dataset.block;
    this.canvas.setAttribute('aria-label', label);
    this.barLabels[0].textContent = s.sequential ? fmt(s.floor) : fmt(-s.scale);
    this.barLabels[1].textContent = s.sequential ? fmt((s.floor + s.scale) / 2) : '0';
    this.barLabels[2].textContent = fmt(s.scale);
    this.barCaption.textContent = s.sequential ? m.blockCaption : m.caption;
    this.drawColorBar();
    this.paint();
  }

  paint() {
    if (!this.shown) return;
    const { data, rows, cols, vstep, hstep, floor, scale } = this.shown;
    const cell = this.cell;
    const pixels = new ImageData(cols, rows);  // one pixel per cell, scaled up below
    const px = pixels.data;
    const k = scale > floor ? LEVELS / (scale - floor) : 0;
    for (let i = 0; i < rows * cols; i++) {
      const j = 3 * Math.min(2 * LEVELS, Math.max(0, Math.round(LEVELS + (data[i] - floor) * k)));
      px[i * 4] = LUT[j];
      px[i * 4 + 1] = LUT[j + 1];
      px[i * 4 + 2] = LUT[j + 2];
      px[i * 4 + 3] = 255;
    }
    const ctx = this.canvas.getContext('2d');
    if (cell === 1) {
      ctx.putImageData(pixels, 0, 0);
    } else {
      const small = new OffscreenCanvas(cols, rows);
      small.getContext('2d').putImageData(pixels, 0, 0);
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(small, 0, 0, cols * cell, rows * cell);
    }
    ctx.fillStyle = colors.line;
    const w = cell >= 4 ? 2 : 1;
    if (vstep) for (let c = vstep; c < cols; c += vstep) ctx.fillRect(c * cell - w / 2, 0, w, rows * cell);
    if (hstep) for (let r = hstep; r < rows; r += hstep) ctx.fillRect(0, r * cell - w / 2, cols * cell, w);
    if (this.shown.sequential && cell >= LABEL_MIN_PX) this.labelCells(ctx, cell);
    if (this.cursor) {
      ctx.strokeStyle = colors.cursor;
      ctx.lineWidth = 2;
      ctx.strokeRect(this.cursor[1] * cell + 1, this.cursor[0] * cell + 1, Math.max(cell - 2, 2), Math.max(cell - 2, 2));
    }
  }

  // Each block's norm written in its cell, dark on light colours and light on dark: block norms
  // of one W_o often differ by a few percent, which colour alone does not show.
  labelCells(ctx, cell) {
    const { data, rows, cols, floor, scale } = this.shown;
    ctx.font = `${Math.min(14, Math.round(cell / 5))}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let i = 0; i < rows * cols; i++) {
      const [r, g, b] = divergingColor(scale > floor ? (data[i] - floor) / (scale - floor) : 0);
      ctx.fillStyle = 0.299 * r + 0.587 * g + 0.114 * b > 140 ? '#111' : '#fff';
      ctx.fillText(data[i].toPrecision(3), (i % cols + 0.5) * cell, (Math.floor(i / cols) + 0.5) * cell);
    }
  }

  // The shown grid's cell under a point in CSS pixels of the canvas, or null.
  cellAt(x, y) {
    if (!this.shown) return null;
    const rect = this.canvas.getBoundingClientRect();
    const col = Math.floor((x / rect.width) * this.shown.cols);
    const row = Math.floor((y / rect.height) * this.shown.rows);
    if (row < 0 || col < 0 || row >= this.shown.rows || col >= this.shown.cols) return null;
    return [row, col];
  }

  showTip(row, col, x, y) {
    const { data, cols, tip } = this.shown;
    this.tip.textContent = tip(row, col, data[row * cols + col]);
    this.tip.hidden = false;
    this.tip.style.left = `${Math.round(x + 12)}px`;
    this.tip.style.top = `${Math.round(y + 12)}px`;
  }

  hover(e) {
    const rect = this.canvas.getBoundingClientRect();
    const hit = this.cellAt(e.clientX - rect.left, e.clientY - rect.top);
    if (!hit) {
      this.tip.hidden = true;
      return;
    }
    this.showTip(hit[0], hit[1], e.clientX - rect.left, e.clientY - rect.top);
  }

  click(e) {
    if (this.zoom || !this.matrix || this.matrix.view !== 'blocks') return;
    const rect = this.canvas.getBoundingClientRect();
    const hit = this.cellAt(e.clientX - rect.left, e.clientY - rect.top);
    if (hit) this.zoomIn(hit);
  }

  zoomIn(block) {
    this.zoom = block;
    this.cursor = null;
    this.tip.hidden = true;
    this.render();
  }

  // Back to the head blocks, the keyboard's cursor on the block that was shown.
  zoomOut() {
    if (!this.zoom) return;
    const block = this.zoom;
    this.zoom = null;
    this.render();
    if (document.activeElement === this.canvas) this.moveCursor(block);
  }

  moveCursor(cell) {
    this.cursor = cell;
    this.paint();
    const { rows, cols } = this.shown;
    const rect = this.canvas.getBoundingClientRect();
    this.showTip(cell[0], cell[1], ((cell[1] + 1) / cols) * rect.width, ((cell[0] + 1) / rows) * rect.height);
  }

  key(e) {
    if (!this.shown) return;
    if (e.key === 'Escape' && this.zoom) {
      e.preventDefault();
      this.zoomOut();
      return;
    }
    if ((e.key === 'Enter' || e.key === ' ') && !this.zoom && this.matrix.view === 'blocks') {
      e.preventDefault();
      this.zoomIn(this.cursor || [0, 0]);
      return;
    }
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (!moves[e.key]) return;
    e.preventDefault();
    const { rows, cols } = this.shown;
    const [r, c] = this.cursor || [0, 0];
    const [dr, dc] = this.cursor ? moves[e.key] : [0, 0];
    this.moveCursor([Math.min(rows - 1, Math.max(0, r + dr)), Math.min(cols - 1, Math.max(0, c + dc))]);
  }
}
