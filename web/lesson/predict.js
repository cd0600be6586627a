// Predict, then run. Before the reader's first live run of an experiment, its recorded results
// (the section's body: verdict, charts, tables) stay folded behind the experiment's question
// (predict-questions.js), with two ways on: answer it, or show the recorded result. Once
// answered, the page says whether the results shown agreed: the recording, an imported file, or
// the reader's live runs once they have all ended. An experiment with nothing recorded asks
// before its first run. Nothing waits for an answer: Run works either way.
//
// The section's data-fold ("folded" | "open") hides the body (style.css); the box .predict says
// data-mode ("ask" | "answer" | none) and, once answered and measured, data-verdict ("agreed" |
// "disagreed" | "open"): for tests and for the page's colours.

import { t } from '../i18n/i18n.js';
import { button, el } from '../base/dom.js';
import { questionFor } from './predict-questions.js';
import { leadPhrase } from './lesson.js';

const guesses = new Map();  // experiment -> the answer code the reader chose
const shown = new Set();    // experiments whose recorded results the reader unfolded unanswered

function labelled(className, text, onClick) {
  const b = button(className, onClick);
  b.textContent = text;
  return b;
}

// The answer sentence: what the reader expected, what the results shown measured, and whether
// they agree. Returns [text, verdict] (verdict '' until there is a measurement).
function answerText(exp, q, guess, settled) {
  const expected = q.expected(guess);
  if (exp.source === 'live' && !settled) return [t('predictPending', { expected }), ''];
  if (!exp.runs.length) return [t('predictPress', { expected }), ''];
  if (!exp.analysed) return [t('predictAnalysing', { expected }), ''];
  const source = t(`predictSource_${exp.source}`);
  const reading = exp.analysis && q.read(exp.analysis, leadPhrase);
  if (!reading) return [t('predictUnmeasured', { expected, source }), ''];
  const verdict = reading.borneOut.includes(guess) ? 'agreed' : reading.borneOut.length ? 'disagreed' : 'open';
  return [t('predictMeasured', { expected, source, measured: reading.measured, verdict: t(`predict_${verdict}`) }), verdict];
}

// Called with every render of the experiment's section (sections/experiment-section.js);
// settled: its runs have all ended; renderNow: the section drawn again at once.
export function renderPrediction(exp, section, settled, renderNow) {
  const box = section.querySelector('.predict');
  const q = questionFor(exp.info);
  const guess = guesses.get(exp.name);
  const folded = Boolean(q) && guess === undefined && exp.source === 'recorded' && !shown.has(exp.name);
  section.dataset.fold = folded ? 'folded' : 'open';
  // Asked while the answer is still to come: recorded results folded, nothing shown yet, or live
  // runs under way; not once the reader has seen the results.
  const asking = q && guess === undefined && (folded || !exp.source || (exp.source === 'live' && !settled));
  const mode = !q ? '' : guess !== undefined ? 'answer' : asking ? 'ask' : '';
  box.hidden = !mode;
  box.dataset.mode = mode;
  if (!mode) return;
  const [text, verdict] = mode === 'answer' ? answerText(exp, q, guess, settled) : ['', ''];
  const asked = t(`${exp.name}_question`);
  const key = `${asked}\n${mode}\n${folded}\n${text}`;
  if (box.dataset.key === key) return;
  const focused = box.contains(document.activeElement);
  box.dataset.key = key;
  box.dataset.verdict = verdict;
  const question = el('p', 'predict-question');
  const lead = mode === 'answer' ? 'predictAsked' : folded ? 'predictLead' : 'predictLeadRun';
  question.append(el('strong', null, t(lead)), asked);  // each lead ends with its own space, or none (中文)
  if (mode === 'answer') {
    box.replaceChildren(question, el('p', 'predict-answer', text));
    if (focused) box.focus({ preventScroll: true });  // the button pressed is gone: keep the reader here
    return;
  }
  const answers = el('div', 'predict-answers');
  answers.setAttribute('role', 'group');
  answers.setAttribute('aria-label', asked);
  for (const code of q.answers(exp)) {
    answers.append(labelled('predict-option', q.label(code), () => {
      guesses.set(exp.name, code);
      renderNow();
    }));
  }
  if (folded) {
    answers.append(labelled('predict-show', t('predictShow'), () => {
      shown.add(exp.name);
      renderNow();
      section.querySelector('.exp-body').focus({ preventScroll: true });  // where the reader is: no jump
    }));
  }
  box.replaceChildren(question, answers, el('p', 'hint', t('predictOptional')));
}
