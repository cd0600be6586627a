// DOM glue: settings form <-> URL state, the worker pool <-> the experiment views, import/export,
// sharing and language. Views draw from run records in the results schema, so a live run, a
// finished run and an imported CLI file all go through the same drawing code.
import { applyStatic, detectLang, lang, setLang, t, variantLabel } from './i18n.js';
import {
  defaults, experimentConfig, experimentInfos, formSettings, matchPreset, parseValue, readQueryChrome, readSettings,
  setCoreTables, settingForField, settingsFromConfig, valueText, writeQuery,
} from './state.js';
import { loadWolab } from './wasm.js';
import { poolSize, Runner } from './runner.js';
import { invalidate, renderNow } from './frames.js';
import { RunList } from './runlist.js';
import { CurvesView, isSettled } from './view-curves.js';
import { HeatmapView } from './view-heatmap.js';
import { StatsView } from './view-stats.js';
import { LrView } from './view-lr.js';
import { curvesCsv, download } from './export.js';
import { applyTheme, warmUp } from './charts.js';
import { applyHeatTheme } from './heatmap.js';
import { reportHeight } from './frame-height.js';
import { lessonChanged, renderClaims, renderVerdict, setUpLesson } from './lesson.js';
import { isRecordedWith, loadRecorded } from './recorded.js';
import { analyze, makeResults, parseResults, startAnalysis } from './analysis.js';

// An experiment's view follows from what it declares (experiments(), docs/api.md): what its
// runs keep, or that it sweeps learning rates.
const viewFor = (info) => (info.wo_snapshots ? HeatmapView : info.stats ? StatsView : info.lr_sweep ? LrView : CurvesView);
const $ = (sel, root = document) => root.querySelector(sel);

const app = {
  wolab: null,                     // the Embind module on this thread
  script: null,                    // its script, 'wolab.js' or 'wolab-nosimd.js', for the workers too
  presets: {},
  base: {},                        // where bad values fall back to: the Quick preset
  settings: {},                    // the last value of each field that parsed
  texts: {},                       // each field's text as typed (what the URL carries)
  fieldErrors: {},                 // key -> { key: i18n key } or { text: validator message }
  generalErrors: [],               // validator messages that name no field of the form
  langChosen: null,                // from ?lang= or the selector; null follows the browser
  embed: null,
  theme: null,                     // from ?theme=; null follows prefers-color-scheme
  engineFailed: false,
  pending: null,                   // experiments whose Run was pressed before the engine loaded
  requested: null,                 // experiments whose Run was pressed in this task (requestRun)
  speed: null,                     // { key, seconds: name -> s, rate } measured here (measureSpeed)
  speedTimer: 0,
  recordedPreset: null,            // the preset whose recorded results were asked for last
  lastRun: null,                   // the Run button pressed last: where focus returns after a run
  runner: null,
  exps: new Map(),
  jobs: new Map(),                 // job id -> { runs, record, ov, ... }: one training run
  nextId: 1,
  batch: { jobs: [], start: 0, end: 0 },
};

// ---------- notices ----------

// A notice is a group (one event: a link's problems are one notice), with its own dismiss button,
// shown where the user is looking: in the control bar's box by default, or in an experiment's.
// Information goes by itself after a while; an error stays until dismissed. Older notices give
// way to newer ones, so they never pile up.
const MAX_NOTICES = 3;
const INFO_MS = 8000;

function notice(text, kind = 'info', { items = [], box = $('#notices') } = {}) {
  for (const old of box.querySelectorAll('.notice')) if (old.dataset.text === text) old.remove();
  const group = document.createElement('div');
  group.className = `notice ${kind}`;
  group.dataset.text = text;
  group.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  const body = document.createElement('div');
  body.className = 'notice-text';
  const p = document.createElement('p');
  p.textContent = text;
  body.appendChild(p);
  if (items.length) {
    const list = document.createElement('ul');
    for (const item of items) list.appendChild(document.createElement('li')).textContent = item;
    body.appendChild(list);
  }
  const close = button('dismiss small', () => dismiss(group));
  close.textContent = '×';
  close.setAttribute('aria-label', t('dismiss'));
  group.append(body, close);
  box.appendChild(group);
  while (box.children.length > MAX_NOTICES) box.firstElementChild.remove();
  if (kind === 'info') setTimeout(() => dismiss(group), INFO_MS);
}

// Removes a notice; focus on it moves to the next notice, or back to the page's Run button.
function dismiss(group) {
  const had = group.contains(document.activeElement);
  const next = group.nextElementSibling || group.previousElementSibling;
  group.remove();
  if (had) (next ? $('.dismiss', next) : focusTarget()).focus();
}

const errorText = (e) => (e && e.message ? e.message : String(e));

// ---------- settings form, validation, URL ----------

const form = () => $('#settings-form');
// By id, not form.elements[key]: form.elements.length is the element count, not the field.
const input = (key) => document.getElementById(`s-${key}`);

// A field per setting of the core's table, in its order: a select for a choice (option texts
// are the i18n keys <key>_<value>), a number box for a whole number, a text box for a real or a
// list of reals (so 1e-3 can be typed).
function buildForm() {
  for (const s of formSettings()) {
    const field = document.createElement('div');
    field.className = 'field';
    field.dataset.setting = s.key;
    const label = document.createElement('label');
    label.htmlFor = `s-${s.key}`;
    label.dataset.i18n = `f_${s.key}`;
    let control;
    if (s.kind === 'choice') {
      control = document.createElement('select');
      for (const value of s.choices) {
        const option = new Option(value, value);
        option.dataset.i18n = `${s.key}_${value}`;
        control.add(option);
      }
    } else {
      control = document.createElement('input');
      control.type = s.kind === 'integer' ? 'number' : 'text';
      control.inputMode = s.kind === 'integer' ? 'numeric' : 'decimal';
      if (s.kind === 'integer') control.step = '1';
      else control.spellcheck = false;
    }
    control.id = `s-${s.key}`;
    control.name = s.key;
    const help = document.createElement('small');
    help.className = 'help';
    help.id = `help-${s.key}`;
    help.dataset.i18n = `h_${s.key}`;
    control.setAttribute('aria-describedby', help.id);
    field.append(label, control, help);
    form().appendChild(field);
  }
}

function fillForm() {
  for (const s of formSettings()) {
    input(s.key).value = valueText(app.settings[s.key]);
    app.texts[s.key] = valueText(app.settings[s.key]);
  }
}

function readForm() {
  app.fieldErrors = {};
  for (const s of formSettings()) {
    const text = input(s.key).value;
    app.texts[s.key] = text;
    const r = parseValue(s, text);
    if ('error' in r) app.fieldErrors[s.key] = { key: r.error };
    else app.settings[s.key] = r.value;
  }
}

// The wasm validator's messages for these settings: [{ key | null, text, rest }], rest being the
// text after the field path ("model.heads: d_model 8 is not…" -> "d_model 8 is not…"). Judged as
// experiment "all", the strictest: its memory estimate includes the W_o snapshots of experiment 3.
function validatorMessages(settings) {
  if (!app.wolab) return [];
  const config = JSON.stringify(experimentConfig(settings, 'all'));
  return app.wolab.validateConfig(config).map((text) => {
    const colon = text.indexOf(':');
    const key = colon > 0 ? settingForField(text.slice(0, colon).trim()) : null;
    return { key, text, rest: key ? text.slice(colon + 1).trim() : text };
  });
}

// A setting's label, which notices use in place of its path in the config.
const fieldLabel = (key) => t(`f_${key}`);

function validate() {
  app.generalErrors = [];
  for (const m of validatorMessages(app.settings)) {
    if (m.key && !app.fieldErrors[m.key]) app.fieldErrors[m.key] = { text: m.rest };
    else if (!m.key) app.generalErrors.push(m.text);
  }
  showErrors();
}

const configValid = () => Object.keys(app.fieldErrors).length === 0 && app.generalErrors.length === 0;

function showErrors() {
  for (const s of formSettings()) {
    const field = form().querySelector(`[data-setting="${s.key}"]`);
    const control = input(s.key);
    let msg = field.querySelector('.field-error');
    const err = app.fieldErrors[s.key];
    if (!err) {
      if (msg) msg.remove();
      control.removeAttribute('aria-invalid');
      control.setAttribute('aria-describedby', `help-${s.key}`);
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
    control.setAttribute('aria-describedby', `${msg.id} help-${s.key}`);
  }
  const general = [...app.generalErrors];
  if (!configValid()) general.push(t('configInvalid'));
  $('#config-errors').textContent = general.join(' ');
  summarizeSettings();
  refreshButtons();
}

// The folded settings' one-line summary; settings that need fixing unfold them.
function summarizeSettings() {
  const summary = $('#settings-summary');
  if (!formSettings().length) return;  // the core's settings table has not loaded yet
  const valid = configValid();
  summary.classList.toggle('error', !valid);
  summary.textContent = valid
    ? t('settingsSummaryLine', {
      preset: t(`preset${matchPreset(app.settings, app.presets).replace(/^./, (c) => c.toUpperCase())}`),
      config: describeConfig(experimentConfig(app.settings, 'all')),
    })
    : t('settingsSummaryInvalid');
  if (!valid) $('#settings').open = true;
}

function writeUrl() {
  const query = writeQuery(app.texts, { lang: app.langChosen, embed: app.embed, theme: app.theme });
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
  scheduleSpeed(SPEED_DELAY_MS);
}

// ---------- the estimate before Run ----------

const SPEED_DELAY_MS = 600;        // after the last edit, or after runs end
const LOAD_SPEED_DELAY_MS = 1500;  // after load: once the recorded results are drawn

function scheduleSpeed(ms) {
  clearTimeout(app.speedTimer);
  app.speedTimer = setTimeout(measureSpeed, ms);
}

// How long each experiment's Run (and Run all) would take on this device with the settings
// shown: an idle worker times the first planned run's steps (Runner.time), and each plan's
// steps share that rate over the pool's workers. Skipped while runs train.
async function measureSpeed() {
  if (!app.wolab || !configValid()) return;
  const all = JSON.stringify(experimentConfig(app.settings, 'all'));
  if (app.speed && app.speed.key === all) return;
  const plans = new Map([...app.exps.keys(), 'all'].map((name) => [name, JSON.parse(app.wolab.plan(all, JSON.stringify(name === 'all' ? [...app.exps.keys()] : [name])))]));
  const first = plans.get('all')[0];
  const timed = first && await app.runner.time(first.config, first.keep);
  if (!timed || timed.error || !timed.steps || JSON.stringify(experimentConfig(app.settings, 'all')) !== all) return;
  const perStep = timed.ms / 1000 / timed.steps;
  const seconds = new Map();
  for (const [name, plan] of plans) {
    const steps = plan.reduce((sum, p) => sum + p.config.train.steps, 0);
    seconds.set(name, (steps * perStep) / Math.max(1, Math.min(app.runner.size, plan.length)));
  }
  app.speed = { key: all, seconds, rate: 1 / perStep };
  for (const exp of app.exps.values()) exp.redraw();
  overall.redraw();
}

// The estimate for an experiment's Run ('all': Run all), or '' when none is measured for the
// settings shown.
function estimateText(name) {
  const speed = app.speed;
  if (!speed || !configValid() || speed.key !== JSON.stringify(experimentConfig(app.settings, 'all'))) return '';
  const rate = speed.rate >= 10 ? speed.rate.toFixed(0) : speed.rate.toPrecision(2);
  return t('estimate', { s: Math.max(1, Math.round(speed.seconds.get(name))), rate });
}

function applyPreset(name) {
  const preset = app.presets[name];
  if (!preset) return;
  app.settings = settingsFromConfig(preset);
  fillForm();
  onSettingsEdited();
  showRecorded(name);
}

// Results recorded with `preset` fill the experiments shown that hold no results of their own
// (none yet, or another preset's recording); live and imported results stay. Only the latest
// preset asked for is shown, however the fetches finish.
function showRecorded(preset) {
  app.recordedPreset = preset;
  const free = (exp) => !exp.runs.length || exp.source === 'recorded';
  const names = (app.embed ? [app.embed] : [...app.exps.keys()]).filter((name) => {
    const exp = app.exps.get(name);
    return free(exp) && !isRecordedWith(exp.file, preset);
  });
  loadRecorded(preset, names, (results, text, how) => {
    const exp = app.exps.get(results.experiment);
    return app.recordedPreset === preset && exp && free(exp) ? showResults(results, text, how) : '';
  });
}

// Settings from the link: values that do not parse, or that the validator refuses, fall back to
// the Quick preset, with one notice listing them, so a damaged link still opens a runnable page.
function settingsFromLink(query) {
  const items = [];
  for (const p of query.problems) {
    const fallback = p.key === 'lang' ? lang() : p.key in app.base ? valueText(app.base[p.key]) : '—';
    items.push(t('urlProblem', { text: p.text, field: fieldLabel(p.key), problem: t(p.error), fallback }));
  }
  app.settings = { ...app.base, ...query.settings };
  // A rule between two fields names one of them (d_model 63 with 4 heads: d_model); once that
  // one is back at the preset's value, the rule may name the other, so this repeats until the
  // validator accepts. A rule naming only values the link left alone takes back all the link's.
  const fromLink = new Set(Object.keys(query.settings));
  for (;;) {
    const messages = validatorMessages(app.settings);
    if (!messages.length || !fromLink.size) break;
    let refused = messages.filter((m) => fromLink.has(m.key));
    if (!refused.length) refused = [...fromLink].map((key) => ({ key, rest: messages[0].rest }));
    for (const m of refused) {
      items.push(t('urlRefused', { value: valueText(app.settings[m.key]), field: fieldLabel(m.key), problem: m.rest, fallback: valueText(app.base[m.key]) }));
      app.settings[m.key] = app.base[m.key];
      fromLink.delete(m.key);
    }
  }
  if (items.length) notice(t(items.length === 1 ? 'linkProblem' : 'linkProblems', { n: items.length }), 'error', { items });
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

// info: the experiment's row of the core's experiments(): name, variants, what it keeps.
function makeExperiment(info) {
  const { name } = info;
  const section = experimentSection(name);
  const body = $('.exp-body', section);
  const exp = {
    name, info, section, variants: info.variants, config: null, source: null, file: '', createdBy: '',
    resultsText: null, runs: [], summary: null, analysis: null, settled: false, analysed: false,
    epoch: 0,  // counts resets, so that an analysis worker's answer for older runs is dropped
  };
  exp.configLine = $('.config-line', section);
  exp.notices = $('.section-notices', section);
  exp.estimateLine = document.createElement('p');
  exp.estimateLine.className = 'estimate hint';
  exp.configLine.after(exp.estimateLine);
  exp.partialLine = document.createElement('p');
  exp.partialLine.className = 'partial-line hint';
  const runsBox = document.createElement('div');
  exp.runList = new RunList(runsBox, saveModel);
  const viewBox = document.createElement('div');
  viewBox.className = 'view';
  exp.view = new (viewFor(info))(viewBox, exp);
  const exports = document.createElement('div');
  exports.className = 'exports';
  exp.exportJson = button('small', () => {
    try {
      download(`wolab-${name}.json`, resultsText(exp), 'application/json');
    } catch (e) {
      notice(errorText(e), 'error', { box: exp.notices });
    }
  });
  exp.exportCsv = button('small', () => download(`wolab-${name}-curves.csv`, curvesCsv(name, finishedRuns(exp)), 'text/csv'));
  exports.append(exp.exportJson, exp.exportCsv);
  exp.exports = exports;
  body.append(exp.partialLine, runsBox, viewBox, exports);
  exp.render = () => {
    renderFrame(exp);
    renderVerdict(exp, exp.runs.length > 0 && isSettled(exp));
    exp.view.render();
  };
  exp.redraw = () => invalidate(exp, exp.render);
  exp.renderNow = () => renderNow(exp, exp.render);
  $('.run', section).addEventListener('click', (e) => {
    app.lastRun = e.currentTarget;
    requestRun([name]);
  });
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
  // A sweep trains at its list of rates in place of train.lr.
  const sweep = experimentInfos().some((e) => e.name === config.experiment && e.lr_sweep);
  return t('configLine', { ...s, lr: sweep ? s.lrs.join(', ') : s.lr, ln: t(`ln_${s.ln}`), seedText });
}

// data-state on each experiment (empty | running | analysing | settled: its runs have ended, and
// its summary and verdict have been made from them) and on #controls (idle | running | paused),
// data-status on run rows: the page's state for tests and scripts/bench_page.js.
function renderFrame(exp) {
  exp.section.dataset.state = !exp.runs.length ? 'empty' : !isSettled(exp) ? 'running' : exp.analysed ? 'settled' : 'analysing';
  // An embed has no settings panel: before a run, the line says what Run will train.
  exp.configLine.hidden = !exp.config && !app.embed;
  if (exp.config) {
    const config = describeConfig(exp.config);
    exp.configLine.textContent = exp.source === 'recorded' ? t('sourceRecorded', { config })
      : exp.source !== 'live' ? t('sourceImport', { file: exp.file, created_by: exp.createdBy, config })
      : t('sourceLive', { config });
  } else if (app.embed) {
    exp.configLine.textContent = t('settingsLine', { config: describeConfig(experimentConfig(app.settings, exp.name)) });
  }
  const estimate = exp.runs.some(active) ? '' : estimateText(exp.name);
  exp.estimateLine.hidden = !estimate;
  exp.estimateLine.textContent = estimate;
  const done = exp.runs.filter(complete).length;
  const cut = exp.source === 'live' && exp.runs.length > 0 && isSettled(exp) && done < exp.runs.length;
  exp.partialLine.hidden = !cut;
  if (cut) exp.partialLine.textContent = t('partialLine', { done, total: exp.runs.length });
  exp.runList.render(exp.runs, exp.source);
  renderVariants(exp);
  // Hidden rather than disabled until there is something to export.
  exp.exports.hidden = !exp.resultsText;
  exp.exportJson.textContent = t('exportResults');
  exp.exportCsv.textContent = t('exportCsv');
}

// The variants this experiment compares, each named by its code (and, in Chinese, its Chinese
// name) with a plain description.
function renderVariants(exp) {
  const list = $('.variants', exp.section);
  const key = `${lang()}:${exp.variants.join()}`;
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  $('.variants-box', exp.section).hidden = exp.variants.length === 0;
  list.replaceChildren(...exp.variants.map((v) => {
    const li = document.createElement('li');
    const code = document.createElement('code');
    code.textContent = v;
    const label = variantLabel(v);
    li.append(code, `${label.slice(v.length)} — ${t(`vh_${v}`)}`);
    return li;
  }));
}

// The experiment's results document (docs/results.md) as JSON text: the file shown, or made by
// the core's makeResults from the finished runs once they have all ended.
const resultsText = (exp) => exp.resultsText;

// What an experiment does not keep (experiments(): stats, wo_snapshots) stays out of the JSON
// handed to makeResults, which would drop it anyway: a shared run's W_o snapshots are large.
function kept(exp, record) {
  return { ...record, stats: exp.info.stats ? record.stats : [], wo: exp.info.wo_snapshots ? record.wo : [], ov: exp.info.wo_snapshots ? record.ov : [] };
}

// Once every run of a live experiment has ended, its results from the same C++ code as the CLI:
// one call per experiment, not one per finished run, in the analysis worker. Resolves to false
// when the experiment was reset meanwhile (the answer is then dropped).
async function summarize(exp) {
  const done = finishedRuns(exp);
  exp.resultsText = null;
  exp.summary = null;
  if (!done.length) return true;
  const epoch = exp.epoch;
  try {
    const text = await makeResults(exp.name, JSON.stringify(exp.config), JSON.stringify(done.map((r) => kept(exp, r.record))));
    if (exp.epoch !== epoch) return false;
    exp.resultsText = text;
    exp.summary = JSON.parse(text).summary;
  } catch (e) {
    if (exp.epoch !== epoch) return false;
    notice(errorText(e), 'error', { box: exp.notices });
  }
  exp.redraw();
  return true;
}

function reset(exp, fields) {
  Object.assign(exp, { config: null, source: null, file: '', createdBy: '', resultsText: null, runs: [], summary: null, analysis: null, settled: false, analysed: false, epoch: exp.epoch + 1 }, fields);
}

// ---------- running ----------

// Run presses made in one task (a script pressing several Run buttons, or a press and the
// engine's load) are planned together once that task ends, so the core shares their runs.
function requestRun(names) {
  if (!app.requested) {
    app.requested = new Set();
    queueMicrotask(() => {
      const asked = app.requested;
      app.requested = null;
      runExperiments(asked.has('all') ? 'all' : [...asked]);
    });
  }
  for (const name of names === 'all' ? ['all'] : names) app.requested.add(name);
}

// A live job that trains the run `p` plans (the same config JSON, as the core writes it) and
// keeps what it needs: one still queued takes on what `p` keeps besides; one already training
// serves only if it keeps it already. Presses of Run one after another then share runs too.
function liveJob(p) {
  const text = JSON.stringify(p.config);
  for (const job of app.jobs.values()) {
    if (JSON.stringify(job.plan.config) !== text) continue;
    const keep = job.plan.keep;  // the object the runner's queue holds until a worker takes it
    if (app.runner.isQueued(job.id)) {
      keep.stats = keep.stats || p.keep.stats;
      keep.wo = keep.wo || p.keep.wo;
      return job;
    }
    if ((keep.stats || !p.keep.stats) && (keep.wo || !p.keep.wo)) return job;
  }
  return null;
}

// Queues the runs of these experiments as the core plans them (Embind plan(), docs/api.md): a
// (variant, seed, lr, clip) that several of them compare is trained once and shared, as the
// CLI does for `--experiment all`, and keeps what each of its experiments keeps; a run that a
// live job already trains joins it (liveJob).
// names: a list of experiments, or 'all'.
function runExperiments(names) {
  if (!app.wolab && !app.engineFailed) {  // run once the engine is loaded
    const all = names === 'all' || app.pending === 'all';
    app.pending = all ? 'all' : [...new Set([...(app.pending || []), ...names])];
  }
  if (!app.wolab || !configValid()) return;
  if (names === 'all') names = [...app.exps.keys()];
  const free = names.filter((name) => !app.exps.get(name).runs.some(active));
  if (!free.length) return;
  let plan;
  try {
    plan = JSON.parse(app.wolab.plan(JSON.stringify(experimentConfig(app.settings, 'all')), JSON.stringify(free)));
  } catch (e) {
    notice(errorText(e), 'error');
    return;
  }
  if (!app.runner.busy) app.batch = { jobs: [], start: performance.now(), end: 0 };
  for (const name of free) reset(app.exps.get(name), { config: experimentConfig(app.settings, name), source: 'live' });
  const jobs = [];
  for (const p of plan) {
    let job = liveJob(p);
    if (!job) {
      job = { id: app.nextId++, plan: p, runs: [], record: null, probed: 0 };
      jobs.push(job);
      app.jobs.set(job.id, job);
    }
    const now = job.runs[0];  // a joined job's state so far, which its new runs start from
    for (const name of p.experiments.filter((e) => free.includes(e))) {
      const exp = app.exps.get(name);
      const run = {
        id: app.nextId++, job: job.id, experiment: name, variant: p.variant, seed: p.seed, lr: p.lr,
        steps: p.config.train.steps, stepsDone: 0, status: { state: 'queued' }, rate: 0, lastAt: 0, startedAt: 0,
        finished: false, error: '', record: null,
      };
      if (now) for (const key of ['stepsDone', 'status', 'rate', 'lastAt', 'startedAt', 'record']) run[key] = now[key];
      job.runs.push(run);
      exp.runs.push(run);
    }
  }
  for (const name of free) app.exps.get(name).renderNow();
  app.batch.jobs.push(...jobs);
  app.runner.enqueue(jobs.map((job) => ({ id: job.id, config: job.plan.config, keep: job.plan.keep })));
  overall.renderNow();
}

// The live record: the trainer's step-0 record, then each step's loss and each probe step's
// fragment (docs/results.md, "Probe fragments"), appended as they come.
function append(job, msg) {
  const r = job.record;
  msg.losses.forEach((loss, i) => {
    r.curve.step.push(msg.firstStep + i);
    r.curve.loss.push(loss);
  });
  const f = msg.fragment;
  if (!f || f.step <= job.probed) return;  // a chunk that ends the run may repeat the last probe
  job.probed = f.step;
  if (f.eval) {
    r.eval.step.push(f.step);
    for (const key of ['loss', 'token_acc', 'exact']) r.eval[key].push(f.eval[key]);
  }
  r.stats.push(...f.stats);
  r.wo.push(...f.wo);
  r.ov.push(...f.ov);
}

function onWorker(msg) {
  const job = app.jobs.get(msg.id);
  if (!job) return;
  const now = performance.now();
  if (msg.type === 'started') job.record = msg.record;
  if (msg.type === 'progress') append(job, msg);
  for (const run of job.runs) updateRun(run, job, msg, now);
  if (['finished', 'stopped', 'error'].includes(msg.type)) app.jobs.delete(job.id);  // its runs keep the results
  if (!app.runner.busy && !app.batch.end) {
    app.batch.end = now;
    scheduleSpeed(SPEED_DELAY_MS);  // skipped while the runs trained
  }
  for (const exp of new Set(job.runs.map((r) => app.exps.get(r.experiment)))) {
    settle(exp);
    exp.redraw();
  }
  overall.redraw();
}

function updateRun(run, job, msg, now) {
  switch (msg.type) {
    case 'started':
      run.status = { state: 'running' };
      run.record = job.record;  // shared with the job's other runs until it finishes
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
    case 'finished': {
      // Done, stopped or diverged: the core's record, with its final metrics and status.
      run.record = msg.record;
      run.status = msg.record.status;
      run.finished = true;
      const steps = run.record.curve.step;
      run.stepsDone = run.status.state === 'done' ? run.steps : run.status.step;
      if (steps.length) run.rate = run.stepsDone / Math.max(1e-3, (now - run.startedAt) / 1000);  // the run's average
      break;
    }
    case 'stopped':  // before its worker began it
      run.status = { state: 'stopped', step: 0 };
      break;
    case 'error':
      run.status = { state: 'error' };
      run.error = msg.message;
      break;
    default:
  }
}

// Once every run of a live experiment has ended: its results, then whatever reads them.
async function settle(exp) {
  if (exp.source === 'live' && !exp.settled && isSettled(exp)) {
    exp.settled = true;
    if (await summarize(exp)) onExperimentSettled(exp);
  }
}

function stopAll() {
  for (const queued of app.runner.stop()) {
    for (const run of app.jobs.get(queued.id).runs) run.status = { state: 'stopped', step: 0 };
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

const active = (r) => r.status.state === 'queued' || r.status.state === 'running';
const complete = (r) => r.status.state === 'done' || r.status.state === 'diverged';  // trained to its end
const started = (r) => Boolean(r.startedAt || r.stepsDone);
const fmtTime = (ms) => t('seconds', { s: (ms / 1000).toFixed(1) });

// The control bar: overall progress, steps/s and time left, button states.
const overall = {
  render() {
    const runs = app.batch.jobs.map((job) => job.runs[0]);  // a job's runs share their state
    const busy = Boolean(app.runner && app.runner.busy);
    let total = 0, done = 0, rate = 0;
    for (const r of runs) {
      total += r.steps;
      done += complete(r) ? r.steps : r.stepsDone;  // a stopped run counts the steps it trained
      if (r.status.state === 'running') rate += r.rate;
    }
    const bar = $('#overall-progress');
    bar.value = total ? done / total : 0;
    const finished = runs.filter((r) => !active(r)).length;
    let label = [t('overallIdle'), estimateText('all')].join(' ').trim();
    if (busy && app.runner.paused) label = t('overallPaused', { done: finished, total: runs.length });
    else if (busy) {
      const eta = rate > 0 ? fmtTime((1000 * (total - done)) / rate) : '…';
      label = t('overallRunning', { done: finished, total: runs.length, rate: rate.toFixed(0), eta });
    } else if (runs.some((r) => r.status.state === 'stopped')) {
      const stopped = runs.filter((r) => r.status.state === 'stopped');
      const partway = stopped.filter(started).length;
      const parts = [
        [partway, 'partPartway'], [stopped.length - partway, 'partNotStarted'],
        [runs.filter((r) => r.status.state === 'error').length, 'partFailed'],
      ].filter(([k]) => k > 0).map(([k, key]) => t('partSep') + t(key, { k }));
      label = t('overallStopped', { done: runs.filter(complete).length, total: runs.length, parts: parts.join('') });
    } else if (runs.length) {
      label = t('overallDone', { done: runs.filter(complete).length, total: runs.length, time: fmtTime(app.batch.end - app.batch.start) });
    }
    $('#overall-label').textContent = label;
    const controls = $('#controls');
    controls.dataset.state = busy ? (app.runner.paused ? 'paused' : 'running') : 'idle';
    if (runs.length) controls.dataset.ran = 'true';  // an embed shows the bar from its first run on
    refreshButtons();
  },
  redraw: () => invalidate(overall, overall.render),
  renderNow: () => renderNow(overall, overall.render),
};

function refreshButtons() {
  // Before the engine has loaded, Run is not disabled: a press is kept and run once it has.
  const ready = !app.engineFailed && configValid();
  const busy = Boolean(app.runner && app.runner.busy);
  const focused = document.activeElement;
  for (const exp of app.exps.values()) {
    const b = $('.run', exp.section);
    const running = exp.runs.some(active);
    b.disabled = !ready || running;
    b.textContent = t(running ? 'runBusy' : 'run');
  }
  $('#run-all').disabled = !ready || (app.exps.size > 0 && [...app.exps.values()].every((e) => e.runs.some(active)));
  const pause = $('#pause');
  pause.disabled = !busy;
  pause.textContent = t(app.runner && app.runner.paused ? 'resume' : 'pause');
  pause.setAttribute('aria-pressed', String(Boolean(app.runner && app.runner.paused)));
  $('#stop').disabled = !busy;
  // A focused control that has just disabled itself would drop focus to <body>.
  if (focused && focused.disabled) focusTarget().focus();
}

// Where focus goes when the focused control goes away: Stop while runs train, else the Run
// button pressed last, else the first Run on the page.
function focusTarget() {
  const usable = (el) => el && !el.disabled && el.offsetParent !== null;
  if (app.runner && app.runner.busy && usable($('#stop'))) return $('#stop');
  return [app.lastRun, $('#run-all'), ...document.querySelectorAll('.experiment .run')].find(usable) || $('#experiments');
}

// ---------- export of models, import of results ----------

async function saveModel(run) {
  const bytes = await app.runner.checkpoint(run.job);
  if (!bytes) {
    notice(t('modelMissing', { variant: run.variant, seed: run.seed }), 'error', { box: app.exps.get(run.experiment).notices });
    return;
  }
  download(`wolab-${run.experiment}-${run.variant}-seed${run.seed}.safetensors`, bytes, 'application/octet-stream');
}

// A results file (e.g. from `wolab run --out`) replaces one experiment's runs, after the wasm
// parseResults has accepted it; anything it refuses changes nothing on the page.
async function importFile(file) {
  const refuse = (message) => notice(t('importRefused', { file: file.name, message }), 'error');
  let text;
  try {
    text = await parseResults(await file.text());
  } catch (e) {
    refuse(errorText(e));
    return;
  }
  const results = JSON.parse(text);
  const refused = showResults(results, text, { source: 'import', file: file.name });
  if (refused) {
    refuse(refused);
    return;
  }
  notice(t('imported', { file: file.name, experiment: results.experiment, runs: results.runs.length }), 'info', { box: app.exps.get(results.experiment).notices });
  app.exps.get(results.experiment).section.scrollIntoView({ block: 'start' });  // clear of the sticky bar: style.css's scroll-margin-top
}

// Replaces an experiment's runs with those of a results document that parseResults has
// normalised (an imported file, or results recorded with the page): source 'import' or
// 'recorded', file its name; text is parseResults' JSON text of results. Returns why it cannot be
// shown (text for people), or '' once shown.
function showResults(results, text, { source, file = '' }) {
  const exp = app.exps.get(results.experiment);
  if (!exp) return t('importNotShown', { experiment: results.experiment });
  if (exp.runs.some(active)) return t('importBusy');
  reset(exp, {
    config: results.config, source, file, createdBy: results.created_by,
    resultsText: text, summary: results.summary,
  });
  const steps = results.config.train.steps;
  for (const record of results.runs) {
    exp.runs.push({
      id: app.nextId++, experiment: exp.name, variant: record.variant, seed: record.seed, lr: record.lr, steps,
      stepsDone: record.status.state === 'done' ? steps : record.status.step, status: record.status,
      rate: 0, lastAt: 0, startedAt: 0, finished: true, error: '', record,
    });
  }
  onExperimentSettled(exp);
  exp.renderNow();
  refreshButtons();
  return '';
}

// Called once an experiment's runs have all ended (a live run settled, or results shown): where
// whatever reads the finished results (summaries, verdicts) is brought up to date once the
// analysis worker answers, unless the experiment was reset meanwhile.
async function onExperimentSettled(exp) {
  exp.analysis = null;
  if (finishedRuns(exp).length) {
    const epoch = exp.epoch;
    try {
      const text = await analyze(`[${resultsText(exp)}]`);
      if (exp.epoch !== epoch) return;
      exp.analysis = JSON.parse(text).experiments[0];
    } catch (e) {
      if (exp.epoch !== epoch) return;
      notice(errorText(e), 'error', { box: exp.notices });
    }
  }
  exp.analysed = true;
  exp.redraw();
  lessonChanged();
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

// The snippet: an iframe, usable on its own at a fixed height, and embed.js, which keeps it as
// tall as its content (docs/embed.md).
async function copyEmbed(exp) {
  const url = new URL(location.pathname + writeQuery(app.texts, { lang: app.langChosen, embed: exp.name, theme: app.theme }), location.href);
  const script = new URL('embed.js', location.href);
  const attr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const title = attr(`W_o Lab: ${t(`${exp.name}_title`)}`);
  const snippet = `<iframe src="${attr(url.href)}" title="${title}" style="width:100%;height:720px;border:0" loading="lazy"></iframe>\n`
    + `<script src="${attr(script.href)}" async></script>`;
  const dialog = $('#embed-dialog');
  $('.exp-head', exp.section).after(dialog);
  dialog.hidden = false;
  const area = $('#embed-code');
  area.value = snippet;
  area.select();
  const ok = await copyText(snippet);
  notice(ok ? t('embedCopied') : t('copyFailed'), ok ? 'info' : 'error', { box: exp.notices });
}

// ---------- language ----------

function renderAll() {
  applyStatic();
  $('#lang').value = lang();
  showErrors();
  for (const exp of app.exps.values()) exp.renderNow();
  overall.renderNow();
  renderClaims();
  if (app.wolab) showEngine();
}

function showEngine() {
  $('#engine').textContent = t('engineReady', {
    version: app.wolab.version(), build: t(app.script === 'wolab.js' ? 'buildSimd' : 'buildPlain'), workers: app.runner.size,
  });
}

// ---------- theme, layout, leaving ----------

// ?theme= forces one; otherwise style.css follows prefers-color-scheme, and a change of it
// redraws the charts and heatmaps in the new colours.
function setUpTheme() {
  if (app.theme) document.documentElement.dataset.theme = app.theme;
  applyTheme();
  applyHeatTheme();
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    applyTheme();
    applyHeatTheme();
    renderAll();
  });
}

// The sticky control bar's height, for style.css's scroll-margin-top (0 where it is not sticky).
function trackBarHeight() {
  const bar = $('#controls');
  new ResizeObserver(() => {
    const sticky = getComputedStyle(bar).position === 'sticky';
    document.documentElement.style.setProperty('--bar-height', `${sticky ? bar.offsetHeight : 0}px`);
  }).observe(bar);
}

// ---------- start ----------

// The first paint (header, control bar, texts) needs no engine; the settings form and the
// experiments come from the core's tables, once the module has loaded.
async function boot() {
  const query = readQueryChrome(location.search);
  app.langChosen = query.lang;
  app.embed = query.embed;
  app.theme = query.theme;
  setLang(query.lang || detectLang(navigator.languages));
  setUpTheme();
  const embedClasses = [document.documentElement.classList, document.body.classList];
  if (app.embed) {
    for (const list of embedClasses) list.add('embed');
    reportHeight();
  }
  trackBarHeight();
  // Leaving or reloading mid-run would lose the runs: the browser asks first.
  window.addEventListener('beforeunload', (e) => {
    if (app.runner && app.runner.busy) e.preventDefault();
  });
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
  $('#run-all').addEventListener('click', (e) => {
    app.lastRun = e.currentTarget;
    requestRun('all');
  });
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
    setCoreTables(JSON.parse(module.settings()), JSON.parse(module.experiments()));
  } catch (e) {
    app.engineFailed = true;
    $('#engine').textContent = t('engineFailed', { message: errorText(e) });
    $('#engine').classList.add('error');
    // An embed hides the control bar and its engine line; without the core there is no section.
    if (app.embed) notice($('#engine').textContent, 'error', { box: $('#experiments') });
    showErrors();
    return;
  }
  const link = readSettings(location.search);
  if (app.embed && !experimentInfos().some((e) => e.name === app.embed)) {  // the whole page, with the link's other values
    link.problems.push({ key: 'embed', text: app.embed, error: 'errEnum' });
    app.embed = null;
    for (const list of embedClasses) list.remove('embed');
  }
  for (const info of experimentInfos()) {
    const exp = makeExperiment(info);
    exp.section.hidden = Boolean(app.embed) && info.name !== app.embed;
    $('#experiments').appendChild(exp.section);
    app.exps.set(info.name, exp);
  }
  app.base = app.presets.quick ? settingsFromConfig(app.presets.quick) : defaults();
  buildForm();
  warmUp();
  app.runner = new Runner(app.script, poolSize(), onWorker);
  startAnalysis(app.script);
  settingsFromLink({ settings: link.settings, problems: [...query.problems, ...link.problems] });
  renderAll();  // with the engine's experiments and the settings that apply
  setUpLesson({ exps: app.exps, resultsText });
  document.body.dataset.ready = 'true';
  scheduleSpeed(LOAD_SPEED_DELAY_MS);
  if (app.pending) runExperiments(app.pending);
  // Results recorded with the preset the settings match; settings of one's own (a link) start
  // empty.
  else if ($('#preset').value !== 'custom') showRecorded($('#preset').value);
}

boot();
