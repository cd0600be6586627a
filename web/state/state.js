// The page's settings round-trip through the URL (like tensorflow/playground's state.ts). Which
// settings exist, their kinds, keys, defaults and ranges are the core's settings table
// (Embind settings(), docs/api.md), and the experiments are its experiments(): this module
// only parses text by kind and maps keys to config paths. Ranges and cross-field rules are
// judged by the wasm validator.
import { canLoad, dataFor } from './data-files.js';
import { languages } from '../i18n/i18n.js';

export const THEMES = ['light', 'dark'];  // without ?theme=, the browser's prefers-color-scheme
export const CHROME_KEYS = ['lang', 'theme', 'embed'];  // the parameters besides the settings

const core = { all: [], settings: [], experiments: [] };  // set by setCoreTables alone

// Owner: app.js. Takes the core's tables (parsed settings() and experiments()), once the module
// loads; they are read-only after.
// A choice or an experiment that needs data this page cannot load (needs_data, web/state/data-files.js)
// is neither offered nor read from a link.
export function setCoreTables(settings, experiments) {
  const offered = (s) => (s.choices && s.needs_data ? { ...s, choices: s.choices.filter((c) => canLoad(s.needs_data[c])) } : s);
  core.all = settings;
  core.settings = settings.filter((s) => s.form).map(offered);
  core.experiments = experiments.filter((e) => canLoad(e.needs_data));
}

// The data files a run config needs, { name: url } (web/state/data-files.js).
export const runData = (config) => dataFor(config, core.all);

// The form's settings, in the core's order: { key, path, kind, default, choices, ... }.
export const formSettings = () => core.settings;
// Every setting of the core's table, the form's and the others.
export const allSettings = () => core.all;
export const experimentInfos = () => core.experiments;

// The text of a value as the form and the URL carry it (a list of reals: "0.001,0.01").
export const valueText = (value) => (Array.isArray(value) ? value.join(',') : String(value));

function parseReal(s) {
  const x = Number(s);  // accepts 1e-3 and 0.001, refuses '', 'abc', Infinity
  return s !== '' && Number.isFinite(x) ? x : null;
}

// Parses one field's text by its kind. Returns { value } or { error: i18n key }.
export function parseValue(setting, text) {
  const s = String(text).trim();
  switch (setting.kind) {
    case 'choice': return setting.choices.includes(s) ? { value: s } : { error: 'errEnum' };
    case 'integer': return /^[+-]?\d{1,9}$/.test(s) ? { value: Number(s) } : { error: 'errInt' };
    case 'reals': {
      const values = s.split(',').map((part) => parseReal(part.trim()));
      return values.every((x) => x !== null) ? { value: values } : { error: 'errNumbers' };
    }
    default: {
      const x = parseReal(s);
      return x === null ? { error: 'errNumber' } : { value: x };
    }
  }
}

const getPath = (obj, path) => path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);

// A flat settings object from a config JSON (a preset, an imported results' config).
export function settingsFromConfig(config) {
  const out = {};
  for (const s of core.settings) {
    const v = getPath(config, s.path);
    out[s.key] = v === undefined ? s.default : v;
  }
  return out;
}

// The config JSON (docs/config.md) of an experiment with these settings.
export function experimentConfig(settings, experiment) {
  const config = { experiment };
  for (const s of core.settings) {
    const parts = s.path.split('.');
    let node = config;
    for (const k of parts.slice(0, -1)) node = node[k] ||= {};
    node[parts[parts.length - 1]] = settings[s.key];
  }
  return config;
}

// The setting a config error names ("model.heads: ...", "lr_stability.lrs[2]: ...") -> its key.
export function settingForField(fieldPath) {
  const path = fieldPath.replace(/\[\d+\]$/, '');
  const hit = core.settings.find((s) => s.path === path);
  return hit ? hit.key : null;
}

// Language, embed mode and theme from a query string, readable before the core has loaded.
// An embed names an experiment; readSettings checks it once the experiments are known.
export function readQueryChrome(search) {
  const params = new URLSearchParams(search);
  const problems = [];  // { key, text, error, allowed }
  const pick = (key, allowed) => {
    if (!params.has(key)) return null;
    const v = params.get(key);
    if (allowed.includes(v)) return v;
    problems.push({ key, text: v, error: 'errEnum', allowed });
    return null;
  };
  return { lang: pick('lang', languages()), theme: pick('theme', THEMES), embed: params.get('embed'), problems };
}

// The settings a query string sets. Values that do not parse are reported (with the text
// found) and left out; parameters the page does not read (neither a setting of the form nor
// lang, theme or embed: `experiment`, a typo) are listed in `unknown`, for the caller to report.
export function readSettings(search) {
  const params = new URLSearchParams(search);
  const settings = {};
  const problems = [];
  for (const s of core.settings) {
    if (!params.has(s.key)) continue;
    const text = params.get(s.key);
    const r = parseValue(s, text);
    if ('error' in r) problems.push({ key: s.key, text, error: r.error, ...(s.kind === 'choice' && { allowed: s.choices }) });
    else settings[s.key] = r.value;
  }
  const known = new Set([...core.settings.map((s) => s.key), ...CHROME_KEYS]);
  const unknown = [...params.keys()].filter((key, i, all) => !known.has(key) && all.indexOf(key) === i)
    .map((key) => ({ key, text: params.get(key) }));
  return { settings, problems, unknown };
}

// The query string for these settings (all of them, so a link means the same run even after
// the presets change), plus language, embed mode and theme when set.
export function writeQuery(texts, { lang = null, embed = null, theme = null } = {}) {
  const params = new URLSearchParams();
  for (const s of core.settings) params.set(s.key, valueText(texts[s.key]));
  if (lang) params.set('lang', lang);
  if (embed) params.set('embed', embed);
  if (theme) params.set('theme', theme);
  return '?' + params.toString();
}

// The preset nearest these settings: the one that agrees with the most of them, the first of
// `names` on a tie (a damaged link falls back to the preset it was made from).
export function nearestPreset(settings, presets, names) {
  const agree = (name) => {
    const p = settingsFromConfig(presets[name]);
    return core.settings.filter((s) => valueText(p[s.key]) === valueText(settings[s.key])).length;
  };
  return names.reduce((best, name) => (agree(name) > agree(best) ? name : best));
}

// Which preset these settings are, or 'custom'.
export function matchPreset(settings, presets) {
  for (const [name, cfg] of Object.entries(presets)) {
    const p = settingsFromConfig(cfg);
    if (core.settings.every((s) => valueText(p[s.key]) === valueText(settings[s.key]))) return name;
  }
  return 'custom';
}
