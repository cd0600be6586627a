// Parity with the native build: the same config and seed give bit-identical initial weights
// (the whole step-0 checkpoint, byte for byte) and losses within 1e-4 relative over the first
// 50 steps, after drawing the same batches (the data stream ends in the same state).
// The native side is tests/wasm/native_trainer.cpp, built by scripts/build-native.sh.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { loadWolab, nativeTool, readSafetensors } = require('./helpers.js');

const STEPS = 50;
const CONFIGS = [
  {},  // the defaults: d_model 64, 4 heads, 2 layers, post-LN, learned W_o, copy
  { model: { ln: 'pre', wo: 'frozen_random' }, task: { name: 'sort' }, train: { seed: 3 } },
  { model: { wo: 'identity', heads: 8 }, task: { name: 'reverse', alphabet: 7 } },
  // Init bounds 1/sqrt(fan_in) that are not powers of two, unlike the others' (1/8, 1/16).
  { model: { wo: 'learned_identity_init', layers: 1, d_model: 40, d_ff: 72 }, train: { seed: 11, batch: 16 } },
  // √3 × an init bound that is not a power of two, and a QR in double (src/nn/orthogonal.cpp) at an
  // odd head size: both must round the same in wasm as natively.
  { model: { wo: 'frozen_random_scaled', layers: 1, d_model: 40, d_ff: 72 }, train: { seed: 2, batch: 16 } },
  { model: { wo: 'frozen_orthogonal', ln: 'pre', d_model: 36 }, task: { name: 'reverse' }, train: { seed: 5, batch: 16 } },
  // The three controls: W_o's blocks, a gain of 1/√3, and an FFN widened with extra streams.
  { model: { wo: 'block_diagonal', layers: 1, d_model: 40, d_ff: 72 }, train: { seed: 7, batch: 16 } },
  { model: { wo: 'scalar_gain', ln: 'pre', layers: 1 }, train: { seed: 4, batch: 16 } },
  { model: { wo: 'identity_matched', layers: 1, d_model: 40, d_ff: 72 }, train: { seed: 9, batch: 16 } },
];
const FROZEN = ['frozen_random', 'frozen_random_scaled', 'frozen_orthogonal'];

// Native checkpoints at step 0 and after STEPS steps.
function runNative(config, dir) {
  const [start, end] = [path.join(dir, 'step0.safetensors'), path.join(dir, 'stepN.safetensors')];
  const run = spawnSync(nativeTool('wolab_native_trainer'), [config, String(STEPS), start, end], { encoding: 'utf8' });
  assert.equal(run.status, 0, `native trainer failed: ${run.stderr}`);
  return [start, end].map((f) => new Uint8Array(fs.readFileSync(f)));
}

for (const overrides of CONFIGS) {
  const config = JSON.stringify(overrides);
  test(`wasm matches native for ${config}`, { skip: !nativeTool('wolab_native_trainer') && 'native build missing' }, async () => {
    const wolab = await loadWolab();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wolab-parity-'));
    const t = new wolab.Trainer(config);
    try {
      const [nativeStart, nativeEnd] = runNative(config, dir);

      // Tensor by tensor first, so a failure names what differs; then every byte.
      const start = t.checkpoint();
      const [ours, theirs] = [readSafetensors(start), readSafetensors(nativeStart)];
      assert.deepEqual(ours.metadata, theirs.metadata);
      assert.deepEqual(Object.keys(ours.tensors), Object.keys(theirs.tensors));
      for (const name of Object.keys(theirs.tensors)) {
        assert.deepEqual(ours.tensors[name], theirs.tensors[name], `${name} is bit-identical at step 0`);
      }
      assert.ok(Buffer.from(start).equals(Buffer.from(nativeStart)), 'the step-0 checkpoints are the same bytes');

      const losses = t.step(STEPS);
      const end = readSafetensors(nativeEnd);
      const nativeLosses = end.tensors['history.loss'].data;
      assert.equal(losses.length, STEPS);
      assert.equal(nativeLosses.length, STEPS);
      for (let i = 0; i < STEPS; i++) {
        const rel = Math.abs(losses[i] - nativeLosses[i]) / Math.abs(nativeLosses[i]);
        assert.ok(rel <= 1e-4, `step ${i + 1}: wasm ${losses[i]} vs native ${nativeLosses[i]} (relative ${rel})`);
      }
      const ended = readSafetensors(t.checkpoint());
      assert.equal(ended.metadata.data_rng, end.metadata.data_rng, 'both drew the same batches');
      if (FROZEN.includes(overrides.model?.wo)) {
        const names = Object.keys(theirs.tensors).filter((n) => /^layers\.\d+\.attn\.W_o\.weight$/.test(n));
        assert.ok(names.length > 0, 'a frozen W_o is in the checkpoint');
        for (const name of names) {
          assert.deepEqual(ended.tensors[name], ours.tensors[name], `wasm: the frozen ${name} never changed`);
          assert.deepEqual(end.tensors[name], theirs.tensors[name], `native: the frozen ${name} never changed`);
        }
      }
    } finally {
      t.delete();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
