// The g2p lexicon and "try a word" through Embind (bindings/embind.cpp, docs/api.md): a Lexicon
// from the compact file's text, a g2p trainer made with it (live or from its checkpoint), and a
// word's pronunciation with the lexicon's entry and the attention maps, each a copy that
// survives the heap growing; bad words, files and models throw one line.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { loadWolab, memoryBytes } = require('./helpers.js');

// 30 words (31 pronunciations) in the compact file's format: KNIGHT and ORANGE are held out (docs/g2p.md, the split).
const LEXICON = `;;; a few words of CMUdict, stress removed
;;; words: 30
${[
  'CAT  K AE T', 'DOG  D AO G', 'HOUSE  HH AW S', 'WATER  W AO T ER', 'TREE  T R IY', 'PHONE  F OW N',
  'LIGHT  L AY T', 'TABLE  T EY B AH L', 'CHAIR  CH EH R', 'MUSIC  M Y UW Z IH K', 'PAPER  P EY P ER',
  'RIVER  R IH V ER', 'STONE  S T OW N', 'CLOUD  K L AW D', 'NIGHT  N AY T', 'GREEN  G R IY N',
  'APPLE  AE P AH L', 'BREAD  B R EH D', 'HORSE  HH AO R S', 'MOUSE  M AW S', 'GARDEN  G AA R D AH N',
  'WINDOW  W IH N D OW', 'PENCIL  P EH N S AH L', 'ORANGE  AO R AH N JH', 'KNIGHT  N AY T',
  'TIGER  T AY G ER', 'ZEBRA  Z IY B R AH', 'ROCKET  R AA K AH T', 'PLANET  P L AE N AH T',
  'READ  R EH D', 'READ(1)  R IY D',
].join('\n')}
`;
const CONFIG = JSON.stringify({
  model: { d_model: 16, heads: 2, layers: 2, d_ff: 32 },
  task: { name: 'g2p', heldout: 16 },
  train: { steps: 40, batch: 8, probe_every: 20, seed: 3 },
});

test('a Lexicon reads the compact format, splits it and looks words up', async () => {
  const wolab = await loadWolab();
  const lexicon = new wolab.Lexicon(LEXICON);
  try {
    assert.equal(lexicon.words(), 30);
    assert.equal(lexicon.heldoutWords(), 2);
    assert.deepEqual(lexicon.lookUp('Knight'), {
      word: 'knight', listed: true, heldout: true, trainedLength: true,
      pronunciations: [{ arpabet: 'N AY T', ipa: 'naɪt', phonemes: ['N', 'AY', 'T'], ipaPhonemes: ['n', 'aɪ', 't'] }],
    });
    const read = lexicon.lookUp('read');
    assert.equal(read.heldout, false);
    assert.deepEqual(read.pronunciations.map((p) => p.ipa), ['ɹɛd', 'ɹid']);
    assert.deepEqual(lexicon.lookUp('qzxv'), { word: 'qzxv', listed: false, heldout: false, trainedLength: true, pronunciations: [] });
    // One letter: shorter than every word a run trains on (wordLetters().min), read all the same.
    assert.deepEqual(wolab.wordLetters(), { min: 2, max: 12 });
    assert.equal(lexicon.lookUp('x').trainedLength, false);
    assert.throws(() => lexicon.lookUp('b4'), { message: 'word "b4": "4" is not a letter a-z; give 1 to 12 letters a-z' });
  } finally {
    lexicon.delete();
  }
  assert.throws(() => new wolab.Lexicon('DOG  D AO XX\n'), { message: /^dictionary line 1: unknown phoneme "XX"/ });
  assert.throws(() => new wolab.Lexicon(LEXICON.slice(0, LEXICON.indexOf('NIGHT'))), { message: /its header says 30 words but \d+ were read/ });
});

test('a g2p trainer pronounces a word, with the lexicon entry and attention maps', async () => {
  const wolab = await loadWolab();
  const lexicon = new wolab.Lexicon(LEXICON);
  const t = new wolab.Trainer(CONFIG, lexicon);
  lexicon.delete();  // the trainer keeps the lexicon it trains on
  let reloaded = null;
  try {
    assert.equal(t.step(40).length, 40);
    const p = t.pronounce('KNIGHT');
    assert.equal(p.word, 'knight');
    assert.equal(p.letters, 6);
    assert.equal(p.layers, 2);
    assert.equal(p.heads, 2);
    assert.equal(p.arpabet, p.phonemes.join(' '));
    assert.equal(p.ipa, p.ipaPhonemes.join(''));
    assert.equal(p.phonemes.length, p.ipaPhonemes.length);
    assert.equal(typeof p.eos, 'boolean');
    assert.equal(p.dictionary.heldout, true);
    assert.equal(p.dictionary.pronunciations[0].arpabet, 'N AY T');
    assert.ok(p.attention instanceof Float32Array);
    assert.equal(p.attention.length, 2 * 2 * p.phonemes.length * 6);
    for (let row = 0; row < 2 * 2 * p.phonemes.length; row++) {
      const weights = p.attention.subarray(row * 6, row * 6 + 6);
      const sum = weights.reduce((a, b) => a + b, 0);
      assert.ok(weights.every((w) => w >= 0) && sum <= 1 + 1e-5, `row ${row}: ${weights}`);
    }
    // the same model from its checkpoint pronounces the same, and the copies outlive the heap growing
    const copy = Array.from(p.attention);
    const again = new wolab.Lexicon(LEXICON);
    reloaded = wolab.Trainer.fromCheckpoint(t.checkpoint(), again);
    again.delete();
    assert.deepEqual(reloaded.pronounce('knight'), p);
    const before = memoryBytes(wolab);
    const big = new wolab.Trainer(JSON.stringify({ model: { d_model: 256, heads: 4, layers: 2, d_ff: 1024 }, train: { batch: 64 } }));
    big.delete();
    assert.ok(memoryBytes(wolab) > before, 'the heap grew');
    assert.deepEqual(Array.from(p.attention), copy);

    assert.throws(() => t.pronounce(''), { message: 'word "": empty; give 1 to 12 letters a-z' });
    assert.throws(() => t.pronounce('caf\u00e9'), { message: 'word "caf\u00e9": "\u00e9" is not a letter a-z; give 1 to 12 letters a-z' });
    assert.throws(() => t.pronounce('incomprehensibilities'), { message: /21 letters, over the 12 a model reads/ });
    assert.throws(() => wolab.Trainer.fromCheckpoint(t.checkpoint()), { message: /^task.name: g2p needs the CMUdict lexicon/ });
  } finally {
    t.delete();
    if (reloaded) reloaded.delete();
  }
});

test('a model of another task does not pronounce', async () => {
  const wolab = await loadWolab();
  const t = new wolab.Trainer(JSON.stringify({ model: { d_model: 8, heads: 2, layers: 1, d_ff: 16 } }));
  try {
    assert.throws(() => t.pronounce('cat'), { message: 'the model is not a g2p model: its task is copy; give a model trained on the task g2p' });
  } finally {
    t.delete();
  }
});

// The file the native build makes (docs/g2p.md), when it is there.
const built = path.resolve(__dirname, '..', '..', process.env.WOLAB_NATIVE_DIR || 'build', 'data', 'cmudict-g2p.txt');
test('the compact file the build made reads as the whole lexicon', { skip: !fs.existsSync(built) && 'no native build' }, async () => {
  const wolab = await loadWolab();
  const lexicon = new wolab.Lexicon(fs.readFileSync(built, 'utf8'));
  try {
    assert.equal(lexicon.words(), 113646);
    assert.equal(lexicon.heldoutWords(), 5726);
    assert.equal(lexicon.lookUp('knight').heldout, true);
    assert.deepEqual(lexicon.lookUp('read').pronunciations.map((p) => p.arpabet), ['R EH D', 'R IY D']);
  } finally {
    lexicon.delete();
  }
});
