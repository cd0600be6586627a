// Where a run on the page stands. A run's status is the core's ({state, step}, docs/results.md)
// once its worker has begun it; before that the page's own 'queued', and the core's failed state
// when its worker reported an error (a run that never had a core status: its config or data could
// not be read, or its worker crashed), which the results list apart. Which states mean a run
// trained to its end, which that the reader cut it short, and the failed state, are the core's
// (codes(), docs/api.md).

import { t } from '../i18n/i18n.js';

const core = { trainedToEnd: new Set(), cutShort: new Set(), failed: null };  // set by setRunCodes alone

// Owner: app.js. Takes the core's codes() (parsed), once the module loads; read-only after.
export function setRunCodes(codes) {
  core.trainedToEnd = new Set(codes.trained_to_end);
  core.cutShort = new Set(codes.cut_short);
  core.failed = codes.failed_state;
}

// The status of a run whose worker failed.
export const failedStatus = () => ({ state: core.failed });

export const active = (r) => r.status.state === 'queued' || r.status.state === 'running';
export const complete = (r) => core.trainedToEnd.has(r.status.state);
// Stopped by the reader (partway, or before a worker took it).
export const cutShort = (r) => core.cutShort.has(r.status.state);
export const failed = (r) => r.status.state === core.failed;
// The steps a finished run trained: all `steps` when done, else its status's step.
export const stepsTrained = (status, steps) => (status.state === 'done' ? steps : status.step);
export const started = (r) => Boolean(r.startedAt || r.stepsDone);
export const finishedRuns = (exp) => exp.runs.filter((r) => r.finished);

// Every run of the experiment has ended (done, diverged, stopped or failed).
export const isSettled = (exp) => !exp.runs.some(active);

// How a set of ended runs ended, for the sentences that count them: { done, partway, notStarted,
// failed, total } (done: trained to their end).
export function tally(runs) {
  const stopped = runs.filter(cutShort);
  const partway = stopped.filter(started).length;
  return {
    done: runs.filter(complete).length, partway, notStarted: stopped.length - partway,
    failed: runs.filter(failed).length, total: runs.length,
  };
}

// The first failure's message among these runs, '' when none failed.
export const firstFailure = (runs) => (runs.find(failed) || { error: '' }).error;

// How the runs of a tally that did not train to their end ended, worded: ["2
// stopped partway", "1 failed"], empty when every run trained to its end.
export const endedParts = (k) => [[k.partway, 'partPartway'], [k.notStarted, 'partNotStarted'], [k.failed, 'partFailed']]
  .filter(([n]) => n > 0).map(([n, key]) => t(key, { k: n }));
