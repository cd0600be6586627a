// Promises of the core's results calls, answered by web/results/analysis-worker.js off the main thread.
// Each resolves to the call's JSON text (woFile: its matrices), or rejects with the core's
// message (an Error, with the core's `fault` when parseResults refused a file: docs/api.md). The
// page's own results go to one worker, in order; the claims panel's analysis of another preset's
// recordings, which takes seconds at the Article preset's size, to a second one made when first
// needed, so that it never holds up a verdict of the results shown.

let pending = 0;  // calls made and not yet answered, over both workers

// Whether a call is being answered: the estimate's timing (web/runs/estimate.js) waits for none, since
// timed beside an analysis it read up to three times the time Run all then took.
export const analysisBusy = () => pending > 0;

// A worker of web/results/analysis-worker.js loading `engine`: call(method, ...args) -> promise of text.
function analysisWorker(engine) {
  const worker = new Worker(new URL('./analysis-worker.js', import.meta.url));
  let crashed = '';  // why the worker died: later calls reject at once
  let nextRequest = 1;
  const requests = new Map();  // request -> { resolve, reject }
  worker.onmessage = (e) => {
    const msg = e.data;
    const r = requests.get(msg.request);
    if (!r) return;
    requests.delete(msg.request);
    pending--;
    if (msg.type === 'answer') r.resolve(msg.text ?? msg.value);
    else r.reject(Object.assign(new Error(msg.message), msg.fault ? { fault: msg.fault } : {}));
  };
  worker.onerror = (e) => {
    e.preventDefault();
    crashed = e.message || 'analysis worker failed';
    for (const r of requests.values()) r.reject(new Error(crashed));
    pending -= requests.size;
    requests.clear();
  };
  worker.postMessage({ type: 'init', ...engine });
  return (method, ...args) => {
    if (crashed) return Promise.reject(new Error(crashed));
    const request = nextRequest++;
    return new Promise((resolve, reject) => {
      requests.set(request, { resolve, reject });
      pending++;
      worker.postMessage({ type: 'call', request, method, args });
    });
  };
}

let loaded = null;  // the engine the workers load
let call = null;
let background = null;

// engine: { script, wasm }, the build the page loaded (web/wasm/wasm.js).
export function startAnalysis(engine) {
  loaded = engine;
  call = analysisWorker(engine);
}

// The Embind functions of the same names (docs/api.md), with results documents as Blobs of their
// JSON text (docs/worker.md): at d_model 256 a document is tens of MB, too much to write, parse
// or even pass as a string on the main thread. makeResults takes the records themselves (W_o
// matrices as Float32Arrays) and resolves to { blob, summary }; parseResults takes a Blob (or a
// string) and resolves to the normalised text; analyze takes an array of documents. With woStem,
// makeResults leaves the records' W_o matrices out: each run's snapshots keep their figures and
// name the wo file they would be written to (docs/results.md, "W_o snapshots apart"); the
// records are then sent without their matrices (live-runs.js, summarize).
export const makeResults = (experiment, configJson, runs, woStem = null) => call('makeResults', experiment, configJson, runs, woStem);
export const parseResults = (doc) => call('parseResults', doc);
export const analyze = (docs) => call('analyze', docs);
// plan, off the main thread (web/runs/plan.js, planRunsAside).
export const planAside = (configJson, experimentsJson) => call('plan', configJson, experimentsJson);
// The matrices of the W_o snapshot file at url (web/results/analysis-worker.js, woFile), read in a worker
// of their own, made when first needed, so that no analysis holds up a heatmap (nor the reverse).
let snapshots = null;
export function woFile(url) {
  snapshots ||= analysisWorker(loaded);
  return snapshots('woFile', url);
}
// analyze, in the second worker: for results the page does not show.
export function analyzeAside(docs) {
  background ||= analysisWorker(loaded);
  return background('analyze', docs);
}
