// checkpoint() / Trainer.fromCheckpoint(): a reloaded run continues exactly as the original,
// the bytes are plain safetensors with PyTorch names, and corrupt bytes throw a clear Error.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { loadWolab, withTrainer, readSafetensors } = require('./helpers.js');

const CONFIG = {
  model: { d_model: 16, heads: 2, layers: 2, d_ff: 32 },
  task: { name: 'reverse', length: 4 },
  train: { steps: 60, probe_every: 20, seed: 7 },
};
const TEXT = JSON.stringify(CONFIG);

test('a reloaded trainer continues with identical losses, metrics and state', async () => {
  const wolab = await loadWolab();
  const original = new wolab.Trainer(TEXT);
  original.step(25);
  const reloaded = wolab.Trainer.fromCheckpoint(original.checkpoint());
  try {
    assert.equal(reloaded.stepsDone(), 25);
    assert.deepEqual(reloaded.status(), { state: 'running' });
    assert.deepEqual(reloaded.evaluate(), original.evaluate());
    for (const n of [10, 10, 100]) assert.deepEqual(reloaded.step(n), original.step(n), 'bit-identical losses');
    assert.deepEqual(reloaded.status(), { state: 'done' });
    assert.deepEqual(reloaded.woWeights(1), original.woWeights(1));
    assert.deepEqual(reloaded.woInit(0), original.woInit(0));
    assert.deepEqual(reloaded.checkpoint(), original.checkpoint(), 'the same bytes at the end');
    assert.deepEqual(JSON.parse(reloaded.record()).curve, JSON.parse(original.record()).curve);
  } finally {
    original.delete();
    reloaded.delete();
  }
});

test('checkpoint bytes are safetensors with PyTorch names, the config and the history', async () => {
  const wolab = await loadWolab();
  await withTrainer(wolab, TEXT, (t) => {
    const losses = t.step(5);
    const { metadata, tensors } = readSafetensors(t.checkpoint());
    assert.equal(metadata.format, 'wolab-checkpoint');
    assert.equal(metadata.step, '5');
    assert.equal(metadata.status, 'running');
    const config = JSON.parse(metadata.config);
    assert.deepEqual(config.model, { ...CONFIG.model, ln: 'post', wo: 'learned' });
    assert.equal(config.train.seed, 7);
    assert.deepEqual(tensors['layers.1.attn.W_o.weight'].shape, [16, 16]);
    assert.deepEqual(tensors['layers.1.attn.W_o.weight'].data, t.woWeights(1));
    assert.deepEqual(tensors['init.layers.0.attn.W_o.weight'].data, t.woInit(0));
    assert.deepEqual(tensors['layers.0.ffn.fc1.weight'].shape, [32, 16]);
    assert.deepEqual(tensors['tok_emb.weight'].shape, [12, 16]);
    assert.deepEqual(tensors['history.loss'].data, losses);
    const weights = Object.keys(tensors).filter((k) => !/^(adam|init|history)\./.test(k));
    const count = weights.reduce((n, k) => n + tensors[k].data.length, 0);
    assert.equal(count, t.parameterCount(), 'every trainable parameter is saved (learned: no frozen ones)');
  });
});

test('a finished run reloads finished', async () => {
  const wolab = await loadWolab();
  const t = new wolab.Trainer(TEXT);
  t.step(60);
  const reloaded = wolab.Trainer.fromCheckpoint(t.checkpoint());
  try {
    assert.equal(reloaded.finished(), true);
    assert.deepEqual(reloaded.status(), { state: 'done' });
    assert.equal(reloaded.step(5).length, 0);
    assert.deepEqual(JSON.parse(reloaded.record()).curve, JSON.parse(t.record()).curve);
  } finally {
    t.delete();
    reloaded.delete();
  }
});

test('corrupt bytes throw a clear Error; the module goes on', async () => {
  const wolab = await loadWolab();
  const good = await withTrainer(wolab, TEXT, (t) => {
    t.step(3);
    return t.checkpoint();
  });
  const n = Number(new DataView(good.buffer).getBigUint64(0, true));

  const patched = (edit) => {
    const b = good.slice();
    edit(b, new DataView(b.buffer));
    return b;
  };
  // The checkpoint with its header's metadata rewritten (padded to its length with spaces).
  const withMetadata = (change) => {
    const header = JSON.parse(new TextDecoder().decode(good.subarray(8, 8 + n)));
    change(header.__metadata__);
    const text = new TextEncoder().encode(JSON.stringify(header).padEnd(n, ' '));
    assert.equal(text.length, n, 'the edit fits in the header');
    return patched((b) => b.set(text, 8));
  };
  const firstWeight = (() => {
    const header = JSON.parse(new TextDecoder().decode(good.subarray(8, 8 + n)));
    return 8 + n + header['layers.0.attn.W_q.weight'].data_offsets[0];
  })();

  const cases = [
    [new Uint8Array(0), /^checkpoint: file is 0 bytes, too short for a safetensors header$/],
    [good.slice(0, good.length - 4), /^checkpoint: .*(beyond|belong)/],
    [patched((b, v) => v.setBigUint64(0, 1n << 40n, true)), /^checkpoint: header length \d+ goes beyond the end/],
    [patched((b) => b.fill(0x7b, 8, 16)), /^checkpoint: header is not a JSON object$/],
    [patched((b, v) => v.setFloat32(firstWeight, NaN, true)), /^checkpoint: tensor layers\.0\.attn\.W_q\.weight is not finite$/],
    [withMetadata((m) => { m.format = 'other'; }), /^checkpoint: not a wolab checkpoint of version 1$/],
    // '-' has the length of '3': the header may have no padding to grow into.
    [withMetadata((m) => { m.step = '-'; }), /^checkpoint: metadata "step" is not a whole number$/],
    [withMetadata((m) => { m.config = m.config.replace('"heads":2', '"heads":3'); }), /^model\.heads: d_model 16 is not divisible by heads 3; /],
    [new TextEncoder().encode('hello, not a checkpoint at all'), /^checkpoint: header length \d+ goes beyond/],
    ['a string', /^checkpoint: expected the file's bytes as a Uint8Array$/],
    [[1, 2, 3], /^checkpoint: expected the file's bytes as a Uint8Array$/],
  ];
  for (const [bytes, expected] of cases) {
    let error = null;
    try {
      wolab.Trainer.fromCheckpoint(bytes).delete();
    } catch (e) {
      error = e;
    }
    assert.ok(error instanceof Error, `${expected} is thrown as an Error`);
    assert.match(error.message, expected);
  }
  const again = wolab.Trainer.fromCheckpoint(good);
  assert.equal(again.stepsDone(), 3, 'a good checkpoint still loads');
  again.delete();
});
