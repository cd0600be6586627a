// Figures as the page prints them: the core's spreads over seeds (docs/claims.md) as a mean and
// its range, worded as the CLI's ("28% (−22% to 26%)").
import { t } from '../i18n/i18n.js';

// x to d decimals; a negative gets a real minus sign, and a value that rounds to zero prints
// unsigned.
export const fixed = (x, d) => (Math.abs(x) < 0.5 * 10 ** -d ? 0 : x).toFixed(d).replace('-', '−');

// A spread (n, mean, min, max): the mean, and its range when the values differ at the precision
// shown; never a ± for a single value. f(x, scale) formats each figure, and scale (the largest
// magnitude of the three) lets it give all three the same precision.
export function range(s, f) {
  if (!s) return '—';
  const scale = Math.max(Math.abs(s.mean), Math.abs(s.min), Math.abs(s.max));
  const [mean, min, max] = [s.mean, s.min, s.max].map((x) => f(x, scale));
  return s.n > 1 && min !== max ? t('range', { mean, min, max }) : mean;
}

// A learning rate as the settings write it: at most 4 significant digits, no float noise.
export const rate = (x) => String(Number(x.toPrecision(4)));
