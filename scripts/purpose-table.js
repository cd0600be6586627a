// The tables of "What W_o is for" (docs/findings.md), printed from the recorded sweeps
// (scripts/record-purpose.sh): per sweep, learned W_o's lead over none and each control's gap to
// none and share of that lead, with their 95% intervals over seeds (the core's decomposition,
// docs/claims.md) and how many runs converged by the lab's rule; then, where both were recorded,
// every variant's final PER at 10,000 and at 20,000 steps on the same seeds.
// Usage: node scripts/purpose-table.js [FOLDER]   (default recorded/purpose)
'use strict';

const fs = require('fs');
const path = require('path');

const folder = process.argv[2] || path.join(__dirname, '..', 'recorded', 'purpose');
const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8'));

function results(sweep) {
  const dir = path.join(folder, sweep);
  const file = fs.readdirSync(dir).find((f) => /^results\.[a-z_]+\.json$/.test(f));
  return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
}

// An effect as the core words it: a difference of PER in points, a log ratio (steps, loss) as
// the percent by which none's figure exceeds the other's.
function figure(x, scale) {
  const text = scale === 'log_ratio' ? `${(100 * Math.expm1(x)).toFixed(0)}%` : (100 * x).toFixed(2);
  return /^-[0.%]+$/.test(text) ? text.slice(1) : text;  // no sign on a figure that rounds to zero
}
const interval = (x) => `${figure(x.mean, x.scale)} (${figure(x.lo, x.scale)} to ${figure(x.hi, x.scale)})`;
const share = (s) => (s ? `${(100 * s.mean).toFixed(0)}% (${(100 * s.lo).toFixed(0)}% to ${(100 * s.hi).toFixed(0)}%)` : 'no share: no lead');

console.log('| sweep | model | lr | steps | converged | measure | learned − none | ' +
  'block_diagonal | scalar_gain | identity_matched | frozen_random_scaled | frozen_orthogonal |');
console.log(`|${' --- |'.repeat(12)}`);
for (const sweep of manifest.presets) {
  const analysis = JSON.parse(fs.readFileSync(path.join(folder, sweep, 'analysis.json'), 'utf8'));
  const e = analysis.experiments[0];
  const d = e.finding && e.finding.decomposition;
  if (!d) continue;
  const m = e.run_config.model;
  const converged = e.convergence.reduce((s, v) => s + v.converged, 0);
  const runs = e.convergence.reduce((s, v) => s + v.runs, 0);
  const unit = { per: 'final PER, points', steps_to_loss_0_1: 'steps to loss < 0.1', loss_at_100: 'final loss' }[d.measure] || d.measure;
  const cells = ['block_diagonal', 'scalar_gain', 'identity_matched', 'frozen_random_scaled', 'frozen_orthogonal'].map((v) => {
    const c = d.controls.find((x) => x.variant === v);
    return c ? `${interval(c.effect)}; ${share(c.share)}` : '–';
  });
  console.log(`| ${sweep} | d${m.d_model}, ${m.heads}×${m.d_model / m.heads} | ${e.run_config.train.lr} | ${e.run_config.train.steps} | ` +
    `${converged}/${runs} | ${unit}, ${d.n} seeds | ${interval(d.lead)} | ${cells.join(' | ')} |`);
}
console.log('\nEach control: its lead over none (identity), then its share of learned\'s lead; 95% intervals over seeds');
console.log('(paired t for the leads, 4000 bootstrap resamples for the shares). Lower PER and fewer steps are better.');

// 10,000 against 20,000 steps, on the seeds both trained.
if (manifest.presets.includes('words_d64') && manifest.presets.includes('long_words_d64')) {
  const short = results('words_d64');
  const long = results('long_words_d64');
  const seeds = [...new Set(long.runs.map((r) => r.seed))];
  const per = (doc, v) => {
    const xs = doc.runs.filter((r) => r.variant === v && seeds.includes(r.seed)).map((r) => r.final.heldout_words.per);
    return xs.reduce((a, b) => a + b, 0) / xs.length;
  };
  console.log(`\nFinal PER %, d_model 64, seeds ${seeds.join(', ')}: 10,000 steps (words_d64) against 20,000 (long_words_d64)`);
  console.log('| variant | 10,000 steps | 20,000 steps | change (points) |');
  console.log('| --- | --- | --- | --- |');
  for (const v of [...new Set(long.runs.map((r) => r.variant))]) {
    const a = 100 * per(short, v);
    const b = 100 * per(long, v);
    console.log(`| ${v} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b - a).toFixed(2)} |`);
  }
}
