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

// Keeps about maxPoints of the x values, evenly spaced (always the first and the last), with
// the mean, min and max at each: a long curve stays cheap to draw, and the band is still the
// spread over seeds at the steps drawn, never widened by the steps left out.
export function thinBands(b, maxPoints) {
  const n = b.x.length;
  if (n <= maxPoints) return b;
  const keep = [...new Set(Array.from({ length: maxPoints }, (_, i) => Math.round((i * (n - 1)) / (maxPoints - 1))))];
  const pick = (a) => keep.map((i) => a[i]);
  return { x: pick(b.x), mean: pick(b.mean), min: pick(b.min), max: pick(b.max) };
}

export function subtract(a, b) {
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] - b[i];
  return out;
}

export const SITES = ['concat', 'wo_out', 'residual'];
