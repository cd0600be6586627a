// Results shown that were not trained here: recorded with the page (on load, and when a preset
// is chosen) and imported files; and what follows once an experiment's runs have all ended, live
// (liveSettled) or not: its analysis, and the news that it changed (resultsChanged).
import { t } from '../i18n/i18n.js';
import { errorText, sectionId } from '../base/dom.js';
import { chrome } from '../state/chrome.js';
import { addRuns, change, experiments, liveSettled, reset, resultsChanged } from '../state/experiments.js';
import { newId } from '../state/runs.js';
import { notice } from '../base/notices.js';
import { active, finishedRuns, stepsTrained } from '../state/run-status.js';
import { isRecordedWith, loadRecorded, recordedExperimentAnalysis, recordedPreset } from './recorded.js';
import { analyze, parseResults } from './analysis.js';

// Results recorded with `preset` fill the experiments shown that hold no results of their own
// (none yet, or another preset's recording); live and imported results stay. Only the latest
// preset asked for is shown, however the fetches finish. Returns a promise settled once they are
// (or are not) shown.
let presetAsked = null;  // the preset whose recorded results were asked for last
export function showRecorded(preset) {
  presetAsked = preset;
  const free = (exp) => !exp.runs.length || exp.source === 'recorded';
  const { embed } = chrome.get();
  const names = (embed ? [embed] : [...experiments.keys()]).filter((name) => {
    const exp = experiments.get(name);
    return free(exp) && !isRecordedWith(exp.file, preset);
  });
  return loadRecorded(preset, names, (results, text, how) => {
    const exp = experiments.get(results.experiment);
    return presetAsked === preset && exp && free(exp) ? showResults(results, text, how) : '';
  });
}

// A live Run that ended with no finished run to compare (every run failed, or was stopped before
// it finished) puts back the recording it replaced (exp.replaced), so that the section keeps its
// results; a notice in the section says how the live runs ended (the control bar counts them).
// Resolves once it is shown (or could not be).
export async function restoreRecording(exp, ended) {
  const file = exp.replaced;
  const epoch = exp.epoch;
  notice(ended, 'error', { experiment: exp.name });
  if (!file) return;
  await loadRecorded(recordedPreset(file), [exp.name], (results, text, how) => {
    if (exp.epoch !== epoch || exp.runs.some(active)) return '';  // a new Run meanwhile
    const refused = showResults(results, text, how);
    if (!refused) change(exp, { liveEnded: ended });  // the claims panel says its verdict is the recording's
    return refused;
  });
}

// A results file (e.g. from `wolab run --out`) replaces one experiment's runs, after the wasm
// parseResults has accepted it; anything it refuses changes nothing on the page. A refusal says
// in words what the file is (the core's fault: not JSON, not a results file, another version,
// damaged), the core's exact message folded under it.
export async function importFile(file) {
  const refuse = (message) => notice(t('importRefused', { file: file.name, message }), 'error');
  let text;
  try {
    text = await parseResults(file);
  } catch (e) {
    if (e.fault) notice(t(`importFault_${e.fault}`, { file: file.name }), 'error', { details: errorText(e) });
    else refuse(errorText(e));
    return;
  }
  const results = JSON.parse(text);
  const refused = showResults(results, text, { source: 'import', file: file.name });
  if (refused) {
    refuse(refused);
    return;
  }
  notice(t(results.runs.length === 1 ? 'importedOne' : 'imported', { file: file.name, experiment: results.experiment, runs: results.runs.length }), 'info', { experiment: results.experiment });
  document.getElementById(sectionId(results.experiment)).scrollIntoView({ block: 'start' });  // clear of the sticky bar: style.css's scroll-margin-top
}

// Replaces an experiment's runs with those of a results document that parseResults has
// normalised (an imported file, or results recorded with the page): source 'import' or
// 'recorded', file its name; text is parseResults' JSON text of results. Returns why it cannot be
// shown (text for people), or '' once shown. The Run buttons need no update: only an experiment
// with no run training takes results, and those it takes have all ended.
function showResults(results, text, { source, file = '' }) {
  const exp = experiments.get(results.experiment);
  if (!exp) return t('importNotShown', { experiment: results.experiment });
  if (exp.runs.some(active)) return t('importBusy');
  reset(exp, {
    config: results.config, source, file, createdBy: results.created_by, producer: results.producer || '',
    resultsBlob: new Blob([text], { type: 'application/json' }), summary: results.summary,
  });
  const steps = results.config.train.steps;
  addRuns(exp, results.runs.map((record) => ({
    id: newId(), experiment: exp.name, variant: record.variant, seed: record.seed, lr: record.lr, steps,
    stepsDone: stepsTrained(record.status, steps), status: record.status,
    rate: 0, lastAt: 0, startedAt: 0, endedAt: 0, finished: true, error: '', record,
  })), true);
  onExperimentSettled(exp);
  return '';
}

// Called once an experiment's runs have all ended (a live run settled, or results shown): where
// whatever reads the finished results (summaries, verdicts) is brought up to date once the
// analysis worker answers (for a recording, once its recorded analysis is in), unless the
// experiment was reset meanwhile.
async function onExperimentSettled(exp) {
  const epoch = exp.epoch;
  let analysis = null;
  if (finishedRuns(exp).length) {
    try {
      analysis = (exp.source === 'recorded' && await recordedExperimentAnalysis(exp.file, exp.name))
        || JSON.parse(await analyze([exp.resultsBlob])).experiments[0];
    } catch (e) {
      if (exp.epoch !== epoch) return;
      notice(errorText(e), 'error', { experiment: exp.name });
    }
  }
  if (change(exp, { analysis, analysed: true }, { epoch })) resultsChanged.emit();
}

// A live experiment settled (runs/live-runs.js): its analysis; with no finished run, the
// recording it replaced comes back.
liveSettled.subscribe(({ exp, ended }) => {
  onExperimentSettled(exp);
  if (ended) restoreRecording(exp, ended);
});
