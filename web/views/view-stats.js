// Experiment 4: per layer, the std and mean of the concatenated head outputs, of W_o(concat) and of
// the residual sum over training, the gradient norm reaching each head's slice of the concat, and
// the early-vs-late table of the article's printout with its late/early ratio and the sentence
// reading it (the core's analysis, finding.early_late and early_late_reading, once the runs have
// ended). Lines are means over seeds. In the activation charts colour is the site and the dash
// and marker the variant's; the gradient charts show one head at a time (the head picker), one
// line per variant in its colour, with the min–max band over seeds.
import { t, variantLabel } from '../i18n/i18n.js';
import { seedBands, SITES } from './aggregate.js';
import { ChartBox, lineOptions, PALETTE, variantColor } from './charts.js';
import { LayerPanels } from './layer-panels.js';
import { addRow, headerCells } from '../base/tables.js';

const SITE_COLORS = { concat: 0, wo_out: 3, residual: 2 };  // indices into the theme's PALETTE

export class StatsView {
  constructor(container, exp) {
    this.exp = exp;
    this.empty = document.createElement('p');
    this.empty.className = 'hint';
    const grid = document.createElement('div');
    grid.className = 'layer-grid stats-grid';
    this.headPick = document.createElement('select');
    this.headPick.id = `head-${exp.name}`;
    this.headPick.className = 'head-select';
    this.headPick.addEventListener('change', () => this.render());
    this.headLabel = document.createElement('label');
    this.headLabel.htmlFor = this.headPick.id;
    this.headRow = document.createElement('p');
    this.headRow.className = 'inline';
    this.headRow.append(this.headLabel, ' ', this.headPick);
    this.panels = new LayerPanels(grid, (el, layer) => this.buildPanel(el, layer));
    const wrap = document.createElement('div');
    wrap.className = 'table-wrap';
    this.table = document.createElement('table');
    this.table.className = 'early-late-table';
    wrap.appendChild(this.table);
    this.reading = document.createElement('p');
    this.reading.className = 'early-late-reading hint';
    container.append(this.empty, this.headRow, grid, wrap, this.reading);
  }

  buildPanel(el, layer) {
    return {
      std: new ChartBox(el, lineOptions(), () => `wolab-activation-std-layer${layer}.png`, `std-${layer}`),
      mean: new ChartBox(el, lineOptions(), () => `wolab-activation-mean-layer${layer}.png`, `mean-${layer}`),
      grad: new ChartBox(el, lineOptions({ logY: true }), () => `wolab-head-grad-norm-layer${layer}-head${this.headPick.value}.png`, `grad-${layer}`),
    };
  }

  render() {
    const exp = this.exp;
    const runs = exp.runs.filter((r) => r.record);  // a queued run has no record yet
    const variants = exp.variants.filter((v) => runs.some((r) => r.variant === v));
    const all = runs.flatMap((r) => r.record.stats);
    const layers = all.length ? Math.max(...all.map((s) => s.layer)) + 1 : 0;
    this.empty.textContent = t(exp.runs.length ? 'statsWaiting' : 'noRunsYet');
    this.empty.hidden = layers > 0;
    this.panels.show(layers);
    const heads = exp.config ? exp.config.model.heads : 0;
    this.headRow.hidden = layers === 0;
    this.headLabel.textContent = t('statsHeadPick');
    if (this.headPick.options.length !== heads) {
      const keep = Math.min(Number(this.headPick.value) || 0, Math.max(heads - 1, 0));
      this.headPick.replaceChildren(...Array.from({ length: heads }, (_, h) => new Option(String(h), String(h))));
      this.headPick.value = String(keep);
    }
    const head = Number(this.headPick.value);

    for (let layer = 0; layer < layers; layer++) {
      const p = this.panels.get(layer);
      // series(variant, value) -> bands over seeds of value(stat entry) along the probe steps.
      const series = (variant, value) => seedBands(runs.filter((r) => r.variant === variant).map((r) => {
        const mine = r.record.stats.filter((s) => s.layer === layer);
        return { x: mine.map((s) => s.step), y: mine.map(value) };
      }));
      for (const [box, field, key] of [[p.std, 'std', 'statsStd'], [p.mean, 'mean', 'statsMean']]) {
        box.label(t(key, { layer }), t('axisStep'), t(field === 'std' ? 'axisStd' : 'axisMean'));
        box.bands(variants.flatMap((v) => SITES.map((site) => ({
          group: `${site}:${v}`, variant: v,
          label: t('siteOf', { site: t(`site_${site}`), variant: variantLabel(v) }),
          color: PALETTE[SITE_COLORS[site]], band: false,
          bands: series(v, (s) => s[site][field]),
        }))));
      }
      p.grad.label(t('statsGrad', { layer, head }), t('axisStep'), t('axisGradNorm'));
      p.grad.bands(variants.map((v) => ({
        group: v, variant: v, label: variantLabel(v), color: variantColor(v),
        band: runs.filter((r) => r.variant === v).length > 1,
        bands: series(v, (s) => s.head_grad_norm[head]),
      })));
    }
    this.renderTable();
  }

  renderTable() {
    const analysis = this.exp.analysis;
    const rows = analysis ? analysis.finding.early_late : [];
    this.table.hidden = rows.length === 0;
    this.table.replaceChildren();
    const reading = analysis && analysis.finding.early_late_reading;
    this.reading.hidden = !reading;
    if (reading) {
      this.reading.textContent = t(`earlyLate_${reading.change}`, {
        site: t(`site_${reading.site}`), variant: variantLabel(reading.variant), layer: reading.layer,
        ratio: reading.std_ratio.toFixed(2), pct: Math.round(100 * analysis.thresholds.scale_change),
      });
    }
    if (!rows.length) return;
    this.table.createCaption().textContent = t('earlyLateCaption', { early: rows[0].early_step, late: rows[0].late_step });
    const heads = ['colVariant', 'colLayer', 'colSite', 'colEarlyMean', 'colEarlyStd', 'colLateMean', 'colLateStd', 'colStdRatio'];
    this.table.createTHead().insertRow().append(...headerCells(heads));
    const body = this.table.createTBody();
    const num = (x) => (x == null ? '—' : x.toFixed(4));  // null: no run has that probe
    for (const r of rows) {
      const head = [variantLabel(r.variant), String(r.layer), t(`site_${r.site}`)];
      if (r.same_as) {
        // identity's W_o(concat) is its concat (the core marks the row): said once, across the numbers.
        const tr = addRow(body, [...head, t(`sameAs_${r.same_as}`)]);
        const note = tr.cells[tr.cells.length - 1];
        note.colSpan = heads.length - head.length;
        delete note.dataset.label;  // the whole row's, under no one column
        tr.dataset.sameAs = r.same_as;
        continue;
      }
      addRow(body, [...head, num(r.early_mean), num(r.early_std), num(r.late_mean), num(r.late_std),
        r.std_ratio == null ? '—' : `${r.std_ratio.toFixed(2)}×`]);
    }
  }
}
