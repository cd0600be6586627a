// The core's one table of words, as the page reads it (wordsTable, analysisWords, leadWords;
// docs/api.md): English and Chinese hold the same keys and name the same figures, every verdict,
// reason and plain code the core can return has its words in both, and an analysis of real runs
// is worded in both within the plain sentences' bounds.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { loadWolab, withTrainer } = require('./helpers.js');

const figuresOf = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every key of the words has English and Chinese naming the same figures', async () => {
  const wolab = await loadWolab();
  const table = JSON.parse(wolab.wordsTable());
  assert.deepEqual(table.languages, ['en', 'zh']);
  const keys = Object.keys(table.words);
  assert.ok(keys.length > 100, `${keys.length} keys`);
  for (const key of keys) {
    const row = table.words[key];
    assert.deepEqual(Object.keys(row).sort(), ['en', 'zh'], key);
    assert.ok(row.en.length > 0 && row.zh.length > 0, key);
    assert.deepEqual(figuresOf(row.zh), figuresOf(row.en), key);
  }
});

test('every verdict, reason, plain code and group the core can return has words in both languages', async () => {
  const wolab = await loadWolab();
  const { words } = JSON.parse(wolab.wordsTable());
  const codes = JSON.parse(wolab.codes());
  const need = [
    ...codes.verdicts.map((v) => `v_${v}`),
    ...codes.reasons.map((r) => `r_${r.code}`),
    ...codes.plain.map((p) => `plain_${p.code}`),
    ...codes.claim_groups.map((g) => `group_${g.code}`),
  ];
  for (const key of need) assert.ok(words[key] && words[key].en && words[key].zh, key);
  // Every claim of the analysis is in one group, and each group reads in the article's order.
  assert.deepEqual(codes.claim_groups.map((g) => g.code), ['fusion', 'freedom', 'residual_gradient']);
  assert.deepEqual(codes.claim_groups.flatMap((g) => g.claims).sort(), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

test('a bad call is refused with a clear error', async () => {
  const wolab = await loadWolab();
  assert.throws(() => wolab.analysisWords('{', 'en'), /analysis: not valid JSON/);
  assert.throws(() => wolab.analysisWords(wolab.analyze('[]'), 'fr'), /words: unknown language "fr"/);
  assert.throws(() => wolab.leadWords(42, 'en'), /metric: expected a string/);
});

// Three seeds of learned and identity, too few steps for a clear lead: the words of a real
// analysis, with every claim's plain sentence, in both languages.
test('an analysis of real runs is worded in both languages, each plain sentence within its bound', async () => {
  const wolab = await loadWolab();
  const config = JSON.stringify({
    seeds: 3,
    model: { d_model: 16, heads: 2, layers: 1, d_ff: 32 },
    task: { name: 'copy', alphabet: 4, length: 3, heldout: 16 },
    train: { steps: 60, batch: 16, lr: 0.01, probe_every: 30 },
  });
  const records = [];
  for (const run of JSON.parse(wolab.plan(config, JSON.stringify(['remove_wo'])))) {
    records.push(await withTrainer(wolab, JSON.stringify(run.config), (t) => {
      t.keepStats(run.keep.stats);
      t.step(run.config.train.steps);
      return JSON.parse(t.record());
    }));
  }
  const analysis = wolab.analyze(`[${wolab.makeResults('remove_wo', config, JSON.stringify(records))}]`);
  const claims = JSON.parse(analysis).claims;
  for (const lang of ['en', 'zh']) {
    const w = JSON.parse(wolab.analysisWords(analysis, lang));
    assert.equal(w.lang, lang);
    assert.deepEqual(w.groups.map((g) => g.claims), [[5, 1], [2, 3, 4], [6, 7, 8, 9]]);
    assert.deepEqual(w.claims.map((c) => c.id), claims.map((c) => c.id));
    for (const c of w.claims) {
      assert.ok(c.plain && !c.plain.includes('{'), `${lang} claim ${c.id}: ${c.plain}`);
      if (lang === 'en') assert.ok(c.plain.split(/\s+/).length <= 25, c.plain);
      else assert.ok([...c.plain].length <= 60, c.plain);
      assert.ok(c.verdict && c.reason, `claim ${c.id}`);
    }
    // Claim 1 read remove_wo: its lead is the core's words of its comparison.
    const one = claims.find((c) => c.id === 1);
    assert.equal(w.claims[0].lead, wolab.leadWords(JSON.stringify(one.figures.comparison), lang));
    assert.equal(w.claims.find((c) => c.id === 7).lead, null);
  }
});
