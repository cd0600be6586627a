// Chart.js (vendor/chart.umd.js, a classic script) set up for this page: line charts with a mean
// line and a min–max band per group, and bar charts. Charts never animate and are updated with
// update('none') by the views, at most a few times a second (frames.js).
import { downloadDataUrl } from './export.js';
import { t } from './i18n.js';

const Chart = globalThis.Chart;

Chart.defaults.animation = false;
Chart.defaults.responsive = true;
Chart.defaults.maintainAspectRatio = false;
Chart.defaults.font.size = 11;

// Exported PNGs get a white background instead of a transparent one.
Chart.register({
  id: 'whiteBackground',
  beforeDraw(chart) {
    const { ctx, width, height } = chart;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, width, height);
    ctx.restore();
  },
});

// Okabe–Ito colours: distinguishable with the common colour-vision deficiencies.
export const VARIANT_COLORS = {
  learned: '#0072B2',
  identity: '#E69F00',
  frozen_random: '#D55E00',
  learned_identity_init: '#009E73',
};
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#000000'];

export function alpha(hex, a) {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
}

// Clicking a legend entry hides or shows the whole group (mean line and its band).
function toggleGroup(e, item, legend) {
  const chart = legend.chart;
  const group = chart.data.datasets[item.datasetIndex].group;
  const hidden = chart.isDatasetVisible(item.datasetIndex);
  chart.data.datasets.forEach((d, i) => {
    if (d.group === group) chart.setDatasetVisibility(i, !hidden);
  });
  chart.update('none');
}

export function lineChart(canvas, { logY = false, yMin, yMax } = {}) {
  return new Chart(canvas, {
    type: 'line',
    data: { datasets: [] },
    options: {
      parsing: false,
      normalized: true,
      spanGaps: true,
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      elements: { point: { radius: 0, hitRadius: 4 }, line: { borderWidth: 1.5 } },
      scales: {
        x: { type: 'linear', title: { display: true, text: '' } },
        y: { type: logY ? 'logarithmic' : 'linear', min: yMin, max: yMax, title: { display: true, text: '' } },
      },
      plugins: {
        legend: {
          labels: { boxWidth: 12, filter: (item, data) => data.datasets[item.datasetIndex].role === 'mean' },
          onClick: toggleGroup,
        },
        tooltip: { filter: (item) => item.dataset.role === 'mean' },
      },
    },
  });
}

export function barChart(canvas) {
  return new Chart(canvas, {
    type: 'bar',
    data: { labels: [], datasets: [] },
    options: {
      scales: { x: { title: { display: true, text: '' } }, y: { beginAtZero: true, title: { display: true, text: '' } } },
      plugins: { legend: { labels: { boxWidth: 12 } } },
    },
  });
}

export function setAxisTitles(chart, x, y) {
  chart.options.scales.x.title.text = x;
  chart.options.scales.y.title.text = y;
}

const points = (xs, ys) => xs.map((x, i) => ({ x, y: ys[i] }));

// groups: [{ group, label, color, dash, bands: { x, mean, min, max }, band: bool }]. Each group
// becomes datasets role 'min', 'max' (filled to 'min') and 'mean', so tests and the legend can
// tell them apart.
export function setBandSeries(chart, groups) {
  const datasets = [];
  for (const g of groups) {
    const common = { group: g.group, borderDash: g.dash || [], pointRadius: 0 };
    if (g.band !== false) {
      datasets.push({ ...common, role: 'min', label: `${g.label} min`, data: points(g.bands.x, g.bands.min),
        borderWidth: 0, borderColor: 'transparent', fill: false });
      datasets.push({ ...common, role: 'max', label: `${g.label} max`, data: points(g.bands.x, g.bands.max),
        borderWidth: 0, borderColor: 'transparent', backgroundColor: alpha(g.color, 0.18), fill: '-1' });
    }
    datasets.push({ ...common, role: 'mean', label: g.label, data: points(g.bands.x, g.bands.mean),
      borderColor: g.color, backgroundColor: g.color, fill: false });
  }
  keepVisibility(chart, datasets);
  chart.data.datasets = datasets;
}

export function setBars(chart, labels, series) {
  chart.data.labels = labels;
  const datasets = series.map((s) => ({ label: s.label, data: s.data, backgroundColor: s.color }));
  keepVisibility(chart, datasets);
  chart.data.datasets = datasets;
}

// A group hidden through the legend stays hidden when the data is replaced.
function keepVisibility(chart, datasets) {
  const hidden = new Set();
  chart.data.datasets.forEach((d, i) => {
    if (!chart.isDatasetVisible(i)) hidden.add(d.group ?? d.label);
  });
  for (const d of datasets) d.hidden = hidden.has(d.group ?? d.label);
}

// A titled figure holding one chart and its PNG download button. make(canvas) creates the chart;
// fileName() names the PNG. The caller sets title.textContent and the button's label.
export function chartBox(container, make, fileName) {
  const figure = document.createElement('figure');
  figure.className = 'chart-box';
  const caption = document.createElement('figcaption');
  const title = document.createElement('span');
  const png = document.createElement('button');
  png.type = 'button';
  png.className = 'small';
  caption.append(title, png);
  const holder = document.createElement('div');
  holder.className = 'chart-holder';
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  holder.appendChild(canvas);
  figure.append(caption, holder);
  container.appendChild(figure);
  const chart = make(canvas);
  png.addEventListener('click', () => downloadDataUrl(fileName(), chart.toBase64Image('image/png', 1)));
  return { figure, title, png, canvas, chart };
}

// Names a chart box in the current language: caption, canvas label, PNG button.
export function labelBox(box, title) {
  box.title.textContent = title;
  box.canvas.setAttribute('aria-label', title);
  box.png.textContent = t('png');
  box.png.setAttribute('aria-label', t('pngLabel', { chart: title }));
}
