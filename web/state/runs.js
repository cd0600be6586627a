// The live runs' state that the control bar and the estimate read: the batch of Run presses
// since the pool was idle, the Run pressed last, and the news that runs moved on.
import { signal, store } from './store.js';

// Owner: runs/live-runs.js.
// jobs: the jobs of the Run presses since the pool was idle (runs/live-runs.js, runExperiments);
// start, end: when they started and ended (performance.now(); end is 0 until the pool is idle);
// settings: the Run all config of the settings they were pressed with (state/settings.js).
export const batch = store({ jobs: [], start: 0, end: 0, settings: null });

// Owner: runs/live-runs.js. The Run button pressed last: where focus returns after a run.
export const lastRun = store(null);

// Owner: runs/live-runs.js. Runs were queued, moved on, paused or stopped; detail true when the
// change must show at once (a press), false when the next frame will do (a worker's message).
export const runsChanged = signal();

// Owner: runs/live-runs.js. A live run finished with a model to read (not diverged): detail
// { run, bytes }, its safetensors bytes, for a view that uses the model itself (the word box).
export const modelTrained = signal();

// A new id for a job or a run shown on the page, live, recorded or imported.
let nextId = 1;
export const newId = () => nextId++;
