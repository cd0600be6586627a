// The core's results calls (makeResults, parseResults, analyze: docs/api.md), and plan for the
// estimate before Run, in a classic Web Worker of their own, so that the page's main thread never
// waits for them: on a large experiment each takes hundreds of ms (docs/worker.md, "Analysis
// worker"). A results document stays out of the main thread as text: makeResults answers it as
// a Blob (with its summary), and analyze and parseResults read Blobs here; a Blob goes between
// threads by reference, while a string of tens of MB (W_o snapshots at d_model 256) took the
// main thread hundreds of ms each way. woFile fetches a run's W_o snapshot file (docs/results.md,
// "W_o snapshots apart") and reads it with the core's readWoFile, answering with its matrices in
// one Float32Array, transferred.
'use strict';

// The URLs in the page's messages are relative to the page, one folder above this script.
const fromPage = (url) => new URL(url, new URL('..', self.location.href)).href;

let ready = null;  // Promise of the Embind module, set by 'init'

const TEXT_CALLS = ['plan'];

// A results document's text: a Blob's, or a string as it is.
const textOf = (doc) => (typeof doc === 'string' ? doc : doc.text());

// The matrices of the wo file at `url` (same origin, relative to the page).
async function woFile(wolab, url) {
  const response = await fetch(fromPage(url));
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  try {
    return wolab.readWoFile(bytes);
  } catch (err) {
    throw new Error(`${url}: ${err.message}`);
  }
}

self.onmessage = (e) => {
  const msg = e.data;
  if (msg.type === 'init') {
    // A script that does not load is reported through the calls, which were posted meanwhile.
    try {
      importScripts(fromPage(msg.script), fromPage('wasm/load-wolab.js'));
      ready = self.instantiateWolab(msg.wasm);
    } catch (err) {
      ready = Promise.reject(err);
    }
    ready.catch(() => {});  // reported through the calls that wait for it
    return;
  }
  if (msg.type !== 'call') throw new Error(`analysis worker: unknown message type ${msg.type}`);
  ready.then(async (wolab) => {
    if (msg.method === 'makeResults') {
      // woStem: the records' W_o matrices stay out of the document (makeResultsWoApart,
      // docs/api.md): at d_model 256 they were 50 MB of JSON to write, make and parse again
      // for an analysis that reads only their figures. The page sends the records without them.
      const [experiment, configJson, runs, woStem] = msg.args;
      const runsJson = JSON.stringify(runs, (key, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v));
      const text = woStem ? wolab.makeResultsWoApart(experiment, configJson, runsJson, woStem)
        : wolab.makeResults(experiment, configJson, runsJson);
      const blob = new Blob([text], { type: 'application/json' });
      self.postMessage({ type: 'answer', request: msg.request, value: { blob, summary: JSON.parse(text).summary } });
      return;
    }
    if (msg.method === 'parseResults') {
      self.postMessage({ type: 'answer', request: msg.request, text: wolab.parseResults(await textOf(msg.args[0])) });
      return;
    }
    if (msg.method === 'analyze') {
      const texts = await Promise.all(msg.args[0].map(textOf));
      self.postMessage({ type: 'answer', request: msg.request, text: wolab.analyze(`[${texts.join(',')}]`) });
      return;
    }
    if (msg.method === 'woFile') {
      const value = await woFile(wolab, msg.args[0]);
      self.postMessage({ type: 'answer', request: msg.request, value }, [value.data.buffer]);
      return;
    }
    if (!TEXT_CALLS.includes(msg.method)) throw new Error(`analysis worker: no method ${msg.method}`);
    self.postMessage({ type: 'answer', request: msg.request, text: wolab[msg.method](...msg.args) });
  }).catch((err) => {
    self.postMessage({
      type: 'error', request: msg.request, message: err && err.message ? err.message : String(err), fault: err && err.fault,
    });
  });
};
