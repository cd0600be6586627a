// Where a run on the page stands. A run's status is the core's ({state, step}, docs/results.md)
// once its worker has begun it; before that the page's own 'queued'. Which states mean a run
// trained to its end is the core's (codes(), docs/api.md).

const core = { trainedToEnd: new Set() };

// Takes the core's codes() (parsed); called once the module loads.
export function setRunCodes(codes) {
  core.trainedToEnd = new Set(codes.trained_to_end);
}

export const active = (r) => r.status.state === 'queued' || r.status.state === 'running';
export const complete = (r) => core.trainedToEnd.has(r.status.state);
// The steps a finished run trained: all `steps` when done, else its status's step.
export const stepsTrained = (status, steps) => (status.state === 'done' ? steps : status.step);
export const started = (r) => Boolean(r.startedAt || r.stepsDone);
export const finishedRuns = (exp) => exp.runs.filter((r) => r.finished);

// Every run of the experiment has ended (done, diverged, stopped or failed).
export const isSettled = (exp) => !exp.runs.some(active);
