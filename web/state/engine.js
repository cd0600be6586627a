// The engine: the core's Embind module on this thread, the build the workers load, the core's
// presets, and the worker pool that trains the runs.
import { store } from './store.js';

// Owner: app.js (once the module has loaded, or failed to).
// wolab: the Embind module (null until it has loaded); engine: { script: 'wolab.js' or
// 'wolab-nosimd.js', wasm: its compiled module }, for the workers' 'init'; failed: the module
// could not load, so nothing can run; presets: name -> config (the core's presets());
// presetNames: in the order the page offers them, the first its default.
export const core = store({ wolab: null, engine: null, failed: false, presets: {}, presetNames: [] });

// Owner: app.js. The worker pool (runs/runner.js Runner), made once the page is built; null before.
export const pool = store(null);
