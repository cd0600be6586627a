// What the page reads as it is on load, instead of asking the wasm engine again (web/results/recorded.js):
// each recorded results file is what the engine's parseResults returns for it, and the analysis
// recorded beside them (scripts/record.sh: `wolab report --json`, recorded/<preset>/analysis.json)
// is what its analyze makes of the same files (to the last digits of each number), in the order
// index.json lists them.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { loadWolab } = require('./helpers.js');

const root = path.resolve(__dirname, '..', '..');
const recorded = path.join(path.resolve(root, process.env.WOLAB_DIST || 'dist'), 'recorded');
const indexFile = path.join(recorded, 'index.json');
const index = fs.existsSync(indexFile) ? JSON.parse(fs.readFileSync(indexFile, 'utf8')) : {};
const analyses = Object.entries(index.analyses || {});

// Two analyses agree to their last digits, not their bits: every number within a relative 1e-9
// (wasm's libm and glibc give log and exp different last bits, docs/sweeps.md "What reproduces
// where"), everything else to the letter, the same structure.
function agree(a, b, where) {
  if (typeof a === 'number' && typeof b === 'number') {
    assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b)), `${where}: ${a} against ${b}`);
    return;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    assert.equal(a, b, where);
    return;
  }
  assert.equal(Array.isArray(a), Array.isArray(b), where);
  assert.deepEqual(Object.keys(a), Object.keys(b), where);
  for (const key of Object.keys(a)) agree(a[key], b[key], `${where}.${key}`);
}

test('each recorded file is as parseResults returns it, and each recorded analysis is the wasm analysis of its preset\'s files', { skip: !analyses.length && 'nothing recorded (scripts/record.sh)' }, async () => {
  const wolab = await loadWolab();
  for (const [preset, name] of analyses) {
    const files = Object.values(index.presets[preset]);
    assert.ok(files.length >= 4, `${preset}: ${files.length} files`);
    const texts = files.map((file) => fs.readFileSync(path.join(recorded, preset, file), 'utf8'));
    for (const [i, text] of texts.entries()) assert.equal(wolab.parseResults(text), text.trimEnd(), files[i]);
    const made = wolab.analyze(`[${texts.join(',')}]`);
    agree(JSON.parse(fs.readFileSync(path.join(recorded, preset, name), 'utf8')), JSON.parse(made), preset);
    assert.deepEqual(JSON.parse(made).experiments.map((e) => e.experiment), Object.keys(index.presets[preset]));
  }
});
