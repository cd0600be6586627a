// Errors: every C++ exception reaches JS as a thrown Error with the core's one-line message,
// the module and existing trainers keep working afterwards, and config messages are the CLI's.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');
const { loadWolab, withTrainer, nativeTool, memoryBytes } = require('./helpers.js');

const TINY = JSON.stringify({
  model: { d_model: 16, heads: 2, layers: 2, d_ff: 32 },
  task: { length: 4 },
  train: { steps: 40, probe_every: 20 },
});

// Each is invalid for one reason; the message names the field.
const BAD_CONFIGS = [
  ['{"model": {"d_model": 64, "heads": 5}}', /^model\.heads: d_model 64 is not divisible by heads 5; /],
  ['{"model": {"d_modle": 64}}', /^model\.d_modle: unknown key; /],
  ['{"train": {"lr": "fast"}}', /^train\.lr: expected a number, got a string; /],
  ['{"train": {"steps": 0}}', /^train\.steps: 0 is out of range; /],
  ['{"task": {"name": "shuffle"}}', /^task\.name: unknown value "shuffle"; /],
  ['{"model": {"wo": "none"}}', /^model\.wo: unknown value "none"; /],
  ['{"model": {"d_model": 1024, "d_ff": 4096, "layers": 12}, "train": {"batch": 1024}}',
    /^model\.d_model: this run needs about \d+ MiB, over the 512 MiB limit; /],
  ['{"model": ', /^config: /],
  ['[1, 2]', /^config: expected a JSON object, got an array; /],
];

// Runs fn, which must throw an Error (not a number or a string, as raw Emscripten would).
function thrown(fn) {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof Error, `threw an Error, not ${typeof e} ${String(e)}`);
    assert.ok(e.message.length > 0 && !e.message.includes('\n'), `one line: ${JSON.stringify(e.message)}`);
    return e;
  }
  assert.fail('did not throw');
}

test('a bad config throws the validator message; the module and a live trainer go on', async () => {
  const wolab = await loadWolab();
  const live = new wolab.Trainer(TINY);
  const twin = new wolab.Trainer(TINY);  // the same run without errors in between
  try {
    const memory = memoryBytes(wolab);
    for (const [json, expected] of BAD_CONFIGS) {
      const problems = wolab.validateConfig(json);
      assert.ok(problems.length >= 1, `validateConfig finds the problem of ${json}`);
      assert.match(problems[0], expected);
      const e = thrown(() => new wolab.Trainer(json));
      assert.equal(e.message, problems[0], 'the constructor throws the first validator message');
      assert.deepEqual(live.step(1), twin.step(1), 'the live trainer steps on as if nothing happened');
    }
    assert.equal(memoryBytes(wolab), memory, 'a refused config allocates nothing (not even the 512 MiB+ one)');
    await withTrainer(wolab, TINY, (fresh) => assert.equal(fresh.step(3).length, 3, 'new trainers work after errors'));
  } finally {
    live.delete();
    twin.delete();
  }
});

test('bad calls on a trainer throw Errors naming what is out of range', async () => {
  const wolab = await loadWolab();
  await withTrainer(wolab, TINY, (t) => {
    const cases = [
      [() => t.woWeights(2), 'layer 2 is out of range; 0..1'],
      [() => t.woInit(-1), 'layer -1 is out of range; 0..1'],
      [() => t.headBlockNorms(5), 'layer 5 is out of range; 0..1'],
      [() => t.ovSingularValues(0, 2), 'head 2 is out of range; 0..1'],
      [() => t.attention(1, 0, 512), 'example 512 is out of range; 0..511'],
    ];
    for (const [call, message] of cases) {
      assert.equal(thrown(call).message, message);
      assert.equal(t.step(1).length, 1, 'the trainer still steps');
    }
    t.step(100);
    assert.deepEqual(JSON.parse(t.record()).status, { state: 'done' });
  });
});

test('bad results and runs throw "results: ..." Errors', async () => {
  const wolab = await loadWolab();
  assert.match(thrown(() => wolab.parseResults('{')).message, /^results: truncated: the file ends before its JSON does \(/);
  assert.match(thrown(() => wolab.parseResults('{"a": nope}')).message, /^results: not valid JSON\b/);
  assert.match(thrown(() => wolab.parseResults('{"format": "csv"}')).message, /^results: not a W_o Lab results file/);
  assert.match(thrown(() => wolab.makeResults('remove_wo', '{}', '{"runs": 1}')).message,
    /^results: runs: expected a JSON array of runs$/);
  assert.match(thrown(() => wolab.makeResults('remove_wo', '{"seeds": 0}', '[]')).message, /^seeds: 0 is out of range; /);
  assert.match(thrown(() => wolab.makeResults('remove_wo', '{}', '[{"variant": "learned"}]')).message, /^results: /);
  assert.equal(thrown(() => wolab.validateConfig(42)).message, 'config: expected a string, got number');
  assert.equal(thrown(() => wolab.parseResults({})).message, 'results: expected a string, got object');
  assert.deepEqual(wolab.validateConfig('{}'), [], 'the module works after them');
});

test('a refused results file carries its fault, for the page to word; other errors none', async () => {
  const wolab = await loadWolab();
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('latin1');
  assert.equal(thrown(() => wolab.parseResults(png)).fault, 'not_json');
  assert.equal(thrown(() => wolab.parseResults('{"format": "wolab-results", "version": 2, "runs": [')).fault, 'truncated');
  assert.equal(thrown(() => wolab.parseResults('{"seeds": 3}')).fault, 'not_results');
  assert.equal(thrown(() => wolab.parseResults('{"format": "wolab-results", "version": 7}')).fault, 'version');
  const damaged = thrown(() => wolab.parseResults('{"format": "wolab-results", "version": 2}'));
  assert.equal(damaged.fault, 'damaged');
  assert.equal(damaged.message, 'results: created_by: missing');
  assert.equal(thrown(() => wolab.validateConfig(42)).fault, undefined);
  assert.equal(thrown(() => new wolab.Trainer('{"seeds": 0}')).fault, undefined, 'a config error has no results fault');
});

// A JS exception skips the destructors of the wasm frames it unwinds; the bindings make sure
// none of them owns anything when an Error is thrown, however large the arguments.
test('failing calls leak nothing, in wasm memory or in JS', async () => {
  const wolab = await loadWolab();
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  const t = new wolab.Trainer(TINY);
  t.step(100);
  const pad = ' '.repeat(100000);
  const bytes = new Uint8Array(1 << 20);
  const failing = [
    () => new wolab.Trainer(`{"model": {"heads": 5}}${pad}`),
    () => new wolab.Trainer(42),
    () => wolab.validateConfig(['not', 'text']),
    () => wolab.parseResults(`{${pad}`),
    () => wolab.makeResults('remove_wo', '{}', `[${pad}1]`),
    () => wolab.plan(`{${pad}`, '["all"]'),
    () => wolab.Trainer.fromCheckpoint(bytes),
  ];
  const failAll = (times) => {
    for (let i = 0; i < times; i++) for (const call of failing) thrown(call);
  };
  failAll(10);  // the allocator's working set for arguments this large
  gc();
  const [wasm, js] = [memoryBytes(wolab), process.memoryUsage().arrayBuffers];
  failAll(100);  // had the calls kept their arguments: 100 × (~0.8 MB in wasm + 1 MiB in JS)
  gc();
  assert.equal(memoryBytes(wolab), wasm, 'wasm memory did not grow');
  const grew = process.memoryUsage().arrayBuffers - js;
  assert.ok(grew < 8 << 20, `JS kept ${grew} bytes of ArrayBuffers`);
  t.delete();
});

test("validateConfig's messages are the CLI's", { skip: !nativeTool('wolab') && 'build/wolab not built' }, async () => {
  const wolab = await loadWolab();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wolab-cli-'));
  try {
    for (const [json] of BAD_CONFIGS) {
      const file = path.join(dir, 'config.json');
      fs.writeFileSync(file, json);
      const out = path.join(dir, 'results.json');
      const cli = spawnSync(nativeTool('wolab'), ['run', '--config', file, '--out', out], { encoding: 'utf8' });
      assert.equal(cli.status, 2, `wolab exits 2 for ${json}`);
      assert.equal(cli.stderr, `wolab: ${wolab.validateConfig(json)[0]}\n`, `the same message for ${json}`);
      assert.equal(fs.existsSync(out), false, 'and writes nothing');
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
