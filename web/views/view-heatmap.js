// Experiment 3: each layer's W_o as a heatmap with a slider over the saved snapshots (it follows
// the newest while the slider sits at the end), a W_o − W_o(init) toggle, per-head block norms
// (the record's head_norms and head_change_norms), and per-head OV-circuit singular values. By
// default one colour scale serves every snapshot and layer of the run, so that scrubbing compares
// like with like: one for the weights, and one for the head-block norms a wide model's map opens
// with (heatmap.js).
import { lang, t, variantLabel } from '../i18n/i18n.js';
import { subtract } from './aggregate.js';
import { barOptions, ChartBox, lineOptions, PALETTE } from './charts.js';
import { download, npyBytes } from '../results/export.js';
import { blockNorms, defaultView, Heatmap, maxAbs, minOf } from './heatmap.js';
import { LayerPanels } from './layer-panels.js';
import { woMatrices } from '../results/recorded.js';

function labelled(container, className, input, textKey) {
  const label = document.createElement('label');
  label.className = className;
  const span = document.createElement('span');
  span.dataset.key = textKey;
  label.append(span, input);
  container.appendChild(label);
  return span;
}

export class HeatmapView {
  constructor(container, exp) {
    this.exp = exp;
    this.box = container;
    this.rerender = () => this.render();  // one function, so that nearViewport keeps it once
    this.following = true;  // the slider tracks the newest snapshot

    const controls = document.createElement('div');
    controls.className = 'heatmap-controls';
    this.controls = controls;
    this.runSelect = document.createElement('select');
    this.runSelect.className = 'run-select';
    this.runSpan = labelled(controls, 'inline', this.runSelect, 'heatRun');
    this.slider = document.createElement('input');
    this.slider.type = 'range';
    this.slider.min = '0';
    this.slider.className = 'snapshot-slider';
    this.sliderSpan = labelled(controls, 'inline slider-label', this.slider, 'heatSnapshot');
    this.diff = document.createElement('input');
    this.diff.type = 'checkbox';
    this.diff.className = 'diff-toggle';
    this.diffSpan = labelled(controls, 'inline', this.diff, 'heatDiff');
    this.perSnapshot = document.createElement('input');
    this.perSnapshot.type = 'checkbox';
    this.perSnapshot.className = 'scale-toggle';
    this.perSnapshotSpan = labelled(controls, 'inline', this.perSnapshot, 'heatPerSnapshot');
    this.empty = document.createElement('p');
    this.empty.className = 'hint';
    const grid = document.createElement('div');
    grid.className = 'layer-grid';
    container.append(controls, this.empty, grid);
    this.panels = new LayerPanels(grid, (el, layer) => this.buildPanel(el, layer));

    this.runSelect.addEventListener('change', () => { this.following = true; this.render(); });
    this.slider.addEventListener('input', () => {
      this.following = Number(this.slider.value) === Number(this.slider.max);
      this.render();
    });
    this.diff.addEventListener('change', () => this.render());
    this.perSnapshot.addEventListener('change', () => this.render());
  }

  // Over every snapshot of the run (of W_o − W_o(init) when diff): the largest |weight| and, when
  // the map opens on head blocks, the smallest and largest block norms; kept until the run gains
  // a snapshot.
  // Snapshots only ever join a run's list at its end: the maxima so far are kept, and only the
  // new ones are read (reading all of them at each new probe made the live heatmap's render a
  // long task at d_model 256).
  runScales(run, snaps, diff, heads) {
    const key = `${run.id}:${diff}:${heads}`;
    if (!this.scales || this.scaleKey !== key || this.scales.seen > snaps.length) {
      this.scaleKey = key;
      this.scales = { scale: 0, blockFloor: Infinity, blockScale: 0, seen: 0 };
    }
    const sc = this.scales;
    for (const s of snaps.slice(sc.seen)) {
      const init = diff && snaps.find((i) => i.layer === s.layer && i.step === 0);
      if (diff && !init) continue;
      const data = init ? subtract(s.data, init.data) : s.data;
      sc.scale = Math.max(sc.scale, maxAbs(data));
      if (defaultView(s.cols, heads) !== 'blocks') continue;
      const norms = blockNorms(data, s.rows, s.cols, heads);
      sc.blockFloor = Math.min(sc.blockFloor, minOf(norms));
      sc.blockScale = Math.max(sc.blockScale, maxAbs(norms));
    }
    sc.seen = snaps.length;
    return sc;
  }

  selectedRun() {
    const runs = this.exp.runs;
    return runs.find((r) => String(r.id) === this.runSelect.value) || runs[0] || null;
  }

  buildPanel(el, layer) {
    const map = new Heatmap(el);
    map.canvas.dataset.layer = String(layer);
    const npy = document.createElement('button');
    npy.type = 'button';
    npy.className = 'small npy';
    npy.addEventListener('click', () => this.saveNpy(layer));
    el.appendChild(npy);
    const norms = new ChartBox(el, barOptions(), () => `wolab-wo-block-norms-layer${layer}.png`, `norms-${layer}`);
    const ov = new ChartBox(el, lineOptions(), () => `wolab-ov-singular-values-layer${layer}.png`, `ov-${layer}`);
    const ovNote = document.createElement('p');
    ovNote.className = 'hint';
    el.appendChild(ovNote);
    return { map, npy, norms, ov, ovNote, shown: null };
  }

  render() {
    for (const span of [this.runSpan, this.sliderSpan, this.diffSpan, this.perSnapshotSpan]) span.textContent = t(span.dataset.key);
    const runs = this.exp.runs;
    this.controls.hidden = runs.length === 0;
    // Run choices: one per run that keeps W_o snapshots.
    const options = runs.map((r) => `${r.id}`).join(',');
    if (this.runSelect.dataset.options !== options) {
      const keep = this.runSelect.value;
      this.runSelect.replaceChildren(...runs.map((r) => new Option('', String(r.id))));
      this.runSelect.dataset.options = options;
      if (runs.some((r) => String(r.id) === keep)) this.runSelect.value = keep;
    }
    runs.forEach((r, i) => { this.runSelect.options[i].textContent = t('heatRunOption', { variant: variantLabel(r.variant), seed: r.seed }); });

    const run = this.selectedRun();
    // A recorded run's matrices are fetched when it is drawn (recorded.js, woMatrices).
    const wo = run ? woMatrices(this.exp, run, this.box, this.rerender) : { ready: true };
    if (!wo.ready) {
      this.empty.textContent = wo.error || t('heatWoLoading');
      this.empty.hidden = false;
      this.panels.show(0);
      return;
    }
    const snaps = run && run.record ? run.record.wo : [];
    const steps = [...new Set(snaps.map((s) => s.step))].sort((a, b) => a - b);
    this.empty.textContent = steps.length ? '' : t(runs.length ? 'heatWaiting' : 'noRunsYet');
    this.empty.hidden = steps.length > 0;
    this.slider.max = String(Math.max(0, steps.length - 1));
    this.slider.disabled = steps.length < 2;
    if (this.following) this.slider.value = this.slider.max;
    const step = steps[Number(this.slider.value)];
    this.sliderSpan.textContent = step === undefined ? t('heatSnapshot') : t('heatSnapshotAt', { step });
    this.slider.setAttribute('aria-valuetext', step === undefined ? '' : t('heatSnapshotAt', { step }));

    const layers = steps.length ? Math.max(...snaps.map((s) => s.layer)) + 1 : 0;
    this.panels.show(layers);
    for (let layer = 0; layer < layers; layer++) this.renderLayer(run, layer, step, snaps);
  }

  renderLayer(run, layer, step, snaps) {
    const p = this.panels.get(layer);
    const snap = snaps.find((s) => s.layer === layer && s.step === step);
    const init = snaps.find((s) => s.layer === layer && s.step === 0);
    if (!snap) return;
    const heads = this.exp.config.model.heads;
    const diff = Boolean(this.diff.checked && init);
    const perSnapshot = this.perSnapshot.checked;
    // Progress messages arrive far more often than snapshots: redraw only what changed.
    const same = p.shown && p.shown.snap === snap && p.shown.diff === diff && p.shown.lang === lang() &&
      p.shown.perSnapshot === perSnapshot && p.shown.snaps === snaps.length;
    if (same && p.shown.ovCount === run.record.ov.length) return;
    const data = same ? p.shown.data : diff ? subtract(snap.data, init.data) : snap.data;
    p.shown = {
      snap, data, rows: snap.rows, cols: snap.cols, step, layer, diff, seed: run.seed, lang: lang(),
      ovCount: run.record.ov.length, perSnapshot, snaps: snaps.length,
    };
    const name = diff ? t('heatNameDiff', { layer, step }) : t('heatName', { layer, step });
    // At step 0 the difference is zero by definition: say so instead of drawing a blank map.
    const nothingYet = diff && step === 0;
    if (nothingYet) {
      p.map.showNote(t('heatStep0Diff'));
    } else {
      const blocks = defaultView(snap.cols, heads) === 'blocks';
      const norms = blocks ? blockNorms(data, snap.rows, snap.cols, heads) : [];
      const scales = perSnapshot ? { scale: maxAbs(data), blockFloor: minOf(norms), blockScale: maxAbs(norms) }
        : this.runScales(run, snaps, diff, heads);
      p.map.draw(data, snap.rows, snap.cols, heads, name, {
        scale: scales.scale,
        caption: t(perSnapshot ? 'heatScaleSnap' : 'heatScaleRun', { max: scales.scale.toPrecision(3) }),
        blockFloor: scales.blockFloor,
        blockScale: scales.blockScale,
        blockCaption: blocks ? t(perSnapshot ? 'heatBlockScaleSnap' : 'heatBlockScaleRun', {
          min: scales.blockFloor.toPrecision(3), max: scales.blockScale.toPrecision(3) }) : '',
      });
    }
    p.npy.textContent = t('npyButton');
    p.npy.setAttribute('aria-label', t('npyLabel', { name }));

    const norms = diff ? snap.head_change_norms : snap.head_norms;  // (heads)
    p.norms.figure.hidden = nothingYet;
    p.norms.label(t(diff ? 'normsTitleDiff' : 'normsTitle', { step }), t('axisHead'), t('axisNorm'));
    p.norms.bars(norms.map((_, h) => t('headN', { head: h })), [
      { label: t('normsSeries'), data: norms, color: PALETTE[0] },
    ]);

    // The record's OV singular values (none in version 1 files): the latest probe at or before
    // the selected step.
    const ov = run.record.ov.filter((o) => o.layer === layer && o.step <= step);
    const ovStep = ov.length ? Math.max(...ov.map((o) => o.step)) : null;
    p.ov.label(t('ovTitle', { step: ovStep ?? step }), t('axisSvIndex'), t('axisSv'));
    const groups = [];
    for (let head = 0; head < heads; head++) {
      const hit = ov.find((o) => o.step === ovStep && o.head === head);
      if (!hit) continue;
      const x = Array.from(hit.values, (_, i) => i + 1);
      const y = Array.from(hit.values);
      groups.push({ group: `h${head}`, label: t('headN', { head }), color: PALETTE[head % PALETTE.length],
        band: false, bands: { x, mean: y, min: y, max: y } });
    }
    p.ov.bands(groups);
    p.ov.figure.hidden = groups.length === 0;
    p.ovNote.textContent = groups.length ? '' : t(run.finished ? 'ovNone' : 'ovWaiting');
    p.ovNote.hidden = groups.length > 0;
  }

  saveNpy(layer) {
    const s = this.panels.get(layer).shown;
    if (!s) return;
    const kind = s.diff ? 'wo-minus-init' : 'wo';
    download(`wolab-${kind}-layer${s.layer}-step${s.step}-seed${s.seed}.npy`, npyBytes(s.data, s.rows, s.cols),
      'application/octet-stream');
  }
}
