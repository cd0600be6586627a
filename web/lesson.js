// The lesson's words: each claim's figures (the claims panel, claims-panel.js, lays them out),
// each experiment's verdict and the conclusion, worded in the page's languages from the core's
// analysis (analyze(), docs/claims.md). The analysis holds codes and numbers only; this module
// turns them into sentences and computes nothing of its own.

import { lang, t } from './i18n.js';
import { renderPrediction } from './predict.js';
import { fixed, range } from './figures.js';

const $ = (sel, root = document) => root.querySelector(sel);

// ---------- numbers ----------

const points = (x) => fixed(100 * x, 1);
// A percentage, with one decimal when the largest figure shown beside it (`scale`) is under 10%.
const percent = (x, scale = Math.abs(x)) => `${fixed(100 * x, scale < 0.1 ? 1 : 0)}%`;
const ratio = (x) => fixed(x, 2);
const small = (x) => fixed(x, 3);
const rate = (x) => String(Number(x.toPrecision(4)));

// th: the analysis's thresholds (docs/claims.md), in the whole analysis and in each experiment's.
function metricLabel(m, th) {
  switch (m.metric) {
    case 'token_acc': return t('mTokenAcc');
    case 'exact': return t('mExact');
    case 'steps_to_loss_0_1': return t('mSteps', { thr: th.loss_threshold });
    default: return t('mLossAt', { step: m.step });
  }
}

const where = (k, n) => (n === 1 ? t('inOnlySeed') : t('inKofN', { k, n }));

// Who was ahead on one metric, in how many seeds, and by how much (the CLI's lead_phrase).
export function leadPhrase(m) {
  const { n, a, b } = m;
  if (n === 0) return t('noPairs');
  if (m.leader == null) {
    if (n === 1) return t(m.neither ? 'neitherOnly' : 'tiedOnly');
    return t('noLeader', { a, b, ka: m.ahead_a, kb: m.ahead_b, n });
  }
  const other = m.leader === a ? b : a;
  const lead = t('ahead', { leader: m.leader, where: where(m.leader === a ? m.ahead_a : m.ahead_b, n) });
  if (!m.gap) return lead;
  if (m.metric === 'token_acc' || m.metric === 'exact') return t('gapPoints', { lead, gap: range(m.gap, points) });
  if (m.metric === 'steps_to_loss_0_1') {
    const censored = (m.leader === a ? m.reached_b : m.reached_a) < n;
    return t('gapSteps', { lead, other, atLeast: censored ? t('atLeast') : '', gap: range(m.gap, percent) });
  }
  return t('gapLoss', { lead, other, gap: range(m.gap, percent) });
}

// ---------- a claim's figures ----------

// What the runs a claim was judged on measured, in one sentence; th: the analysis's thresholds.
export function claimFigures(c, th) {
  const f = c.figures || {};
  if (c.verdict === 'not_tested') return t(`r_${c.reason}`, { thr: th.loss_threshold });
  let out = '';
  if (f.comparison) {
    out = t('figMetric', { metric: metricLabel(f.comparison, th), lead: leadPhrase(f.comparison) });
    if (f.still_learning && f.still_learning.length) out += t('figStill', { variants: f.still_learning.join(', ') });
  } else if (c.id === 5) {
    out = t('figWo', {
      rows: range(f.dominant_rows, percent), share: percent(th.dominant_rows_share),
      final: range(f.head_imbalance_final, ratio), init: range(f.head_imbalance_init, ratio),
    });
  } else if (c.id === 6) {
    out = t('figScale', {
      first: range(f.scale_ratio_first, small), last: range(f.scale_ratio_last, small),
      cvL: range(f.residual_cv_learned, small), cvI: range(f.residual_cv_identity, small),
    });
  } else if (c.id === 7) {
    const lr = (v) => (f.highest_trainable_lr[v] == null ? t('lrNone') : rate(f.highest_trainable_lr[v]));
    out = t('figLr', { l: lr('learned'), i: lr('identity'), dl: f.diverged.learned, di: f.diverged.identity });
    const next = (f.undecided || []).map((u) => t('lrAt', { variant: u.variant, lr: rate(u.lr) }));
    if (next.length) out += t('figUndecided', { which: next.join(', ') });
  }
  const r = f.refinement;
  if (r && r.scaled_like_identity != null) {
    out += t('figRefine', { how: t(r.scaled_like_identity ? 'refineLike' : 'refineLag') + (r.unscaled_lags ? t('refineUnscaled') : '') });
  }
  return out;
}

// ---------- the conclusion ----------

// The core's conclusion (analysis.conclusion, docs/claims.md) of the analysis `a` of the results
// shown, worded: the verdicts' counts, then the comparison of each claim it quotes. Hidden
// without results (a null `a`).
export function renderConclusion(a) {
  const box = $('#conclusion');
  box.hidden = !a;
  if (!a) return;
  const { counts, still_learning: still, quotes } = a.conclusion;
  const sentences = [t('conclusionCounts', {
    total: a.claims.length, s: counts.supported, p: counts.partly_supported, n: counts.not_supported,
    untested: counts.not_tested ? t('conclusionUntested', { nt: counts.not_tested }) : '',
    still: still ? t('conclusionStill') : '',
  })];
  for (const id of quotes) {
    const m = a.claims.find((c) => c.id === id).figures.comparison;
    sentences.push(t(`conclusionClaim${id}`, { metric: metricLabel(m, a.thresholds), lead: leadPhrase(m) }));
  }
  $('#conclusion-text').textContent = sentences.join(lang() === 'zh' ? '' : ' ');
}

// ---------- an experiment's verdict ----------

function convergenceLines(e) {
  const out = [];
  const still = [];
  for (const c of e.convergence || []) {
    if (c.still_learning) {
      const w = c.done === 1 ? '' : c.still_learning < c.done ? t('convWhereK', { k: c.still_learning, n: c.done })
        : c.done === 2 ? t('convWhereBoth') : t('convWhereAll', { n: c.done });
      still.push(`${c.variant}${w}`);
    }
    if (c.diverged) out.push(t('convDiverged', { variant: c.variant, k: c.diverged, n: c.runs }));
  }
  return still.length ? [t('convStill', { variants: still.join(lang() === 'zh' ? '；' : '; ') }), ...out] : out;
}

function pairLines(f, th) {
  return (f.pairs || []).filter((p) => p.n > 0).map((p) => t('pairLine', {
    a: p.a, b: p.b,
    speed: t('figMetric', { metric: metricLabel(p.speed, th), lead: leadPhrase(p.speed) }),
    acc: p.at_ceiling ? t('pairCeiling') : t('figMetric', { metric: metricLabel(p.accuracy, th), lead: leadPhrase(p.accuracy) }),
  }));
}

function woLines(w, th) {
  if (!w || !w.seeds) return [];
  return [
    t('woLine', {
      dominant: t(w.not_dominant.consistent ? 'woNotDominant' : 'woDominant'),
      rows: range(w.dominant_rows, percent), share: percent(th.dominant_rows_share),
    }),
    t('woHeads', {
      final: range(w.head_imbalance_final, ratio), init: range(w.head_imbalance_init, ratio),
      what: t(w.imbalanced.consistent ? 'woHeadsUneven' : 'woHeadsEven'), change: range(w.change_from_init, percent),
    }),
  ];
}

function scaleLines(s) {
  if (!s || !s.seeds) return [];
  return [
    t('scaleLine', {
      first: range(s.scale_ratio_first, small), last: range(s.scale_ratio_last, small),
      what: t(s.adapts.consistent ? 'scaleAdapts' : 'scaleKept'),
    }),
    t('steadyLine', {
      cvL: range(s.residual_cv_learned, small), cvI: range(s.residual_cv_identity, small),
      what: t(s.steadier.consistent ? 'steadyYes' : 'steadyNo'),
    }),
  ];
}

function gainLines(f) {
  if (!f.speed_vs_identity) return [];
  const items = Object.entries(f.speed_vs_identity).filter(([, v]) => v != null)
    .map(([variant, v]) => t('gainItem', { variant, how: t(v === 'behind' ? 'gainBehind' : v === 'ahead' ? 'gainAhead' : 'gainSimilar') }));
  const out = items.length ? [t('gainLine', { list: items.join(lang() === 'zh' ? '；' : '; ') })] : [];
  if (f.scaled_like_identity != null && f.unscaled_lags != null) {
    out.push(t('gainScaled', {
      how: t(f.scaled_like_identity ? 'gainScaledLike' : 'gainScaledLag'),
      lag: t(f.unscaled_lags ? 'gainUnscaledLags' : 'gainUnscaledNot'),
    }));
  }
  return out;
}

function lrLines(f, th) {
  if (!f.table) return [];
  const h = f.highest_trainable_lr || {};
  const out = [];
  if (!f.most_tolerant || !f.most_tolerant.length) out.push(t('lrNoneTrained', { thr: th.loss_threshold, share: percent(th.trainable_share) }));
  else out.push(t('lrTolerant', { lr: rate(h[f.most_tolerant[0]]), variants: f.most_tolerant.join(', ') }));
  if (f.identity_vs_learned) {
    const lr = (v) => (h[v] == null ? t('lrNone') : rate(h[v]));
    const how = { smaller: 'lrSmaller', same: 'lrSame', larger: 'lrLarger' }[f.identity_vs_learned];
    out.push(t('lrIdentity', { how: t(how), i: lr('identity'), l: lr('learned') }));
  }
  return out;
}

// The verdict sentences of one experiment's analysis (exp.analysis, experiment-section.js): its comparisons,
// its own interpretation (experiments 3 to 6), then which variants were still learning.
export function verdictSentences(e) {
  const f = e.finding || {};
  const th = e.thresholds;
  return [...pairLines(f, th), ...gainLines(f), ...woLines(f.wo, th), ...scaleLines(f.scale), ...lrLines(f, th), ...convergenceLines(e)];
}

function cell(tag, text, className) {
  const el = document.createElement(tag);
  if (text != null) el.textContent = text;
  if (className) el.className = className;
  return el;
}

// The verdict box under an experiment's heading: one sentence per line.
export function renderVerdict(exp, settled) {
  let box = $('.verdict-box', exp.section);
  if (!box) {
    box = document.createElement('div');
    box.className = 'verdict-box sentence';
    box.setAttribute('aria-live', 'polite');
    $('.exp-body', exp.section).prepend(box);
  }
  const finished = exp.runs.filter((r) => r.finished).length;
  let lines;
  if (!exp.runs.length) lines = [t('noRunsYet')];
  else if (!settled) lines = [t('verdictWaiting', { done: finished, total: exp.runs.length })];
  else lines = exp.analysis ? verdictSentences(exp.analysis) : [];
  if (settled && !lines.length) lines = [t('sentenceNone')];
  const key = `${lang()}\n${lines.join('\n')}`;
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    box.replaceChildren(...lines.map((s) => cell('p', s)));
  }
  renderPrediction(exp, box, settled, leadPhrase);
}
