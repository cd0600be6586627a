// The experiments on the page (one per row of the core's experiments(), in its order) and what
// each shows. An experiment's object is made by views/experiment-section.js (makeExperiment);
// what it shows is replaced through reset() by runs/live-runs.js (live runs) or
// results/results-shown.js (recorded and imported results), and its section draws it.

import { signal } from './store.js';

// Owner: app.js (adds each experiment once, at boot). name -> experiment.
export const experiments = new Map();

// Owner: views/experiment-section.js. The server has answered whether an experiment's data file
// is there (exp.missing, makeExperiment): its Run button follows (detail: the experiment).
export const dataChecked = signal();

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
  wholeResults: null, // when resultsBlob keeps live W_o matrices apart: () => promise of the whole
                      // document, matrices inline, for the export (runs/live-runs.js, summarize)
  summary: null,      // its summary
  analysis: null,     // the core's analysis of it (docs/claims.md), once the worker answers
  replaced: '',       // a live Run's: the recording it replaced, shown again when the Run ends
                      // with no finished run (results/results-shown.js, restoreRecording)
  liveEnded: '',      // a live Run that ended with no finished run: how its runs ended (kept
                      // when the recording is shown again: the claims panel says it reads that)
  settled: false,     // a live experiment's runs have all ended and its results are being made
  analysed: false,    // its analysis has answered (or there is none to make)
});

// Shows new runs in place of the old: an analysis asked for the old ones is then dropped
// (exp.epoch counts resets, so that a worker's answer about older runs is dropped).
export function reset(exp, fields) {
  Object.assign(exp, shown(), { epoch: exp.epoch + 1 }, fields);
}

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
