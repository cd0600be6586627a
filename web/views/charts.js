// Chart.js (vendor/chart.umd.js, a classic script) set up for this page. A ChartBox is a titled
// figure with a PNG button; views give it series, and it creates and redraws its Chart in a
// later frame once it is near the viewport (frames.js), since creating and drawing charts are
// the costliest main-thread work while training. Charts never animate.
import { downloadUrl } from '../results/export.js';
import { invalidate } from '../base/frames.js';
import { t } from '../i18n/i18n.js';
import { experimentInfos } from '../state/state.js';

const Chart = globalThis.Chart;

Chart.defaults.animation = false;
Chart.defaults.responsive = true;
Chart.defaults.maintainAspectRatio = false;
Chart.defaults.font.size = 11;

// Every colour comes from style.css's variables, so that charts follow the light or dark theme.
// applyTheme() reads them again after the theme changes; the views then draw again.
const theme = { background: '#fff', variants: new Map() };
export const PALETTE = [];  // filled in place, so that views holding it see the current theme
const boxes = new Set();    // every ChartBox, whose Chart is made again in a new theme

const cssVar = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

// Reads the theme's colours; the caller then has the views draw again with them.
export function applyTheme() {
  theme.background = cssVar('--panel');
  theme.variants.clear();
  PALETTE.splice(0, PALETTE.length, ...cssVar('--palette').split(',').map((c) => c.trim()));
  Chart.defaults.color = cssVar('--chart-text');
  Chart.defaults.borderColor = cssVar('--chart-grid');
  for (const box of boxes) {
    if (!box.chart) continue;
    box.chart.destroy();  // a Chart keeps the defaults it was made with
    box.chart = null;
    box.draw();
  }
}

// A variant's colour (--variant-<name>), the same in every chart.
export function variantColor(variant) {
  if (!theme.variants.has(variant)) theme.variants.set(variant, cssVar(`--variant-${variant}`) || cssVar('--chart-text'));
  return theme.variants.get(variant);
}

// Besides its colour, each variant has its own dash and marker, so that a line drawn over
// another (or a colour hard to tell apart) still shows which is which. A variant's style is
// its place in the core's experiments(), the variants in the order they first appear there: the
// same in every chart.
const DASHES = [[], [6, 4], [2, 3], [10, 3, 2, 3], [14, 5], [5, 2, 1, 2]];
const MARKERS = ['circle', 'rect', 'triangle', 'rectRot', 'crossRot', 'star'];
function variantStyle(variant) {
  const order = [...new Set(experimentInfos().flatMap((e) => e.variants))];
  const i = order.indexOf(variant);
  return i < 0 ? { dash: [], marker: 'circle' } : { dash: DASHES[i % DASHES.length], marker: MARKERS[i % MARKERS.length] };
}

// Exported PNGs get the panel's background instead of a transparent one.
Chart.register({
  id: 'panelBackground',
  beforeDraw(chart) {
    const { ctx, width, height } = chart;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    ctx.fillStyle = theme.background;
    ctx.fillRect(0, 0, width, height);
    ctx.restore();
  },
});

// A chart's PNG at twice its CSS size, whatever the screen's devicePixelRatio: drawn once at
// ratio 2 for the file, then back at the screen's own.
const PNG_SCALE = 2;
function pngUrl(chart) {
  const own = chart.options.devicePixelRatio;
  chart.options.devicePixelRatio = PNG_SCALE;
  chart.resize();
  const url = chart.toBase64Image('image/png', 1);
  chart.options.devicePixelRatio = own;
  chart.resize();
  return url;
}

function alpha(hex, a) {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
}

// A legend entry's swatch: a short stretch of the line, with its dash and its marker. Chart.js
// draws an image at its width × height in CSS pixels, so the image's pixels are drawn at three
// times that, sharp on high-density screens and in the PNGs. One image per look; the charts
// are drawn again once it has decoded.
const SWATCH = { width: 30, height: 10, scale: 3 };
const swatches = new Map();
function swatch(color, dash, marker) {
  const key = `${color}|${dash.join(' ')}|${marker}`;
  if (swatches.has(key)) return swatches.get(key);
  const { width, height, scale } = SWATCH;
  const c = document.createElement('canvas');
  c.width = width * scale;
  c.height = height * scale;
  const ctx = c.getContext('2d');
  ctx.scale(scale, scale);
  ctx.strokeStyle = color;
  ctx.fillStyle = alpha(color, 0.25);
  ctx.lineWidth = 1.5;
  ctx.setLineDash(dash);
  ctx.beginPath();
  ctx.moveTo(0, height / 2);
  ctx.lineTo(width, height / 2);
  ctx.stroke();
  ctx.setLineDash([]);
  if (marker) Chart.helpers.drawPoint(ctx, { pointStyle: marker, radius: 3.5, borderWidth: 1.5 }, width / 2, height / 2);
  const img = new Image(width, height);
  img.onload = () => {
    for (const box of boxes) if (box.chart) box.chart.draw();
  };
  img.src = c.toDataURL();
  swatches.set(key, img);
  return img;
}

// Two lines coincide when, at every x of the one with fewer points, the other has a point within
// 1% of the y axis's span (in log10 units on a log axis): about 2 px on a 200 px plot, so one
// line is drawn entirely under the other. Returns, per mean dataset, those it coincides with.
const OVERLAP_TOLERANCE = 0.01;
function overlaps(chart) {
  const y = chart.scales.y;
  const f = y.type === 'logarithmic' ? (v) => Math.log10(v) : (v) => v;
  const tol = OVERLAP_TOLERANCE * Math.abs(f(y.max) - f(y.min));
  const lines = chart.data.datasets.filter((d) => d.role === 'mean')
    .map((d) => ({ d, at: new Map(d.data.filter((p) => Number.isFinite(p.y) && (y.type !== 'logarithmic' || p.y > 0)).map((p) => [p.x, f(p.y)])) }))
    .filter((l) => l.at.size > 0);
  const under = (a, b) => [...a.at].every(([x, v]) => b.at.has(x) && Math.abs(b.at.get(x) - v) <= tol);
  const out = new Map(lines.map((l) => [l.d, []]));
  for (const a of lines) {
    for (const b of lines) {
      if (a === b) continue;
      const [few, many] = a.at.size <= b.at.size ? [a, b] : [b, a];
      if (under(few, many)) out.get(a.d).push(b.d);
    }
  }
  return out;
}

// Clicking a legend entry hides or shows the whole group (mean line and its band).
function toggleGroup(e, item, legend) {
  const chart = legend.chart;
  const group = chart.data.datasets[item.datasetIndex].group;
  const show = !chart.isDatasetVisible(item.datasetIndex);
  chart.data.datasets.forEach((d, i) => {
    if (d.group === group) chart.setDatasetVisibility(i, show);
  });
  chart.update('none');
}

export function lineOptions({ logX = false, logY = false, yMin, yMax } = {}) {
  return {
    type: 'line',
    options: {
      parsing: false,
      normalized: true,
      spanGaps: true,
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      elements: { point: { radius: 0, hitRadius: 4, borderWidth: 1.5 }, line: { borderWidth: 1.5 } },
      scales: {
        x: logX  // learning rates
          ? { type: 'logarithmic', title: { display: true, text: '' } }
          : { type: 'linear', ticks: { precision: 0 }, title: { display: true, text: '' } },  // steps, indices
        y: { type: logY ? 'logarithmic' : 'linear', min: yMin, max: yMax, title: { display: true, text: '' } },
      },
      plugins: {
        legend: {
          labels: {
            usePointStyle: true,
            pointStyleWidth: 30,  // the swatch's width
            // One entry per group: its mean line, under the group's legend text when it has one
            // (null: the group is listed by another dataset of the same look), naming the lines
            // it coincides with.
            filter: (item, data) => data.datasets[item.datasetIndex].role === 'mean' && data.datasets[item.datasetIndex].legend !== null,
            generateLabels: (chart) => Chart.defaults.plugins.legend.labels.generateLabels(chart).map((item) => {
              const d = chart.data.datasets[item.datasetIndex];
              const text = d.legend ?? item.text;
              return {
                ...item,
                text: d.overlaps && d.overlaps.length ? t('overlapsWith', { label: text, others: d.overlaps.join(t('noteJoin')) }) : text,
                pointStyle: swatch(d.borderColor, d.borderDash, d.marker),
              };
            }),
          },
          onClick: toggleGroup,
        },
        tooltip: { filter: (item) => item.dataset.role === 'mean' },
      },
    },
  };
}

export function barOptions() {
  return {
    type: 'bar',
    options: {
      scales: { x: { title: { display: true, text: '' } }, y: { beginAtZero: true, title: { display: true, text: '' } } },
      plugins: { legend: { labels: { boxWidth: 12 } } },
    },
  };
}

// Plain objects and arrays copied to any depth; functions and values shared.
function copyOptions(o) {
  if (Array.isArray(o)) return o.map(copyOptions);
  if (o && typeof o === 'object') return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, copyOptions(v)]));
  return o;
}

const points = (xs, ys) => xs.map((x, i) => ({ x, y: ys[i] }));

// Where a line of n points draws its marker: every point of a short line, else about 8 along
// it, shifted by the marker's place so that markers of coinciding lines do not cover each other.
const MARKED = 20;
function markedAt(n, marker) {
  if (n <= MARKED) return () => true;
  const every = Math.ceil(n / 8);
  const shift = Math.round((MARKERS.indexOf(marker) / MARKERS.length) * every);
  return (i) => i % every === shift;
}

// groups: [{ group, label, legend, color, variant, band, bands: { x, mean, min, max } }].
// Each group becomes datasets with role 'min', 'max' (filled down to 'min') and 'mean', so that
// tests and the legend can tell them apart; band: false draws the mean line alone. A variant's
// line has its dash and marker (variantStyle); a line of no variant is plain.
function bandDatasets(groups) {
  const datasets = [];
  for (const g of groups) {
    const style = g.variant ? variantStyle(g.variant) : { dash: [], marker: null };
    const common = { group: g.group, variant: g.variant, borderDash: style.dash, pointRadius: 0 };
    if (g.band !== false) {
      datasets.push({ ...common, role: 'min', label: `${g.label} min`, data: points(g.bands.x, g.bands.min),
        borderWidth: 0, borderColor: 'transparent', fill: false });
      datasets.push({ ...common, role: 'max', label: `${g.label} max`, data: points(g.bands.x, g.bands.max),
        borderWidth: 0, borderColor: 'transparent', backgroundColor: alpha(g.color, 0.18), fill: '-1' });
    }
    const marked = style.marker ? markedAt(g.bands.x.length, style.marker) : () => false;
    datasets.push({ ...common, role: 'mean', label: g.label, legend: g.legend, data: points(g.bands.x, g.bands.mean),
      borderColor: g.color, backgroundColor: g.color, fill: false, marker: style.marker,
      pointStyle: style.marker || 'circle', pointBackgroundColor: style.marker ? alpha(g.color, 0.25) : g.color,
      pointRadius: (ctx) => (marked(ctx.dataIndex) ? (ctx.dataset.beneath ? 5.5 : 3.5) : 0) });
  }
  return datasets;
}

// The first Chart a page makes costs several times a later one (code paths not yet compiled,
// fonts measured): ~100 ms against ~15 ms here. Paid once at load on a detached canvas, it never
// lands in a frame while the workers train.
export function warmUp() {
  const canvas = document.createElement('canvas');
  canvas.width = 300;
  canvas.height = 150;
  const line = lineOptions({ logY: true });
  const band = { group: 'g', label: 'g', color: PALETTE[0], bands: { x: [1, 2, 3], mean: [2, 1, 0.5], min: [1.5, 0.8, 0.4], max: [2.5, 1.2, 0.6] } };
  new Chart(canvas, { ...line, options: { ...line.options, responsive: false }, data: { datasets: bandDatasets([band]) } }).destroy();
  const bar = barOptions();
  new Chart(canvas, { ...bar, options: { ...bar.options, responsive: false }, data: { labels: ['a'], datasets: [{ data: [1] }] } }).destroy();
}

export class ChartBox {
  // options: lineOptions() or barOptions(); fileName() names the PNG; name marks the canvas
  // (data-chart) so that tests can find it.
  constructor(container, options, fileName, name) {
    this.options = options;
    this.chart = null;
    this.data = { labels: [], datasets: [] };
    this.axes = ['', ''];
    this.figure = document.createElement('figure');
    this.figure.className = 'chart-box';
    const caption = document.createElement('figcaption');
    this.title = document.createElement('span');
    this.png = document.createElement('button');
    this.png.type = 'button';
    this.png.className = 'small';
    this.png.disabled = true;
    caption.append(this.title, this.png);
    const holder = document.createElement('div');
    holder.className = 'chart-holder';
    this.canvas = document.createElement('canvas');
    this.canvas.setAttribute('role', 'img');
    this.canvas.dataset.chart = name;
    holder.appendChild(this.canvas);
    this.figure.append(caption, holder);
    container.appendChild(this.figure);
    this.png.addEventListener('click', () => {
      if (this.chart) downloadUrl(fileName(), pngUrl(this.chart));
    });
    boxes.add(this);
  }

  // Title, canvas label and PNG button in the current language.
  label(title, xAxis, yAxis) {
    this.title.textContent = title;
    this.canvas.setAttribute('aria-label', title);
    this.png.textContent = t('png');
    this.png.setAttribute('aria-label', t('pngLabel', { chart: title }));
    this.axes = [xAxis, yAxis];
  }

  // The y axis' range, fitted to the data by the view (undefined: the options' own).
  yRange(min, max) {
    this.range = { min, max };
  }

  // groups: see bandDatasets.
  bands(groups) {
    this.data = { labels: [], datasets: bandDatasets(groups) };
    this.draw();
  }

  // series: [{ label, data: number[], color }] over the category labels.
  bars(labels, series) {
    const datasets = series.map((s) => ({ group: s.label, label: s.label, data: s.data, backgroundColor: s.color }));
    this.data = { labels, datasets };
    this.draw();
  }

  draw() {
    invalidate(this, () => this.render(), this.figure);
  }

  render() {
    if (!this.chart) {
      // A copy: Chart.js writes the defaults of the moment (the theme's colours) into the options
      // it is given, and a Chart made again in another theme must read them afresh.
      this.chart = new Chart(this.canvas, { ...copyOptions(this.options), data: { labels: [], datasets: [] } });
      this.png.disabled = false;
    }
    const chart = this.chart;
    // A group hidden through the legend stays hidden when its data is replaced.
    const hidden = new Set();
    chart.data.datasets.forEach((d, i) => {
      if (!chart.isDatasetVisible(i)) hidden.add(d.group);
    });
    for (const d of this.data.datasets) d.hidden = hidden.has(d.group);
    chart.data = this.data;
    chart.options.scales.x.title.text = this.axes[0];
    chart.options.scales.y.title.text = this.axes[1];
    if (this.range) Object.assign(chart.options.scales.y, this.range);
    chart.update('none');
    // Which lines coincide is read on the axes just laid out; their legend entries are then
    // made again (a second layout only when that changes). Chart.js draws the first dataset on
    // top: a line beneath an earlier one is drawn wider, with larger markers, so that it shows
    // around the line that covers it.
    const found = overlaps(chart);
    let changed = false;
    for (const [d, over] of found) {
      const names = over.map((o) => o.legend ?? o.label);
      const beneath = over.some((o) => chart.data.datasets.indexOf(o) < chart.data.datasets.indexOf(d));
      if ((d.overlaps || []).join('\n') !== names.join('\n') || Boolean(d.beneath) !== beneath) changed = true;
      d.overlaps = names;
      d.beneath = beneath;
      d.borderWidth = beneath ? 4 : undefined;
    }
    if (changed) chart.update('none');
  }
}
