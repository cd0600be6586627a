// The lesson's words: each claim's figures (the claims panel, claims-panel.js, lays them out),
// each experiment's verdict and the conclusion, worded in the page's languages from the core's
// analysis (analyze(), docs/claims.md). The analysis holds codes and numbers only; verdicts,
// reasons, lead phrases and plain sentences are the core's words (claimWords, leadPhrase), the
// rest this module words, computing nothing of its own.

import { lang, t } from '../i18n/i18n.js';
import { fixed, range, rate } from './figures.js';
import { core } from '../state/engine.js';
import { el } from '../base/dom.js';

const $ = (sel, root = document) => root.querySelector(sel);

// ---------- numbers ----------

// A percentage, with one decimal when the largest figure shown beside it (`scale`) is under 10%.
const percent = (x, scale = Math.abs(x)) => `${fixed(100 * x, scale < 0.1 ? 1 : 0)}%`;
const ratio = (x) => fixed(x, 2);
const small = (x) => fixed(x, 3);
// "a, b and c".
const andList = (items) => (items.length < 2 ? items.join('')
  : items.slice(0, -1).join(t('listSep')) + t('listAnd') + items[items.length - 1]);

// th: the analysis's thresholds (docs/claims.md), in the whole analysis and in each experiment's.
function metricLabel(m, th) {
  switch (m.metric) {
    case 'token_acc': return t('mTokenAcc');
    case 'exact': return t('mExact');
    case 'steps_to_loss_0_1': return t('mSteps', { thr: th.loss_threshold });
    case 'wer': return t('mWer');
    case 'per': return t('mPer');
    case 'per_area': return t('mPerArea');
    default: return t('mLossAt', { step: m.step });
  }
}

const where = (k, n) => (n === 1 ? t('inOnlySeed') : t('inKofN', { k, n }));

// ---------- the core's words ----------

// The words of verdicts, reasons, lead phrases and plain sentences are the core's, one table for
// the CLI and the page in both languages (src/analysis/words_table.cpp; analysisWords,
// claimWords and leadWords in docs/api.md): the page asks, it does not restate them.
const worded = new WeakMap();  // an analysis, or a claim or experiment of one -> { lang -> its words }

// The core's words of `part` in the page's language, asked once per language (ask: the core's
// call, JSON text), parsed.
export function askedOnce(part, ask) {
  let byLang = worded.get(part);
  if (!byLang) worded.set(part, (byLang = {}));
  byLang[lang()] ||= parseWords(ask());
  return byLang[lang()];
}

// The article's claims in the core's words, none judged: { statements: [{ id, text, says }] }.
const UNJUDGED = { claims: [], words_claims: [] };
let claimSources = null;  // claim id -> the experiments it reads (codes().claim_sources), once asked

// The statements of the article's claims that an experiment's section quotes, in the page's
// language: those of the claims it is the first source of (the core's claim_sources, the
// experiment each claim reads first); none for an experiment that quotes the article elsewhere.
export function quotedStatements(name) {
  claimSources ||= JSON.parse(core.get().wolab.codes()).claim_sources;
  const ids = claimSources.filter((c) => c.experiments[0] === name).map((c) => c.id);
  const { statements } = askedOnce(UNJUDGED, () => core.get().wolab.analysisWords(JSON.stringify(UNJUDGED), lang()));
  return ids.map((id) => statements.find((s) => s.id === id).text);
}

// A claim's words in the page's language: { verdict, reason, plain, lead }.
export function claimWords(c) {
  return askedOnce(c, () => core.get().wolab.claimWords(JSON.stringify(c), lang()));
}

// The page writes a negative figure with a minus sign, where the CLI's words have a hyphen.
const minus = (text) => text.replace(/(^|[\s(])-(?=\d)/g, '$1\u2212');
// The core's words (JSON text) as the page writes them: each sentence with its minus signs.
export const parseWords = (text) => JSON.parse(text, (k, v) => (typeof v === 'string' ? minus(v) : v));

// Who was ahead on one metric of a paired comparison, in how many seeds, and by how much.
export const leadPhrase = (m) => minus(core.get().wolab.leadWords(JSON.stringify(m), lang()));

// The sentence that says why a claim got its verdict.
export const reasonLine = (c) => claimWords(c).reason;

// ---------- a claim's figures ----------

// Claim 5's per-seed figures, "1.62, 0.93, 1.10": no mean hides a seed.
const perSeed = (f, key) => f.per_seed.map((s) => ratio(s[key])).join(t('listSep'));

// What the runs a claim was judged on measured, in one sentence; th: the analysis's thresholds.
export function claimFigures(c, th) {
  const f = c.figures || {};
  let out = '';
  if (f.comparison) {
    out = t('figMetric', { metric: metricLabel(f.comparison, th), lead: leadPhrase(f.comparison) });
    if (f.still_learning && f.still_learning.length) out += t('figStill', { variants: f.still_learning.join(', ') });
  } else if (c.id === 5 && f.per_seed) {
    out = t('figWo', {
      rows: range(f.dominant_rows, percent), rowsInit: range(f.dominant_rows_init, percent), share: percent(th.dominant_rows_share),
      final: perSeed(f, 'head_imbalance_final'), init: perSeed(f, 'head_imbalance_init'),
    });
  } else if (c.id === 6 && f.scale_ratio_first) {
    out = t('figScale', {
      first: range(f.scale_ratio_first, small), last: range(f.scale_ratio_last, small),
      cvL: range(f.residual_cv_learned, small), cvI: range(f.residual_cv_identity, small),
    });
  } else if (c.id === 8 && f.small) {
    out = t('figEarly', {
      step: f.step, ratio: range(f.scale_ratio_first, small), small: ratio(1 - th.scale_change),
      whereSmall: where(f.small.holds, f.small.n),
      sl: range(f.output_share_learned, small), si: range(f.output_share_identity, small),
      whereProtects: where(f.protects.holds, f.protects.n),
    });
  } else if (c.id === 9 && f.reshapes) {
    out = t('figValve', {
      cvL: range(f.head_grad_cv_learned, small), cvI: range(f.head_grad_cv_identity, small),
      whereA: where(f.reshapes.holds, f.reshapes.n), whereB: where(f.balances.holds, f.balances.n),
    });
  } else if (c.id === 7 && f.highest_trainable_lr) {
    const lr = (v) => (f.highest_trainable_lr[v] == null ? t('lrNone') : rate(f.highest_trainable_lr[v]));
    out = t('figLr', { l: lr('learned'), i: lr('identity'), dl: f.diverged.learned, di: f.diverged.identity });
    const next = (f.undecided || []).map((u) => t('lrAt', { variant: u.variant, lr: rate(u.lr) }));
    if (next.length) out += t('figUndecided', { which: next.join(', ') });
  }
  const r = f.refinement;
  if (r && r.scaled_like_identity != null) {
    out += t('figRefine', {
      how: t(r.scaled_like_identity ? 'refineLike' : 'refineLag') + (r.unscaled_lags ? t('refineUnscaled') : ''), rule: clearRule(th),
    });
  }
  return out;
}

// ---------- the conclusion ----------

// The core's conclusion (analysis.conclusion, docs/claims.md) of the analysis `a` of the results
// shown, worded: its headline (the core's count of the verdicts), then the comparison of each
// claim it quotes, then where real words trained to the end agree (`words`: the core's
// conclude() of them, { agree, differ, size }, or null without them). Hidden without results
// (a null `a`).
export function renderConclusion(a, headline, words) {
  const box = $('#conclusion');
  box.hidden = !a;
  if (!a) return;
  const sentences = [headline, ...(a.conclusion.still_learning ? [t('conclusionStill')] : [])];
  for (const id of a.conclusion.quotes) {
    const m = a.claims.find((c) => c.id === id).figures.comparison;
    sentences.push(t(`conclusionClaim${id}`, { metric: metricLabel(m, a.thresholds), lead: leadPhrase(m) }));
  }
  // Claims 1-4 on real words trained to the end against the toy tasks, where both decide.
  const claimList = (ids) => (ids.length ? t(ids.length === 1 ? 'claimOneId' : 'claimIds', { ids: andList(ids.map(String)) }) : t('claimNoId'));
  if (words && (words.agree.length || words.differ.length)) {
    sentences.push(t('conclusionWords', { size: words.size, agree: claimList(words.agree), differ: claimList(words.differ) }));
  }
  $('#conclusion-text').textContent = sentences.join(t('sentenceSep'));
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
    if (c.diverged) {
      const key = c.runs === 1 ? 'convDivergedOnly' : c.diverged === c.runs ? 'convDivergedAll' : 'convDiverged';
      out.push(t(key, { variant: c.variant, k: c.diverged, n: c.runs }));
    }
  }
  return still.length ? [t('convStill', { variants: still.join(t('partSep')) }), ...out] : out;
}

function pairLines(f, th) {
  return (f.pairs || []).filter((p) => p.n > 0).map((p) => t('pairLine', {
    a: p.a, b: p.b,
    speed: t('figMetric', { metric: metricLabel(p.speed, th), lead: leadPhrase(p.speed) }),
    acc: p.at_ceiling ? t('pairCeiling') : t('figMetric', { metric: metricLabel(p.accuracy, th), lead: leadPhrase(p.accuracy) }),
  }));
}

// Each sentence counts the seeds where a property holds, so that none contradicts a seed (a
// head's block standing out in one seed is never "no head's block stands out").
function woLines(w, th) {
  if (!w || !w.seeds) return [];
  const { not_dominant: nd, imbalanced: im } = w;
  return [
    t('woLine', {
      dominant: t(nd.holds === nd.n ? 'woNotDominant' : nd.holds === 0 ? 'woDominant' : 'woDominantK',
        { k: nd.n - nd.holds, n: nd.n, where: where(nd.n - nd.holds, nd.n) }),
      rows: range(w.dominant_rows, percent), rowsInit: range(w.dominant_rows_init, percent), share: percent(th.dominant_rows_share),
      init: nd.init_only ? t('woInitOnly') : '',
    }),
    t('woHeads', {
      final: perSeed(w, 'head_imbalance_final'), init: perSeed(w, 'head_imbalance_init'),
      what: t(im.holds ? 'woHeadsK' : 'woHeadsNone', { k: im.holds, n: im.n, where: where(im.holds, im.n), imb: rate(th.head_imbalance) }),
      atInit: im.init_only ? t('woInitOnly') : '', change: range(w.change_from_init, percent),
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

// What "clearly" faster or slower means (docs/claims.md, "Clear"), printed where the word is used.
const clearRule = (th) => t('clearRule', { share: percent(th.consistent_share), gap: percent(th.clear_speed_gap) });

function gainLines(f, th) {
  if (!f.speed_vs_identity) return [];
  const items = Object.entries(f.speed_vs_identity).filter(([, v]) => v != null)
    .map(([variant, v]) => t('gainItem', { variant, how: t(v === 'behind' ? 'gainBehind' : v === 'ahead' ? 'gainAhead' : 'gainSimilar') }));
  const out = items.length ? [t('gainLine', { list: items.join(t('partSep')), rule: clearRule(th) })] : [];
  if (f.scaled_like_identity != null && f.unscaled_lags != null) {
    out.push(t('gainScaled', {
      how: t(f.scaled_like_identity ? 'gainScaledLike' : 'gainScaledLag'),
      lag: t(f.unscaled_lags ? 'gainUnscaledLags' : 'gainUnscaledNot'),
    }));
  }
  // The why: each fixed W_o's singular values at step 0, against identity's.
  const sv = f.singular_values || [];
  const identity = sv.find((s) => s.variant === 'identity');
  const fixedOnes = sv.filter((s) => s.variant !== 'identity').map((s) => t('svItem', {
    variant: s.variant, values: range(s, ratio), rms: ratio(s.rms),
    how: t({ shrinks: 'svShrinks', keeps: 'svKeeps', amplifies: 'svAmplifies' }[s.gain]),
  }));
  if (fixedOnes.length) {
    out.push(t('svWhy', { identity: identity ? ratio(identity.mean) : '—', list: fixedOnes.join(t('partSep')) }));
  }
  return out;
}

function lrLines(f, th) {
  if (!f.table) return [];
  const h = f.highest_trainable_lr || {};
  const out = [];
  if (!f.most_tolerant || !f.most_tolerant.length) out.push(t('lrNoneTrained', { thr: th.loss_threshold, share: percent(th.trainable_share) }));
  else {
    out.push(t(f.most_tolerant.length === 1 ? 'lrTolerantOne' : 'lrTolerantMany', {
      lr: rate(h[f.most_tolerant[0]]), variants: andList(f.most_tolerant), thr: th.loss_threshold, share: percent(th.trainable_share),
    }));
  }
  if (f.identity_vs_learned) {
    const lr = (v) => (h[v] == null ? t('lrNone') : rate(h[v]));
    const how = { smaller: 'lrSmaller', same: 'lrSame', larger: 'lrLarger' }[f.identity_vs_learned];
    out.push(t('lrIdentity', { how: t(how), i: lr('identity'), l: lr('learned') }));
  }
  // The why: the rates where runs stalled near chance, ln(alphabet), rather than diverge.
  for (const s of f.stalls || []) {
    const which = s.ended === 1 ? t('lrStallOnly') : s.near_chance === s.ended ? t('lrStallAll', { n: s.ended })
      : t('lrStallK', { k: s.near_chance, n: s.ended });
    out.push(t('lrStall', {
      lr: rate(s.lr), which, loss: range(s.final_loss, ratio),
      alphabet: f.alphabet, chance: ratio(f.chance_loss), share: percent(th.near_chance),
      div: s.diverged ? t('lrStallDiverged', { d: s.diverged }) : t('lrStallNone'),
    }));
  }
  return out;
}

// The verdict sentences of one experiment's analysis (exp.analysis, experiment-section.js): its comparisons,
// its own interpretation (experiments 3 to 6), then which variants were still learning.
// What W_o is for (wo_purpose, words_purpose): the core's words of its decomposition, the answer
// first; null without one. `e`: an experiment of an analysis (its experiments[i]).
export function purposeWords(e) {
  if (!e.finding || !e.finding.decomposition) return null;
  const analysis = { claims: [], words_claims: [], experiments: [e] };
  return askedOnce(e, () => core.get().wolab.analysisWords(JSON.stringify(analysis), lang())).purpose[0];
}

function purposeLines(e) {
  const said = purposeWords(e);
  return said ? [said.answer, said.lead, ...said.controls.map((c) => c.line).filter(Boolean)] : [];
}

export function verdictSentences(e) {
  const f = e.finding || {};
  const th = e.thresholds;
  return [...purposeLines(e), ...pairLines(f, th), ...gainLines(f, th), ...woLines(f.wo, th), ...scaleLines(f.scale), ...lrLines(f, th),
    ...convergenceLines(e)];
}

// The verdict box under an experiment's heading (in its section): one sentence per line.
export function renderVerdict(exp, section, settled) {
  let box = $('.verdict-box', section);
  if (!box) {
    box = document.createElement('div');
    box.className = 'verdict-box sentence';
    box.setAttribute('aria-live', 'polite');
    $('.exp-body', section).prepend(box);
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
    box.replaceChildren(...lines.map((s) => el('p', null, s)));
  }
}
