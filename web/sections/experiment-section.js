// One experiment's section: its frame (config line, estimate, runs table, variants, exports) and
// its view (view-*.js, chosen by what it declares), drawn from the experiment's record
// (state/experiments.js), which it follows through experimentChanged. Its DOM is its own: no other
// module holds a node of it, and the record holds none.
import { lang, t, variantLabel } from '../i18n/i18n.js';
import { experimentConfig } from '../state/state.js';
import { $, button, errorText, sectionId } from '../base/dom.js';
import { chrome } from '../state/chrome.js';
import { core } from '../state/engine.js';
import { addExperiment, dataFound, experimentChanged, experiments, resultsStem } from '../state/experiments.js';
import { settings } from '../state/settings.js';
import { invalidate, renderNow } from '../base/frames.js';
import { RunList } from '../views/runlist.js';
import { CurvesView } from '../views/view-curves.js';
import { HeatmapView } from '../views/view-heatmap.js';
import { StatsView } from '../views/view-stats.js';
import { LrView } from '../views/view-lr.js';
import { WordsView } from '../views/view-words.js';
import { curvesCsv, download } from '../results/export.js';
import { quotedStatements, renderVerdict } from '../lesson/lesson.js';
import { renderPrediction } from '../lesson/predict.js';
import { notice } from '../base/notices.js';
import { describeConfig } from '../controls/settings-form.js';
import { estimateText, onEstimate } from '../runs/estimate.js';
import { dataMissing } from '../state/data-files.js';
import { stillComing, whenRecordingsChange } from '../results/recorded.js';
import { active, endedParts, finishedRuns, firstFailure, isSettled, tally } from '../state/run-status.js';
import { requestRun, saveModel, wholeResults } from '../runs/live-runs.js';
import { planRuns } from '../runs/plan.js';
import { copyEmbed } from '../controls/share.js';

// An experiment's view follows from what it declares (experiments(), docs/api.md): what its
// runs keep, that it sweeps learning rates, or that it trains on the lexicon (real words).
const viewFor = (info) => (info.needs_data === 'lexicon' ? WordsView : info.wo_snapshots ? HeatmapView : info.stats ? StatsView
  : info.lr_sweep ? LrView : CurvesView);

// An experiment's section, a copy of index.html's template with the experiment's name in its
// ids and text keys.
// An experiment that quotes the article's claims shows their statements in the core's words
// (renderQuotes), not a text of its own.
function experimentSection(name) {
  const section = $('#experiment-template').content.firstElementChild.cloneNode(true);
  section.id = sectionId(name);
  section.dataset.exp = name;
  section.setAttribute('aria-labelledby', `h-${name}`);
  $('h2', section).id = `h-${name}`;
  if (quotedStatements(name).length) {
    const claim = $('[data-i18n-part="claim"]', section);
    delete claim.dataset.i18nPart;
    claim.className = 'claim-quotes';
  }
  for (const el of section.querySelectorAll('[data-i18n-part]')) el.dataset.i18n = `${name}_${el.dataset.i18nPart}`;
  return section;
}

// name -> the section's parts: its DOM, its view, and how it is drawn (this module's alone).
const sections = new Map();

// Adds the experiment (info: its row of the core's experiments()) and its section, which follows
// its record from now on; returns the section's element, for the page to place.
export function addSection(info) {
  const { name } = info;
  const exp = addExperiment(info);
  const section = experimentSection(name);
  const body = $('.exp-body', section);
  const s = { exp, section };
  s.configLine = $('.config-line', section);
  s.estimateLine = document.createElement('p');
  s.estimateLine.className = 'estimate hint';
  s.configLine.after(s.estimateLine);
  s.missingLine = document.createElement('p');
  s.missingLine.className = 'missing-line error';
  s.missingLine.hidden = true;
  s.configLine.after(s.missingLine);
  s.partialLine = document.createElement('p');
  s.partialLine.className = 'partial-line hint';
  const runsBox = document.createElement('div');
  s.runList = new RunList(runsBox, saveModel);
  const viewBox = document.createElement('div');
  viewBox.className = 'view';
  s.render = () => {
    const settled = exp.runs.length > 0 && isSettled(exp);
    renderFrame(s);
    renderVerdict(exp, section, settled);
    renderPrediction(exp, section, settled, s.renderNow);
    s.view.render();
  };
  s.redraw = () => invalidate(s, s.render);
  s.renderNow = () => renderNow(s, s.render);
  s.view = new (viewFor(info))(viewBox, exp, s.redraw);
  const exports = document.createElement('div');
  exports.className = 'exports';
  s.exportJson = button('small', async () => {
    try {
      download(`${resultsStem(name)}.json`, exp.woApart ? await wholeResults(exp) : exp.resultsBlob, 'application/json');
    } catch (e) {
      notice(errorText(e), 'error', { experiment: name });
    }
  });
  s.exportCsv = button('small', () => download(`wolab-${name}-curves.csv`, curvesCsv(name, finishedRuns(exp)), 'text/csv'));
  exports.append(s.exportJson, s.exportCsv);
  s.exports = exports;
  body.append(s.partialLine, runsBox, viewBox, exports);
  sections.set(name, s);
  // Whether the data is there: asked again each time the recordings' index changes while npm
  // start still makes the file, which it puts in place meanwhile (scripts/place.sh, "coming").
  const checkData = (again) => dataMissing(info.needs_data, again).then(async (why) => {
    dataFound(exp, why);
    if (why && await stillComing(info.needs_data)) whenRecordingsChange(() => checkData(true));
  });
  if (info.needs_data) checkData(false);
  onEstimate(s.redraw);
  $('.run', section).addEventListener('click', (e) => requestRun([name], e.currentTarget));
  $('.copy-embed', section).addEventListener('click', () => copyEmbed(exp, section));
  $('.notebook', section).addEventListener('click', () => openNotebook(exp));
  return section;
}

// A change of the record: drawn in the next frame (frames.js), or at once when asked. That runs
// train shows at once; that they have ended, with the frame that draws them (data-state).
experimentChanged.subscribe(({ exp, now }) => {
  const s = sections.get(exp.name);
  if (now) {
    s.renderNow();
    return;
  }
  if (exp.runs.some(active)) showState(s);
  s.redraw();
});

// Every section anew (a change of language or theme).
export function renderSections() {
  for (const s of sections.values()) s.renderNow();
}

// Downloads the experiment as a PyTorch notebook (docs/notebooks.md) of the settings shown: those
// its runs trained with, else the page's; the core writes it, as `wolab notebook` does.
function openNotebook(exp) {
  const config = exp.config ? { ...exp.config, experiment: exp.name } : experimentConfig(settings.get().values, exp.name);
  try {
    download(`${resultsStem(exp.name)}.ipynb`, core.get().wolab.makeNotebook(JSON.stringify(config), lang()), 'application/x-ipynb+json');
  } catch (e) {
    notice(errorText(e), 'error', { experiment: exp.name });
  }
}

// The config an experiment's runs train with, as its config line describes it: an experiment
// with settings of its own (real_words: model, task and length) trains its planned runs' model,
// task and train settings (the core's plan), not the toy ones of `config`. Cached by config.
const own = new Map();
function ownConfig(exp, config) {
  if (!exp.info.needs_data) return config;
  const key = JSON.stringify(config);
  if (!own.has(key)) {
    let planned = null;
    try {
      planned = planRuns(key, [exp.name])[0];
    } catch {
      // settings the core refuses: the line describes them as they are (Run says why)
    }
    own.set(key, planned ? { ...config, model: planned.config.model, task: planned.config.task, train: { ...config.train, ...planned.config.train, seed: config.train.seed } } : config);
  }
  return own.get(key);
}

// data-state on each experiment (empty | running | analysing | settled: its runs have ended, and
// its summary and verdict have been made from them) and on #controls (idle | running | paused),
// data-status on run rows: the page's state for tests and scripts/bench_page.js.
function showState({ exp, section }) {
  section.dataset.state = !exp.runs.length ? 'empty' : !isSettled(exp) ? 'running' : exp.analysed ? 'settled' : 'analysing';
}

function renderFrame(s) {
  const { exp } = s;
  showState(s);
  const { embed } = chrome.get();
  // An embed has no settings panel: before a run, the line says what Run will train.
  s.configLine.hidden = !exp.config && !embed;
  if (exp.config) {
    const config = describeConfig(ownConfig(exp, exp.config));
    s.configLine.textContent = exp.source === 'recorded' ? t('sourceRecorded', { config })
      : exp.source !== 'live' ? t(exp.producer === 'pytorch-notebook' ? 'sourceImportTorch' : 'sourceImport', { file: exp.file, created_by: exp.createdBy, config })
      : t('sourceLive', { config });
  } else if (embed) {
    s.configLine.textContent = t('settingsLine', { config: describeConfig(ownConfig(exp, experimentConfig(settings.get().values, exp.name))) });
  }
  // Without its data file this build cannot train the experiment: said once, here (Run is
  // disabled, control-bar.js; the word box says it has no lexicon).
  s.missingLine.hidden = !exp.missing;
  if (exp.missing) s.missingLine.textContent = t('dataMissing', { why: exp.missing });
  const estimate = exp.runs.some(active) || exp.missing ? '' : estimateText(exp.name);
  s.estimateLine.hidden = !estimate;
  s.estimateLine.textContent = estimate;
  // Live runs that did not all train to their end: how each ended, counted (run-status.js).
  const k = tally(exp.runs);
  const cut = exp.source === 'live' && exp.runs.length > 0 && isSettled(exp) && k.done < k.total;
  s.partialLine.hidden = !cut;
  if (cut) {
    const parts = endedParts(k).map((part) => t('partSep') + part).join('');
    const message = firstFailure(exp.runs);
    s.partialLine.textContent = t('partialLine', { done: k.done, total: k.total, parts })
      + (message ? t('firstFailure', { message }) : '');
  }
  s.runList.render(exp.runs, exp.source);
  renderVariants(s);
  renderQuotes(s);
  // Hidden rather than disabled until there is something to export.
  s.exports.hidden = !exp.resultsBlob;
  s.exportJson.textContent = t('exportResults');
  s.exportCsv.textContent = t('exportCsv');
}

// The statements of the claims the experiment quotes, in the page's language.
function renderQuotes({ exp, section }) {
  const box = $('.claim-quotes', section);
  if (!box) return;
  const text = quotedStatements(exp.name).join(' ');
  if (box.textContent !== text) box.textContent = text;
}

// The variants this experiment compares, each named by its code (and, in Chinese, its Chinese
// name) with a plain description.
function renderVariants({ exp, section }) {
  const list = $('.variants', section);
  const key = `${lang()}:${exp.variants.join()}`;
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  $('.variants-box', section).hidden = exp.variants.length === 0;
  list.replaceChildren(...exp.variants.map((v) => {
    const li = document.createElement('li');
    const code = document.createElement('code');
    code.textContent = v;
    const label = variantLabel(v);
    li.append(code, `${label.slice(v.length)} — ${t(`vh_${v}`)}`);
    return li;
  }));
}
