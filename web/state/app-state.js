// The page's state: one object that the page's modules share, and the DOM helpers they all use.
// What each experiment holds is documented where its object is made (experiment-section.js
// makeExperiment), a live job and its runs where they are made (live-runs.js runExperiments).

export const $ = (sel, root = document) => root.querySelector(sel);

export const app = {
  // ---- the engine
  wolab: null,                     // the Embind module on this thread (null until it has loaded)
  engine: null,                    // { script: 'wolab.js' or 'wolab-nosimd.js', wasm: its compiled module }, for the workers too
  engineFailed: false,             // the module could not load: nothing can run
  presets: {},                     // name -> config, the core's presets()
  presetNames: [],                 // in the order the page offers them, the first its default
  runner: null,                    // the worker pool (runner.js), made once the page is built
  // ---- the settings form
  base: {},                        // the default preset's settings: what a link leaves out
  settings: {},                    // the last value of each field that parsed
  texts: {},                       // each field's text as typed (what the URL carries)
  fieldErrors: {},                 // key -> { key: i18n key } or { text: validator message }
  generalErrors: [],               // validator messages that name no field of the form
  // ---- the page's chrome, from the URL
  langChosen: null,                // from ?lang= or the selector; null follows the browser
  embed: null,                     // from ?embed=: the one experiment an embed shows, or null
  theme: null,                     // from ?theme=; null follows prefers-color-scheme
  // ---- runs
  pending: null,                   // experiments whose Run was pressed before the pool was made
  requested: null,                 // experiments whose Run was pressed in this task (requestRun)
  exps: new Map(),                 // name -> experiment, in the core's order (makeExperiment)
  jobs: new Map(),                 // job id -> live job: one training run, shared by experiments
  nextId: 1,                       // the next job or run id
  batch: { jobs: [], start: 0, end: 0 },  // the jobs of the Run presses since the pool was idle,
                                          // and when they started and ended (performance.now())
  lastRun: null,                   // the Run button pressed last: where focus returns after a run
  // ---- what the page measured or asked for
  speed: null,                     // { key, units: name -> makespan, perUnit: name -> { low, high } s,
                                   //   own: the experiments timed on their own run } (measureSpeed)
  speedTimer: 0,                   // the timeout that will measure it
  recordedPreset: null,            // the preset whose recorded results were asked for last
};

export const errorText = (e) => (e && e.message ? e.message : String(e));

// An element with a class and its text, which goes in as text only.
export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text != null) e.textContent = text;
  return e;
}

export function button(className, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = className;
  b.addEventListener('click', onClick);
  return b;
}
