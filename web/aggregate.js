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
