// Promises of the core's results calls, answered by web/analysis-worker.js off the main thread.
// Each resolves to the call's JSON text, or rejects with the core's message (an Error).

let worker = null;
let crashed = '';  // why the worker died: later calls reject at once
let nextRequest = 1;
const requests = new Map();  // request -> { resolve, reject }

function failAll(message) {
  for (const r of requests.values()) r.reject(new Error(message));
  requests.clear();
}

// script: 'wolab.js' or 'wolab-nosimd.js', the build the page loaded (web/wasm.js).
export function startAnalysis(script) {
  worker = new Worker('analysis-worker.js');
  worker.onmessage = (e) => {
    const msg = e.data;
    const r = requests.get(msg.request);
    requests.delete(msg.request);
    if (!r) return;
    if (msg.type === 'answer') r.resolve(msg.text);
    else r.reject(new Error(msg.message));
  };
  worker.onerror = (e) => {
    e.preventDefault();
    crashed = e.message || 'analysis worker failed';
    failAll(crashed);
  };
  worker.postMessage({ type: 'init', script });
}

function call(method, ...args) {
  if (crashed) return Promise.reject(new Error(crashed));
  const request = nextRequest++;
  return new Promise((resolve, reject) => {
    requests.set(request, { resolve, reject });
    worker.postMessage({ type: 'call', request, method, args });
  });
}

// The same arguments as the Embind functions of the same names (docs/api.md), all text.
export const makeResults = (experiment, configJson, runsJson) => call('makeResults', experiment, configJson, runsJson);
export const parseResults = (text) => call('parseResults', text);
export const analyze = (resultsArrayJson) => call('analyze', resultsArrayJson);
