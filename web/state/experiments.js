// The experiments on the page (one per row of the core's experiments(), in its order) and what
// each shows: a record of data per experiment (no DOM node, no callback), changed only through
// the functions below, each of which says so on experimentChanged. Who calls which: app.js adds
// them (addExperiment); runs/live-runs.js shows live runs (reset, addRuns, runsMoved, change);
// results/results-shown.js shows recorded and imported results and their analysis (reset,
// addRuns, change); sections/experiment-section.js says whether a data file is there (dataFound).
// Each section's view subscribes and keeps its DOM to itself (sections/experiment-section.js).

import { signal } from './store.js';

// Owner: state/experiments.js (addExperiment). name -> the experiment's record.
export const experiments = new Map();

// Owner: state/experiments.js (every function below). An experiment's record changed (detail:
// { exp, now }): now true when it must show at once (a press), false when the next frame will do.
export const experimentChanged = signal();

// Owner: state/experiments.js (dataFound). The server has answered whether an experiment's data
// file is there (exp.missing): its Run button follows (detail: the experiment).
export const dataChecked = signal();

// Owner: runs/live-runs.js. A live experiment's runs have all ended (detail: { exp, ended }):
// ended is '' when some run finished, else the sentence that says how they ended.
export const liveSettled = signal();

// Owner: results/results-shown.js. An experiment's results or their analysis changed: whatever
// reads every experiment's analysis (the claims panel) follows.
export const resultsChanged = signal();

// What an experiment shows, and where it comes from; reset() starts it anew.
export const shown = () => ({
  config: null,       // the config its runs trained with (docs/config.md); null before any
  source: null,       // 'live', 'recorded' or 'import'
  file: '',           // the file shown (recorded or imported)
  createdBy: '',      // the file's created_by
  producer: '',       // the file's producer: 'pytorch-notebook' for a notebook's (docs/notebooks.md)
  runs: [],           // one per (variant, seed, lr): the page's run objects (runs/live-runs.js)
  resultsBlob: null,  // the results document (docs/results.md), a Blob of its JSON text: the file
                      // shown, or the core's makeResults of the finished runs once they have all ended
  woApart: false,     // resultsBlob keeps live W_o matrices apart: the export makes the whole
                      // document, matrices inline (runs/live-runs.js, wholeResults)
  summary: null,      // its summary
  analysis: null,     // the core's analysis of it (docs/claims.md), once the worker answers
  replaced: '',       // a live Run's: the recording it replaced, shown again when the Run ends
                      // with no finished run (results/results-shown.js, restoreRecording)
  liveEnded: '',      // a live Run that ended with no finished run: how its runs ended (kept
                      // when the recording is shown again: the claims panel says it reads that)
  settled: false,     // a live experiment's runs have all ended and its results are being made
  analysed: false,    // its analysis has answered (or there is none to make)
});

// info: the experiment's row of the core's experiments(): name, variants, what it keeps.
// epoch counts resets, so that a worker's answer about older runs is dropped. missing: for an
// experiment that needs a data file (experiments(): needs_data), null until the server has
// answered whether it has it, then '' (it has) or why not (state/data-files.js).
export function addExperiment(info) {
  const exp = { name: info.name, info, variants: info.variants, epoch: 0, missing: info.needs_data ? null : '', ...shown() };
  experiments.set(info.name, exp);
  return exp;
}

// Shows new runs in place of the old: an analysis asked for the old ones is then dropped.
export function reset(exp, fields, now = false) {
  Object.assign(exp, shown(), { epoch: exp.epoch + 1 }, fields);
  experimentChanged.emit({ exp, now });
}

// Changes these fields of what it shows. With an epoch, only while the experiment still shows
// the runs of that epoch: returns whether it changed.
export function change(exp, fields, { epoch = exp.epoch, now = false } = {}) {
  if (exp.epoch !== epoch) return false;
  Object.assign(exp, fields);
  experimentChanged.emit({ exp, now });
  return true;
}

// Adds runs to those it shows.
export function addRuns(exp, runs, now = false) {
  exp.runs.push(...runs);
  experimentChanged.emit({ exp, now });
}

// Whether its data file is there: why not ('' when it is), once the server has answered.
export function dataFound(exp, why) {
  if (why === exp.missing) return;
  change(exp, { missing: why });
  dataChecked.emit(exp);
}

// Its runs moved on (their status or record, which runs/live-runs.js keeps up to date).
export const runsMoved = (exp, now = false) => experimentChanged.emit({ exp, now });

// The name an experiment's results file is exported under, without ".json": also the stem of the
// wo files its runs name when their W_o matrices are kept apart (runs/live-runs.js, summarize).
export const resultsStem = (name) => `wolab-${name}`;

// What Run all trains: every experiment on the page but those that fetch a data file first
// (experiments(): needs_data; real words, with the dictionary and a model 4 times wider, take
// minutes at Quick where the others take seconds): each of those has its own Run.
export const runAllNames = () => [...experiments.values()].filter((exp) => !exp.info.needs_data).map((exp) => exp.name);

// A planned run's place in the pool's queue: the page's order of the first experiment that
// shows it (its experiments are in that order), so that experiments finish in page order and
// a Run pressed on an earlier experiment overtakes the runs of later ones.
export const runRank = (p) => [...experiments.keys()].indexOf(p.experiments[0]);
