// Each variant's own learning rate, from the sweeps of rates that scripts/sweep-purpose.sh trains
// (docs/findings.md, "What W_o is for"): per task and size, per variant, its mean final measure
// over the first 2 seeds at each rate (the main sweep's first 2 seeds at its 0.001), and the rate
// where it is best. The measure is the decomposition's (docs/claims.md): on real words the final
// PER on every held-out word, on the toy task the steps to loss < 0.1 (every run reached it).
// Usage: node scripts/lr-choice.js [FOLDER]   (default recorded/purpose)
'use strict';

const fs = require('fs');
const path = require('path');

const folder = process.argv[2] || path.join(__dirname, '..', 'recorded', 'purpose');
const SEEDS = 2;
// task and size -> { main sweep, prefix of its sweeps of rates }
const TASKS = [
  { name: 'real words, d_model 64', main: 'words_d64', rates: 'lr_words_d64_' },
  { name: 'real words, d_model 32, narrow heads', main: 'words_d32n', rates: 'lr_words_d32n_' },
  { name: 'toy task, Quick to convergence', main: 'quick_long', rates: 'lr_quick_' },
];

function results(sweep) {
  const dir = path.join(folder, sweep);
  if (!fs.existsSync(dir)) return null;
  const file = fs.readdirSync(dir).find((f) => /^results\.[a-z_]+\.json$/.test(f));
  return file ? JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) : null;
}

// A finished run's measure, lower better; null for a run that diverged or never reached loss < 0.1.
function measure(run) {
  if ((run.status.state || run.status) !== 'done') return null;
  const words = run.final.heldout_words;
  return words ? words.per : run.final.steps_to_loss_0_1;
}

for (const task of TASKS) {
  const sweeps = fs.existsSync(folder) ? fs.readdirSync(folder).filter((d) => d.startsWith(task.rates)) : [];
  const docs = [task.main, ...sweeps].map((s) => results(s)).filter(Boolean);
  if (docs.length < 2) continue;
  const table = new Map();  // variant -> Map rate -> mean
  for (const doc of docs) {
    const lr = doc.config.train.lr;
    const firstSeeds = [...new Set(doc.runs.map((r) => r.seed))].sort((a, b) => a - b).slice(0, SEEDS);
    for (const variant of [...new Set(doc.runs.map((r) => r.variant))]) {
      const values = doc.runs.filter((r) => r.variant === variant && firstSeeds.includes(r.seed)).map(measure);
      const mean = values.includes(null) ? null : values.reduce((a, b) => a + b, 0) / values.length;
      if (!table.has(variant)) table.set(variant, new Map());
      table.get(variant).set(lr, mean);
    }
  }
  const rates = [...new Set([...table.values()].flatMap((m) => [...m.keys()]))].sort((a, b) => a - b);
  const unit = docs[0].runs[0].final.heldout_words ? 'final PER %' : 'steps to loss < 0.1';
  console.log(`\n${task.name} (${unit}, mean of seeds 0 and 1; best rate last)`);
  console.log(`| variant | ${rates.join(' | ')} | best |`);
  console.log(`| --- |${rates.map(() => ' --- |').join('')} --- |`);
  for (const [variant, byRate] of table) {
    const shown = rates.map((lr) => {
      const m = byRate.get(lr);
      return m == null ? '–' : unit.startsWith('final') ? (100 * m).toFixed(2) : m.toFixed(0);
    });
    const best = rates.filter((lr) => byRate.get(lr) != null).reduce((a, b) => (byRate.get(b) < byRate.get(a) ? b : a), rates[0]);
    console.log(`| ${variant} | ${shown.join(' | ')} | ${best} |`);
  }
}
