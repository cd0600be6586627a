// The page's sentences (web/lesson/lesson.js) read from the core's analysis of real runs with 1, 2 and 3
// seeds, in English and Chinese: every placeholder filled, no "1 of 1 seeds", "0 of 3" or "1
// runs", and the wordings that say what a threshold or a figure measures. (A tally counts its
// ties always, "0 ties" too: docs/claims.md.)
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { loadWolab, withTrainer } = require('./helpers.js');

let lesson;
let i18n;
test.before(async () => {
  globalThis.document = { documentElement: {} };  // setLang sets the page's lang attribute
  lesson = await import('../../web/lesson/lesson.js');
  i18n = await import('../../web/i18n/i18n.js');
});

// A model small enough that 3 seeds of every variant train in seconds, and trained long enough
// that some variants reach loss < 0.1 in the learning-rate sweep (so that its sentences say who).
const tiny = (seeds) => JSON.stringify({
  seeds,
  model: { d_model: 16, heads: 2, layers: 1, d_ff: 32 },
  task: { name: 'copy', alphabet: 4, length: 3, heldout: 16 },
  train: { steps: 150, batch: 16, lr: 0.01, probe_every: 50 },
  lr_stability: { lrs: [0.01, 0.1] },
});
const EXPERIMENTS = ['remove_wo', 'wo_heatmap', 'lr_stability'];

// The core's analysis of the runs of EXPERIMENTS with `seeds` seeds, trained here.
async function analysis(wolab, seeds) {
  const config = tiny(seeds);
  const records = new Map();
  for (const run of JSON.parse(wolab.plan(config, JSON.stringify(EXPERIMENTS)))) {
    const record = await withTrainer(wolab, JSON.stringify(run.config), (t) => {
      t.keepStats(run.keep.stats);
      t.recordWoSnapshots(run.keep.wo);
      t.step(run.config.train.steps);
      return JSON.parse(t.record());
    });
    for (const e of run.experiments) records.set(e, [...(records.get(e) || []), record]);
  }
  const results = EXPERIMENTS.map((e) => wolab.makeResults(e, config, JSON.stringify(records.get(e))));
  return JSON.parse(wolab.analyze(`[${results.join(',')}]`));
}

// Every sentence the page builds from an analysis: each experiment's verdict, each claim's
// figures and reason.
function sentences(a) {
  const out = a.experiments.flatMap((e) => lesson.verdictSentences(e));
  for (const c of a.claims) out.push(lesson.claimFigures(c, a.thresholds), lesson.reasonLine(c, a.thresholds));
  return out.filter(Boolean);
}

for (const seeds of [1, 2, 3]) {
  test(`the page's sentences read right with ${seeds} seed${seeds === 1 ? '' : 's'}`, async () => {
    const wolab = await loadWolab();
    const a = await analysis(wolab, seeds);
    for (const language of ['en', 'zh']) {
      i18n.setLang(language);
      const all = sentences(a);
      assert.ok(all.length > 5, `${language}: ${all.length} sentences`);
      for (const s of all) {
        assert.doesNotMatch(s, /\{\w+\}|undefined|NaN|null/, `${language}: a placeholder left or a missing figure: ${s}`);
      }
      if (language === 'zh') continue;
      for (const s of all) {
        assert.doesNotMatch(s, /\b1 of 1\b|\b1 (seeds|runs)\b|\b0 of \d/, `a count that reads wrong: ${s}`);
        assert.doesNotMatch(s, /dominant from|It moved|these trained|any variant trained at \(/, `an old wording: ${s}`);
      }
      const heatmap = lesson.verdictSentences(a.experiments.find((e) => e.experiment === 'wo_heatmap')).join(' ');
      assert.match(heatmap, /W_o counts as diagonal-dominant when 50% or more of its rows are/);
      assert.match(heatmap, /The change training made to it, measured as the norm of W_o minus its step-0 value, is \d+% .*of the norm of its step-0 value\./);
      const lr = lesson.verdictSentences(a.experiments.find((e) => e.experiment === 'lr_stability')).join(' ');
      assert.match(lr, /(^|\. )(Only \w+|\w+(, \w+)* and \w+) still trained at [\d.]+, the highest learning rate at which any variant did \(loss < 0\.1 in at least 50% of its seeds\)\./);
    }
    i18n.setLang('en');
  });
}
