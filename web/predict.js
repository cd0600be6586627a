// Predict, then run: before an experiment's first live run the reader may say which variant of
// its first comparison will learn faster; once the live runs have settled, the page says whether
// the measurement (the core's analysis: that pair's speed leader) agreed. Optional: nothing waits
// for an answer.

import { t } from './i18n.js';

const guesses = new Map();  // experiment -> the variant guessed faster, or '' for no difference

// The pair the guess is about: the experiment's first comparison, known from results shown.
const firstPair = (exp) => exp.analysis && exp.analysis.finding && exp.analysis.finding.pairs && exp.analysis.finding.pairs[0];

// box: where the question or the answer goes; lead(m): lesson.js's wording of a comparison.
export function renderPrediction(exp, box, settled, lead) {
  let el = box.querySelector('.predict');
  const live = exp.source === 'live';
  if (live && settled && guesses.has(exp.name) && firstPair(exp)) {
    const speed = firstPair(exp).speed;
    const guess = guesses.get(exp.name);
    const agreed = (speed.leader || '') === guess;
    const text = t(agreed ? 'predictAgreed' : 'predictDisagreed', {
      guess: guess ? t('predictFaster', { variant: guess }) : t('predictNone'), lead: lead(speed),
    });
    if (!el || el.tagName !== 'P') {
      el?.remove();
      el = document.createElement('p');
      el.className = 'predict';
      box.append(el);
    }
    el.textContent = text;
    return;
  }
  const pair = firstPair(exp);
  if (live || !pair) {
    el?.remove();
    return;
  }
  const key = `${pair.a}/${pair.b}/${t('predictLead')}`;
  if (el && el.dataset.key === key) return;
  el?.remove();
  el = document.createElement('div');
  el.className = 'predict';
  el.dataset.key = key;
  const id = `predict-${exp.name}`;
  const label = document.createElement('label');
  label.htmlFor = id;
  label.textContent = t('predictLead');
  const select = document.createElement('select');
  select.id = id;
  const options = [['-', '—'], [pair.a, t('predictFaster', { variant: pair.a })], [pair.b, t('predictFaster', { variant: pair.b })], ['', t('predictNone')]];
  for (const [value, text] of options) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    select.append(o);
  }
  if (guesses.has(exp.name)) select.value = guesses.get(exp.name);
  select.addEventListener('change', () => {
    if (select.value === '-') guesses.delete(exp.name);
    else guesses.set(exp.name, select.value);
  });
  const hint = document.createElement('span');
  hint.className = 'hint';
  hint.textContent = t('predictSkip');
  el.append(label, select, hint);
  box.append(el);
}
