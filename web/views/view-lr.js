// A learning-rate sweep (experiments() lr_sweep): the share of seeds that trained against the
// learning rate on a log axis, one line per variant; the training loss of one chosen rate; and
// the per-(variant, rate) table. The shares and the table are the core's analysis
// (wolab.analyze, finding.table; the rule is docs/claims.md's), read once the runs have ended.
import { lang, t, variantLabel } from '../i18n/i18n.js';
import { ChartBox, lineOptions, variantColor } from './charts.js';
import { variantGroups } from './view-curves.js';
import { isSettled } from '../state/run-status.js';
import { fixed, range } from '../lesson/figures.js';
import { addRow, headerCells } from '../base/tables.js';


export class LrView {
  constructor(container, exp) {
    this.exp = exp;
    const grid = document.createElement('div');
    grid.className = 'chart-grid';
    this.grid = grid;
    this.trained = new ChartBox(grid, lineOptions({ logX: true, yMin: 0, yMax: 100 }), () => `wolab-${exp.name}-trained.png`, 'trained');
    const lossBox = document.createElement('div');
    this.pick = document.createElement('select');
    this.pick.className = 'lr-select';
    this.pick.id = `lr-${exp.name}`;
    const pickLabel = document.createElement('label');
    pickLabel.htmlFor = this.pick.id;
    this.pickLabel = pickLabel;
    const pickRow = document.createElement('p');
    pickRow.className = 'inline';
    pickRow.append(pickLabel, ' ', this.pick);
    lossBox.appendChild(pickRow);
    grid.appendChild(lossBox);
    this.loss = new ChartBox(lossBox, lineOptions({ logY: true }), () => `wolab-${exp.name}-loss-lr${this.pick.value}.png`, 'loss');
    this.pick.addEventListener('change', () => this.render());
    this.status = document.createElement('p');
    this.status.className = 'lr-status hint';
    this.status.setAttribute('aria-live', 'polite');
    const wrap = document.createElement('div');
    wrap.className = 'table-wrap';
    this.table = document.createElement('table');
    this.table.className = 'lr-table';
    wrap.appendChild(this.table);
    container.append(grid, this.status, wrap);
  }

  // The learning rates the runs train at, ascending.
  rates() {
    return [...new Set(this.exp.runs.map((r) => r.lr))].sort((a, b) => a - b);
  }

  render() {
    const exp = this.exp;
    this.grid.hidden = exp.runs.length === 0;
    const rates = this.rates();
    const options = rates.join(',');
    if (this.pick.dataset.options !== options) {
      const keep = this.pick.value;
      this.pick.replaceChildren(...rates.map((lr) => new Option(String(lr), String(lr))));
      this.pick.dataset.options = options;
      // By default the highest rate, where the variants differ most.
      this.pick.value = rates.map(String).includes(keep) ? keep : String(rates[rates.length - 1]);
    }
    this.pickLabel.textContent = t('lrPick');
    const lr = Number(this.pick.value);
    this.loss.label(t('lrLoss', { lr }), t('axisStep'), t('axisLoss'));
    this.loss.bands(variantGroups({ ...exp, runs: exp.runs.filter((r) => r.lr === lr && r.record) },
      (r) => ({ x: r.record.curve.step, y: r.record.curve.loss })));

    const table = exp.analysis ? exp.analysis.finding.table : [];
    // The loss the rows count runs reaching; null before the analysis, while both are hidden.
    const thr = exp.analysis ? exp.analysis.thresholds.loss_threshold : null;
    this.trained.figure.hidden = table.length === 0;
    // Drawn again only for a new analysis, language or theme.
    const key = [lang(), ...exp.variants.map(variantColor)].join();
    if (key !== this.trainedKey || exp.analysis !== this.trainedAnalysis) {
      this.trainedKey = key;
      this.trainedAnalysis = exp.analysis;
      this.trained.label(t('lrTrained', { thr }), t('axisLr'), t('axisTrainedPct'));
      this.trained.bands(exp.variants.filter((v) => table.some((row) => row.variant === v)).map((v) => {
        const rows = table.filter((row) => row.variant === v);
        const share = rows.map((row) => (100 * row.reached) / row.runs);
        return { group: v, variant: v, label: variantLabel(v), color: variantColor(v), band: false,
          bands: { x: rows.map((row) => row.lr), mean: share, min: share, max: share } };
      }));
    }
    const finished = exp.runs.filter((r) => r.finished).length;
    if (!exp.runs.length) this.status.textContent = t('noRunsYet');
    else if (!isSettled(exp)) this.status.textContent = t('sentenceWaiting', { done: finished, total: exp.runs.length });
    else this.status.textContent = table.length ? '' : t('sentenceNone');
    this.status.hidden = this.status.textContent === '';
    this.renderTable(table, thr);
  }

  // thr: the analysis's loss threshold, which the rows count runs reaching.
  renderTable(table, thr) {
    this.table.hidden = table.length === 0;
    if (!table.length) return;
    this.table.replaceChildren();
    this.table.createCaption().textContent = t('lrTableCaption', { thr });
    this.table.createTHead().insertRow().append(...headerCells(['colVariant', 'colLr', 'colReached', 'colSteps', 'colFinalLoss', 'colDiverged'], { thr }));
    const body = this.table.createTBody();
    for (const row of table) {
      const tr = addRow(body, [
        variantLabel(row.variant), String(row.lr), t('reachedOf', { k: row.reached, n: row.runs }),
        range(row.steps_to_loss_0_1, (x) => fixed(x, 0)), range(row.final_loss, (x) => fixed(x, 4)), String(row.diverged),
      ]);
      tr.dataset.variant = row.variant;
      tr.dataset.lr = String(row.lr);
    }
  }
}
