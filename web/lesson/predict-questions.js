// The question each experiment asks before its results are seen (predict.js), and how its answer
// is read from the core's analysis of that experiment (exp.analysis: docs/claims.md, "Findings
// per experiment"). The page words the question and the answer; the facts are the analysis's.
// Which question an experiment asks follows from what it declares and compares (experiments(),
// docs/api.md), as its view does (experiment-section.js); its text is <experiment>_question.
//
// A question: answers(exp), the answer codes offered, in order; label(code), an answer's button;
// expected(code), "You expected …"; read(analysis, lead), what the runs measured, or null when
// the analysis holds nothing to judge the guess by (lead: lesson.js's wording of a comparison):
//   { borneOut: [codes],  the answers the measurement agrees with; empty when it leaves the
//                         question open (seeds split, no variant failed first, ...)
//     measured: text }    the figures, worded for the answer sentence
import { t, variantLabel } from '../i18n/i18n.js';
import { fixed, range, rate } from './figures.js';

// The answers a comparison's metric `m` bears out: its leader when the lead is clear (its interval
// past the size called clear); none, leaving the guess open, when it leads in enough seeds but not
// clearly; otherwise "no clear difference".
const borneOutBy = (m) => (m.clear ? [m.leader] : m.leader && m.consistent ? [] : ['same']);

// The speed of one comparison of the experiment (a against b, docs/claims.md, "Paired
// comparisons"): which learned faster, read as borneOutBy says.
function speedQuestion(a, b) {
  return {
    answers: () => [a, b, 'same'],
    label: (code) => (code === 'same' ? t('paSame') : t('paFaster', { variant: code })),
    expected: (code) => (code === 'same' ? t('peSame', { a, b }) : t('peFaster', { variant: code })),
    read(analysis, lead) {
      const pair = (analysis.finding.pairs || []).find((p) => p.a === a && p.b === b);
      if (!pair || !pair.n) return null;
      return { borneOut: borneOutBy(pair.speed), measured: lead(pair.speed) };
    },
  };
}

// Real words: which of a pair ends with fewer phonemes of the held-out words wrong, its final PER
// (the pair's `accuracy`, docs/claims.md "Findings per experiment"), read as borneOutBy says.
function wordsQuestion(a, b) {
  return {
    answers: () => [b, a, 'same'],
    label: (code) => (code === 'same' ? t('paSame') : t('paFewerWrong', { variant: code })),
    expected: (code) => (code === 'same' ? t('peSame', { a, b }) : t('peFewerWrong', { variant: code })),
    read(analysis, lead) {
      const pair = (analysis.finding.pairs || []).find((p) => p.a === a && p.b === b);
      if (!pair || !pair.n || !pair.accuracy) return null;
      return { borneOut: borneOutBy(pair.accuracy), measured: t('pmPer', { lead: lead(pair.accuracy) }) };
    },
  };
}

// The seeds of which a property of the finding holds ({holds, n, consistent}, docs/claims.md):
// `yes` when it holds consistently, `no` when it holds in none, open otherwise. `consistent` is
// false for a property the step-0 matrix had too (init_only): not evidence of learning for the
// claim, but what the learned matrix looks like, which is what the question asks.
const heldIn = (h, yes, no) => (h.consistent || (h.init_only && h.holds === h.n) ? [yes] : h.holds === 0 ? [no] : []);

// Answers worded by their code: pa_<code> on the button, pe_<code> in the answer sentence.
const worded = (codes) => ({ answers: () => codes, label: (code) => t(`pa_${code}`), expected: (code) => t(`pe_${code}`) });

const join = (items) => items.join(t('predictListSep'));

// Claim 5: does the learned W_o look diagonal (most rows diagonally dominant)?
const diagonal = {
  ...worded(['diagonal', 'not_diagonal']),
  read({ finding: { wo } }) {
    if (!wo || !wo.seeds) return null;
    const h = wo.not_dominant;
    return { borneOut: heldIn(h, 'not_diagonal', 'diagonal'), measured: t('pmWo', { k: h.n - h.holds, n: h.n }) };
  },
};

// Early in training, is W_o's output smaller or larger than its input (std ratio at the first
// probe, per seed, against 1: the identity's ratio)?
const earlyScale = {
  ...worded(['smaller', 'bigger']),
  read({ finding: { scale } }) {
    if (!scale || !scale.seeds) return null;
    const r = scale.scale_ratio_first;
    const borneOut = r.max < 1 ? ['smaller'] : r.min > 1 ? ['bigger'] : [];
    return { borneOut, measured: t('pmScale', { ratio: range(r, (x) => fixed(x, 2)) }) };
  },
};

// Is frozen_random slow because it is frozen, or because it is small: do the frozen matrices
// with the identity's scale learn about as fast as identity?
const scaling = {
  ...worded(['scale', 'learning']),
  read({ finding: f, variants }) {
    if (f.scaled_like_identity == null) return null;
    const vs = f.speed_vs_identity || {};
    const items = variants.filter((v) => vs[v] != null).map((variant) => t(`pmVs_${vs[variant]}`, { variant }));
    return { borneOut: [f.scaled_like_identity ? 'scale' : 'learning'], measured: t('pmGain', { list: join(items) }) };
  },
};

// As the learning rate grows, which variant stops training first: the variants whose highest
// trainable rate is the lowest (none at all is lower than any); open when all share it.
const failsFirst = {
  answers: (exp) => exp.variants,
  label: variantLabel,
  expected: (variant) => t('peFailsFirst', { variant }),
  read({ finding: f, variants }) {
    const h = f.highest_trainable_lr || {};
    const shown = variants.filter((v) => v in h);
    if (!shown.length) return null;
    const order = (v) => (h[v] == null ? -Infinity : h[v]);
    const lowest = Math.min(...shown.map(order));
    const first = shown.filter((v) => order(v) === lowest);
    const items = shown.map((v) => t('pmLrItem', { variant: v, lr: h[v] == null ? t('pmLrNone') : rate(h[v]) }));
    return { borneOut: first.length < shown.length ? first : [], measured: t('pmLr', { list: join(items) }) };
  },
};

// What W_o is for: which control brings back most of learned W_o's lead over none (a control
// whose share of it reads "most", docs/claims.md "What W_o is for"), or none of them; open when
// the lead is too small to decompose or no control clearly recovers most or little.
const purpose = {
  ...worded(['block_diagonal', 'scalar_gain', 'identity_matched', 'none']),
  read({ finding: { decomposition: d } }) {
    if (!d) return null;
    if (!d.decided) return { borneOut: [], measured: t('pmPurposeSmall') };
    const most = d.controls.filter((c) => c.reading === 'most').map((c) => c.variant);
    const none = d.controls.every((c) => c.reading === 'little');
    const items = d.controls.filter((c) => c.share).map((c) => t('pmPurposeItem', { variant: c.variant, share: fixed(100 * c.share.mean, 0) }));
    return { borneOut: most.length ? most : none ? ['none'] : [], measured: t('pmPurpose', { list: join(items) }) };
  },
};

// A sweep asks which variant fails first; W_o snapshots, whether W_o looks diagonal; activation
// statistics, W_o's early scale; frozen matrices scaled like the identity, whether scale is what
// a frozen W_o lacks; real words, whether no W_o or the learned one ends with fewer phonemes wrong; else a speed race
// against no W_o: a frozen random W_o's where there is one (the article's claim 3), the learned
// one's otherwise. null: no question.
export function questionFor(info) {
  const has = (v) => info.variants.includes(v);
  if (info.lr_sweep) return failsFirst;
  if (has('block_diagonal')) return purpose;
  if (info.wo_snapshots) return diagonal;
  if (info.stats) return earlyScale;
  if (has('frozen_random_scaled')) return scaling;
  // Real words compares each variant against learned (docs/claims.md, "Real words"); the
  // question is claim 2's, on its final WER: no W_o (identity) against learned.
  if (info.needs_data && has('identity')) return wordsQuestion('identity', 'learned');
  if (has('identity')) return speedQuestion(has('frozen_random') ? 'frozen_random' : 'learned', 'identity');
  return null;
}
