// The notebooks through the page's core (docs/notebooks.md): makeNotebook gives the notebook
// `wolab notebook` writes for the same settings, byte for byte, in both languages; it refuses a
// bad config with the validator's line; and the results files that executed notebooks wrote
// (tests/shell/notebooks.sh leaves them in test-results/notebooks/, or WOLAB_NOTEBOOK_RESULTS)
// import as the page imports a file, labelled as PyTorch's.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { loadWolab, nativeTool } = require('./helpers.js');

const root = path.resolve(__dirname, '..', '..');
const resultsDir = process.env.WOLAB_NOTEBOOK_RESULTS || path.join(root, 'test-results', 'notebooks');

const TINY = {
  seeds: 2,
  model: { d_model: 8, heads: 2, layers: 1, d_ff: 16 },
  task: { alphabet: 4, length: 3, heldout: 32 },
  train: { steps: 20, batch: 8, probe_every: 5 },
  real_words: { d_model: 8, heads: 2, layers: 1, d_ff: 16, steps: 10, batch: 8, probe_every: 5, heldout: 16 },
};

test('the page makes the notebook the CLI makes, in English and Chinese', async (t) => {
  const wolab = await loadWolab();
  const cli = nativeTool('wolab');
  if (!cli) return t.skip('no native build/wolab to compare with');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wolab-notebook-'));
  try {
    const experiments = JSON.parse(wolab.experiments());
    for (const e of experiments) {
      for (const lang of ['en', 'zh']) {
        const config = JSON.stringify({ ...TINY, experiment: e.name });
        fs.writeFileSync(path.join(dir, 'config.json'), config);
        const out = path.join(dir, `${e.name}.${lang}.ipynb`);
        // The page's lexicon cell names the file it serves beside itself.
        const data = e.needs_data ? ['--data', 'cmudict-g2p.txt'] : [];
        const run = spawnSync(cli, ['notebook', '--config', path.join(dir, 'config.json'), ...data,
          '--lang', lang, '--out', out], { encoding: 'utf8' });
        assert.equal(run.status, 0, `${e.name} ${lang}: ${run.stderr}`);
        const page = wolab.makeNotebook(config, lang);
        assert.equal(page, fs.readFileSync(out, 'utf8'), `${e.name} ${lang}: the page's notebook is the CLI's`);
        const nb = JSON.parse(page);
        assert.equal(nb.metadata.wolab.experiment, e.name);
        assert.equal(nb.metadata.wolab.lang, lang);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a bad config, "all" or another language is refused in one line', async () => {
  const wolab = await loadWolab();
  const bad = JSON.stringify({ experiment: 'freeze_wo', model: { d_model: 64, heads: 5 } });
  assert.throws(() => wolab.makeNotebook(bad, 'en'), { message: wolab.validateConfig(bad)[0] });
  assert.throws(() => wolab.makeNotebook('{"experiment": "all"}', 'en'), /^Error: experiment: a notebook holds one experiment/);
  assert.throws(() => wolab.makeNotebook('{"experiment": "remove_wo"}', 'fr'), { message: 'lang: "fr" is not a language of the notebooks; use en or zh' });
});

test('the results file of every executed notebook imports, labelled as PyTorch\'s', async (t) => {
  const files = fs.existsSync(resultsDir) ? fs.readdirSync(resultsDir).filter((f) => f.endsWith('.pytorch.json')) : [];
  if (files.length === 0) return t.skip(`no notebook results in ${resultsDir}: run tests/shell/notebooks.sh first`);
  const wolab = await loadWolab();
  const docs = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(resultsDir, file), 'utf8');
    const raw = JSON.parse(text);
    const parsed = JSON.parse(wolab.parseResults(text));
    assert.equal(parsed.producer, 'pytorch-notebook', `${file}: the producer is kept`);
    assert.match(parsed.created_by, /PyTorch/);
    assert.equal(parsed.runs.length, raw.runs.length, `${file}: every run imported`);
    assert.ok(parsed.summary.length > 0, `${file}: the summary is recomputed (the notebook writes none)`);
    assert.deepEqual(parsed.summary.map((s) => s.n).reduce((a, b) => a + b), raw.runs.length);
    docs.push(parsed);
  }
  const analysis = JSON.parse(wolab.analyze(JSON.stringify(docs)));
  assert.equal(analysis.experiments.length, files.length);
  for (const e of analysis.experiments) assert.equal(e.producer, 'pytorch-notebook', `${e.experiment}: analysed as PyTorch's`);
  assert.ok(analysis.claims.length > 0, 'the claims are judged from the notebook runs');
  assert.ok(files.length >= 7, `every experiment's notebook wrote its file (${files.length})`);
});
