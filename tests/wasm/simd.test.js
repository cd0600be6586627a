// The two builds the page chooses between: wolab (WASM SIMD kernels) and wolab-nosimd (for
// browsers without SIMD) load, expose the same API and train the same model.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { loadWolab } = require('./helpers.js');

const STEPS = 20;
// Odd sizes too (d_ff 72, T 13), so the SIMD kernels' edge handling is exercised.
const CONFIGS = [{}, { model: { d_model: 40, heads: 5, d_ff: 72, ln: 'pre' }, task: { name: 'sort', length: 6 } }];

test('SIMD and no-SIMD modules load, agree on everything but the last bits of the losses', async () => {
  const [simd, plain] = await Promise.all([loadWolab('wolab'), loadWolab('wolab-nosimd')]);
  assert.equal(simd.version(), plain.version());
  assert.equal(simd.presets(), plain.presets());
  assert.deepEqual(plain.validateConfig('{"model": {"heads": 5}}'), simd.validateConfig('{"model": {"heads": 5}}'));

  for (const overrides of CONFIGS) {
    const config = JSON.stringify(overrides);
    const [a, b] = [new simd.Trainer(config), new plain.Trainer(config)];
    try {
      assert.deepEqual(a.checkpoint(), b.checkpoint(), `${config}: identical step-0 checkpoints`);
      const [la, lb] = [a.step(STEPS), b.step(STEPS)];
      for (let i = 0; i < STEPS; i++) {
        const rel = Math.abs(la[i] - lb[i]) / Math.abs(lb[i]);
        assert.ok(rel <= 1e-4, `${config} step ${i + 1}: SIMD ${la[i]} vs no-SIMD ${lb[i]} (relative ${rel})`);
      }
      const [ea, eb] = [a.evaluate(), b.evaluate()];
      assert.ok(Math.abs(ea.loss - eb.loss) <= 1e-4 * eb.loss, `held-out loss ${ea.loss} vs ${eb.loss}`);
    } finally {
      a.delete();
      b.delete();
    }
  }
});
