// The page's settings as one table that round-trips through the URL (like tensorflow/playground's
// state.ts). This module only knows types; ranges and cross-field rules are judged by the wasm
// validator (the same C++ code as the CLI), so a limit is written down in exactly one place.

// key: URL parameter and form field name; path: where it lives in the config JSON
// (docs/config.md).
export const SETTINGS = [
  { key: 'task', path: ['task', 'name'], type: 'enum', values: ['copy', 'reverse', 'sort'] },
  { key: 'd_model', path: ['model', 'd_model'], type: 'int' },
  { key: 'heads', path: ['model', 'heads'], type: 'int' },
  { key: 'layers', path: ['model', 'layers'], type: 'int' },
  { key: 'd_ff', path: ['model', 'd_ff'], type: 'int' },
  { key: 'ln', path: ['model', 'ln'], type: 'enum', values: ['post', 'pre'] },
  { key: 'length', path: ['task', 'length'], type: 'int' },
  { key: 'alphabet', path: ['task', 'alphabet'], type: 'int' },
  { key: 'batch', path: ['train', 'batch'], type: 'int' },
  { key: 'lr', path: ['train', 'lr'], type: 'float' },
  { key: 'steps', path: ['train', 'steps'], type: 'int' },
  { key: 'seeds', path: ['seeds'], type: 'int' },
  { key: 'seed', path: ['train', 'seed'], type: 'int' },
  { key: 'probe_every', path: ['train', 'probe_every'], type: 'int' },
];

// The defaults of docs/config.md, used only until the wasm presets are known (and if a preset
// lacks a key).
export const SPEC_DEFAULTS = {
  task: 'copy', d_model: 64, heads: 4, layers: 2, d_ff: 256, ln: 'post', length: 8, alphabet: 10,
  batch: 32, lr: 0.001, steps: 400, seeds: 5, seed: 0, probe_every: 25,
};

export const EXPERIMENTS = ['remove_wo', 'freeze_wo', 'wo_heatmap', 'activation_stats'];
export const LANGS = ['en', 'zh'];
export const THEMES = ['light', 'dark'];  // without ?theme=, the browser's prefers-color-scheme

const BY_KEY = new Map(SETTINGS.map((s) => [s.key, s]));
export const settingByKey = (key) => BY_KEY.get(key);

// Parses one field's text. Returns { value } or { error: i18n key }.
export function parseValue(setting, text) {
  const s = String(text).trim();
  if (setting.type === 'enum') {
    return setting.values.includes(s) ? { value: s } : { error: 'errEnum' };
  }
  if (setting.type === 'int') {
    return /^[+-]?\d{1,9}$/.test(s) ? { value: Number(s) } : { error: 'errInt' };
  }
  const x = Number(s);  // float: accepts 1e-3 and 0.001, refuses '', 'abc', Infinity
  return s !== '' && Number.isFinite(x) ? { value: x } : { error: 'errNumber' };
}

function getPath(obj, path) {
  return path.reduce((o, k) => (o == null ? undefined : o[k]), obj);
}

// A flat settings object from a config JSON (a preset, an imported results' config).
export function settingsFromConfig(config, fallback = SPEC_DEFAULTS) {
  const out = {};
  for (const s of SETTINGS) {
    const v = getPath(config, s.path);
    out[s.key] = v === undefined ? fallback[s.key] : v;
  }
  return out;
}

// The config JSON (docs/config.md) of an experiment with these settings.
export function experimentConfig(settings, experiment) {
  const config = { experiment, model: {}, task: {}, train: {} };
  for (const s of SETTINGS) {
    let node = config;
    for (const k of s.path.slice(0, -1)) node = node[k];
    node[s.path[s.path.length - 1]] = settings[s.key];
  }
  return config;
}

// The config of one run: the experiment's settings with this variant and seed.
export function runConfig(experimentCfg, variant, seedIndex) {
  return {
    model: { ...experimentCfg.model, wo: variant },
    task: { ...experimentCfg.task },
    train: { ...experimentCfg.train, seed: experimentCfg.train.seed + seedIndex },
  };
}

// The URL field of a config error ("model.heads: ...") -> the setting key ('heads').
export function settingForField(fieldPath) {
  const hit = SETTINGS.find((s) => s.path.join('.') === fieldPath);
  return hit ? hit.key : null;
}

// Reads settings, language and embed mode from a query string. Values that do not parse are
// reported (with the text found) and left out, so the caller falls back to its base settings.
export function readQuery(search) {
  const params = new URLSearchParams(search);
  const settings = {};
  const problems = [];  // { key, text, error }
  for (const s of SETTINGS) {
    if (!params.has(s.key)) continue;
    const text = params.get(s.key);
    const r = parseValue(s, text);
    if ('error' in r) problems.push({ key: s.key, text, error: r.error });
    else settings[s.key] = r.value;
  }
  let lang = null;
  if (params.has('lang')) {
    const l = params.get('lang');
    if (LANGS.includes(l)) lang = l;
    else problems.push({ key: 'lang', text: l, error: 'errEnum' });
  }
  let embed = null;
  if (params.has('embed')) {
    const e = params.get('embed');
    if (EXPERIMENTS.includes(e)) embed = e;
    else problems.push({ key: 'embed', text: e, error: 'errEnum' });
  }
  let theme = null;
  if (params.has('theme')) {
    const th = params.get('theme');
    if (THEMES.includes(th)) theme = th;
    else problems.push({ key: 'theme', text: th, error: 'errEnum' });
  }
  return { settings, lang, embed, theme, problems };
}

// The query string for these settings (all of them, so a link means the same run even after
// the presets change), plus language, embed mode and theme when set.
export function writeQuery(settings, { lang = null, embed = null, theme = null } = {}) {
  const params = new URLSearchParams();
  for (const s of SETTINGS) params.set(s.key, String(settings[s.key]));
  if (lang) params.set('lang', lang);
  if (embed) params.set('embed', embed);
  if (theme) params.set('theme', theme);
  return '?' + params.toString();
}

// Which preset these settings are, or 'custom'.
export function matchPreset(settings, presets) {
  for (const [name, cfg] of Object.entries(presets)) {
    const p = settingsFromConfig(cfg);
    if (SETTINGS.every((s) => p[s.key] === settings[s.key])) return name;
  }
  return 'custom';
}
