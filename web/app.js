// DOM glue: settings form <-> URL state, the worker pool <-> the experiment views, import/export,
// sharing and language. Views draw from run records in the results schema, so a live run, a
// finished run and an imported CLI file all go through the same drawing code.
import { applyStatic, detectLang, lang, setLang, t } from './i18n.js';
import {
  experimentConfig, matchPreset, parseValue, readQuery, runConfig, SETTINGS, settingForField,
  settingsFromConfig, SPEC_DEFAULTS, writeQuery, EXPERIMENTS,
} from './state.js';
import { loadWolab } from './wasm.js';
import { poolSize, Runner } from './runner.js';
import { invalidate, renderNow } from './frames.js';
import { RunList } from './runlist.js';
import { CurvesView, isSettled } from './view-curves.js';
import { HeatmapView } from './view-heatmap.js';
import { StatsView } from './view-stats.js';
import { curvesCsv, download, toJson } from './export.js';
import { warmUp } from './charts.js';

const VIEWS = { remove_wo: CurvesView, freeze_wo: CurvesView, wo_heatmap: HeatmapView, activation_stats: StatsView };
const $ = (sel, root = document) => root.querySelector(sel);

const app = {
  wolab: null,                     // the Embind module on this thread
  script: null,                    // its script, 'wolab.js' or 'wolab-nosimd.js', for the workers too
  presets: {},
  variants: {},                    // experiment -> its variants, from the wasm experiments()
  base: { ...SPEC_DEFAULTS },      // where bad values fall back to: the Quick preset once loaded
  settings: { ...SPEC_DEFAULTS },  // the last value of each field that parsed
  texts: {},                       // each field's text as typed (what the URL carries)
  fieldErrors: {},                 // key -> { key: i18n key } or { text: validator message }
  generalErrors: [],               // validator messages that name no field of the form
  langChosen: null,                // from ?lang= or the selector; null follows the browser
  embed: null,
  runner: null,
  exps: new Map(),
  jobs: new Map(),                 // job id -> { runs, record, ov, ... }: one training run
  nextId: 1,
  batch: { jobs: [], start: 0, end: 0 },
};

// ---------- notices ----------

function notice(text, kind = 'info') {
  const box = $('#notices');
  const p = document.createElement('p');
  p.className = kind;
  p.textContent = text;
  box.appendChild(p);
  while (box.children.length > 8) box.firstElementChild.remove();
}

const errorText = (e) => (e && e.message ? e.message : String(e));

// ---------- settings form, validation, URL ----------

const form = () => $('#settings-form');
// By id, not form.elements[key]: form.elements.length is the element count, not the field.
const input = (key) => document.getElementById(`s-${key}`);

// A field per setting, in SETTINGS order: a select for a choice (option texts are the i18n keys
// <key>_<value>), a number box for a whole number, a text box for a real (so 1e-3 can be typed).
function buildForm() {
  for (const s of SETTINGS) {
    const field = document.createElement('div');
    field.className = 'field';
    field.dataset.setting = s.key;
    const label = document.createElement('label');
    label.htmlFor = `s-${s.key}`;
    label.dataset.i18n = `f_${s.key}`;
    let control;
    if (s.type === 'enum') {
      control = document.createElement('select');
      for (const value of s.values) {
        const option = new Option(value, value);
        option.dataset.i18n = `${s.key}_${value}`;
        control.add(option);
      }
    } else {
      control = document.createElement('input');
      control.type = s.type === 'int' ? 'number' : 'text';
      control.inputMode = s.type === 'int' ? 'numeric' : 'decimal';
      if (s.type === 'int') control.step = '1';
      else control.spellcheck = false;
    }
    control.id = `s-${s.key}`;
    control.name = s.key;
    field.append(label, control);
    form().appendChild(field);
  }
}

function fillForm() {
  for (const s of SETTINGS) {
    input(s.key).value = String(app.settings[s.key]);
    app.texts[s.key] = String(app.settings[s.key]);
  }
}

function readForm() {
  app.fieldErrors = {};
  for (const s of SETTINGS) {
    const text = input(s.key).value;
    app.texts[s.key] = text;
    const r = parseValue(s, text);
    if ('error' in r) app.fieldErrors[s.key] = { key: r.error };
    else app.settings[s.key] = r.value;
  }
}

// The wasm validator's messages for these settings: [{ key | null, text }]. Judged as experiment
// "all", the strictest: its memory estimate includes the W_o snapshots of experiment 3.
function validatorMessages(settings) {
  if (!app.wolab) return [];
  const config = JSON.stringify(experimentConfig(settings, 'all'));
  return app.wolab.validateConfig(config).map((text) => ({
    key: settingForField(text.split(':')[0].trim()), text,
  }));
}

function validate() {
  app.generalErrors = [];
  for (const m of validatorMessages(app.settings)) {
    if (m.key && !app.fieldErrors[m.key]) app.fieldErrors[m.key] = { text: m.text };
    else if (!m.key) app.generalErrors.push(m.text);
  }
  showErrors();
}

const configValid = () => Object.keys(app.fieldErrors).length === 0 && app.generalErrors.length === 0;

function showErrors() {
  for (const s of SETTINGS) {
    const field = form().querySelector(`[data-setting="${s.key}"]`);
    const control = input(s.key);
    let msg = field.querySelector('.field-error');
    const err = app.fieldErrors[s.key];
    if (!err) {
      if (msg) msg.remove();
      control.removeAttribute('aria-invalid');
      control.removeAttribute('aria-describedby');
      continue;
    }
    if (!msg) {
      msg = document.createElement('p');
      msg.className = 'field-error';
      msg.id = `err-${s.key}`;
      field.appendChild(msg);
    }
    msg.textContent = err.key ? t(err.key) : err.text;
    control.setAttribute('aria-invalid', 'true');
    control.setAttribute('aria-describedby', msg.id);
  }
  const general = [...app.generalErrors];
  if (!configValid()) general.push(t('configInvalid'));
  $('#config-errors').textContent = general.join(' ');
  refreshButtons();
}

function writeUrl() {
  const query = writeQuery(app.texts, { lang: app.langChosen, embed: app.embed });
  history.replaceState(null, '', query + location.hash);
  for (const a of document.querySelectorAll('.open-full')) {
    a.href = location.pathname + writeQuery(app.texts, { lang: app.langChosen });
  }
}

function syncPreset() {
  $('#preset').value = configValid() ? matchPreset(app.settings, app.presets) : 'custom';
}

function onSettingsEdited() {
  readForm();
  validate();
  syncPreset();
  writeUrl();
}

function applyPreset(name) {
  const preset = app.presets[name];
  if (!preset) return;
  app.settings = settingsFromConfig(preset);
  fillForm();
  onSettingsEdited();
}

// Settings from the link: values that do not parse, or that the validator refuses, fall back to
// the Quick preset with a notice, so a damaged link still opens a runnable page.
function settingsFromLink(query) {
  for (const p of query.problems) {
    const fallback = p.key === 'lang' ? lang() : p.key === 'embed' ? '—' : app.base[p.key];
    notice(t('urlProblem', { text: p.text, field: p.key, problem: t(p.error), fallback }), 'error');
  }
  app.settings = { ...app.base, ...query.settings };
  const refused = validatorMessages(app.settings).filter((m) => m.key && m.key in query.settings);
  for (const m of refused) {
    notice(t('urlRefused', { value: app.settings[m.key], field: m.key, problem: m.text, fallback: app.base[m.key] }), 'error');
    app.settings[m.key] = app.base[m.key];
  }
  fillForm();
  onSettingsEdited();
}

// ---------- experiments: state, frame, rendering ----------

// An experiment's section, a copy of index.html's template with the experiment's name in its
// ids and text keys.
function experimentSection(name) {
  const section = $('#experiment-template').content.firstElementChild.cloneNode(true);
  section.id = `exp-${name}`;
  section.dataset.exp = name;
  section.setAttribute('aria-labelledby', `h-${name}`);
  $('h2', section).id = `h-${name}`;
  for (const el of section.querySelectorAll('[data-i18n-part]')) el.dataset.i18n = `${name}_${el.dataset.i18nPart}`;
  return section;
}

function makeExperiment(name) {
  const section = experimentSection(name);
  const body = $('.exp-body', section);
  const exp = {
    name, section, variants: [], config: null, source: null, file: '', createdBy: '',
    resultsText: null, runs: [], summary: null,
  };
  exp.configLine = document.createElement('p');
  exp.configLine.className = 'config-line';
  const runsBox = document.createElement('div');
  exp.runList = new RunList(runsBox, saveModel);
  const viewBox = document.createElement('div');
  viewBox.className = 'view';
  exp.view = new VIEWS[name](viewBox, exp);
  const exports = document.createElement('div');
  exports.className = 'exports';
  exp.exportJson = button('small', () => {
    try {
      download(`wolab-${name}.json`, resultsText(exp), 'application/json');
    } catch (e) {
      notice(errorText(e), 'error');
    }
  });
  exp.exportCsv = button('small', () => download(`wolab-${name}-curves.csv`, curvesCsv(name, finishedRuns(exp)), 'text/csv'));
  exports.append(exp.exportJson, exp.exportCsv);
  body.append(exp.configLine, runsBox, viewBox, exports);
  exp.render = () => {
    renderFrame(exp);
    exp.view.render();
  };
  exp.redraw = () => invalidate(exp, exp.render);
  exp.renderNow = () => renderNow(exp, exp.render);
  $('.run', section).addEventListener('click', () => runExperiments([name]));
  $('.copy-embed', section).addEventListener('click', () => copyEmbed(exp));
  return exp;
}

function button(className, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = className;
  b.addEventListener('click', onClick);
  return b;
}

const finishedRuns = (exp) => exp.runs.filter((r) => r.finished);

function describeConfig(config) {
  const s = settingsFromConfig(config);
  const seedText = s.seeds === 1 ? t('seedOne', { seed: s.seed }) : t('seedRange', { from: s.seed, to: s.seed + s.seeds - 1 });
  return t('configLine', { ...s, ln: t(`ln_${s.ln}`), seedText });
}

// data-state on each experiment (empty | running | settled) and on #controls (idle | running |
// paused), data-status on run rows: the page's state for tests and scripts/bench_page.js.
function renderFrame(exp) {
  exp.section.dataset.state = !exp.runs.length ? 'empty' : isSettled(exp) ? 'settled' : 'running';
  exp.configLine.hidden = !exp.config;
  if (exp.config) {
    const config = describeConfig(exp.config);
    exp.configLine.textContent = exp.source === 'import'
      ? t('sourceImport', { file: exp.file, created_by: exp.createdBy, config })
      : t('sourceLive', { config });
  }
  exp.runList.render(exp.runs, exp.source);
  const any = finishedRuns(exp).length > 0;
  exp.exportJson.textContent = t('exportResults');
  exp.exportCsv.textContent = t('exportCsv');
  exp.exportJson.disabled = !any;
  exp.exportCsv.disabled = !any;
}

function resultsText(exp) {
  if (exp.source === 'import') return exp.resultsText;
  return app.wolab.makeResults(exp.name, JSON.stringify(exp.config), toJson(finishedRuns(exp).map((r) => r.record)));
}

// The summary (mean ± std per variant) of the finished runs, from the same C++ code as the CLI.
// It reads each run's variant, status, parameters and final metrics only, so the curves,
// probes and snapshots are left out of the JSON: that makes the call ~100x cheaper.
function summarize(exp) {
  const done = finishedRuns(exp);
  if (!done.length) {
    exp.summary = null;
    return;
  }
  try {
    const runs = JSON.stringify(done.map((r) => ({
      ...r.record, curve: { step: [], loss: [] }, eval: { step: [], loss: [], token_acc: [], exact: [] }, stats: [], wo: [],
    })));
    exp.summary = JSON.parse(app.wolab.makeResults(exp.name, JSON.stringify(exp.config), runs)).summary;
  } catch (e) {
    notice(errorText(e), 'error');
  }
}

const emptyRecord = (variant, seed) => ({
  variant, seed, parameters: 0,
  curve: { step: [], loss: [] },
  eval: { step: [], loss: [], token_acc: [], exact: [] },
  stats: [], wo: [], final: null, status: 'running',
});

function reset(exp, fields) {
  Object.assign(exp, { config: null, source: null, file: '', createdBy: '', resultsText: null, runs: [], summary: null }, fields);
}

// ---------- running ----------

// Queues the runs of these experiments. A (variant, seed) that several of them compare with the
// same settings is trained once and shared, as the CLI does for `--experiment all`: identical
// configs train identically, so "Run all four" trains 12 runs of the Quick preset, not 27.
function runExperiments(names) {
  if (!app.wolab || !configValid()) return;
  if (!app.runner.busy) app.batch = { jobs: [], start: performance.now(), end: 0 };
  const byConfig = new Map();  // run config JSON -> job
  for (const name of names) {
    const exp = app.exps.get(name);
    if (exp.runs.some((r) => r.status === 'queued' || r.status === 'running')) continue;
    const config = experimentConfig(app.settings, name);
    reset(exp, { config, source: 'live' });
    for (let i = 0; i < config.seeds; i++) {
      for (const variant of app.variants[name]) {
        const seed = config.train.seed + i;
        const key = JSON.stringify(runConfig(config, variant, i));
        let job = byConfig.get(key);
        if (!job) {
          job = {
            id: app.nextId++, variant, config: JSON.parse(key), needs: { stats: false, wo: false },
            runs: [], record: emptyRecord(variant, seed), ov: [],
          };
          byConfig.set(key, job);
        }
        job.needs.stats ||= name === 'activation_stats';
        job.needs.wo ||= name === 'wo_heatmap';
        const run = {
          id: app.nextId++, job: job.id, experiment: name, variant, seed, steps: config.train.steps,
          stepsDone: 0, status: 'queued', rate: 0, lastAt: 0, startedAt: 0, finished: false, error: '',
          record: job.record, ov: job.ov,  // shared with the job's other runs until it finishes
        };
        job.runs.push(run);
        exp.runs.push(run);
      }
    }
    exp.renderNow();
  }
  const jobs = [...byConfig.values()];
  for (const job of jobs) app.jobs.set(job.id, job);
  app.batch.jobs.push(...jobs);
  app.runner.enqueue(jobs.map(({ id, variant, config, needs }) => ({ id, variant, config, needs })));
  overall.renderNow();
}

function addProbe(job, probe) {
  const r = job.record;
  if (probe.stats) probe.stats.layers.forEach((l, layer) => r.stats.push({ step: probe.stats.step, layer, ...l }));
  if (probe.wo) r.wo.push(...probe.wo);
  if (probe.ov) job.ov.push(...probe.ov);
}

function onWorker(msg) {
  const job = app.jobs.get(msg.id);
  if (!job) return;
  const now = performance.now();
  if (msg.type === 'started') job.record.parameters = msg.parameters;
  if (msg.type === 'progress') {
    const c = job.record.curve;
    msg.losses.forEach((loss, i) => {
      c.step.push(msg.firstStep + i);
      c.loss.push(loss);
    });
  }
  if (msg.eval) {
    const ev = job.record.eval;  // the finished record's eval series holds these same points
    for (const key of ['step', 'loss', 'token_acc', 'exact']) ev[key].push(msg.eval[key]);
  }
  if (msg.probe) addProbe(job, msg.probe);
  for (const run of job.runs) updateRun(run, msg, now);
  if (['finished', 'stopped', 'error'].includes(msg.type)) app.jobs.delete(job.id);  // its runs keep the results
  if (!app.runner.busy && !app.batch.end) app.batch.end = now;
  for (const exp of new Set(job.runs.map((r) => app.exps.get(r.experiment)))) {
    settle(exp);
    exp.redraw();
  }
  overall.redraw();
}

function updateRun(run, msg, now) {
  switch (msg.type) {
    case 'started':
      run.status = 'running';
      run.lastAt = now;
      run.startedAt = now;
      break;
    case 'progress': {
      const rate = msg.losses.length / Math.max(1e-3, (now - run.lastAt) / 1000);
      run.rate = run.rate ? 0.7 * run.rate + 0.3 * rate : rate;
      run.lastAt = now;
      run.stepsDone = msg.stepsDone;
      break;
    }
    case 'finished':
      // W_o snapshots belong to experiment 3's results only (results schema v1).
      run.record = run.experiment === 'wo_heatmap' ? msg.record : { ...msg.record, wo: [] };
      run.status = msg.status;
      run.finished = true;
      run.stepsDone = run.record.curve.step.length ? run.record.curve.step[run.record.curve.step.length - 1] : 0;
      run.rate = run.stepsDone / Math.max(1e-3, (now - run.startedAt) / 1000);  // the run's average
      break;
    case 'stopped':
      run.status = 'stopped';
      run.stepsDone = msg.stepsDone;
      break;
    case 'error':
      run.status = 'error';
      run.error = msg.message;
      break;
    default:
  }
}

// Once every run of a live experiment has ended, its summary (one call into wasm per experiment,
// not one per finished run: it is the costliest thing the main thread does with results).
function settle(exp) {
  if (exp.source === 'live' && !exp.summary && isSettled(exp)) summarize(exp);
}

function stopAll() {
  for (const queued of app.runner.stop()) {
    for (const run of app.jobs.get(queued.id).runs) run.status = 'stopped';
    app.jobs.delete(queued.id);
  }
  if (!app.runner.busy && !app.batch.end) app.batch.end = performance.now();
  for (const exp of app.exps.values()) {
    settle(exp);
    exp.redraw();
  }
  overall.redraw();
}

function togglePause() {
  if (app.runner.paused) app.runner.resume();
  else app.runner.pause();
  overall.renderNow();
}

const settledStatus = (r) => r.finished || r.status === 'stopped' || r.status === 'error';
const fmtTime = (ms) => t('seconds', { s: (ms / 1000).toFixed(1) });

// The control bar: overall progress, steps/s and time left, button states.
const overall = {
  render() {
    const runs = app.batch.jobs.map((job) => job.runs[0]);  // a job's runs share their state
    const busy = Boolean(app.runner && app.runner.busy);
    let total = 0, done = 0, rate = 0;
    for (const r of runs) {
      total += r.steps;
      done += settledStatus(r) ? r.steps : r.stepsDone;
      if (r.status === 'running') rate += r.rate;
    }
    const bar = $('#overall-progress');
    bar.value = total ? done / total : 0;
    const finished = runs.filter(settledStatus).length;
    let label = t('overallIdle');
    if (busy && app.runner.paused) label = t('overallPaused', { done: finished, total: runs.length });
    else if (busy) {
      const eta = rate > 0 ? fmtTime((1000 * (total - done)) / rate) : '…';
      label = t('overallRunning', { done: finished, total: runs.length, rate: rate.toFixed(0), eta });
    } else if (runs.length) {
      label = t('overallDone', { done: runs.filter((r) => r.finished).length, total: runs.length, time: fmtTime(app.batch.end - app.batch.start) });
    }
    $('#overall-label').textContent = label;
    $('#controls').dataset.state = busy ? (app.runner.paused ? 'paused' : 'running') : 'idle';
    refreshButtons();
  },
  redraw: () => invalidate(overall, overall.render),
  renderNow: () => renderNow(overall, overall.render),
};

function refreshButtons() {
  const ready = Boolean(app.wolab) && configValid();
  const busy = Boolean(app.runner && app.runner.busy);
  for (const exp of app.exps.values()) {
    const b = $('.run', exp.section);
    const running = exp.runs.some((r) => r.status === 'queued' || r.status === 'running');
    b.disabled = !ready || running;
    b.textContent = t(running ? 'runBusy' : 'run');
  }
  $('#run-all').disabled = !ready || [...app.exps.values()].every((e) => e.runs.some((r) => r.status === 'queued' || r.status === 'running'));
  const pause = $('#pause');
  pause.disabled = !busy;
  pause.textContent = t(app.runner && app.runner.paused ? 'resume' : 'pause');
  pause.setAttribute('aria-pressed', String(Boolean(app.runner && app.runner.paused)));
  $('#stop').disabled = !busy;
}

// ---------- export of models, import of results ----------

async function saveModel(run) {
  const bytes = await app.runner.checkpoint(run.job);
  if (!bytes) {
    notice(t('modelMissing', { variant: run.variant, seed: run.seed }), 'error');
    return;
  }
  download(`wolab-${run.experiment}-${run.variant}-seed${run.seed}.safetensors`, bytes, 'application/octet-stream');
}

// A results file (e.g. from `wolab run --out`) replaces one experiment's runs, after the wasm
// parseResults has accepted it; anything it refuses changes nothing on the page.
async function importFile(file) {
  const refuse = (message) => notice(t('importRefused', { file: file.name, message }), 'error');
  let normalised, results;
  try {
    normalised = app.wolab.parseResults(await file.text());
    results = JSON.parse(normalised);
  } catch (e) {
    refuse(errorText(e));
    return;
  }
  const exp = app.exps.get(results.experiment);
  if (!exp) {
    refuse(t('importNotShown', { experiment: results.experiment }));
    return;
  }
  if (exp.runs.some((r) => r.status === 'queued' || r.status === 'running')) {
    refuse(t('importBusy'));
    return;
  }
  reset(exp, {
    config: results.config, source: 'import', file: file.name, createdBy: results.created_by,
    resultsText: normalised, summary: results.summary,
  });
  for (const record of results.runs) {
    const id = app.nextId++;
    const steps = record.curve.step.length ? record.curve.step[record.curve.step.length - 1] : 0;
    const run = {
      id, experiment: exp.name, variant: record.variant, seed: record.seed, steps: results.config.train.steps,
      stepsDone: steps, status: record.status, rate: 0, lastAt: 0, finished: true, error: '', record, ov: [],
    };
    exp.runs.push(run);
  }
  exp.renderNow();
  refreshButtons();
  notice(t('imported', { file: file.name, experiment: exp.name, runs: results.runs.length }));
  exp.section.scrollIntoView({ block: 'start' });
}

// ---------- sharing ----------

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

async function copyLink() {
  const ok = await copyText(location.href);
  notice(ok ? t('linkCopied') : `${t('copyFailed')} ${location.href}`, ok ? 'info' : 'error');
}

async function copyEmbed(exp) {
  const url = new URL(location.pathname + writeQuery(app.texts, { lang: app.langChosen, embed: exp.name }), location.href);
  const attr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const title = attr(`W_o Lab: ${t(`${exp.name}_title`)}`);
  const snippet = `<iframe src="${attr(url.href)}" title="${title}" width="100%" height="900" style="border:0" loading="lazy"></iframe>`;
  const dialog = $('#embed-dialog');
  $('.exp-head', exp.section).after(dialog);
  dialog.hidden = false;
  const area = $('#embed-code');
  area.value = snippet;
  area.select();
  const ok = await copyText(snippet);
  notice(ok ? t('embedCopied') : t('copyFailed'), ok ? 'info' : 'error');
}

// ---------- language ----------

function renderAll() {
  applyStatic();
  $('#lang').value = lang();
  showErrors();
  for (const exp of app.exps.values()) exp.renderNow();
  overall.renderNow();
  if (app.wolab) showEngine();
}

function showEngine() {
  $('#engine').textContent = t('engineReady', {
    version: app.wolab.version(), build: t(app.script === 'wolab.js' ? 'buildSimd' : 'buildPlain'), workers: app.runner.size,
  });
}

// ---------- start ----------

async function boot() {
  const query = readQuery(location.search);
  app.langChosen = query.lang;
  app.embed = query.embed;
  setLang(query.lang || detectLang(navigator.languages));
  if (app.embed) document.body.classList.add('embed');
  for (const name of EXPERIMENTS) {
    const exp = makeExperiment(name);
    exp.section.hidden = Boolean(app.embed) && name !== app.embed;
    $('#experiments').appendChild(exp.section);
    app.exps.set(name, exp);
  }
  buildForm();
  app.settings = { ...SPEC_DEFAULTS, ...query.settings };
  fillForm();
  renderAll();

  form().addEventListener('input', onSettingsEdited);
  form().addEventListener('change', onSettingsEdited);
  form().addEventListener('submit', (e) => e.preventDefault());
  $('#preset').addEventListener('change', (e) => applyPreset(e.target.value));
  $('#lang').addEventListener('change', (e) => {
    app.langChosen = e.target.value;
    setLang(app.langChosen);
    renderAll();
    writeUrl();
  });
  $('#copy-link').addEventListener('click', copyLink);
  $('#run-all').addEventListener('click', () => runExperiments(EXPERIMENTS));
  $('#pause').addEventListener('click', togglePause);
  $('#stop').addEventListener('click', stopAll);
  // Several files at once: `wolab run --experiment all` writes one per experiment.
  $('#import-file').addEventListener('change', async (e) => {
    const files = [...e.target.files];
    e.target.value = '';
    if (!app.wolab) return;
    for (const file of files) await importFile(file);
  });

  try {
    const { module, script } = await loadWolab();
    app.wolab = module;
    app.script = script;
    app.presets = JSON.parse(module.presets());
    for (const e of JSON.parse(module.experiments())) app.variants[e.name] = e.variants;
    for (const exp of app.exps.values()) exp.variants = app.variants[exp.name] || [];
    if (app.presets.quick) app.base = settingsFromConfig(app.presets.quick);
  } catch (e) {
    $('#engine').textContent = t('engineFailed', { message: errorText(e) });
    $('#engine').classList.add('error');
    showErrors();
    return;
  }
  warmUp();
  app.runner = new Runner(app.script, poolSize(), onWorker);
  settingsFromLink(query);
  showEngine();
  document.body.dataset.ready = 'true';
  overall.renderNow();
}

boot();
