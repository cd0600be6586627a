// A matrix as a diverging heatmap on a canvas: symmetric scale (±scale, by default max|value|),
// colour bar, axis titles, lines between head blocks (heads split W_o's columns) with a label
// under each, and a tooltip with row, column, head and value on hover or keyboard (arrow keys
// move a cursor cell). Its colours are style.css's --heat-* variables, for both themes.
const MAX_PX = 320;
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

// 511 steps from -max to +max, so painting a 256 × 256 matrix is a table lookup per cell.
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

const fmt = (v) => (Math.abs(v) >= 1e-3 || v === 0 ? v.toFixed(4) : v.toExponential(2));

export class Heatmap {
  // describe(row, col, head, value) -> tooltip text (localised by the caller).
  constructor(container, describe) {
    this.describe = describe;
    this.matrix = null;
    this.cursor = null;  // [row, col] while navigating with the keyboard

    const wrap = document.createElement('div');
    wrap.className = 'heatmap';
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
    holder.append(this.canvas, this.note, this.tip);
    wrap.append(this.xTitle, this.yTitle, holder, this.heads, bar);
    container.appendChild(wrap);
    this.drawColorBar();
    maps.add(this);

    this.canvas.addEventListener('mousemove', (e) => this.hover(e));
    this.canvas.addEventListener('mouseleave', () => { this.tip.hidden = true; });
    this.canvas.addEventListener('keydown', (e) => this.key(e));
    this.canvas.addEventListener('blur', () => { this.cursor = null; this.tip.hidden = true; this.paint(); });
  }

  drawColorBar() {
    const ctx = this.barCanvas.getContext('2d');
    const img = ctx.createImageData(200, 1);
    for (let x = 0; x < 200; x++) {
      const [r, g, b] = divergingColor((x / 199) * 2 - 1);
      img.data.set([r, g, b, 255], x * 4);
    }
    for (let y = 0; y < 10; y++) ctx.putImageData(img, 0, y);
  }

  // The axis titles and the label of head h's block, in the caller's language.
  axes(rows, cols, headLabel) {
    this.yTitle.textContent = rows;
    this.xTitle.textContent = cols;
    this.headLabel = headLabel;
  }

  // In place of the matrix, a sentence saying why there is none to draw.
  showNote(text) {
    this.note.textContent = text;
    this.note.hidden = false;
    this.canvas.hidden = true;
    this.heads.hidden = true;
    this.tip.hidden = true;
  }

  // data: (rows, cols) row-major; heads: how many equal column blocks; label: the canvas's name;
  // scale: the |value| drawn at full colour (default: this matrix's max|value|); caption: what
  // the colour bar says about the scale.
  draw(data, rows, cols, heads, label, scale = maxAbs(data), caption = '') {
    this.note.hidden = true;
    this.canvas.hidden = false;
    this.heads.hidden = false;
    this.matrix = { data, rows, cols, heads, scale };
    if (this.heads.childElementCount !== heads) {
      this.heads.replaceChildren(...Array.from({ length: heads }, () => document.createElement('span')));
    }
    [...this.heads.children].forEach((span, h) => { span.textContent = this.headLabel ? this.headLabel(h) : String(h); });
    this.barCaption.textContent = caption;
    const cell = Math.max(1, Math.floor(MAX_PX / cols));
    this.cell = cell;
    if (this.canvas.width !== cols * cell) this.canvas.width = cols * cell;
    if (this.canvas.height !== rows * cell) this.canvas.height = rows * cell;
    Object.assign(this.canvas.dataset, { rows, cols, heads, cell, scale });
    this.canvas.setAttribute('aria-label', label);
    this.barLabels[0].textContent = fmt(-scale);
    this.barLabels[1].textContent = '0';
    this.barLabels[2].textContent = fmt(scale);
    this.paint();
  }

  paint() {
    if (!this.matrix) return;
    const { data, rows, cols, heads, scale } = this.matrix;
    const cell = this.cell;
    const pixels = new ImageData(cols, rows);  // one pixel per cell, scaled up below
    const px = pixels.data;
    const k = scale > 0 ? LEVELS / scale : 0;
    for (let i = 0; i < rows * cols; i++) {
      const j = 3 * Math.min(2 * LEVELS, Math.max(0, Math.round(LEVELS + data[i] * k)));
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
    const dk = cols / heads;
    const w = cell >= 4 ? 2 : 1;
    for (let h = 1; h < heads; h++) ctx.fillRect(h * dk * cell - w / 2, 0, w, rows * cell);
    if (this.cursor) {
      ctx.strokeStyle = colors.cursor;
      ctx.lineWidth = 2;
      ctx.strokeRect(this.cursor[1] * cell + 1, this.cursor[0] * cell + 1, Math.max(cell - 2, 2), Math.max(cell - 2, 2));
    }
  }

  // The matrix cell under a point in CSS pixels of the canvas, or null.
  cellAt(x, y) {
    if (!this.matrix) return null;
    const rect = this.canvas.getBoundingClientRect();
    const col = Math.floor((x / rect.width) * this.matrix.cols);
    const row = Math.floor((y / rect.height) * this.matrix.rows);
    if (row < 0 || col < 0 || row >= this.matrix.rows || col >= this.matrix.cols) return null;
    return [row, col];
  }

  showTip(row, col, x, y) {
    const { data, cols, heads } = this.matrix;
    const head = Math.floor(col / (cols / heads));
    this.tip.textContent = this.describe(row, col, head, fmt(data[row * cols + col]));
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

  key(e) {
    if (!this.matrix) return;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (!moves[e.key]) return;
    e.preventDefault();
    const { rows, cols } = this.matrix;
    const [r, c] = this.cursor || [0, 0];
    const [dr, dc] = this.cursor ? moves[e.key] : [0, 0];
    this.cursor = [Math.min(rows - 1, Math.max(0, r + dr)), Math.min(cols - 1, Math.max(0, c + dc))];
    this.paint();
    const rect = this.canvas.getBoundingClientRect();
    const x = ((this.cursor[1] + 1) / cols) * rect.width;
    const y = ((this.cursor[0] + 1) / rows) * rect.height;
    this.showTip(this.cursor[0], this.cursor[1], x, y);
  }
}
