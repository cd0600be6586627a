// A pool of Web Workers, one run per worker at a time, sized from navigator.hardwareConcurrency.
// Owns play/pause/stop and the order of the queue: a free worker takes the queued job of the
// lowest rank, the earliest queued among equals (the page ranks a run by the first experiment
// on the page that shows it, so experiments finish in page order). Knows nothing of charts.
// Every worker message goes to `listener`, plus { type: 'error', id, message } when a worker
// fails or crashes (the pool then replaces it).

export function poolSize() {
  return Math.max(1, Math.min(8, navigator.hardwareConcurrency || 2));
}

export class Runner {
  constructor(engine, size, listener) {
    this.engine = engine;  // { script, wasm } of the build the page chose (web/wasm/wasm.js)
    this.size = size;
    this.listener = listener;
    this.slots = [];       // { worker, job } ; job is null when idle
    this.queue = [];       // jobs not yet given to a worker: { id, config, keep, data, rank }
    this.paused = false;
    this.timing = null;          // { workers, resolve } of a speed measurement (time())
    // The first Run starts on workers that have loaded the module meanwhile: on a fresh worker
    // the first run began about 0.3 s after the click in the Quick suite, on these about 0.1 s.
    for (let i = 0; i < size; i++) this.spawn();
  }

  // Whether time() can measure now: not while runs train or wait, nor while paused.
  get timeable() {
    return !this.busy && !this.paused;
  }

  get busy() {
    return this.queue.length > 0 || this.slots.some((s) => s.job);
  }

  // Whether this job waits for a worker still (its message not yet sent).
  isQueued(id) {
    return this.queue.some((job) => job.id === id);
  }

  enqueue(jobs) {
    this.stopTiming();  // the runs come first; the page measures again once they have ended
    this.queue.push(...jobs);
    this.pump();
  }

  // A queued job that another experiment now shares takes the lower rank of the two.
  rerank(id, rank) {
    const job = this.queue.find((j) => j.id === id);
    if (job) job.rank = Math.min(job.rank, rank);
  }

  // The queued jobs in the order the workers will take them.
  queued() {
    return this.queue.map((job, i) => [job, i]).sort(([a, i], [b, j]) => a.rank - b.rank || i - j).map(([job]) => job);
  }

  pump() {
    if (this.paused) return;
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queued()[0];
      this.queue.splice(this.queue.indexOf(job), 1);
      slot.job = job;
      slot.worker.postMessage({ type: 'run', job });
    }
  }

  spawn() {
    const worker = new Worker(new URL('./worker.js', import.meta.url));
    const slot = { worker, job: null };
    worker.onmessage = (e) => this.receive(slot, e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      this.replace(slot, e.message || 'the worker crashed');
    };
    worker.postMessage({ type: 'init', ...this.engine });
    this.slots.push(slot);
    return slot;
  }

  // A worker that failed may have a broken wasm instance (an abort): drop it.
  replace(slot, message) {
    slot.worker.terminate();
    this.slots.splice(this.slots.indexOf(slot), 1);
    const job = slot.job;
    slot.job = null;
    if (job) this.listener({ type: 'error', id: job.id, message });
    this.pump();
    if (!this.busy) this.retire();
  }

  receive(slot, msg) {
    switch (msg.type) {
      case 'finished':
      case 'stopped':
        slot.job = null;
        this.pump();  // the worker starts its next run while the page takes in this one
        this.listener(msg);
        this.pump();  // and any run the listener queued meanwhile
        if (!this.busy) this.retire();
        break;
      case 'error':
        this.replace(slot, msg.message);
        break;
      default:
        this.listener(msg);
    }
  }

  pause() {
    this.paused = true;
    for (const s of this.slots) s.worker.postMessage({ type: 'pause' });
  }

  resume() {
    this.paused = false;
    for (const s of this.slots) s.worker.postMessage({ type: 'resume' });
    this.pump();
  }

  // Drops the queue (returned, so the page can mark those runs) and stops the running runs, which
  // answer with 'finished' and their stopped record. Leaves the pool unpaused for the next runs.
  stop() {
    const dropped = this.queue.splice(0);
    for (const s of this.slots) {
      if (s.job) s.worker.postMessage({ type: 'stop' });
      if (this.paused) s.worker.postMessage({ type: 'resume' });
    }
    this.paused = false;
    return dropped;
  }

  // This device's speed at a run config: one answer per worker of the pool, each { steps,
  // probes, ms } (or { error }), timed at once on workers of their own, so that they share the
  // cores as the pool's runs will; they are terminated once they answer. Resolves to null at
  // once while runs train or wait (they would slow the measurement, and it them) and when runs
  // are queued meanwhile.
  time(config, keep, data) {
    this.stopTiming();
    if (!this.timeable) return Promise.resolve(null);
    const workers = Array.from({ length: this.size }, () => new Worker(new URL('./worker.js', import.meta.url)));
    return new Promise((resolve) => {
      const answers = [];
      this.timing = { workers, resolve };
      for (const worker of workers) {
        worker.onmessage = (e) => {
          if (e.data.type !== 'timed') return;
          answers.push(e.data);
          if (answers.length === workers.length) this.stopTiming(answers);
        };
        worker.onerror = (e) => {
          e.preventDefault();
          this.stopTiming();
        };
        worker.postMessage({ type: 'init', ...this.engine });
        worker.postMessage({ type: 'time', config, keep, data });
      }
    });
  }

  stopTiming(answers = null) {
    if (!this.timing) return;
    for (const worker of this.timing.workers) worker.terminate();
    this.timing.resolve(answers);
    this.timing = null;
  }

  // An idle pool ends its workers, since a wasm instance's memory never shrinks (a run at
  // d_model 256 grows it by hundreds of MB) and a finished run's worker holds nothing the page
  // needs (its model came with its record). The next run starts new ones: only the pool's first
  // workers are made before they are needed (a worker whose script fails is not made again).
  retire() {
    for (const slot of this.slots) slot.worker.terminate();
    this.slots = [];
  }
}
