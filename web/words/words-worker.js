// The word box's worker (web/words/words.js): holds the lexicon and one g2p model per variant shown,
// and pronounces a typed word with each of them through the core (Embind Trainer.pronounce,
// docs/api.md), off the page's main thread. Classic, so that importScripts loads the build.
'use strict';

// The URLs in the page's messages are relative to the page, one folder above this script.
const fromPage = (url) => new URL(url, new URL('..', self.location.href)).href;

let ready = null;          // Promise of [wolab, lexicon], set by 'init'
const models = new Map();  // key (a variant) -> Trainer restored from its checkpoint

const errorText = (err) => (err && err.message ? err.message : String(err));

self.onmessage = (e) => {
  const msg = e.data;
  switch (msg.type) {
    case 'init':  // { script, wasm, lexicon: url }
      importScripts(fromPage(msg.script), fromPage('wasm/load-wolab.js'));
      ready = Promise.all([self.instantiateWolab(msg.wasm), fetch(fromPage(msg.lexicon)).then((response) => {
        if (!response.ok) throw new Error(`${msg.lexicon}: ${response.status} ${response.statusText}`);
        return response.text();
      })]).then(([wolab, text]) => [wolab, new wolab.Lexicon(text)]);
      ready.catch(() => {});  // reported through the requests that wait for it
      break;
    case 'model':  // { request, key, bytes }: bytes null drops the key's model
      answer(msg.request, ([wolab, lexicon]) => {
        if (models.has(msg.key)) models.get(msg.key).delete();
        models.delete(msg.key);
        if (msg.bytes) models.set(msg.key, wolab.Trainer.fromCheckpoint(msg.bytes, lexicon));
        return { keys: [...models.keys()] };
      });
      break;
    case 'pronounce':  // { request, word }
      answer(msg.request, ([, lexicon]) => {
        const t0 = performance.now();
        const dictionary = lexicon.lookUp(msg.word);  // throws the core's line for a bad word
        const answers = [...models].map(([key, trainer]) => ({ key, ...trainer.pronounce(msg.word) }));
        return { dictionary, answers, ms: performance.now() - t0 };
      });
      break;
    default:
      throw new Error(`words worker: unknown message type ${msg.type}`);
  }
};

// Answers a request once the module and the lexicon are ready: { request, value } or
// { request, error }.
function answer(request, compute) {
  ready.then((state) => {
    const value = compute(state);
    const transfer = (value.answers || []).map((a) => a.attention.buffer);
    self.postMessage({ request, value }, transfer);
  }).catch((err) => self.postMessage({ request, error: errorText(err) }));
}
