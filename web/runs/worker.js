// One training run at a time in a classic Web Worker (classic so that importScripts can load the
// Emscripten MODULARIZE build). Steps in chunks of about CHUNK_MS so that V8 tiers the wasm up,
// pause/stop messages get through, and the page sees progress often.
'use strict';

// The URLs in the page's messages are relative to the page, one folder above this script.
const fromPage = (url) => new URL(url, new URL('..', self.location.href)).href;

const CHUNK_MS = 50;
const TIME_MS = 300;  // how long 'time' measures (docs/worker.md)

let ready = null;      // Promise of the Embind module, set by 'init'
let pending = null;    // a job waiting for the module to load
let run = null;        // { job, trainer, chunk } of the run in progress
let paused = false;
const lexicons = new Map();  // url -> Promise of the wolab.Lexicon read from it, once per worker

// A zero-delay tick: unlike setTimeout it is not clamped to 4 ms, and like it, it lets queued
// messages (pause, stop) run between chunks.
const tick = new MessageChannel();
tick.port1.onmessage = () => stepChunk();
const schedule = () => tick.port2.postMessage(null);

self.onmessage = (e) => {
  const msg = e.data;
  switch (msg.type) {
    case 'init':
      importScripts(fromPage(msg.script), fromPage('wasm/load-wolab.js'));  // a failure here is a worker crash: the page reports it
      ready = self.instantiateWolab(msg.wasm);
      ready.catch(() => {});  // reported through the run that waits for it
      break;
    case 'run':
      pending = msg.job;
      ready.then((wolab) => withData(wolab, msg.job.data)).then(([wolab, lexicon]) => {
        if (pending !== msg.job) return;  // stopped before the module and its data were ready
        pending = null;
        start(wolab, msg.job, lexicon);
      }).catch((err) => fail(msg.job.id, err));
      break;
    case 'pause':
      paused = true;
      break;
    case 'resume':
      paused = false;
      if (run) schedule();
      break;
    case 'stop':
      if (pending) {
        self.postMessage({ type: 'stopped', id: pending.id });
        pending = null;
      }
      if (run) {
        run.trainer.stop();  // the run ends here, with a record of what it trained
        finish(run.job, run.trainer);
      }
      break;
    case 'time':
      ready.then((wolab) => withData(wolab, msg.data))
        .then(([wolab, lexicon]) => self.postMessage({ type: 'timed', ...timeSteps(wolab, msg.config, msg.keep, lexicon) }))
        .catch((err) => self.postMessage({ type: 'timed', error: errorText(err) }));
      break;
    default:
      throw new Error(`worker: unknown message type ${msg.type}`);
  }
};

// The module and the data a job names (docs/worker.md: `data`, { lexicon: url } for the task g2p):
// [wolab, lexicon or undefined]. Each lexicon is fetched and read once per worker.
function withData(wolab, data) {
  const url = data && data.lexicon;
  if (!url) return [wolab, undefined];
  if (!lexicons.has(url)) {
    lexicons.set(url, fetch(fromPage(url)).then((response) => {
      if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
      return response.text();
    }).then((text) => new wolab.Lexicon(text)));
  }
  const lexicon = lexicons.get(url);
  lexicon.catch(() => lexicons.delete(url));  // a failed fetch is tried again by the next job
  return lexicon.then((l) => [wolab, l]);
}

function errorText(err) {
  return err && err.message ? err.message : String(err);
}

function fail(id, err) {
  if (run) run.trainer.delete();
  run = null;
  self.postMessage({ type: 'error', id, message: errorText(err) });
}

// A record or probe fragment made without its W_o matrices (record(false), probeRecord(false)),
// parsed, each wo entry given its matrix as a Float32Array copied from the trainer and appended
// to `transfer`, so that it moves rather than is copied. As decimal JSON, the matrices took most
// of the worker's time outside the steps at d_model 256 (docs/worker.md).
function withWo(trainer, text, transfer) {
  const parsed = JSON.parse(text);
  for (const entry of parsed.wo) {
    entry.data = trainer.woSnapshot(entry.step, entry.layer);
    transfer.push(entry.data.buffer);
  }
  return parsed;
}

// A trainer of a run config, with the lexicon a g2p config needs (Embind Trainer, docs/api.md).
const makeTrainer = (wolab, config, lexicon) => (lexicon ? new wolab.Trainer(JSON.stringify(config), lexicon) : new wolab.Trainer(JSON.stringify(config)));

// A planned run (docs/api.md): it keeps what its experiments keep, and the page starts its
// record from the trainer's own step-0 record.
function start(wolab, job, lexicon) {
  const trainer = makeTrainer(wolab, job.config, lexicon);  // throws the validator's message
  trainer.keepStats(job.keep.stats);
  trainer.recordWoSnapshots(job.keep.wo);
  run = { job, trainer, chunk: 5 };
  const transfer = [];
  const record = withWo(trainer, trainer.record(false), transfer);
  self.postMessage({ type: 'started', id: job.id, record }, transfer);
  if (!paused) schedule();
}

function stepChunk() {
  if (!run || paused) return;
  const { job, trainer } = run;
  try {
    const before = trainer.stepsDone();
    const boundary = trainer.nextProbeStep();
    const n = Math.max(1, Math.min(run.chunk, boundary - before));
    const t0 = performance.now();
    const losses = trainer.step(n);  // (n') a copy of the core's, transferred below
    const ms = performance.now() - t0;
    // Aim the next chunk at CHUNK_MS; a chunk cut short by a probe boundary says little.
    if (n === run.chunk || ms > CHUNK_MS) {
      const perStep = ms / Math.max(1, losses.length);
      run.chunk = Math.max(1, Math.min(1000, Math.round(CHUNK_MS / Math.max(perStep, 1e-3))));
    }
    const stepsDone = trainer.stepsDone();
    const finished = trainer.finished();
    const msg = { type: 'progress', id: job.id, firstStep: before + 1, losses, stepsDone, ms };
    // The probe step's measurements, in the record's shapes (empty once a series has stopped).
    const transfer = [losses.buffer];
    if (stepsDone === boundary || finished) {
      msg.fragment = withWo(trainer, trainer.probeRecord(false), transfer);
    }
    self.postMessage(msg, transfer);
    if (finished) finish(job, trainer);
    else schedule();
  } catch (err) {
    fail(job.id, err);
  }
}

// The run's finished record (done, stopped or diverged), parsed here rather than on the page,
// its W_o matrices as numbers (withWo). Its checkpoint goes with it,
// so that the page, not this worker, holds what a download of the model needs.
function finish(job, trainer) {
  const checkpoint = trainer.checkpoint();  // a copy of the core's bytes
  const transfer = [checkpoint.buffer];
  const record = withWo(trainer, trainer.record(false), transfer);
  trainer.delete();
  run = null;
  self.postMessage({ type: 'finished', id: job.id, record, checkpoint }, transfer);
}

// This device's speed at a run's config, for the page's estimate before Run, in whole probe
// periods (the steps up to a probe step and its held-out eval): steps one at a time for TIME_MS
// and to a probe step as a warm-up (a fresh worker's wasm runs its baseline code until V8 has
// optimised it), then on for TIME_MS and to the next probe step. A long period is cut at
// 4 TIME_MS (its eval then weighs little). The run keeps what the planned run keeps, and each
// probe step's record is made as a run's is (stepChunk). Then what a run costs besides its steps:
// a trainer made, its first and last records and its checkpoint (start, finish). Returns
// { steps, probes, ms, run_ms }: the timed part's steps, the probe steps among them and its wall
// time, and that fixed cost of a run.
function timeSteps(wolab, config, keep, lexicon) {
  const every = config.train.probe_every;
  const trainer = () => {
    const tr = makeTrainer(wolab, config, lexicon);
    tr.keepStats(keep.stats);
    tr.recordWoSnapshots(keep.wo);
    return tr;
  };
  const until = (tr, ms, t0) => {
    const atProbe = () => tr.finished() || tr.stepsDone() % every === 0;
    let steps = 0, probes = 0;
    do {
      steps += tr.step(1).length;
      if (atProbe()) {
        probes++;
        withWo(tr, tr.probeRecord(false), []);
      }
    } while (!(atProbe() && performance.now() - t0 >= ms) && !tr.finished() && performance.now() - t0 < 4 * TIME_MS);
    return { steps, probes };
  };
  let tr = trainer();
  try {
    until(tr, TIME_MS, performance.now());
    // A run shorter than the warm-up: the code is warm now, so a fresh run of it is timed.
    if (tr.finished()) {
      tr.delete();
      tr = trainer();
    }
    const t0 = performance.now();
    const timed = until(tr, TIME_MS, t0);
    const ms = performance.now() - t0;
    const t1 = performance.now();
    const fresh = trainer();
    withWo(fresh, fresh.record(false), []);
    fresh.delete();
    withWo(tr, tr.record(false), []);
    tr.checkpoint();
    return { ...timed, ms, run_ms: performance.now() - t1 };
  } finally {
    tr.delete();
  }
}
