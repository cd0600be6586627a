// An experiment that compares variants at one learning rate: training loss and held-out token
// accuracy per variant (mean line and min–max band over seeds), both live while the runs train,
// the singular values of each variant's W_o at step 0 (a frozen variant trains with that
// matrix: the record's wo_sv), the summary table (mean ± std; the verdict sentences are lesson.js's).
import { lang, t, variantLabel } from '../i18n/i18n.js';
import { seedBands, thinBands } from './aggregate.js';
import { ChartBox, lineOptions, variantColor } from './charts.js';
import { addRow, headerCells } from '../base/tables.js';

// Summary means are null where every run of a variant diverged; std is null where one run is
// behind the mean: one seed has no spread to show (docs/results.md).
export const spread = (m, f) => (m.mean == null ? '—' : m.std == null ? f(m.mean) : `${f(m.mean)} ± ${f(m.std)}`);
const fmtSteps = (m) => spread(m, (x) => String(Math.round(x)));
export const fmtPercent = (m) => (m.mean == null ? '—' : `${spread(m, (x) => (100 * x).toFixed(1))}%`);

const MAX_POINTS = 150;  // per line: enough for a chart ~600 px wide, cheap to redraw

// One group per variant with runs: pick(run) gives a series { x, y }, or a list of them. A
// variant of one series has no spread to show: its line is drawn without a band.
export function variantGroups(exp, pick) {
  const runs = exp.runs.filter((r) => r.record);  // a queued run has no record yet
  const variants = exp.variants.filter((v) => runs.some((r) => r.variant === v));
  return variants.map((v) => {
    const series = runs.filter((r) => r.variant === v).flatMap(pick);
    return {
      group: v, variant: v, label: variantLabel(v), color: variantColor(v), band: series.length > 1,
      bands: thinBands(seedBands(series), MAX_POINTS),
    };
  });
}

export class CurvesView {
  constructor(container, exp) {
    this.exp = exp;
    const grid = document.createElement('div');
    grid.className = 'chart-grid';
    this.grid = grid;
    this.loss = new ChartBox(grid, lineOptions({ logY: true }), () => `wolab-${exp.name}-loss.png`, 'loss');
    this.acc = new ChartBox(grid, lineOptions({ yMin: 0, yMax: 100 }), () => `wolab-${exp.name}-accuracy.png`, 'accuracy');
    this.sv = new ChartBox(grid, lineOptions({ yMin: 0 }), () => `wolab-${exp.name}-wo-singular-values.png`, 'wo-sv');
    const wrap = document.createElement('div');
    wrap.className = 'table-wrap';
    this.table = document.createElement('table');
    this.table.className = 'summary-table';
    wrap.appendChild(this.table);
    this.notes = document.createElement('p');
    this.notes.className = 'hint';
    container.append(grid, wrap, this.notes);
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
    const runsKey = exp.runs.map((r) => `${r.id}:${r.finished}:${r.record ? r.record.eval.step.length : -1}`);
    const accKey = [lang(), ...exp.variants.map(variantColor), ...runsKey].join();
    if (accKey !== this.accKey) {
      this.accKey = accKey;
      this.acc.label(t('chartAcc'), t('axisStep'), t('axisAccPct'));
      this.acc.bands(variantGroups(exp, (r) => ({
        x: r.record.eval.step, y: r.record.eval.token_acc.map((a) => 100 * a),
      })));
    }
    this.renderSv();
    this.renderTable();
  }

  // Each variant's W_o singular values at step 0, largest first, index by index: mean and
  // min–max over its seeds and layers. Shown for an experiment with a frozen variant (the
  // core's experiments(): frozen), which trains with that matrix; learned and identity are
  // drawn beside it. Version 1 files did not record them (wo_sv null).
  renderSv() {
    const exp = this.exp;
    const runs = exp.info.frozen.length ? exp.runs.filter((r) => r.record && r.record.wo_sv) : [];
    this.sv.figure.hidden = runs.length === 0;
    const key = [lang(), ...exp.variants.map(variantColor), ...runs.map((r) => r.id)].join();
    if (key === this.svKey) return;
    this.svKey = key;
    this.sv.label(t('chartWoSv'), t('axisSvIndex'), t('axisSv'));
    this.sv.bands(variantGroups({ ...exp, runs }, (r) => r.record.wo_sv.map((values) => ({ x: values.map((_, i) => i + 1), y: values }))));
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
    this.table.createTHead().insertRow().append(...headerCells([
      'colVariant', 'colSeeds', 'colTokenAcc', 'colExact', 'colGreedy', 'colSteps01', 'colFinalLoss', 'colParams', 'colDiverged',
    ]));
    const body = this.table.createTBody();
    for (const s of summary) {
      const reach = s.steps_to_loss_0_1;
      const tr = addRow(body, [
        variantLabel(s.variant), String(s.n), fmtPercent(s.token_acc), fmtPercent(s.exact), fmtPercent(s.greedy_exact),
        `${reach.reached > 0 ? fmtSteps(reach) : '—'} (${reach.reached}/${s.n})`,
        spread(s.loss, (x) => x.toPrecision(3)),
        String(s.parameters), String(s.diverged),
      ]);
      tr.dataset.variant = s.variant;
    }
  }
}
