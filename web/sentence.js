// One sentence that reads the measured difference between W_o variants, honestly: it compares
// each variant with `learned` and says plainly when the gap is within the spread across seeds.
// It states what these runs measured, never what the article expects.

// Summary means are null where every run of a variant diverged.
export const fmtSteps = (m) => (m.mean == null ? '—' : `${Math.round(m.mean)} ± ${Math.round(m.std)}`);
export const fmtPercent = (m) => (m.mean == null ? '—' : `${(100 * m.mean).toFixed(1)} ± ${(100 * m.std).toFixed(1)}%`);

// summary: the results schema's "summary" array; steps: the run length; t: the translator.
export function compareSentence(summary, steps, t) {
  if (!summary || summary.length < 2) return '';
  const base = summary.find((s) => s.variant === 'learned') || summary[0];
  const others = summary.filter((s) => s !== base);
  const n = Math.max(...summary.map((s) => s.n));
  // Steps to loss < 0.1 is the sharper measure, but only when every seed of every variant got there.
  const bySteps = summary.every((s) => s.n > 0 && s.steps_to_loss_0_1.reached === s.n);
  const metric = (s) => (bySteps ? s.steps_to_loss_0_1 : s.token_acc);
  const fmt = bySteps ? fmtSteps : fmtPercent;

  const clauses = others.map((s) => {
    const a = metric(s), b = metric(base);
    let verdict;
    if (a.mean == null || b.mean == null) verdict = t('verdictNoData');
    else if (n < 2) verdict = t('verdictSingle');
    else if (Math.abs(a.mean - b.mean) <= a.std + b.std) verdict = t('verdictWithin');
    else if (bySteps) verdict = t(a.mean > b.mean ? 'verdictSlower' : 'verdictFaster');
    else verdict = t(a.mean < b.mean ? 'verdictLower' : 'verdictHigher');
    const extra = notes(s, bySteps, t);
    return t(bySteps ? 'clauseSteps' : 'clauseAcc', {
      variant: s.variant, value: fmt(a), verdict, extra: extra.length ? extra.join(t('noteJoin')) + t('noteSep') : '',
    });
  });
  const baseNotes = notes(base, bySteps, t);
  return t(bySteps ? 'sentenceSteps' : 'sentenceAcc', {
    n, steps, base: fmt(metric(base)),
    baseExtra: baseNotes.length ? t('noteWrap', { notes: baseNotes.join(t('noteJoin')) }) : '',
    others: clauses.join(t('clauseJoin')),
  });
}

// What the mean hides: seeds that never reached loss < 0.1, and seeds that diverged.
function notes(s, bySteps, t) {
  const out = [];
  if (!bySteps) out.push(t('noteReached', { k: s.steps_to_loss_0_1.reached, n: s.n }));
  if (s.diverged > 0) out.push(t('noteDiverged', { k: s.diverged }));
  return out;
}
