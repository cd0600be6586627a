// Memory: trainers free everything on delete(), the memory estimate bounds the heap a run
// grows to, and the configs the validator allows fit under the wasm heap's ceiling (1 GiB; the
// validator's limit is 512 MiB of estimated need).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { loadWolab, newWolab, withTrainer, memoryBytes } = require('./helpers.js');

const SMALL = JSON.stringify({
  model: { d_model: 16, heads: 2, layers: 2, d_ff: 32 },
  task: { length: 4 },
  train: { steps: 10, batch: 8 },
});

// The heap only grows when malloc runs out, so a leak of a trainer or its buffers (its held-out
// set alone is 37 KB) would grow it within these cycles; a flat size means each cycle freed all.
test('wasm memory stays flat over 1,000 create/step/checkpoint/delete cycles', async () => {
  const wolab = await loadWolab();
  const cycle = () => withTrainer(wolab, SMALL, (t) => {
    t.step(1);
    t.stats();
    t.checkpoint();
  });
  for (let i = 0; i < 50; i++) await cycle();  // the allocator's own working set
  const before = memoryBytes(wolab);
  for (let i = 0; i < 1000; i++) await cycle();
  assert.equal(memoryBytes(wolab), before);
});

const MiB = 1024 * 1024;

// One run as the page's worker goes through it: made, trained to its end, its record taken as
// JSON text, a checkpoint taken, deleted.
function runToEnd(wolab, config, snapshots) {
  return withTrainer(wolab, config, (t) => {
    t.recordWoSnapshots(snapshots);
    while (!t.finished()) t.step(50);
    assert.ok(t.record().length > 100);
    assert.ok(t.checkpoint().length > 100);
  });
}

// The config `base` with section.key set to the largest whole number the validator accepts
// (searched up from 1): the next one is refused for its memory.
function largestAccepted(wolab, base, section, key) {
  const at = (v) => JSON.stringify({ ...base, [section]: { ...base[section], [key]: v } });
  let v = 1;
  while (wolab.validateConfig(at(v + 1)).length === 0) v++;
  assert.deepEqual(wolab.validateConfig(at(v)), []);
  assert.match(wolab.validateConfig(at(v + 1))[0], /over the 512 MiB limit/);
  return at(v);
}

// Each run in a module of its own, whose heap starts at 16 MiB and grows only when malloc runs
// out, to at least what it asked for and at most 20% past it (Emscripten's growth policy): the
// size it ends at bounds the run's peak from above and, a fifth less and less the heap it started
// with, from below; a bound that says something only for runs well above those 16 MiB. The
// byte-exact comparison in wasm is test_memory.cpp's, built to wasm with its malloc hook.
test('the memory estimate bounds the wasm heap of runs up to the limit', async () => {
  const probe = await loadWolab();
  const runs = [
    ['article', JSON.stringify({ model: { d_model: 256, d_ff: 1024 }, train: { steps: 4, probe_every: 2 } }), false],
    // batch 1024 at the default width, as long as the limit allows
    ['batch 1024, longest', largestAccepted(probe, { train: { batch: 1024, steps: 1 } }, 'task', 'length'), false],
    // a W_o snapshot at every one of 120 steps: a record of half a million W_o numbers
    ['heatmap', JSON.stringify({ experiment: 'wo_heatmap', model: { d_model: 64, heads: 1, layers: 1, d_ff: 16 },
      task: { length: 2 }, train: { batch: 2, steps: 120, probe_every: 1 } }), true],
  ];
  for (const [name, config, snapshots] of runs) {
    const wolab = await newWolab();
    const start = memoryBytes(wolab);
    const estimate = wolab.memoryEstimate(config, snapshots);
    await runToEnd(wolab, config, snapshots);
    const end = memoryBytes(wolab);
    const sizes = `${name}: estimate ${estimate / MiB} MiB, heap ${start / MiB} -> ${end / MiB} MiB`;
    assert.ok(end <= 1.2 * (start + estimate) + 64 * 1024, sizes);
    if (estimate > 4 * start) assert.ok(estimate <= 1.5 * (end / 1.2 - start) + 4 * MiB, sizes);
    assert.ok(end <= 1024 * MiB, sizes);
  }
});

test('configs whose estimate passes 512 MiB are refused', async () => {
  const wolab = await loadWolab();
  for (const config of [
    { model: { d_model: 1024, d_ff: 4096, layers: 1 }, task: { length: 64 }, train: { batch: 30 } },
    { model: { d_model: 1024, layers: 1, heads: 1, d_ff: 1 }, train: { batch: 1024 } },
  ]) {
    const text = JSON.stringify(config);
    assert.ok(wolab.memoryEstimate(text, false) > 512 * MiB);
    assert.match(wolab.validateConfig(text)[0], /^model\.d_model: this run needs about \d+ MiB, over the 512 MiB limit/);
  }
});
