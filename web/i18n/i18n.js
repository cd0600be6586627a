// The page's languages and their texts. Each language's texts are in three files by area
// (<lang>-interface.js: buttons, labels, statuses and errors; <lang>-terms.js: the names of
// settings, variants, measures and experiments; <lang>-explanations.js: longer help and the
// lesson's sentences), merged here so that t(key) finds any key. Static text carries
// data-i18n="key" (in index.html, or set by the modules that build the sections and fields);
// everything else asks t(key, params). Strings are only ever set with textContent. The core's
// words (verdicts, reasons, claims' statements, the settings' help) are the core's, asked for in
// the page's language (lesson.js, settings-form.js).

import { texts as enInterface } from './en-interface.js';
import { texts as enTerms } from './en-terms.js';
import { texts as enExplanations } from './en-explanations.js';
import { texts as zhInterface } from './zh-interface.js';
import { texts as zhTerms } from './zh-terms.js';
import { texts as zhExplanations } from './zh-explanations.js';

// The page's one list of languages, the first its default: a language is one the page has texts
// in. They are the languages the core writes its words in (src/config/languages.h), which
// tests/wasm/sentences-once.test.js holds them to: the page needs its list before the core has
// loaded, to word even the engine's failure.
const TEXTS = {
  en: { ...enInterface, ...enTerms, ...enExplanations },
  zh: { ...zhInterface, ...zhTerms, ...zhExplanations },
};
const CODES = Object.keys(TEXTS);
let current = CODES[0];

export const lang = () => current;
// The languages' codes, the default first.
export const languages = () => CODES;
// A language's name in itself ("English", "中文"), as the language menu offers it.
export const languageName = (code) => TEXTS[code].languageName;

export function detectLang(preferred) {
  for (const l of preferred || []) {
    const hit = CODES.find((code) => new RegExp(`^${code}\\b`, 'i').test(l));
    if (hit) return hit;
  }
  return CODES[0];
}

export function setLang(l) {
  current = TEXTS[l] ? l : CODES[0];
  document.documentElement.lang = TEXTS[current].langTag;
}

export function t(key, params = {}) {
  const s = TEXTS[current][key] ?? TEXTS[CODES[0]][key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

// A variant as the page names it: its code (the results files' name), and on the Chinese page
// the Chinese name beside it.
export function variantLabel(code) {
  const name = TEXTS[current][`v_${code}`];
  return name ? `${code}（${name}）` : code;
}

// A preset's text key: presetQuick, presetArticle, presetCustom (settings that match none).
export const presetKey = (name) => `preset${name.replace(/^./, (c) => c.toUpperCase())}`;

// Sets the text of every [data-i18n] element under root.
export function applyStatic(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
}
