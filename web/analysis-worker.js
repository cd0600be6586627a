// The core's results calls (makeResults, parseResults, analyze: docs/api.md) in a classic Web
// Worker of their own, so that the page's main thread never waits for them: on a large experiment
// each takes hundreds of ms. Text in, text out (docs/worker.md, "Analysis worker").
'use strict';

let ready = null;  // Promise of the Embind module, set by 'init'

self.onmessage = (e) => {
  const msg = e.data;
  if (msg.type === 'init') {
    // A script that does not load is reported through the calls, which were posted meanwhile.
    try {
      importScripts(msg.script);
      ready = self.createWolab();
    } catch (err) {
      ready = Promise.reject(err);
    }
    ready.catch(() => {});  // reported through the calls that wait for it
    return;
  }
  if (msg.type !== 'call') throw new Error(`analysis worker: unknown message type ${msg.type}`);
  ready.then((wolab) => {
    if (!['makeResults', 'parseResults', 'analyze'].includes(msg.method)) throw new Error(`analysis worker: no method ${msg.method}`);
    self.postMessage({ type: 'answer', request: msg.request, text: wolab[msg.method](...msg.args) });
  }).catch((err) => {
    self.postMessage({
      type: 'error', request: msg.request, message: err && err.message ? err.message : String(err), fault: err && err.fault,
    });
  });
};
