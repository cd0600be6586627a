// The comparison sentence of experiments 1–2 must read the summary honestly. Here the page's
// own sentence.js is fed summaries shaped like the wasm makeResults output, chosen to land on
// each side of each rule: within vs beyond the spread across seeds, one seed, seeds that never
// reached loss < 0.1, and a variant whose every run diverged.
import { test, expect } from '@playwright/test';
import { openPage } from './helpers.js';

// A summary entry: steps to loss < 0.1 and token accuracy as { mean, std }.
function entry(variant, { n = 3, steps, acc = [1, 0], reached = n, diverged = 0 }) {
  const ms = ([mean, std]) => ({ mean, std });
  return {
    variant, n, diverged, parameters: 1000,
    token_acc: ms(acc), exact: ms(acc), greedy_exact: ms(acc), loss: ms([0.01, 0.001]),
    steps_to_loss_0_1: { ...(steps ? ms(steps) : { mean: null, std: null }), reached },
  };
}

async function sentence(page, summary, steps = 400) {
  return page.evaluate(async ({ summary, steps }) => {
    const { compareSentence } = await import('./sentence.js');
    const { t } = await import('./i18n.js');
    return compareSentence(summary, steps, t);
  }, { summary, steps });
}

test('the sentence says when a gap is within the spread, and which way it goes when it is not', async ({ page }) => {
  await openPage(page);
  expect(await sentence(page, [entry('learned', { steps: [68, 2] }), entry('identity', { steps: [72, 3] })])).toBe(
    'Over 3 seeds, the training loss fell below 0.1 after 68 ± 2 steps with a learned W_o; identity needed 72 ± 3 '
    + '(a difference within the spread across seeds, so these runs show no clear difference).');
  expect(await sentence(page, [entry('learned', { steps: [68, 2] }), entry('frozen_random', { steps: [150, 10] }),
    entry('learned_identity_init', { steps: [50, 3] })])).toBe(
    'Over 3 seeds, the training loss fell below 0.1 after 68 ± 2 steps with a learned W_o; frozen_random needed '
    + '150 ± 10 (slower than learned by more than the spread across seeds), learned_identity_init needed 50 ± 3 '
    + '(faster than learned by more than the spread across seeds).');
});

test('the sentence falls back to accuracy when not every seed reached loss < 0.1, and names the gaps', async ({ page }) => {
  await openPage(page);
  expect(await sentence(page, [
    entry('learned', { steps: [120, 5], acc: [0.99, 0.005] }),
    entry('identity', { steps: [300, 0], acc: [0.80, 0.05], reached: 1, diverged: 1 }),
  ], 300)).toBe(
    'Over 3 seeds, after 300 steps the held-out token accuracy was 99.0 ± 0.5% with a learned W_o (loss < 0.1 in '
    + '3 of 3 seeds); identity reached 80.0 ± 5.0% (loss < 0.1 in 1 of 3 seeds, 1 diverged; lower than learned by '
    + 'more than the spread across seeds).');
});

test('one seed or no finite runs are said plainly, never turned into a claim', async ({ page }) => {
  await openPage(page);
  expect(await sentence(page, [entry('learned', { n: 1, steps: [68, 0] }), entry('identity', { n: 1, steps: [90, 0] })]))
    .toContain('identity needed 90 ± 0 (with one seed there is no spread to compare with, so this may be chance)');
  expect(await sentence(page, [
    entry('learned', { steps: [68, 2], acc: [0.9, 0.01] }),
    entry('identity', { acc: [null, null], reached: 0, diverged: 3 }),
  ])).toContain('identity reached — (loss < 0.1 in 0 of 3 seeds, 3 diverged; no comparison: every run of one of the two diverged)');
});
