// One experiment's section: its object (what it shows and where from), its frame (config line,
// estimate, runs table, variants, exports) and its view (view-*.js, chosen by what it declares).
import { lang, t, variantLabel } from '../i18n/i18n.js';
import { experimentConfig } from '../state/state.js';
import { $, button, errorText } from './dom.js';
import { chrome } from '../state/chrome.js';
import { core } from '../state/engine.js';
import { dataChecked, resultsStem, shown } from '../state/experiments.js';
import { settings } from '../state/settings.js';
import { invalidate, renderNow } from './frames.js';
import { endedParts, RunList } from './runlist.js';
import { CurvesView } from './view-curves.js';
import { HeatmapView } from './view-heatmap.js';
import { StatsView } from './view-stats.js';
import { LrView } from './view-lr.js';
import { WordsView } from './view-words.js';
import { curvesCsv, download } from '../results/export.js';
import { renderVerdict } from '../lesson/lesson.js';
import { renderPrediction } from '../lesson/predict.js';
import { claimsChanged } from '../lesson/claims-panel.js';
import { notice } from '../controls/notices.js';
import { describeConfig } from '../controls/settings-form.js';
import { estimateText, onEstimate } from '../runs/estimate.js';
import { dataMissing } from '../state/data-files.js';
import { stillComing, whenRecordingsChange } from '../results/recorded.js';
import { active, finishedRuns, firstFailure, isSettled, tally } from '../state/run-status.js';
import { requestRun, saveModel } from '../runs/live-runs.js';
import { copyEmbed } from '../controls/share.js';


// An experiment's view follows from what it declares (experiments(), docs/api.md): what its
// runs keep, that it sweeps learning rates, or that it trains on the lexicon (real words).
const viewFor = (info) => (info.needs_data === 'lexicon' ? WordsView : info.wo_snapshots ? HeatmapView : info.stats ? StatsView
  : info.lr_sweep ? LrView : CurvesView);

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
// exp.epoch counts resets, so that a worker's answer about older runs is dropped. What it shows
// is state/experiments.js's shown().
export function makeExperiment(info) {
  const { name } = info;
  const section = experimentSection(name);
  const body = $('.exp-body', section);
  // missing: for an experiment that needs a data file (experiments(): needs_data), null until
  // the server has answered whether it has it, then '' (it has) or why not (data-files.js).
  const exp = { name, info, section, variants: info.variants, epoch: 0, missing: info.needs_data ? null : '', ...shown() };
  exp.configLine = $('.config-line', section);
  exp.notices = $('.section-notices', section);
  exp.estimateLine = document.createElement('p');
  exp.estimateLine.className = 'estimate hint';
  exp.configLine.after(exp.estimateLine);
  exp.missingLine = document.createElement('p');
  exp.missingLine.className = 'missing-line error';
  exp.missingLine.hidden = true;
  exp.configLine.after(exp.missingLine);
  // Whether the data is there: asked again each time the recordings' index changes while npm
  // start still makes the file, which it puts in place meanwhile (scripts/place.sh, "coming").
  const checkData = (again) => dataMissing(info.needs_data, again).then(async (why) => {
    if (why !== exp.missing) {
      exp.missing = why;
      exp.redraw();
      dataChecked.emit(exp);
    }
    if (why && await stillComing(info.needs_data)) whenRecordingsChange(() => checkData(true));
  });
  if (info.needs_data) checkData(false);
  exp.partialLine = document.createElement('p');
  exp.partialLine.className = 'partial-line hint';
  const runsBox = document.createElement('div');
  exp.runList = new RunList(runsBox, saveModel);
  const viewBox = document.createElement('div');
  viewBox.className = 'view';
  exp.view = new (viewFor(info))(viewBox, exp);
  const exports = document.createElement('div');
  exports.className = 'exports';
  exp.exportJson = button('small', async () => {
    try {
      download(`${resultsStem(name)}.json`, exp.wholeResults ? await exp.wholeResults() : exp.resultsBlob, 'application/json');
    } catch (e) {
      notice(errorText(e), 'error', { box: exp.notices });
    }
  });
  exp.exportCsv = button('small', () => download(`wolab-${name}-curves.csv`, curvesCsv(name, finishedRuns(exp)), 'text/csv'));
  exports.append(exp.exportJson, exp.exportCsv);
  exp.exports = exports;
  body.append(exp.partialLine, runsBox, viewBox, exports);
  // Also the claims panel's rows that read this experiment: its runs' progress is theirs.
  exp.render = () => {
    const settled = exp.runs.length > 0 && isSettled(exp);
    renderFrame(exp);
    renderVerdict(exp, settled);
    renderPrediction(exp, settled);
    exp.view.render();
    claimsChanged();
  };
  exp.redraw = () => invalidate(exp, exp.render);
  exp.renderNow = () => renderNow(exp, exp.render);
  exp.showState = () => showState(exp);
  onEstimate(exp.redraw);
  $('.run', section).addEventListener('click', (e) => requestRun([name], e.currentTarget));
  $('.copy-embed', section).addEventListener('click', () => copyEmbed(exp));
  $('.notebook', section).addEventListener('click', () => openNotebook(exp));
  return exp;
}

// Downloads the experiment as a PyTorch notebook (docs/notebooks.md) of the settings shown: those
// its runs trained with, else the page's; the core writes it, as `wolab notebook` does.
function openNotebook(exp) {
  const config = exp.config ? { ...exp.config, experiment: exp.name } : experimentConfig(settings.get().values, exp.name);
  try {
    download(`${resultsStem(exp.name)}.ipynb`, core.get().wolab.makeNotebook(JSON.stringify(config), lang()), 'application/x-ipynb+json');
  } catch (e) {
    notice(errorText(e), 'error', { box: exp.notices });
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
      planned = JSON.parse(core.get().wolab.plan(key, JSON.stringify([exp.name])))[0];
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
function showState(exp) {
  exp.section.dataset.state = !exp.runs.length ? 'empty' : !isSettled(exp) ? 'running' : exp.analysed ? 'settled' : 'analysing';
}

function renderFrame(exp) {
  showState(exp);
  const { embed } = chrome.get();
  // An embed has no settings panel: before a run, the line says what Run will train.
  exp.configLine.hidden = !exp.config && !embed;
  if (exp.config) {
    const config = describeConfig(ownConfig(exp, exp.config));
    exp.configLine.textContent = exp.source === 'recorded' ? t('sourceRecorded', { config })
      : exp.source !== 'live' ? t(exp.producer === 'pytorch-notebook' ? 'sourceImportTorch' : 'sourceImport', { file: exp.file, created_by: exp.createdBy, config })
      : t('sourceLive', { config });
  } else if (embed) {
    exp.configLine.textContent = t('settingsLine', { config: describeConfig(ownConfig(exp, experimentConfig(settings.get().values, exp.name))) });
  }
  // Without its data file this build cannot train the experiment: said once, here (Run is
  // disabled, control-bar.js; the word box says it has no lexicon).
  exp.missingLine.hidden = !exp.missing;
  if (exp.missing) exp.missingLine.textContent = t('dataMissing', { why: exp.missing });
  const estimate = exp.runs.some(active) || exp.missing ? '' : estimateText(exp.name);
  exp.estimateLine.hidden = !estimate;
  exp.estimateLine.textContent = estimate;
  // Live runs that did not all train to their end: how each ended, counted (run-status.js).
  const k = tally(exp.runs);
  const cut = exp.source === 'live' && exp.runs.length > 0 && isSettled(exp) && k.done < k.total;
  exp.partialLine.hidden = !cut;
  if (cut) {
    const parts = endedParts(k).map((part) => t('partSep') + part).join('');
    const message = firstFailure(exp.runs);
    exp.partialLine.textContent = t('partialLine', { done: k.done, total: k.total, parts })
      + (message ? t('firstFailure', { message }) : '');
  }
  exp.runList.render(exp.runs, exp.source);
  renderVariants(exp);
  // Hidden rather than disabled until there is something to export.
  exp.exports.hidden = !exp.resultsBlob;
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
