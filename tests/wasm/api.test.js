// The JS API of the SIMD module (bindings/wolab.d.ts): module functions, a Trainer's life cycle
// and the shape and meaning of every accessor, on a model small enough to train in a blink.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { loadWolab, withTrainer, memoryBytes, root } = require('./helpers.js');

let appendProgress;  // the page's own (web/runs/live-record.js), an ES module
test.before(async () => ({ appendProgress } = await import('../../web/runs/live-record.js')));

// d_k = 8, T = 2·4 + 1 = 9, V = 10 + 2 = 12.
const TINY = {
  model: { d_model: 16, heads: 2, layers: 2, d_ff: 32 },
  task: { name: 'copy', alphabet: 10, length: 4 },
  train: { steps: 60, probe_every: 20 },
};
const D = 16, H = 2, DK = 8, T = 9, V = 12, LAYERS = 2, FF = 32;

function tiny(model = {}, train = {}) {
  return JSON.stringify({ ...TINY, model: { ...TINY.model, ...model }, train: { ...TINY.train, ...train } });
}

// Trainable parameters of the spec's PyTorch model, but block_diagonal's zeros between heads.
function pytorchParameterCount(wo, ln) {
  const linear = (i, o) => o * i + o;
  const frozen = ['identity', 'identity_matched', 'frozen_random', 'frozen_random_scaled', 'frozen_orthogonal'].includes(wo);
  const woParams = { scalar_gain: 1, block_diagonal: D * DK + D }[wo] ?? (frozen ? 0 : linear(D, D));
  // identity_matched: D·(D+1)/(2D+1) = 8.2 more FFN units, rounded
  const ff = wo === 'identity_matched' ? FF + 8 : FF;
  const layer = 3 * linear(D, D) + woParams + 2 * D + linear(D, ff) + linear(ff, D) + 2 * D;
  return V * D + T * D + LAYERS * layer + (ln === 'pre' ? 2 * D : 0) + linear(D, V);
}

const finite = (x) => typeof x === 'number' && Number.isFinite(x);

function assertFiniteArray(a, length, what) {
  assert.ok(a instanceof Float32Array, `${what} is a Float32Array`);
  assert.equal(a.length, length, `${what} length`);
  for (const x of a) assert.ok(Number.isFinite(x), `${what} has only finite values`);
}

test('module functions: version, presets, experiments, settings, validateConfig, codes', async () => {
  const wolab = await loadWolab();
  assert.equal(wolab.version(), require(`${root}/package.json`).version);

  const presets = JSON.parse(wolab.presets());
  assert.deepEqual(Object.keys(presets).sort(), ['article', 'quick']);
  for (const [name, cfg] of Object.entries(presets)) {
    assert.deepEqual(wolab.validateConfig(JSON.stringify(cfg)), [], `preset ${name} is valid`);
    assert.deepEqual(Object.keys(cfg.model).sort(), ['d_ff', 'd_model', 'heads', 'layers', 'ln', 'wo']);
  }
  assert.equal(presets.article.model.d_model, 256);

  const plain = { stats: false, wo_snapshots: false, lr_sweep: false, frozen: [], not_kept: ['stats', 'wo', 'ov'], needs_data: null };
  assert.deepEqual(JSON.parse(wolab.experiments()), [
    { name: 'remove_wo', variants: ['learned', 'identity'], ...plain },
    { name: 'freeze_wo', variants: ['learned', 'identity', 'frozen_random', 'learned_identity_init'], ...plain, frozen: ['frozen_random'] },
    { name: 'wo_heatmap', variants: ['learned'], ...plain, wo_snapshots: true, not_kept: ['stats'] },
    { name: 'activation_stats', variants: ['learned', 'identity'], ...plain, stats: true, not_kept: ['wo', 'ov'] },
    { name: 'gain_vs_learning', variants: ['learned', 'identity', 'frozen_random', 'frozen_random_scaled', 'frozen_orthogonal'], ...plain,
      frozen: ['frozen_random', 'frozen_random_scaled', 'frozen_orthogonal'] },
    { name: 'lr_stability', variants: ['learned', 'identity', 'frozen_random', 'learned_identity_init'], ...plain, lr_sweep: true, frozen: ['frozen_random'] },
    // trains on the CMUdict lexicon, which a front end must load and hand over
    { name: 'real_words', variants: ['learned', 'identity', 'frozen_random', 'learned_identity_init'], ...plain, frozen: ['frozen_random'], needs_data: 'lexicon' },
    // learned, identity and the controls of mixing, gain and parameters (words_purpose, their
    // real-words sweep, is the CLI's alone: not listed)
    { name: 'wo_purpose', variants: ['learned', 'identity', 'block_diagonal', 'scalar_gain', 'identity_matched'], ...plain },
  ]);
  assert.deepEqual(wolab.presetNames(), ['quick', 'article'], 'the default first');
  const quick = JSON.stringify({ ...presets.quick, experiment: 'remove_wo' });
  // The numbers as the config writes them (0.001), not float32's value as a double.
  assert.deepEqual(wolab.learningRates(quick), [presets.quick.train.lr]);
  assert.deepEqual(wolab.learningRates(JSON.stringify({ ...presets.quick, experiment: 'lr_stability' })), presets.quick.lr_stability.lrs);
  assert.equal(String(wolab.learningRates(quick)[0]), '0.001');
  assert.throws(() => wolab.learningRates('{"model": {"heads": 0}}'), /model\.heads/);

  // The settings table: one row per config field, with what a form needs, defaults included.
  const settings = JSON.parse(wolab.settings());
  const defaults = JSON.parse(wolab.presets()).quick;  // a fully defaulted config has every field
  assert.equal(new Set(settings.map((s) => s.key)).size, settings.length, 'keys are unique');
  for (const s of settings) {
    const value = s.path.split('.').reduce((o, k) => o[k], defaults);
    assert.notEqual(value, undefined, `${s.path} is a config field`);
    assert.ok(['integer', 'real', 'choice', 'reals'].includes(s.kind), s.kind);
    assert.equal(s.choices === null, s.kind !== 'choice', `${s.path} choices`);
    assert.ok(s.help.en.length > 0 && s.help.zh.length > 0 && s.allowed.length > 0);
  }
  const byKey = Object.fromEntries(settings.map((s) => [s.key, s]));
  assert.deepEqual(byKey.d_model, {
    path: 'model.d_model', key: 'd_model', flag: '--d-model', kind: 'integer', default: 64, min: 1, max: 1024,
    lo_open: false, max_items: null, choices: null, needs_data: null, form: true, allowed: 'an integer in 1..1024',
    help: { en: 'width of the residual stream', zh: '残差流的宽度' }, unused_by: null,
  });
  // g2p takes its symbols and lengths from the lexicon: a front end leaves these out of a g2p run's settings.
  assert.deepEqual([byKey.alphabet.unused_by, byKey.length.unused_by], [{ 'task.name': ['g2p'] }, { 'task.name': ['g2p'] }]);
  assert.deepEqual(byKey.lrs.default, [0.001, 0.003, 0.01, 0.02, 0.03]);
  assert.equal(byKey.lrs.kind, 'reals');
  assert.equal(byKey.stability_clip.default, 0, 'clipping off in lr_stability');
  assert.equal(byKey.wo.form, false);
  assert.deepEqual(byKey.task.choices, ['copy', 'reverse', 'sort', 'g2p']);
  assert.deepEqual(byKey.task.needs_data, { g2p: 'lexicon' }, 'g2p trains only with the lexicon handed to it');

  assert.deepEqual(wolab.validateConfig('{}'), []);
  assert.deepEqual(wolab.validateConfig('{"model": {"heads": 5}}'),
    ['model.heads: d_model 64 is not divisible by heads 5; choose heads dividing d_model']);
  const problems = wolab.validateConfig('{"model": {"heads": 0}, "train": {"lr": 2}}');
  assert.equal(problems.length, 2, 'every problem, not just the first');
  assert.match(problems[0], /^model\.heads: 0 is out of range; use /);
  assert.match(problems[1], /^train\.lr: 2 is out of range; use /);

  // The codes the core writes: each reason with a verdict of the list, the not_tested ones first,
  // then the not_decided ones.
  const codes = JSON.parse(wolab.codes());
  assert.deepEqual(codes.verdicts, ['supported', 'partly_supported', 'not_supported', 'not_decided', 'not_tested']);
  assert.deepEqual(codes.states, ['running', 'done', 'stopped', 'diverged']);
  assert.deepEqual(codes.trained_to_end, ['done', 'diverged']);
  assert.deepEqual(codes.cut_short, ['stopped']);
  assert.equal(codes.failed_state, 'failed');
  for (const r of codes.reasons) assert.ok(codes.verdicts.includes(r.verdict), r.code);
  assert.deepEqual(codes.reasons.filter((r) => r.verdict === 'not_tested').map((r) => r.code),
    ['experiment_absent', 'no_pairs', 'no_snapshots', 'no_stats', 'none_trained', 'one_head']);
  assert.deepEqual(codes.reasons.filter((r) => r.verdict === 'not_decided').map((r) => r.code),
    ['too_few_seeds', 'still_learning', 'rates_incomplete', 'one_seed_apart', 'runs_stopped', 'runs_failed', 'both_at_ceiling']);
  // Every claim the analysis judges reads experiments the core has, the sweep only claim 7.
  const names = JSON.parse(wolab.experiments()).map((e) => e.name);
  assert.deepEqual(codes.claim_sources.map((c) => c.id), JSON.parse(wolab.analyze('[]')).claims.map((c) => c.id));
  for (const c of codes.claim_sources) {
    assert.ok(c.experiments.length > 0 && c.experiments.every((e) => names.includes(e)), `claim ${c.id}`);
  }
  assert.deepEqual(codes.claim_sources.find((c) => c.id === 7).experiments, ['lr_stability']);
});

test('a trainer steps to the end, then stops', async () => {
  const wolab = await loadWolab();
  await withTrainer(wolab, tiny(), (t) => {
    assert.equal(t.stepsDone(), 0);
    assert.deepEqual(t.status(), { state: 'running' });
    assert.equal(t.finished(), false);

    const first = t.step(7);
    assertFiniteArray(first, 7, 'step(7)');
    assert.ok(first.every((x) => x > 0));
    assert.ok(Math.abs(first[0] - Math.log(V)) < 1.0, `first loss ${first[0]} is near ln(V) = ${Math.log(V)}`);
    assert.equal(t.stepsDone(), 7);
    assert.equal(t.step(0).length, 0);

    const rest = t.step(1000);  // only 53 steps remain
    assert.equal(rest.length, 53);
    assert.equal(t.stepsDone(), 60);
    assert.equal(t.finished(), true);
    assert.deepEqual(t.status(), { state: 'done' });
    assert.equal(t.step(5).length, 0, 'a finished run takes no more steps');
    assert.ok(rest[rest.length - 1] < first[0], 'the loss went down');
  });
});

test('evaluate, greedyExact and stats', async () => {
  const wolab = await loadWolab();
  await withTrainer(wolab, tiny(), (t) => {
    assert.equal(t.stats(), null, 'no probe before the first probe step');
    assert.equal(t.lastEval(), null, 'no eval before the first probe step');
    const e0 = t.evaluate();
    assert.deepEqual(Object.keys(e0).sort(), ['exact', 'loss', 'step', 'token_acc']);
    assert.equal(e0.step, 0);

    t.step(20);
    const e = t.evaluate();
    assert.equal(e.step, 20);
    assert.deepEqual(t.lastEval(), e, 'the probe step stored the same held-out eval');
    assert.ok(finite(e.loss) && e.loss > 0);
    for (const k of ['token_acc', 'exact']) assert.ok(e[k] >= 0 && e[k] <= 1, `${k} in [0, 1]`);
    assert.ok(e.exact <= e.token_acc, 'every exact sequence has all its tokens right');
    const g = t.greedyExact();
    assert.ok(g >= 0 && g <= 1);

    const s = t.stats();
    assert.equal(s.step, 20);
    assert.equal(s.layers.length, LAYERS);
    for (const layer of s.layers) {
      for (const site of ['concat', 'wo_out', 'residual']) {
        assert.ok(finite(layer[site].mean), `${site}.mean`);
        assert.ok(finite(layer[site].std) && layer[site].std > 0, `${site}.std`);
      }
      assert.ok(Array.isArray(layer.head_grad_norm));
      assert.equal(layer.head_grad_norm.length, H);
      assert.ok(layer.head_grad_norm.every((x) => finite(x) && x > 0));
    }
    t.step(19);
    assert.equal(t.stats().step, 20, 'stats() is the latest probe');
    t.step(1);
    assert.equal(t.stats().step, 40);
  });
});

test('W_o accessors: shapes and meaning in each W_o mode', async () => {
  const wolab = await loadWolab();
  const identity = Float32Array.from({ length: D * D }, (_, i) => (i % (D + 1) === 0 ? 1 : 0));
  const modes = ['learned', 'identity', 'frozen_random', 'learned_identity_init', 'frozen_random_scaled', 'frozen_orthogonal',
    'block_diagonal', 'scalar_gain', 'identity_matched'];
  for (const wo of modes) {
    for (const ln of ['post', 'pre']) {
      await withTrainer(wolab, tiny({ wo, ln }), (t) => {
        assert.equal(t.parameterCount(), pytorchParameterCount(wo, ln), `${wo}/${ln} parameter count`);
        const init = [0, 1].map((l) => t.woInit(l));
        for (let l = 0; l < LAYERS; l++) {
          assertFiniteArray(init[l], D * D, `woInit(${l})`);
          assert.deepEqual(t.woWeights(l), init[l], 'W_o at step 0 is its init');
        }
        t.step(10);
        for (let l = 0; l < LAYERS; l++) {
          const w = t.woWeights(l);
          assertFiniteArray(w, D * D, `woWeights(${l})`);
          assert.deepEqual(t.woInit(l), init[l], 'woInit does not move');
          if (wo === 'identity' || wo === 'identity_matched') assert.deepEqual(w, identity);
          if (wo === 'learned_identity_init') assert.deepEqual(init[l], identity);
          if (wo.startsWith('frozen_')) assert.deepEqual(w, init[l], 'a frozen W_o never changes');
          if (['learned', 'learned_identity_init', 'block_diagonal', 'scalar_gain'].includes(wo)) assert.notDeepEqual(w, init[l]);
          // block_diagonal: nothing between the heads' blocks; scalar_gain: g·I, g from 1/√3
          if (wo === 'block_diagonal') w.forEach((x, i) => Math.floor(i / D / DK) !== Math.floor((i % D) / DK) && assert.equal(x, 0));
          if (wo === 'scalar_gain') {
            assert.equal(init[l][0], Math.fround(1 / Math.sqrt(3)));
            assert.deepEqual(w, identity.map((x) => x * w[0]));
          }

          // ‖W_o[:, head cols]‖_F from the weights themselves (row-major (out, in)).
          const norms = t.headBlockNorms(l);
          assertFiniteArray(norms, H, `headBlockNorms(${l})`);
          for (let h = 0; h < H; h++) {
            let ss = 0;
            for (let r = 0; r < D; r++) for (let c = h * DK; c < (h + 1) * DK; c++) ss += w[r * D + c] ** 2;
            assert.ok(Math.abs(norms[h] - Math.sqrt(ss)) <= 1e-5 * Math.sqrt(ss), `head ${h} block norm`);

            const sv = t.ovSingularValues(l, h);
            assertFiniteArray(sv, DK, `ovSingularValues(${l}, ${h})`);
            for (let i = 1; i < DK; i++) assert.ok(sv[i - 1] >= sv[i] && sv[i] >= 0, 'largest first, >= 0');
          }
        }
      });
    }
  }
});

test('attention(layer, head, example) is a causal T×T map whose rows sum to 1', async () => {
  const wolab = await loadWolab();
  await withTrainer(wolab, tiny(), (t) => {
    t.step(5);
    for (const [l, h, ex] of [[0, 0, 0], [1, 1, 511]]) {
      const a = t.attention(l, h, ex);
      assertFiniteArray(a, T * T, `attention(${l}, ${h}, ${ex})`);
      for (let i = 0; i < T; i++) {
        let sum = 0;
        for (let j = 0; j < T; j++) {
          if (j > i) assert.equal(a[i * T + j], 0, `query ${i} cannot see key ${j}`);
          sum += a[i * T + j];
        }
        assert.ok(Math.abs(sum - 1) < 1e-5, `row ${i} sums to ${sum}`);
      }
    }
    assert.notDeepEqual(t.attention(0, 0, 0), t.attention(0, 1, 0), 'heads differ');
  });
});

test('returned arrays are copies that survive wasm memory growth', async () => {
  const wolab = await loadWolab();
  const t = new wolab.Trainer(tiny());
  const big = [];
  try {
    t.step(3);
    const kept = [t.woWeights(0), t.step(4), t.checkpoint(), t.attention(0, 0, 0)];
    const saved = kept.map((a) => a.slice());
    const before = memoryBytes(wolab);
    while (memoryBytes(wolab) === before) {  // until the heap grows (each of these is ~20 MB)
      big.push(new wolab.Trainer(JSON.stringify({ model: { d_model: 256, d_ff: 1024 } })));
    }
    kept.forEach((a, i) => assert.deepEqual(a, saved[i], `array ${i} intact after growth`));
    assert.equal(t.step(1).length, 1, 'the trainer works after growth too');
  } finally {
    t.delete();
    for (const b of big) b.delete();
  }
});

// A record or fragment made without its W_o matrices (woData false) is the whole one without
// each wo entry's data, and woSnapshot gives that data: the same float32 numbers.
function assertWoApart(t, whole, apart) {
  assert.deepEqual(apart, { ...whole, wo: whole.wo.map(({ data, ...rest }) => rest) });
  for (const entry of whole.wo) {
    assert.ok(!('data' in apart.wo.find((e) => e.step === entry.step && e.layer === entry.layer)));
    assert.deepEqual(t.woSnapshot(entry.step, entry.layer), Float32Array.from(entry.data), `W_o at step ${entry.step}, layer ${entry.layer}`);
  }
}

// The page's way through a run: the plan's keeps, record() at step 0, then probeRecord()'s
// fragments appended at each probe step, which must give the finished record's series.
test('plan, record, probeRecord, makeResults and parseResults', async () => {
  const wolab = await loadWolab();
  const config = JSON.stringify({ ...JSON.parse(tiny()), seeds: 1 });
  const plan = JSON.parse(wolab.plan(config, JSON.stringify(['remove_wo', 'wo_heatmap'])));
  assert.deepEqual(plan.map((r) => [r.variant, r.seed, r.lr, r.clip, r.keep.wo, r.experiments]), [
    ['learned', 0, 0.001, 1, true, ['remove_wo', 'wo_heatmap']],
    ['identity', 0, 0.001, 1, false, ['remove_wo']],
  ]);
  // Each run's cost (docs/api.md): its parts add up; without W_o a run costs less.
  for (const { cost, config: c } of plan) {
    assert.deepEqual([cost.steps, cost.probes], [c.train.steps, Math.ceil(c.train.steps / c.train.probe_every)]);
    assert.ok(Math.abs(cost.total - (cost.steps * cost.step + cost.probes * cost.probe + cost.finish)) <= 1e-9 * cost.total);
  }
  assert.ok(plan[1].cost.total < plan[0].cost.total);
  const records = [];
  for (const run of plan) {
    records.push(await withTrainer(wolab, JSON.stringify(run.config), (t) => {
      t.keepStats(run.keep.stats);
      t.recordWoSnapshots(run.keep.wo);
      const record = JSON.parse(t.record());
      assert.equal(record.final, null);
      assert.deepEqual(record.status, { state: 'running' });
      assert.equal(record.wo_sv.length, LAYERS);
      assert.equal(record.wo_sv[0].length, D);
      let probed = 0;
      while (!t.finished()) {
        const firstStep = t.stepsDone() + 1;
        const losses = t.step(Math.min(7, t.nextProbeStep() - t.stepsDone())).slice();  // chunks end at probe steps, as the worker's
        const f = JSON.parse(t.probeRecord());
        const before = probed;
        probed = appendProgress(record, { firstStep, losses, fragment: f }, probed);
        if (probed === before) continue;
        assert.equal(f.step, t.stepsDone());
        if (run.keep.wo) {
          assert.deepEqual(Float32Array.from(f.wo[LAYERS - 1].data), t.woWeights(LAYERS - 1), 'the probe holds W_o now');
          assert.deepEqual(Float32Array.from(f.ov[0].values), t.ovSingularValues(0, 0));
        }
        assertWoApart(t, f, JSON.parse(t.probeRecord(false)));
      }
      const r = JSON.parse(t.record());
      assertWoApart(t, r, JSON.parse(t.record(false)));
      assert.throws(() => t.woSnapshot(t.stepsDone() + 1, 0), /^Error: woSnapshot: no W_o snapshot of layer 0 at step 61$/);
      assert.equal(r.variant, run.variant, 'the variant is the config\'s');
      assert.equal(r.seed, 0);
      assert.equal(r.lr, 0.001);
      assert.deepEqual(r.status, { state: 'done' });
      assert.equal(r.parameters, t.parameterCount());
      assert.deepEqual(r.curve.step, Array.from({ length: 60 }, (_, i) => i + 1));
      assert.deepEqual(record.curve.step, r.curve.step, 'steps from the chunks');
      assert.deepEqual(record.curve.loss.map(Math.fround), r.curve.loss.map(Math.fround));
      assert.deepEqual(r.eval.step, [20, 40, 60]);
      for (const k of ['eval', 'stats', 'wo', 'ov', 'wo_sv']) assert.deepEqual(record[k], r[k], `${k} from fragments`);
      assert.equal(r.stats.length, 0, 'no experiment of these two shows stats');
      if (run.keep.wo) {
        assert.deepEqual(r.wo.map((s) => [s.step, s.layer]), [0, 20, 40, 60].flatMap((s) => [[s, 0], [s, 1]]));
        assert.equal(r.ov.length, 4 * LAYERS * H);
      } else {
        assert.deepEqual(r.wo, []);
        assert.deepEqual(r.ov, []);
      }
      return r;
    }));
  }

  const text = wolab.makeResults('remove_wo', config, JSON.stringify(records));
  const results = JSON.parse(text);
  assert.equal(results.format, 'wolab-results');
  assert.equal(results.version, 2);
  assert.equal(results.experiment, 'remove_wo');
  assert.equal(results.config.model.d_model, D);
  assert.deepEqual(results.runs[1], records[1]);
  assert.deepEqual(results.runs[0].wo, [], 'remove_wo keeps no snapshots');
  assert.deepEqual(results.summary.map((s) => [s.variant, s.lr, s.n]), [['learned', 0.001, 1], ['identity', 0.001, 1]]);
  assert.deepEqual(JSON.parse(wolab.parseResults(text)), results, 'parseResults keeps a valid file as it is');
  const heatmap = JSON.parse(wolab.makeResults('wo_heatmap', config, JSON.stringify([records[0]])));
  assert.deepEqual(heatmap.runs[0], records[0]);
  // The records without their W_o matrices (the page's summary and analysis): the same document
  // but for the matrices, each run naming the wo file split-wo would write, and the same
  // analysis, from the figures the trainer computed rather than recomputed from the matrices.
  const bare = [records[0]].map((r) => ({ ...r, wo: r.wo.map(({ data, ...figures }) => figures) }));
  const apart = JSON.parse(wolab.makeResultsWoApart('wo_heatmap', config, JSON.stringify(bare), 'wolab-wo_heatmap'));
  assert.equal(apart.runs[0].wo_file, `wolab-wo_heatmap.${records[0].variant}.seed0.safetensors`);
  assert.deepEqual(apart.runs[0].wo, bare[0].wo);
  assert.deepEqual(apart.runs[0].wo, heatmap.runs[0].wo.map(({ data, ...figures }) => figures));
  assert.deepEqual(apart.summary, heatmap.summary);
  assert.equal(wolab.analyze(JSON.stringify([apart])), wolab.analyze(JSON.stringify([heatmap])));
  assert.throws(() => wolab.makeResultsWoApart('wo_heatmap', config, JSON.stringify([records[0]]), 'wolab-wo_heatmap'),
    /^Error: results: runs\[0\]\.wo\[0\]\.data: present, but the run's matrices are in its wo_file/);
  assert.throws(() => wolab.makeResultsWoApart('wo_heatmap', config, JSON.stringify(bare), ''), /^Error: woStem: expected the stem /);
  assert.throws(() => wolab.makeResultsWoApart('wo_heatmap', config, JSON.stringify(bare), 7), /^Error: woStem: expected a string, got number$/);

  assert.throws(() => wolab.plan(config, '["nope"]'), /^Error: experiments: unknown experiment "nope"; use remove_wo, /);
  assert.throws(() => wolab.plan(config, '"all"'), /^Error: experiments: expected a JSON array of experiment names$/);
  assert.throws(() => wolab.plan('{"seeds": 0}', '["all"]'), /^Error: seeds: 0 is out of range; /);
});

test('lr_stability plans every variant at every rate, unclipped', async () => {
  const wolab = await loadWolab();
  const config = JSON.stringify({ ...JSON.parse(tiny()), seeds: 2, lr_stability: { lrs: [0.001, 0.03] } });
  const plan = JSON.parse(wolab.plan(config, '["lr_stability"]'));
  assert.equal(plan.length, 4 * 2 * 2);
  for (const run of plan) {
    assert.equal(run.clip, 0);
    assert.equal(run.config.train.clip, 0);
    assert.equal(run.config.train.lr, run.lr);
    assert.deepEqual(run.experiments, ['lr_stability']);
  }
  assert.deepEqual(plan.slice(0, 3).map((r) => [r.variant, r.seed, r.lr]), [['learned', 0, 0.001], ['learned', 0, 0.03], ['identity', 0, 0.001]]);
});

test('stop ends a run where it is, and its record can be saved', async () => {
  const wolab = await loadWolab();
  await withTrainer(wolab, tiny(), (t) => {
    t.step(25);
    t.stop();
    assert.equal(t.finished(), true);
    assert.deepEqual(t.status(), { state: 'stopped', step: 25 });
    assert.equal(t.step(5).length, 0);
    const r = JSON.parse(t.record());
    assert.deepEqual(r.status, { state: 'stopped', step: 25 });
    assert.ok(r.final.token_acc >= 0 && r.final.token_acc <= 1, 'finals from what it has');
    const results = JSON.parse(wolab.makeResults('remove_wo', tiny(), JSON.stringify([r])));
    assert.equal(results.summary[0].stopped, 1);
    assert.equal(results.summary[0].token_acc.mean, null, 'a stopped run is not averaged');
  });
  await withTrainer(wolab, tiny(), (running) => {
    running.step(3);
    assert.throws(() => wolab.makeResults('remove_wo', tiny(), JSON.stringify([JSON.parse(running.record())])),
      /^Error: results: runs\[0\]\.status: the run is still running; stop it or let it finish$/);
  });
});
