// Memory: trainers free everything on delete(), and the configs the validator allows fit under
// the wasm heap's ceiling (1 GiB; the validator's limit is 512 MiB of estimated need).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { loadWolab, memoryBytes } = require('./helpers.js');

const SMALL = JSON.stringify({
  model: { d_model: 16, heads: 2, layers: 2, d_ff: 32 },
  task: { length: 4 },
  train: { steps: 10, batch: 8 },
});

// The heap only grows when malloc runs out, so a leak of a trainer or its buffers (its held-out
// set alone is 37 KB) would grow it within these cycles; a flat size means each cycle freed all.
test('wasm memory stays flat over 1,000 create/step/checkpoint/delete cycles', async () => {
  const wolab = await loadWolab();
  const cycle = () => {
    const t = new wolab.Trainer(SMALL);
    t.step(1);
    t.stats();
    t.checkpoint();
    t.delete();
  };
  for (let i = 0; i < 50; i++) cycle();  // the allocator's own working set
  const before = memoryBytes(wolab);
  for (let i = 0; i < 1000; i++) cycle();
  assert.equal(memoryBytes(wolab), before);
});

test('the largest configs the validator allows fit in the wasm heap', async () => {
  const wolab = await loadWolab();
  // Batch 1024 at the default width: length 21 (T = 43) is estimated at ~504 MiB, 22 at ~532.
  const near = JSON.stringify({ task: { length: 21 }, train: { batch: 1024 } });
  const over = JSON.stringify({ task: { length: 22 }, train: { batch: 1024 } });
  assert.deepEqual(wolab.validateConfig(near), []);
  assert.match(wolab.validateConfig(over)[0], /over the 512 MiB limit/);
  for (let i = 0; i < 2; i++) {
    const t = new wolab.Trainer(near);
    const e = t.evaluate();  // a forward pass over the held-out set touches the activation cache
    assert.ok(Number.isFinite(e.loss));
    t.delete();
  }
  assert.ok(memoryBytes(wolab) <= 1024 * 1024 * 1024);
});
