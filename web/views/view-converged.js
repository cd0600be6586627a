// Section 7's lead: real words trained to the end natively and recorded (web/results/converged.js):
// per model size, the curves over the whole run (mean line and min–max band over seeds), the
// final PER and WER per variant with seeds and spread (the core's summary), the paired
// comparisons and convergence in the core's words (verdictSentences), and claim 2's verdict on
// them (the analysis's words_claims). Every figure is read from the recorded files; the CPU-hours
// from their manifest.
import { lang, t, variantLabel } from '../i18n/i18n.js';
import { ChartBox, lineOptions, variantColor } from './charts.js';
import { addRow, headerCells } from '../base/tables.js';
import { el } from '../base/dom.js';
import { fmtPercent, spread, variantGroups } from './view-curves.js';
import { claimFigures, claimWords, reasonLine, verdictSentences } from '../lesson/lesson.js';
import { convergedRecording } from '../results/converged.js';
import { nearViewport } from '../results/recorded.js';

// One size: its heading, three charts, its table and its verdicts.
class SizeView {
  constructor(container, exp, size, results) {
    this.size = size;
    this.results = results;
    this.name = exp.name;
    // The records as the charts' helpers take runs, in the experiment's order of variants.
    this.runs = { variants: exp.variants, runs: results.runs.map((record) => ({ record, variant: record.variant })) };
    this.box = el('div', 'converged-size');
    this.box.dataset.preset = size.preset;
    this.heading = el('h4');
    const grid = el('div', 'chart-grid');
    const file = (what) => () => `wolab-${size.preset}-${what}.png`;
    this.loss = new ChartBox(grid, lineOptions({ logY: true }), file('loss'), 'converged-loss');
    this.per = new ChartBox(grid, lineOptions({ yMin: 0 }), file('per'), 'converged-per');
    this.wer = new ChartBox(grid, lineOptions({ yMin: 0, yMax: 100 }), file('wer'), 'converged-wer');
    const wrap = el('div', 'table-wrap');
    this.table = el('table', 'converged-table');
    wrap.append(this.table);
    this.verdicts = el('div', 'sentence converged-verdicts');
    this.claim = el('div', 'converged-claim');
    // The table beside what the analysis says of it, where the width allows.
    const words = el('div', 'converged-words');
    words.append(this.verdicts, this.claim);
    const foot = el('div', 'converged-foot');
    foot.append(wrap, words);
    this.box.append(this.heading, grid, foot);
    container.append(this.box);
  }

  render() {
    const { results, size: { analysis } } = this;
    const { model: w, train } = analysis.experiments[0].run_config;  // the runs' own settings
    this.heading.textContent = t('convSize', {
      d: w.d_model, heads: w.heads, width: w.d_model / w.heads, layers: w.layers, steps: train.steps,
      seeds: results.config.seeds, schedule: train.schedule,
    });
    const key = [lang(), ...this.runs.variants.map(variantColor)].join();
    if (key !== this.key) {
      this.key = key;
      this.loss.label(t('chartLoss'), t('axisStep'), t('axisLoss'));
      this.loss.bands(variantGroups(this.runs, (r) => ({ x: r.record.curve.step, y: r.record.curve.loss })));
      for (const [box, metric, title, axis] of [[this.per, 'per', 'chartPer', 'axisPerPct'], [this.wer, 'wer', 'chartWer', 'axisWerPct']]) {
        box.label(t(title), t('axisStep'), t(axis));
        box.bands(variantGroups(this.runs, (r) => ({ x: r.record.eval.step, y: r.record.eval[metric].map((v) => 100 * v) })));
      }
    }
    this.table.replaceChildren();
    this.table.createCaption().textContent = t('convCaption');
    this.table.createTHead().insertRow().append(...headerCells(['colVariant', 'colSeeds', 'colPer', 'colWer', 'colFinalLoss', 'colParams']));
    const body = this.table.createTBody();
    for (const s of results.summary) {
      addRow(body, [variantLabel(s.variant), String(s.n), fmtPercent(s.per), fmtPercent(s.wer),
        spread(s.loss, (x) => x.toPrecision(3)), String(s.parameters)]).dataset.variant = s.variant;
    }
    const e = analysis.experiments.find((x) => x.experiment === this.name);
    this.verdicts.replaceChildren(...(e ? verdictSentences(e) : []).map((s) => el('p', null, s)));
    // Claim 2 on real words: its verdict, what it read and why.
    const c = (analysis.words_claims || []).find((x) => x.id === 2);
    this.claim.replaceChildren();
    this.claim.dataset.verdict = c ? c.verdict : '';
    if (!c) return;
    const th = e ? e.thresholds : analysis.thresholds;
    const said = claimWords(c);
    this.claim.append(el('p', null, t('convClaim', { claim: said.statement })),
      el('span', `verdict v-${c.verdict}`, said.verdict), el('p', 'figures', claimFigures(c, th)),
      el('p', 'reason', reasonLine(c, th)));
  }
}

export class ConvergedView {
  constructor(container, exp) {
    this.exp = exp;
    this.rerender = () => this.render();  // one function, so that nearViewport keeps it once
    this.box = el('div', 'converged');
    this.box.hidden = true;
    this.title = el('h3', 'converged-title');
    this.lead = el('p', 'converged-lead');
    this.sizesBox = el('div');
    this.short = el('p', 'hint converged-short');
    this.box.append(this.title, this.lead, this.sizesBox, this.short);
    container.append(this.box);
    this.sizes = [];
    this.recording = null;
    convergedRecording().then((recording) => {
      if (!recording || !recording.sizes.length) return;
      this.recording = recording;
      this.render();
    });
  }

  // The sizes' results (megabytes) once the section comes near the viewport.
  showSizes() {
    if (this.asked || !nearViewport(this.box.parentElement, this.rerender)) return;
    this.asked = Promise.all(this.recording.sizes.map((size) => size.results())).then((all) => {
      this.sizes = this.recording.sizes.map((size, i) => new SizeView(this.sizesBox, this.exp, size, all[i]));
      this.box.hidden = false;
      this.render();
    }).catch((e) => console.error(`converged: ${e.message || e}`));
  }

  render() {
    if (!this.recording) return;
    this.showSizes();
    const m = this.recording.manifest;
    this.title.textContent = t('convTitle', { hours: (m.cpu_seconds / 3600).toFixed(1) });
    this.lead.textContent = t('convLead', { version: m.wolab_version, commit: String(m.core_commit).slice(0, 7), wall: (m.wall_seconds / 60).toFixed(0) });
    this.short.textContent = t('convShort');
    for (const s of this.sizes) s.render();
  }
}
