// The word box's models as recorded (scripts/record.sh: real_words' first seed of each variant,
// dist/recorded/quick/models/; and the models trained to the end, recorded/converged/ as
// build-wasm.sh copies it to dist/converged/, float16 where that changed no pronunciation): the
// wasm engine's pronunciation of 50 held-out words, the page's path (Trainer.fromCheckpoint with
// the build's lexicon, then pronounce), equals `wolab pronounce` on the same files, word for word.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { loadWolab, nativeTool } = require('./helpers.js');

const root = path.resolve(__dirname, '..', '..');
const dist = path.resolve(root, process.env.WOLAB_DIST || 'dist');
const lexiconFile = path.join(dist, 'cmudict-g2p.txt');
const index = path.join(dist, 'recorded', 'index.json');
const recorded = fs.existsSync(index) ? ((JSON.parse(fs.readFileSync(index, 'utf8')).models || {}).quick || {}) : {};
const models = recorded.files || {};
const wolabCli = nativeTool('wolab');
const missing = !wolabCli ? 'no native build' : !fs.existsSync(lexiconFile) ? 'no lexicon in dist/'
  : !Object.keys(models).length ? 'no recorded models (scripts/record.sh)' : false;

// The first 50 held-out words of the lexicon file, in its order.
function heldOutWords(text, lexicon) {
  const words = [];
  for (const line of text.split('\n')) {
    const word = line.split(' ')[0].toLowerCase();
    if (!line || line.startsWith(';;;') || word.includes('(')) continue;
    if (lexicon.lookUp(word).heldout && !words.includes(word)) words.push(word);
    if (words.length === 50) break;
  }
  return words;
}

// Each model file of `models` (variant -> path) pronounces `words` in wasm as wolab pronounce does.
function pronounceAsNative(wolab, lexicon, words, models) {
  for (const [variant, modelPath] of Object.entries(models)) {
    const native = execFileSync(wolabCli, ['pronounce', '--model', modelPath, '--data', lexiconFile, ...words], { encoding: 'utf8' })
      .split('\n').filter((line) => line && !line.startsWith(' '));
    const trainer = wolab.Trainer.fromCheckpoint(new Uint8Array(fs.readFileSync(modelPath)), lexicon);
    try {
      const page = words.map((w) => {
        const p = trainer.pronounce(w);
        // The CLI's line for a pronunciation that never ended (the page says so in its own words).
        return `${w}: ${p.arpabet} /${p.ipa}/${p.eos ? '' : " (no [EOS]: cut at the model's last position)"}`;
      });
      assert.deepEqual(page, native, `${modelPath}`);
    } finally {
      trainer.delete();
    }
  }
}

const variants = ['frozen_random', 'identity', 'learned', 'learned_identity_init'];

test('the recorded models pronounce 50 held-out words in wasm as wolab pronounce does', { skip: missing }, async () => {
  const wolab = await loadWolab();
  const text = fs.readFileSync(lexiconFile, 'utf8');
  const lexicon = new wolab.Lexicon(text);
  try {
    const words = heldOutWords(text, lexicon);
    assert.equal(words.length, 50);
    assert.deepEqual(Object.keys(models).sort(), variants);
    pronounceAsNative(wolab, lexicon, words, Object.fromEntries(Object.entries(models)
      .map(([variant, file]) => [variant, path.join(dist, 'recorded', 'quick', file)])));
  } finally {
    lexicon.delete();
  }
});

// The models trained to the end (recorded/converged/, committed): one per variant of each size,
// d_model 64 (converged) and 32 (converged_narrow; converged_small, of the same size, ships its
// results only: scripts/record-converged.sh, CONVERGED_MODELS).
const converged = path.join(root, 'recorded', 'converged');
const convergedModels = (preset) => {
  const dir = path.join(converged, preset, 'models');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.safetensors'))
    .map((f) => [f.split('.')[0], path.join(dir, f)]) : [];
};

test('the models trained to the end pronounce 50 held-out words in wasm as wolab pronounce does',
  { skip: !wolabCli ? 'no native build' : !fs.existsSync(lexiconFile) ? 'no lexicon in dist/' : false }, async () => {
    const wolab = await loadWolab();
    const text = fs.readFileSync(lexiconFile, 'utf8');
    const lexicon = new wolab.Lexicon(text);
    try {
      const words = heldOutWords(text, lexicon);
      for (const preset of ['converged', 'converged_narrow']) {
        const found = convergedModels(preset);
        assert.deepEqual(found.map(([v]) => v).sort(), variants, preset);
        pronounceAsNative(wolab, lexicon, words, Object.fromEntries(found));
      }
    } finally {
      lexicon.delete();
    }
  });
