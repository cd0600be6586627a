// The page's side of the word box's worker (web/words/words-worker.js), made when the real-words
// section first needs it (it fetches the lexicon, web/state/data-files.js): each call returns a
// promise of the worker's answer, or rejects with the core's message.
import { app } from '../state/app-state.js';
import { DATA_FILES } from '../state/data-files.js';

let worker = null;
let nextRequest = 1;
const waiting = new Map();  // request -> { resolve, reject }

function call(msg, transfer = []) {
  if (!worker) {
    worker = new Worker(new URL('./words-worker.js', import.meta.url));
    worker.onmessage = (e) => {
      const { request, value, error } = e.data;
      const w = waiting.get(request);
      waiting.delete(request);
      if (error !== undefined) w.reject(new Error(error));
      else w.resolve(value);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      for (const w of waiting.values()) w.reject(new Error(e.message || 'the word worker crashed'));
      waiting.clear();
      worker = null;
    };
    worker.postMessage({ type: 'init', ...app.engine, lexicon: DATA_FILES.lexicon });
  }
  const request = nextRequest++;
  return new Promise((resolve, reject) => {
    waiting.set(request, { resolve, reject });
    worker.postMessage({ ...msg, request }, transfer);
  });
}

// Sets the model a key (a variant) pronounces with: safetensors bytes (copied), or null to drop it.
export function setModel(key, bytes) {
  const copy = bytes ? bytes.slice() : null;
  return call({ type: 'model', key, bytes: copy }, copy ? [copy.buffer] : []);
}

// A word as typed: { dictionary, answers: [{ key, ...Trainer.pronounce(word) }], ms }.
export const pronounce = (word) => call({ type: 'pronounce', word });
