// English and Chinese strings. Static text carries data-i18n="key" (in index.html, or set by the
// modules that build the sections and fields); everything else asks t(key, params). Strings are
// only ever set with textContent.

import { en } from './i18n-en.js';
import { zh } from './i18n-zh.js';

const STRINGS = { en, zh };
let current = 'en';

export const lang = () => current;

export function detectLang(languages) {
  for (const l of languages || []) {
    if (/^zh\b/i.test(l)) return 'zh';
    if (/^en\b/i.test(l)) return 'en';
  }
  return 'en';
}

export function setLang(l) {
  current = STRINGS[l] ? l : 'en';
  document.documentElement.lang = current === 'zh' ? 'zh-CN' : 'en';
}

export function t(key, params = {}) {
  const s = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

// A variant as the page names it: its code (the results files' name), and on the Chinese page
// the Chinese name beside it.
export function variantLabel(code) {
  const name = STRINGS[current][`v_${code}`];
  return name ? `${code}（${name}）` : code;
}

// A preset's text key: presetQuick, presetArticle, presetCustom (settings that match none).
export const presetKey = (name) => `preset${name.replace(/^./, (c) => c.toUpperCase())}`;

// Sets the text of every [data-i18n] element under root.
export function applyStatic(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
}
