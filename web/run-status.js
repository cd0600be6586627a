// Where a run on the page stands. A run's status is the core's ({state, step}, docs/results.md)
// once its worker has begun it; before that the page's own 'queued'.

export const active = (r) => r.status.state === 'queued' || r.status.state === 'running';
export const complete = (r) => r.status.state === 'done' || r.status.state === 'diverged';  // trained to its end
export const started = (r) => Boolean(r.startedAt || r.stepsDone);
export const finishedRuns = (exp) => exp.runs.filter((r) => r.finished);

// Every run of the experiment has ended (done, diverged, stopped or failed).
export const isSettled = (exp) => !exp.runs.some(active);
