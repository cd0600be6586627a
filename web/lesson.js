// The lesson: the claims panel, each experiment's verdict and the conclusion, worded in the page's
// languages from the core's analysis (analyze(), docs/claims.md). The analysis holds codes and
// numbers only; this module turns them into sentences and computes nothing of its own.

import { lang, t } from './i18n.js';
import { analyze } from './analysis.js';
import { fixed, range } from './figures.js';

const $ = (sel, root = document) => root.querySelector(sel);

const lesson = {
  exps: null,          // app-state.js's Map name -> experiment
  analysis: null,      // analyze() of every experiment that has finished runs
  queued: false,       // an analysis will be asked for once this task is over
  asking: false,       // an analysis is being made
  changed: false,      // the results shown changed since the analysis being made was asked for
};

export function setUpLesson({ exps }) {
  Object.assign(lesson, { exps });
  lessonChanged();
}

// The results shown changed: analyse them all once this task is over (showing several recorded
// experiments in a row costs one analysis, not one per experiment), in the analysis worker, one
// analysis at a time: changes made while one is being made are analysed together after it (with
// W_o snapshots at d_model 256 one analysis takes seconds, and a second one asked for meanwhile
// would only have been dropped).
export function lessonChanged() {
  if (!lesson.exps) return;
  lesson.changed = true;
  if (lesson.queued || lesson.asking) return;
  lesson.queued = true;
  setTimeout(analyzeShown, 0);
}

async function analyzeShown() {
  lesson.queued = false;
  lesson.changed = false;
  lesson.asking = true;
  const shown = [...lesson.exps.values()].filter((e) => e.analysis);
  let analysis = null;
  try {
    if (shown.length) analysis = JSON.parse(await analyze(`[${shown.map((exp) => exp.resultsText).join(',')}]`));
  } catch (e) {
    console.error(e);  // each experiment's own analysis (results-shown.js) has already reported it
  }
  lesson.asking = false;
  lesson.analysis = analysis;
  renderClaims();
  if (lesson.changed) lessonChanged();
}

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

// ---------- the claims panel ----------

function claimFigures(c, th) {
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

function cell(tag, text, className) {
  const el = document.createElement(tag);
  if (text != null) el.textContent = text;
  if (className) el.className = className;
  return el;
}

export function renderClaims() {
  const panel = $('#claims');
  if (!panel) return;
  const body = $('#claims-body', panel);
  const a = lesson.analysis;
  $('#claims-none', panel).hidden = Boolean(a);
  $('#claims-table', panel).hidden = !a;
  if (!a) {
    body.replaceChildren();
    $('#conclusion').hidden = true;
    return;
  }
  body.replaceChildren(...a.claims.map((c) => {
    const tr = document.createElement('tr');
    tr.dataset.claim = c.id;
    tr.dataset.verdict = c.verdict;
    const measured = cell('td', null);
    measured.append(claimFigures(c, a.thresholds));
    if (c.experiment) {
      const link = cell('a', t('seeExperiment', { title: t(`${c.experiment}_title`) }));
      link.href = `#exp-${c.experiment}`;
      const zh = lang() === 'zh';
      measured.append(zh ? '（' : ' (', link, zh ? '）' : ')');
    }
    tr.append(cell('td', `${c.id}. ${t(`claim${c.id}`)}`), cell('td', t(`v_${c.verdict}`), `verdict v-${c.verdict}`), measured);
    return tr;
  }));
  renderConclusion(a);
}

// ---------- the conclusion ----------

// The core's conclusion (analysis.conclusion, docs/claims.md), worded: the verdicts' counts, then
// the comparison of each claim it quotes.
function renderConclusion(a) {
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
  const box = $('#conclusion');
  box.hidden = false;
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
}
