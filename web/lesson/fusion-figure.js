// The fusion, drawn from a real run, beside the block diagram: for each output feature of a
// recorded learned W_o (the first seed of the smallest preset's wo_heatmap experiment, its last
// snapshot of the first layer), how much it draws from each head, against the identity (no W_o),
// where every output comes from exactly one head. Each output is a bar split into its heads'
// shares of ‖W_o[i, head h]‖² (the core's rowHeadNorms: the head-block norms of one row). The
// figures come from the recording; while it is being made (npm start records in the
// background) the figure says so and fills in once it is there.
import { presetKey, t } from '../i18n/i18n.js';
import { $, el } from '../base/dom.js';
import { core } from '../state/engine.js';
import { svg } from '../base/svg.js';
import { recordedFiles } from '../results/recorded.js';
import { woFile } from '../results/analysis.js';
import { fixed } from './figures.js';

const RETRY_MS = 5000;  // how often to look again while the recordings are being made

const fusion = {
  state: 'loading',  // 'loading' | 'pending' (being recorded) | 'none' | 'error' | 'ready'
  error: '',
  preset: '',        // the preset recorded
  experiment: '',    // the experiment whose run it is (the one that keeps W_o snapshots)
  run: null,         // { seed, step, layer, rows, cols, heads }
  learned: null,     // (rows, heads) row-major shares of each output's draw from each head
  identity: null,    // the same of the identity matrix
};

// Each row's shares: the squares of its heads' norms over their sum.
function shares(norms, rows, heads) {
  const out = new Float64Array(rows * heads);
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    for (let h = 0; h < heads; h++) sum += norms[r * heads + h] ** 2;
    for (let h = 0; h < heads; h++) out[r * heads + h] = sum > 0 ? norms[r * heads + h] ** 2 / sum : 0;
  }
  return out;
}

// The mean over outputs of the largest head's share: 1 when each output reads one head only.
function largestShare(s, rows, heads) {
  let total = 0;
  for (let r = 0; r < rows; r++) total += Math.max(...s.subarray(r * heads, (r + 1) * heads));
  return total / rows;
}

// One panel: an output feature per bar, its heads' shares side by side in the heads' colours.
function bars(s, rows, heads, labelKey) {
  const W = 200, bar = Math.max(3, Math.min(9, Math.floor(176 / rows) - 2)), gap = 2, top = 3;
  const height = top + rows * (bar + gap);
  const box = svg('svg', { viewBox: `0 0 ${W} ${height}`, class: 'fu-bars', role: 'img', 'aria-label': t(labelKey) });
  for (let r = 0; r < rows; r++) {
    let x = 0;
    for (let h = 0; h < heads; h++) {
      const w = s[r * heads + h] * W;
      if (w > 0.05) box.append(svg('rect', { x: fixed(x, 2), y: top + r * (bar + gap), width: fixed(w, 2), height: bar, style: { fill: `var(--head-${(h % 8) + 1})` } }));
      x += w;
    }
  }
  return box;
}

function legend(heads) {
  const list = el('p', 'fu-legend');
  list.append(el('span', 'fu-legend-lead', t('fuHeads')));
  for (let h = 0; h < heads; h++) {
    const item = el('span', 'fu-key', String(h + 1));
    item.style.setProperty('--key', `var(--head-${(h % 8) + 1})`);  // its swatch (style.css)
    list.append(item);
  }
  return list;
}

export function renderFusion() {
  const box = $('#fusion-body');
  if (!box) return;
  box.dataset.state = fusion.state;
  if (fusion.state !== 'ready') {
    const key = { loading: 'fuLoading', pending: 'fuPending', none: 'fuNone', error: 'fuError' }[fusion.state];
    box.replaceChildren(el('p', 'fu-note', t(key, { message: fusion.error })));
    return;
  }
  const { run } = fusion;
  const panel = (s, titleKey, figureKey) => {
    const p = el('div', 'fu-panel');
    p.append(el('p', 'fu-title', t(titleKey)), bars(s, run.rows, run.heads, titleKey),
      el('p', 'fu-figure', t(figureKey, { share: `${fixed(100 * largestShare(s, run.rows, run.heads), 0)}%` })));
    return p;
  };
  const pair = el('div', 'fu-pair');
  pair.append(panel(fusion.identity, 'fuIdentity', 'fuIdentityShare'), panel(fusion.learned, 'fuLearned', 'fuLearnedShare'));
  const source = el('p', 'fu-source');
  const link = el('a', null, t(`${fusion.experiment}_title`));
  link.href = `#exp-${fusion.experiment}`;
  source.append(el('span', 'source-tag', t('fuRecorded')), ' ',
    t('fuSource', { preset: t(presetKey(fusion.preset)), seed: run.seed, layer: run.layer + 1, step: run.step }),
    ' ', link);
  box.replaceChildren(pair, legend(run.heads), source);
}

// The (rows, heads) shares of a (rows, cols) matrix, through the core.
const sharesOf = (matrix, rows, cols, heads) => shares(core.get().wolab.rowHeadNorms(matrix, rows, cols, heads), rows, heads);

async function load(experiment, preset) {
  const files = await recordedFiles(preset, [experiment.name]);
  if (!files) return { state: 'none' };
  if (files.recording) return { state: 'pending' };
  if (!files.length) return { state: 'none' };
  const doc = JSON.parse(await files[0].blob.text());
  const variant = experiment.variants[0];
  const record = doc.runs.find((r) => r.variant === variant && r.seed === doc.config.train.seed);
  const snaps = record ? record.wo.filter((s) => s.layer === 0) : [];
  if (!snaps.length) return { state: 'none' };
  const snap = snaps.reduce((a, b) => (b.step > a.step ? b : a));
  let matrix = snap.data ? Float32Array.from(snap.data) : null;
  if (!matrix) {
    const file = files[0].file;
    const { matrices, data } = await woFile(file.slice(0, file.lastIndexOf('/') + 1) + record.wo_file);
    const m = matrices.find((x) => x.step === snap.step && x.layer === snap.layer);
    if (!m) throw new Error(t('heatWoMissing', { file: record.wo_file, layer: snap.layer, step: snap.step }));
    matrix = data.slice(m.offset, m.offset + m.rows * m.cols);
  }
  const { rows, cols } = snap;
  const heads = doc.config.model.heads;
  const eye = new Float32Array(rows * cols);
  for (let i = 0; i < Math.min(rows, cols); i++) eye[i * cols + i] = 1;
  return {
    state: 'ready', preset, experiment: experiment.name,
    run: { seed: record.seed, step: snap.step, layer: snap.layer, rows, cols, heads },
    learned: sharesOf(matrix, rows, cols, heads), identity: sharesOf(eye, rows, cols, heads),
  };
}

// experiments: the core's experiments(); preset: the one whose recording is drawn. Looks again
// every few seconds while the recordings are being made.
export async function setUpFusion(experiments, preset) {
  const experiment = experiments.find((e) => e.wo_snapshots);
  if (!experiment) {
    Object.assign(fusion, { state: 'none' });
    renderFusion();
    return;
  }
  try {
    Object.assign(fusion, await load(experiment, preset));
  } catch (e) {
    Object.assign(fusion, { state: 'error', error: e.message || String(e) });
  }
  renderFusion();
  if (fusion.state === 'pending') setTimeout(() => setUpFusion(experiments, preset), RETRY_MS);
}
