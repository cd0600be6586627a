// One training run at a time in a classic Web Worker (classic so that importScripts can load the
// Emscripten MODULARIZE build). Steps in chunks of about CHUNK_MS so that V8 tiers the wasm up,
// pause/stop messages get through, and the page sees progress often.
'use strict';

const CHUNK_MS = 50;
const HELD_BYTES = 64 * 1024 * 1024;  // finished runs' checkpoints kept for download, per worker

let ready = null;      // Promise of the Embind module, set by 'init'
let pending = null;    // a job waiting for the module to load
let run = null;        // { job, trainer, chunk } of the run in progress
let paused = false;
const held = new Map();  // run id -> safetensors bytes, oldest first

// A zero-delay tick: unlike setTimeout it is not clamped to 4 ms, and like it, it lets queued
// messages (pause, stop) run between chunks.
const tick = new MessageChannel();
tick.port1.onmessage = () => stepChunk();
const schedule = () => tick.port2.postMessage(null);

self.onmessage = (e) => {
  const msg = e.data;
  switch (msg.type) {
    case 'init':
      importScripts(msg.script);  // a failure here is a worker crash: the page reports it
      ready = self.createWolab();
      ready.catch(() => {});  // reported through the run that waits for it
      break;
    case 'run':
      pending = msg.job;
      ready.then((wolab) => {
        if (pending !== msg.job) return;  // stopped before the module was ready
        pending = null;
        start(wolab, msg.job);
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
        self.postMessage({ type: 'stopped', id: pending.id, stepsDone: 0 });
        pending = null;
      }
      if (run) {
        const { job, trainer } = run;
        const stepsDone = trainer.stepsDone();
        trainer.delete();
        run = null;
        self.postMessage({ type: 'stopped', id: job.id, stepsDone });
      }
      break;
    case 'checkpoint': {
      const bytes = held.get(msg.id);
      self.postMessage({ type: 'checkpoint', request: msg.request, id: msg.id, bytes: bytes || null });
      break;
    }
    default:
      throw new Error(`worker: unknown message type ${msg.type}`);
  }
};

function errorText(err) {
  return err && err.message ? err.message : String(err);
}

function fail(id, err) {
  if (run) run.trainer.delete();
  run = null;
  self.postMessage({ type: 'error', id, message: errorText(err) });
}

function start(wolab, job) {
  const trainer = new wolab.Trainer(JSON.stringify(job.config));  // throws the validator's message
  if (job.needs.wo) trainer.recordWoSnapshots(true);  // so that record() holds them too
  run = { job, trainer, chunk: 5, evalsFinite: true };
  const info = { type: 'started', id: job.id, parameters: trainer.parameterCount() };
  if (job.needs.wo) info.probe = probe(trainer, job, 0);
  self.postMessage(info);
  if (!paused) schedule();
}

// What the page draws at a probe step besides the losses and held-out metrics, in the results
// schema's shapes. Asked for only when an experiment draws it: stats and W_o copies cost.
function probe(trainer, job, step) {
  const out = {};
  const layers = job.config.model.layers;
  if (job.needs.stats && step > 0) out.stats = trainer.stats();
  if (job.needs.wo) {
    const d = job.config.model.d_model;
    const heads = job.config.model.heads;
    out.wo = [];
    out.ov = [];
    for (let layer = 0; layer < layers; layer++) {
      out.wo.push({ step, layer, rows: d, cols: d, data: trainer.woWeights(layer).slice() });
      for (let head = 0; head < heads; head++) {
        out.ov.push({ step, layer, head, values: trainer.ovSingularValues(layer, head).slice() });
      }
    }
  }
  return out;
}

// The held-out eval the trainer took at this probe step (free: lastEval() recomputes nothing),
// for live accuracy curves; null where the record's eval series would not hold it either: it
// stops before the first non-finite eval, so the live curve is the finished one's prefix.
function heldOut(trainer, step) {
  const e = trainer.lastEval();
  if (!e || e.step !== step || !run.evalsFinite) return null;
  run.evalsFinite = [e.loss, e.token_acc, e.exact].every(Number.isFinite);
  return run.evalsFinite ? e : null;
}

function stepChunk() {
  if (!run || paused) return;
  const { job, trainer } = run;
  try {
    const total = job.config.train.steps;
    const every = job.config.train.probe_every;
    const before = trainer.stepsDone();
    const boundary = Math.min(total, (Math.floor(before / every) + 1) * every);
    const n = Math.max(1, Math.min(run.chunk, boundary - before));
    const t0 = performance.now();
    const losses = trainer.step(n).slice();  // (n') a copy: a view would die with memory growth
    const ms = performance.now() - t0;
    // Aim the next chunk at CHUNK_MS; a chunk cut short by a probe boundary says little.
    if (n === run.chunk || ms > CHUNK_MS) {
      const perStep = ms / Math.max(1, losses.length);
      run.chunk = Math.max(1, Math.min(1000, Math.round(CHUNK_MS / Math.max(perStep, 1e-3))));
    }
    const stepsDone = trainer.stepsDone();
    const finished = trainer.finished();
    const msg = { type: 'progress', id: job.id, firstStep: before + 1, losses, stepsDone, ms };
    const diverged = trainer.status().startsWith('diverged');
    if ((stepsDone === boundary || finished) && !diverged) {
      msg.eval = heldOut(trainer, stepsDone);
      if (job.needs.stats || job.needs.wo) msg.probe = probe(trainer, job, stepsDone);
    }
    const transfer = [losses.buffer];
    self.postMessage(msg, transfer);
    if (finished) finish(job, trainer);
    else schedule();
  } catch (err) {
    fail(job.id, err);
  }
}

// The run's record, parsed here rather than on the page: with W_o snapshots it can be tens of
// MB of JSON (d_model 256), and the snapshots travel as Float32Arrays, which cost the page
// almost nothing to receive.
function finish(job, trainer) {
  const record = JSON.parse(trainer.record(job.variant));
  const transfer = [];
  for (const w of record.wo) {
    w.data = Float32Array.from(w.data);
    transfer.push(w.data.buffer);
  }
  const status = trainer.status();
  keep(job.id, trainer.checkpoint().slice());
  trainer.delete();
  run = null;
  self.postMessage({ type: 'finished', id: job.id, record, status }, transfer);
}

function keep(id, bytes) {
  held.set(id, bytes);
  let total = 0;
  for (const b of held.values()) total += b.byteLength;
  for (const [key, b] of held) {
    if (total <= HELD_BYTES || key === id) break;
    held.delete(key);
    total -= b.byteLength;
  }
}
