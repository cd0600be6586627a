// Pure maths over run records (docs/results.md): nothing here touches the DOM.

// Mean, min and max over seeds at each x: series is [{ x: number[], y: number[] }] (one per seed).
// Seeds still running (or diverged early) contribute where they have values.
export function seedBands(series) {
  const at = new Map();  // x -> values
  for (const { x, y } of series) {
    for (let i = 0; i < x.length && i < y.length; i++) {
      if (!Number.isFinite(y[i])) continue;
      let v = at.get(x[i]);
      if (!v) at.set(x[i], (v = []));
      v.push(y[i]);
    }
  }
  const xs = [...at.keys()].sort((a, b) => a - b);
  const out = { x: xs, mean: [], min: [], max: [] };
  for (const x of xs) {
    const v = at.get(x);
    out.mean.push(v.reduce((a, b) => a + b, 0) / v.length);
    out.min.push(Math.min(...v));
    out.max.push(Math.max(...v));
  }
  return out;
}

// Keeps about maxPoints evenly spaced indices (always the last), so a long curve stays cheap to
// draw; over each kept stretch, the band keeps its extremes and the mean its average.
export function thinBands(b, maxPoints) {
  const n = b.x.length;
  if (n <= maxPoints) return b;
  const stride = Math.ceil(n / maxPoints);
  const out = { x: [], mean: [], min: [], max: [] };
  for (let start = 0; start < n; start += stride) {
    const end = Math.min(n, start + stride);
    let sum = 0, lo = Infinity, hi = -Infinity;
    for (let i = start; i < end; i++) {
      sum += b.mean[i];
      lo = Math.min(lo, b.min[i]);
      hi = Math.max(hi, b.max[i]);
    }
    out.x.push(b.x[end - 1]);
    out.mean.push(sum / (end - start));
    out.min.push(lo);
    out.max.push(hi);
  }
  return out;
}

export function subtract(a, b) {
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] - b[i];
  return out;
}

export const SITES = ['concat', 'wo_out', 'residual'];

// The article's printout: per variant, layer and site, mean and std of the activations at the
// first and at the last probe step, averaged over seeds.
export function earlyLate(runs) {
  const rows = [];
  const variants = [...new Set(runs.map((r) => r.variant))];
  for (const variant of variants) {
    const stats = runs.filter((r) => r.variant === variant).map((r) => r.stats || []);
    const steps = stats.flat().map((s) => s.step);
    if (!steps.length) continue;
    const early = Math.min(...steps);
    const late = Math.max(...steps);
    const layers = Math.max(...stats.flat().map((s) => s.layer)) + 1;
    for (let layer = 0; layer < layers; layer++) {
      for (const site of SITES) {
        const pick = (step, field) => average(stats.map((list) => {
          const hit = list.find((s) => s.step === step && s.layer === layer);
          return hit ? hit[site][field] : NaN;
        }));
        rows.push({
          variant, layer, site, early, late,
          earlyMean: pick(early, 'mean'), earlyStd: pick(early, 'std'),
          lateMean: pick(late, 'mean'), lateStd: pick(late, 'std'),
        });
      }
    }
  }
  return rows;
}

function average(values) {
  const ok = values.filter(Number.isFinite);
  return ok.length ? ok.reduce((a, b) => a + b, 0) / ok.length : NaN;
}
