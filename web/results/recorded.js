// Results recorded with the native CLI at build time (scripts/record.sh writes
// recorded/index.json, which names each experiment's file in recorded/<preset>/), shown on load
// so that a reader sees curves, tables and verdicts before pressing Run, and read by the claims
// panel for every preset. Same origin only. Each file is the core's own output, as its
// parseResults would return it, and its analysis was recorded with it (analysis.json, the core's
// analyze of those files, made by the CLI): the page reads them as they are, rather than parsing
// and analysing them again in the wasm engine on every load (tests/wasm/recorded-analysis.test.js
// checks both). Without the files (a dev server) the page says so and works.

import { t } from '../i18n/i18n.js';
import { errorText } from '../base/dom.js';
import { woFile } from './analysis.js';

const folder = (preset) => `recorded/${preset}/`;

// Each preset's recorded analysis (recordedAnalysis): its file, as the index recordedFiles read
// named it, and the promise of it once asked for.
const analysisFiles = new Map();  // preset -> file
const analyses = new Map();       // preset -> promise of the parsed analysis

// Whether `file` (the name showResults keeps) is a recording of `preset`.
export const isRecordedWith = (file, preset) => file.startsWith(folder(preset));

// The preset a recording (by the name showResults keeps) was made with.
export const recordedPreset = (file) => file.split('/')[1];

// npm start serves the page while it records the presets one after the other (scripts/start.sh):
// index.json then says "recording": true and lists the presets already in place. It is read again
// every few seconds while it says so, and each callback waiting for it runs once, when it changed.
const POLL_MS = 3000;
const waiting = new Set();
let polling = false;
let lastIndex = '';  // index.json's text as recordedFiles last read it

// index.json's text as the server has it now, or null when it has none (or cannot be reached).
const indexText = () => fetch('recorded/index.json', { cache: 'no-cache' })
  .then((r) => (r.ok ? r.text() : null)).catch(() => null);

// Runs `then` once index.json differs from what recordedFiles last read (a preset in place, or
// recording over).
export function whenRecordingsChange(then) {
  waiting.add(then);
  if (polling) return;
  polling = true;
  const seen = lastIndex;
  const tick = async () => {
    const now = (await indexText()) ?? seen;
    if (now === seen) {
      setTimeout(tick, POLL_MS);
      return;
    }
    polling = false;
    const callbacks = [...waiting];
    waiting.clear();
    for (const f of callbacks) f();
  };
  setTimeout(tick, POLL_MS);
}

// Whether npm start is still making the data file `name` (web/state/data-files.js), which it puts
// in place as soon as it is made (scripts/place.sh): index.json lists it under "coming".
export async function stillComing(name) {
  try {
    const coming = JSON.parse(await indexText())?.coming;  // JSON.parse(null): null, no index
    return Array.isArray(coming) && coming.includes(name);
  } catch {
    return false;  // not JSON
  }
}

// The files of `experiments` (the names the page shows) recorded with `preset`, as recorded:
// [{ experiment, file, blob }], those that could not be fetched left out; null when there is no
// index (nothing is recorded here); empty with `recording` set while `preset` is being recorded.
export async function recordedFiles(preset, experiments) {
  const text = await indexText();
  if (text === null) return null;
  lastIndex = text;
  let index;
  try {
    index = JSON.parse(text);
  } catch {
    return null;
  }
  if (index === null) return null;
  const inPlace = index.presets && Object.hasOwn(index.presets, preset);
  if (index.recording === true && !inPlace) return Object.assign([], { recording: true });
  analysisFiles.set(preset, (index.analyses || {})[preset]);
  const recorded = (index.presets && index.presets[preset]) || {};
  const files = await Promise.all(experiments.filter((e) => Object.hasOwn(recorded, e)).map(async (experiment) => {
    const file = folder(preset) + String(recorded[experiment]);
    try {
      const response = await fetch(file);
      return response.ok ? { experiment, file, blob: await response.blob() } : null;
    } catch {
      return null;
    }
  }));
  return files.filter(Boolean);
}

// The analysis recorded with `preset`'s files (index.json's "analyses": `wolab report --json` of
// them, scripts/record.sh), parsed: a promise of it, or of null when there is none. Fetched once,
// named by the index that recordedFiles read for `preset`.
export function recordedAnalysis(preset) {
  const name = analysisFiles.get(preset);
  if (!name) return Promise.resolve(null);
  if (!analyses.has(preset)) {
    analyses.set(preset, fetch(folder(preset) + String(name)).then((r) => (r.ok ? r.json() : null)).catch(() => null));
  }
  return analyses.get(preset);
}

// The analysis of a recording (`file`, as showResults keeps it) of `experiment` on its own, out
// of its preset's recorded analysis (the core analyses each experiment apart: the same as
// analysing the file alone); null when none was recorded.
export async function recordedExperimentAnalysis(file, experiment) {
  const analysis = await recordedAnalysis(recordedPreset(file));
  return (analysis && analysis.experiments.find((e) => e.experiment === experiment)) || null;
}

// The models recorded beside a recording (`file`, as showResults keeps it), from index.json's
// "models" of its preset (scripts/record.sh): { files: { variant: url }, examples: [word] },
// real_words' first seed and the held-out words on which its variants differ; empty when none.
export async function recordedModels(file) {
  const preset = recordedPreset(file);
  const response = await fetch('recorded/index.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`recorded/index.json: ${response.status}`);
  const models = ((await response.json()).models || {})[preset] || {};
  const files = Object.entries(models.files || {}).map(([variant, path]) => [variant, folder(preset) + String(path)]);
  return { files: Object.fromEntries(files), examples: (models.examples || []).map(String) };
}

// Fetches the files of `experiments` recorded with `preset` and shows them.
// show(results, text, { source, file }): results-shown.js's showResults; returns why it did not show them, or ''.
export async function loadRecorded(preset, experiments, show) {
  const files = await recordedFiles(preset, experiments);
  const none = document.getElementById('claims-none');
  if (!files || files.recording) {
    // npm start serves the page while it records (scripts/start.sh): say so rather than "none",
    // and show the recording once it is in place.
    none.dataset.i18n = files ? 'recordedPending' : 'recordedNone';
    none.textContent = t(none.dataset.i18n);
    if (files) whenRecordingsChange(() => loadRecorded(preset, experiments, show));
    return;
  }
  if (none.dataset.i18n === 'recordedPending') {
    none.dataset.i18n = 'claimsNone';
    none.textContent = t(none.dataset.i18n);
  }
  for (const { file, blob } of files) {
    try {
      const text = (await blob.text()).trimEnd();
      show(JSON.parse(text), text, { source: 'recorded', file });
    } catch (e) {
      console.error(`${file}: ${e.message || e}`);
    }
  }
}

// A recorded run's W_o matrices lie apart from its results file, in the float16 file its record
// names (wo_file, beside the results file; docs/results.md, "W_o snapshots apart"), fetched only
// when the run is drawn: at the Article preset each run's are 1.5 M values. One run's matrices
// per experiment are held: asking for a run drops those of the experiment's other runs.
const wanted = new WeakMap();   // exp -> the record whose matrices it shows
const pending = new WeakMap();  // record -> { error }: '' while fetching, why after it failed
const near = new WeakMap();     // el -> { now: near the viewport, then: what runs when it comes near }

// Whether el is within a screen's height of the viewport; if not, `then` runs when it comes near
// (with what other callers asked to run then: a section's estimate and its converged sizes wait on
// the same element; a caller passes one function each time, which is kept once).
export function nearViewport(el, then) {
  let state = near.get(el);
  if (!state) {
    state = { now: false, then: new Set() };
    near.set(el, state);
    new IntersectionObserver((entries) => {
      state.now = entries[entries.length - 1].isIntersecting;
      if (!state.now) return;
      const waiting = [...state.then];
      state.then.clear();
      for (const run of waiting) run();
    }, { rootMargin: '100% 0px' }).observe(el);
  }
  if (!state.now) state.then.add(then);
  return state.now;
}

// Whether run's W_o snapshots carry their matrices: { ready: true }, else { error } ('' while
// they are fetched, which starts once `box`, where they are drawn, comes near the viewport, so
// that the page's first screen does not wait for them; redraw() is called once they are in
// place or have failed).
export function woMatrices(exp, run, box, redraw) {
  const record = run.record;
  if (!record || !record.wo_file || record.wo.every((s) => s.data)) return { ready: true };
  if (exp.source !== 'recorded') return { error: t('heatWoApart', { file: record.wo_file }) };
  if (pending.has(record)) return pending.get(record);
  if (!nearViewport(box, redraw)) return { error: '' };
  const previous = wanted.get(exp);
  if (previous && previous !== record) {
    for (const s of previous.wo) delete s.data;
    pending.delete(previous);
  }
  wanted.set(exp, record);
  const state = { error: '' };
  pending.set(record, state);
  const file = record.wo_file;
  woFile(exp.file.slice(0, exp.file.lastIndexOf('/') + 1) + file).then(({ variant, seed, matrices, data }) => {
    if (wanted.get(exp) !== record) return;  // another run is shown meanwhile
    if (variant !== record.variant || seed !== record.seed) throw new Error(t('heatWoOther', { file }));
    const at = new Map(matrices.map((m) => [`${m.step}:${m.layer}:${m.rows}:${m.cols}`, m]));
    const found = record.wo.map((s) => {
      const m = at.get(`${s.step}:${s.layer}:${s.rows}:${s.cols}`);
      if (!m) throw new Error(t('heatWoMissing', { file, layer: s.layer, step: s.step }));
      return data.subarray(m.offset, m.offset + m.rows * m.cols);
    });
    record.wo.forEach((s, i) => { s.data = found[i]; });
    pending.delete(record);
    redraw();
  }).catch((e) => {
    if (wanted.get(exp) !== record) return;
    state.error = errorText(e);
    redraw();
  });
  return state;
}
