// The W_o snapshot files the page fetches (docs/results.md, "W_o snapshots apart"): written by
// `wolab split-wo`, read by the wasm readWoFile as the CLI's matrices to float16's precision; the
// split results analyse in wasm exactly as the whole file does; corrupt files throw a clear Error.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { loadWolab, nativeTool } = require('./helpers.js');

const skip = !nativeTool('wolab') && 'build/wolab not built';

// A tiny wo_heatmap run by the CLI, whole and split: { dir, whole, split, files }.
function recorded() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wolab-wo-'));
  const whole = path.join(dir, 'heat.json'), split = path.join(dir, 'split.json');
  const cli = (...args) => {
    const r = spawnSync(nativeTool('wolab'), args, { encoding: 'utf8' });
    assert.strictEqual(r.status, 0, r.stderr);
    return r.stdout;
  };
  cli('run', '--experiment', 'wo_heatmap', '--d-model', '16', '--heads', '4', '--d-ff', '32', '--steps', '20',
    '--probe-every', '5', '--seeds', '3', '--jobs', '1', '--out', whole);
  cli('split-wo', whole, '--out', split);
  return { dir, whole: fs.readFileSync(whole, 'utf8'), split: fs.readFileSync(split, 'utf8'), report: cli('report', split) };
}

test('split results analyse as the whole file; each wo file holds its run\'s matrices in float16', { skip }, async () => {
  const wolab = await loadWolab();
  const { dir, whole, split } = recorded();
  try {
    assert.strictEqual(wolab.analyze(`[${split}]`), wolab.analyze(`[${whole}]`));
    const full = JSON.parse(wolab.parseResults(whole));
    const apart = JSON.parse(wolab.parseResults(split));
    assert.strictEqual(apart.runs.length, 3);
    apart.runs.forEach((run, i) => {
      const file = wolab.readWoFile(new Uint8Array(fs.readFileSync(path.join(dir, run.wo_file))));
      assert.strictEqual(file.variant, 'learned');
      assert.strictEqual(file.seed, run.seed);
      assert.ok(file.data instanceof Float32Array);
      const entries = full.runs[i].wo;
      assert.strictEqual(file.matrices.length, entries.length);
      for (const m of file.matrices) {
        const entry = entries.find((e) => e.step === m.step && e.layer === m.layer);
        assert.ok(entry, `step ${m.step} layer ${m.layer}`);
        assert.deepStrictEqual([m.rows, m.cols], [16, 16]);
        entry.data.forEach((x, j) => {
          const y = file.data[m.offset + j];
          assert.ok(Math.abs(y - x) <= Math.abs(x) * 2 ** -11 + 1e-7, `${x} read as ${y}`);
        });
      }
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a truncated, corrupt or foreign wo file throws a clear Error; the module goes on', { skip }, async () => {
  const wolab = await loadWolab();
  const { dir, split } = recorded();
  try {
    const name = JSON.parse(split).runs[0].wo_file;
    const good = new Uint8Array(fs.readFileSync(path.join(dir, name)));
    const cases = [
      [good.subarray(0, good.length - 100), /^wo file: tensor "step\.\d+\.layers\.\d\.attn\.W_o\.weight" ends at byte \d+, beyond the data section/],
      [good.subarray(0, 5), /^wo file: file is 5 bytes, too short for a safetensors header$/],
      [new Uint8Array(64), /^wo file: header is not a JSON object$/],
      ['bytes', /^wo file: expected the file's bytes as a Uint8Array$/],
    ];
    for (const [bytes, message] of cases) assert.throws(() => wolab.readWoFile(bytes), { message });
    assert.strictEqual(wolab.readWoFile(good).matrices.length, 10);  // 5 snapshots of 2 layers
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
