// An experiment on real words (experiments(): needs_data "lexicon", real_words): a plain
// explanation of the task, the runs trained to the end natively (view-converged.js), then of the
// short runs shown or trained here: training loss and held-out PER and WER per variant over steps (mean
// line and min–max band over seeds), the final PER/WER table (the core's summary), the
// literature's reference point, and the word box (web/words/word-box.js), which pronounces a typed word
// with each variant's model.
import { lang, t, variantLabel } from '../i18n/i18n.js';
import { ChartBox, lineOptions, variantColor } from './charts.js';
import { addRow, headerCells } from '../base/tables.js';
import { el } from '../base/dom.js';
import { fmtPercent, spread, variantGroups } from './view-curves.js';
import { WordBox } from '../words/word-box.js';
import { ConvergedView } from './view-converged.js';

// WER's axis in whole tens around the runs' values (bands included), within 0–100%: the values
// of short runs all lie near 100%, which a 0–100% axis would flatten into one line.
function werRange(groups) {
  const values = groups.flatMap((g) => [...g.bands.min, ...g.bands.max]).filter(Number.isFinite);
  if (!values.length) return [0, 100];
  const from = Math.max(0, 10 * Math.floor(Math.min(...values) / 10 - 0.5));
  const to = Math.min(100, 10 * Math.ceil(Math.max(...values) / 10 + 0.5));
  return [from, Math.max(to, from + 10)];
}

export class WordsView {
  // redraw: its section drawn again in the next frame (the word box's answers come later).
  constructor(container, exp, redraw) {
    this.exp = exp;
    // What the task is, for a reader new to it: static texts (i18n.js).
    const primer = el('div', 'words-primer');
    for (const key of ['wordsPrimerPhoneme', 'wordsPrimerRates', 'wordsPrimerExample']) {
      const p = el('p');
      p.dataset.i18n = key;
      primer.append(p);
    }
    const grid = el('div', 'chart-grid');
    this.grid = grid;
    this.loss = new ChartBox(grid, lineOptions({ logY: true }), () => `wolab-${exp.name}-loss.png`, 'loss');
    // PER counts insertions too: early in training it can pass 100%.
    this.per = new ChartBox(grid, lineOptions({ yMin: 0 }), () => `wolab-${exp.name}-per.png`, 'per');
    // WER's axis is fitted to the runs' values (render), and says where it starts when not at 0.
    this.wer = new ChartBox(grid, lineOptions({ yMin: 0, yMax: 100 }), () => `wolab-${exp.name}-wer.png`, 'wer');
    const wrap = el('div', 'table-wrap');
    this.table = el('table', 'summary-table');
    wrap.appendChild(this.table);
    // The literature's figure, labelled as such: never one of these runs' results.
    this.reference = el('p', 'hint words-reference');
    this.reference.dataset.i18n = 'wordsReference';
    this.words = new WordBox(exp, redraw);
    // The runs trained to the end natively lead (recorded); the charts and table below show the
    // short runs shown or trained here, headed as such.
    this.shortTitle = el('h3', 'words-short-title');
    const converged = el('div');
    container.append(primer, converged, this.shortTitle, grid, wrap, this.reference, this.words.box);
    this.converged = new ConvergedView(converged, exp);
    this.primer = primer;
  }

  render() {
    const exp = this.exp;
    for (const p of this.primer.children) p.textContent = t(p.dataset.i18n);
    this.reference.textContent = t('wordsReference');
    this.converged.render();
    this.shortTitle.textContent = t('wordsShortTitle');
    this.grid.hidden = exp.runs.length === 0;
    this.loss.label(t('chartLoss'), t('axisStep'), t('axisLoss'));
    this.loss.bands(variantGroups(exp, (r) => ({ x: r.record.curve.step, y: r.record.curve.loss })));
    // The error rates gain points once per probe step: redrawn only then, when a run's finished
    // record replaces its live points, or when the language or the theme's colours change.
    const runsKey = exp.runs.map((r) => `${r.id}:${r.finished}:${r.record ? r.record.eval.step.length : -1}`);
    const key = [lang(), ...exp.variants.map(variantColor), ...runsKey].join();
    if (key !== this.key) {
      this.key = key;
      for (const [box, metric, title, axis] of [[this.per, 'per', 'chartPer', 'axisPerPct'], [this.wer, 'wer', 'chartWer', 'axisWerPct']]) {
        const groups = variantGroups(exp, (r) => ({ x: r.record.eval.step, y: (r.record.eval[metric] || []).map((v) => 100 * v) }));
        let yAxis = t(axis);
        if (box === this.wer) {
          const [from, to] = werRange(groups);
          box.yRange(from, to);
          if (from > 0) yAxis = t('axisWerPctFrom', { from });
        }
        box.label(t(title), t('axisStep'), yAxis);
        box.bands(groups);
      }
    }
    this.renderTable();
    this.words.render();
  }

  renderTable() {
    const summary = this.exp.summary || [];
    this.table.hidden = summary.length === 0;
    if (!summary.length) return;
    this.table.replaceChildren();
    this.table.createCaption().textContent = t('wordsCaption');
    this.table.createTHead().insertRow().append(...headerCells(['colVariant', 'colSeeds', 'colPer', 'colWer', 'colFinalLoss', 'colParams', 'colDiverged']));
    const body = this.table.createTBody();
    for (const s of summary) {
      const tr = addRow(body, [
        variantLabel(s.variant), String(s.n), s.per ? fmtPercent(s.per) : '—', s.wer ? fmtPercent(s.wer) : '—',
        spread(s.loss, (x) => x.toPrecision(3)), String(s.parameters), String(s.diverged),
      ]);
      tr.dataset.variant = s.variant;
    }
  }
}
