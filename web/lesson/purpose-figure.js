// "What W_o is for" on the first screen, under the diagram: one bar per variant of experiment
// wo_purpose or words_purpose, its lead over none (identity) with its 95% interval over seeds, and
// the core's plain answer (docs/claims.md, "What W_o is for"). Read from the recorded runs: real
// words trained to the end natively (recorded/purpose, which assemble-dist.sh copies to
// dist/purpose/) where they are, else the first preset's recording of the experiment whose
// analysis decomposes the lead (wo_purpose).
import { t } from '../i18n/i18n.js';
import { $, el } from '../base/dom.js';
import { recordedAnalysis } from '../results/recorded.js';
import { purposeWords } from './lesson.js';
import { fixed } from './figures.js';

const SVG = 'http://www.w3.org/2000/svg';
const ROW = 17;  // px per bar
const LABEL = 132;  // px of the bars' labels

const figure = { experiment: null, source: null, variants: null };  // the experiment of an analysis,
// whose runs, and the variants drawn: the page's experiment's (the controls of mixing, gain and
// parameters; real words' frozen matrices stay in docs/findings.md)

// The recorded real words trained to the end, the widest size first; null where none shipped.
async function wordsRecording() {
  try {
    const response = await fetch('purpose/manifest.json');
    if (!response.ok) return null;
    const manifest = await response.json();
    for (const name of manifest.figure || []) {
      const analysis = await fetch(`purpose/${name}/analysis.json`);
      if (analysis.ok) return { experiment: (await analysis.json()).experiments[0], source: 'purposeSourceWords' };
    }
  } catch {
    // no recording shipped: the preset's
  }
  return null;
}

// experiments: the core's experiments(); preset: the page's first, whose recording is read where
// no real words are shipped.
export async function setUpPurpose(experiments, preset) {
  const page = experiments.find((e) => e.variants.includes('block_diagonal'));
  figure.variants = page ? page.variants : null;
  let found = await wordsRecording();
  if (!found) {
    const analysis = await recordedAnalysis(preset);
    const experiment = analysis && analysis.experiments.find((e) => e.finding && e.finding.decomposition);
    if (experiment) found = { experiment, source: 'purposeSourcePreset' };
  }
  if (found) Object.assign(figure, found);
  renderPurpose();
}

const svg = (name, attrs) => {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
};

// An effect (docs/claims.md, "Effect sizes") as the bar's unit: points of PER, or the other's loss
// that much higher in percent (e^x - 1).
const unit = (effect) => (x) => (effect.scale === 'log_ratio' ? 100 * Math.expm1(x) : 100 * x);

// The bars: learned first, then each control, each from 0 (identity) to its mean, a whisker
// over its interval.
function bars(e) {
  const d = e.finding.decomposition;
  const drawn = (c) => !figure.variants || figure.variants.includes(c.variant);
  const rows = [{ variant: 'learned', effect: d.lead }, ...d.controls.filter(drawn)];
  const values = rows.filter((r) => r.effect).flatMap((r) => [r.effect.mean, r.effect.lo ?? r.effect.mean, r.effect.hi ?? r.effect.mean]
    .map(unit(r.effect)));
  const lo = Math.min(0, ...values), hi = Math.max(0, ...values);
  const width = 360, plot = width - LABEL - 48;
  const x = (v) => LABEL + ((v - lo) / (hi - lo || 1)) * plot;
  const root = svg('svg', { viewBox: `0 0 ${width} ${rows.length * ROW + 4}`, class: 'pu-bars', role: 'img' });
  root.append(svg('line', { x1: x(0), x2: x(0), y1: 0, y2: rows.length * ROW + 4, class: 'pu-zero' }));
  rows.forEach((r, i) => {
    const y = i * ROW + 2;
    const label = svg('text', { x: LABEL - 6, y: y + ROW * 0.7, 'text-anchor': 'end', class: 'pu-label' });
    label.textContent = r.variant;
    root.append(label);
    if (!r.effect) return;
    const f = unit(r.effect), m = f(r.effect.mean);
    root.append(svg('rect', { x: Math.min(x(0), x(m)), y: y + 3, width: Math.abs(x(m) - x(0)), height: ROW - 6,
      class: `pu-bar v-${r.variant}`, 'data-variant': r.variant }));
    if (r.effect.lo != null) {
      root.append(svg('line', { x1: x(f(r.effect.lo)), x2: x(f(r.effect.hi)), y1: y + ROW / 2, y2: y + ROW / 2, class: 'pu-whisker' }));
    }
    const value = svg('text', { x: x(Math.max(0, m, r.effect.hi != null ? f(r.effect.hi) : m)) + 4, y: y + ROW * 0.7, class: 'pu-value' });
    value.textContent = `${fixed(m, r.effect.scale === 'log_ratio' ? 0 : 2)}${r.effect.scale === 'log_ratio' ? '%' : ''}`;
    root.append(value);
  });
  root.setAttribute('aria-label', t('purposeBarsLabel'));
  return root;
}

export function renderPurpose() {
  const box = $('#purpose-body');
  if (!box) return;
  const e = figure.experiment;
  const said = e && purposeWords(e);
  $('#purpose').hidden = !said;
  if (!said) return;
  const d = e.finding.decomposition;
  const { d_model: width, heads } = e.run_config.model;
  box.replaceChildren(
    el('p', 'pu-answer', said.answer),
    bars(e),
    el('p', 'pu-source', t(figure.source, { measure: t(`purposeMeasure_${d.measure}`), n: d.n, width, heads, steps: e.run_config.train.steps, lr: e.run_config.train.lr })));
}
