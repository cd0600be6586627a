// Experiments 1 and 2: training loss and held-out token accuracy per variant (mean line and
// min–max band over seeds), both live while the runs train, the summary table (mean ± std) and
// the sentence that reads it.
import { lang, t, variantLabel } from './i18n.js';
import { seedBands, thinBands } from './aggregate.js';
import { ChartBox, lineOptions, variantColor } from './charts.js';
import { compareSentence, fmtPercent, fmtSteps } from './sentence.js';

const MAX_POINTS = 150;  // per line: enough for a chart ~600 px wide, cheap to redraw

export function variantGroups(exp, pick) {
  const variants = exp.variants.filter((v) => exp.runs.some((r) => r.variant === v));
  return variants.map((v) => ({
    group: v, label: variantLabel(v), color: variantColor(v),
    bands: thinBands(seedBands(exp.runs.filter((r) => r.variant === v).map(pick)), MAX_POINTS),
  }));
}

export function isSettled(exp) {
  return exp.runs.every((r) => r.status !== 'queued' && r.status !== 'running');
}

export class CurvesView {
  constructor(container, exp) {
    this.exp = exp;
    const grid = document.createElement('div');
    grid.className = 'chart-grid';
    this.grid = grid;
    this.loss = new ChartBox(grid, lineOptions({ logY: true }), () => `wolab-${exp.name}-loss.png`, 'loss');
    this.acc = new ChartBox(grid, lineOptions({ yMin: 0, yMax: 100 }), () => `wolab-${exp.name}-accuracy.png`, 'accuracy');
    this.sentence = document.createElement('p');
    this.sentence.className = 'sentence';
    this.sentence.setAttribute('aria-live', 'polite');
    const wrap = document.createElement('div');
    wrap.className = 'table-wrap';
    this.table = document.createElement('table');
    this.table.className = 'summary-table';
    wrap.appendChild(this.table);
    this.notes = document.createElement('p');
    this.notes.className = 'hint';
    container.append(grid, this.sentence, wrap, this.notes);
  }

  render() {
    const exp = this.exp;
    this.grid.hidden = exp.runs.length === 0;
    this.loss.label(t('chartLoss'), t('axisStep'), t('axisLoss'));
    this.loss.bands(variantGroups(exp, (r) => ({ x: r.record.curve.step, y: r.record.curve.loss })));
    // Losses arrive with every worker message, held-out points once per probe step: the
    // accuracy chart is redrawn only when it gains points, when a run's finished record takes
    // the place of its live points (the same points), or when the language or the theme's colours
    // change.
    const runsKey = exp.runs.map((r) => `${r.id}:${r.finished}:${r.record.eval.step.length}`);
    const accKey = [lang(), ...exp.variants.map(variantColor), ...runsKey].join();
    if (accKey !== this.accKey) {
      this.accKey = accKey;
      this.acc.label(t('chartAcc'), t('axisStep'), t('axisAccPct'));
      this.acc.bands(variantGroups(exp, (r) => ({
        x: r.record.eval.step, y: r.record.eval.token_acc.map((a) => 100 * a),
      })));
    }
    this.renderTable();
    this.renderSentence();
  }

  renderSentence() {
    const exp = this.exp;
    const finished = exp.runs.filter((r) => r.finished).length;
    if (!exp.runs.length) this.sentence.textContent = t('noRunsYet');
    else if (!isSettled(exp)) this.sentence.textContent = t('sentenceWaiting', { done: finished, total: exp.runs.length });
    else this.sentence.textContent = compareSentence(exp.summary, exp.config.train.steps, t) || t('sentenceNone');
  }

  renderTable() {
    const summary = this.exp.summary || [];
    this.table.hidden = summary.length === 0;
    this.notes.hidden = summary.length === 0;
    this.notes.textContent = t('summaryNotes');  // what the columns measure
    if (!summary.length) return;
    this.table.replaceChildren();
    const caption = this.table.createCaption();
    caption.textContent = t('summaryCaption');
    const head = this.table.createTHead().insertRow();
    for (const k of ['colVariant', 'colSeeds', 'colTokenAcc', 'colExact', 'colGreedy', 'colSteps01', 'colFinalLoss', 'colParams', 'colDiverged']) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = t(k);
      head.appendChild(th);
    }
    const body = this.table.createTBody();
    for (const s of summary) {
      const tr = body.insertRow();
      tr.dataset.variant = s.variant;
      const reach = s.steps_to_loss_0_1;
      const cells = [
        variantLabel(s.variant), String(s.n), fmtPercent(s.token_acc), fmtPercent(s.exact), fmtPercent(s.greedy_exact),
        `${reach.reached > 0 ? fmtSteps(reach) : '—'} (${reach.reached}/${s.n})`,
        s.loss.mean == null ? '—' : `${s.loss.mean.toPrecision(3)} ± ${s.loss.std.toPrecision(2)}`,
        String(s.parameters), String(s.diverged),
      ];
      cells.forEach((text, i) => {
        const cell = i === 0 ? document.createElement('th') : tr.insertCell();
        if (i === 0) {
          cell.scope = 'row';
          tr.appendChild(cell);
        }
        cell.textContent = text;
      });
    }
  }
}
