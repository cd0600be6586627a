// The settings form: built from the core's settings table, read into the settings store
// (state/settings.js, this module's), judged by the wasm validator, and kept in the URL; a link
// with bad settings falls back to a whole preset, with one notice.
import { lang, presetKey, t } from '../i18n/i18n.js';
import {
  allSettings, CHROME_KEYS, formSettings, matchPreset, nearestPreset, parseValue, settingForField, settingsFromConfig,
  valueText, writeQuery,
} from '../state/state.js';
import { $ } from '../base/dom.js';
import { chrome } from '../state/chrome.js';
import { core } from '../state/engine.js';
import { configValid, runAllConfig, settings } from '../state/settings.js';
import { notice } from '../base/notices.js';
import { showRecorded } from '../results/results-shown.js';

const form = () => $('#settings-form');
// By id, not form.elements[key]: form.elements.length is the element count, not the field.
const input = (key) => document.getElementById(`s-${key}`);

// The preset selector: the core's presets in its order, then Custom.
function buildPresets() {
  for (const name of [...core.get().presetNames, 'custom']) {
    const option = new Option(name, name);
    option.dataset.i18n = presetKey(name);
    $('#preset').add(option);
  }
}

// The preset selector and a field per setting of the core's table, in its order: a select for a choice (option texts
// are the i18n keys <key>_<value>), a number box for a whole number, a text box for a real or a
// list of reals (so 1e-3 can be typed), and under it the setting's help, the core's (showHelp).
// The default preset's settings become the base a link leaves out.
export function buildForm() {
  const { presets, presetNames } = core.get();
  settings.update({ base: settingsFromConfig(presets[presetNames[0]]) });
  buildPresets();
  for (const s of formSettings()) {
    const field = document.createElement('div');
    field.className = 'field';
    field.dataset.setting = s.key;
    const label = document.createElement('label');
    label.htmlFor = `s-${s.key}`;
    label.dataset.i18n = `f_${s.key}`;
    let control;
    if (s.kind === 'choice') {
      control = document.createElement('select');
      for (const value of s.choices) {
        const option = new Option(value, value);
        option.dataset.i18n = `${s.key}_${value}`;
        control.add(option);
      }
    } else {
      control = document.createElement('input');
      control.type = s.kind === 'integer' ? 'number' : 'text';
      control.inputMode = s.kind === 'integer' ? 'numeric' : 'decimal';
      if (s.kind === 'integer') control.step = '1';
      else control.spellcheck = false;
    }
    control.id = `s-${s.key}`;
    control.name = s.key;
    const help = document.createElement('small');
    help.className = 'help';
    help.id = `help-${s.key}`;
    control.setAttribute('aria-describedby', help.id);
    field.append(label, control, help);
    form().appendChild(field);
  }
  showHelp();
}

// Each field's help in the page's language: the core's, one table for the CLI's --help and the
// page (settings().help, src/lab/settings_help.cpp).
export function showHelp() {
  for (const s of formSettings()) document.getElementById(`help-${s.key}`).textContent = s.help[lang()];
}

// Shows these settings in the form; onSettingsEdited then reads them back.
function fillForm(values) {
  for (const s of formSettings()) input(s.key).value = valueText(values[s.key]);
}

// The form's texts, the values of those that parse (the last that parsed for the others) and
// each field's parse error.
function readForm() {
  const values = { ...settings.get().values };
  const texts = {};
  const fieldErrors = {};
  for (const s of formSettings()) {
    const text = input(s.key).value;
    texts[s.key] = text;
    const r = parseValue(s, text);
    if ('error' in r) fieldErrors[s.key] = { key: r.error };
    else values[s.key] = r.value;
  }
  return { values, texts, fieldErrors };
}

// The wasm validator's messages for these settings: [{ key | null, text, rest }], rest being the
// text after the field path ("model.heads: d_model 8 is not…" -> "d_model 8 is not…"), judged
// as Run all would train them.
export function validatorMessages(values) {
  const { wolab } = core.get();
  if (!wolab) return [];
  const config = runAllConfig(values);
  return wolab.validateConfig(config).map((text) => {
    const colon = text.indexOf(':');
    const key = colon > 0 ? settingForField(text.slice(0, colon).trim()) : null;
    return { key, text, rest: key ? text.slice(colon + 1).trim() : text };
  });
}

// A setting's label, which notices use in place of its path in the config.
const fieldLabel = (key) => t(`f_${key}`);

// The form read and judged by the core's validator: the settings store's new value.
function judged() {
  const { values, texts, fieldErrors } = readForm();
  const generalErrors = [];
  for (const m of validatorMessages(values)) {
    if (m.key && !fieldErrors[m.key]) fieldErrors[m.key] = { text: m.rest };
    else if (!m.key) generalErrors.push(m.text);
  }
  return { ...settings.get(), values, texts, fieldErrors, generalErrors };
}

export function showErrors() {
  const { fieldErrors, generalErrors } = settings.get();
  for (const s of formSettings()) {
    const field = form().querySelector(`[data-setting="${s.key}"]`);
    const control = input(s.key);
    let msg = field.querySelector('.field-error');
    const err = fieldErrors[s.key];
    if (!err) {
      if (msg) msg.remove();
      control.removeAttribute('aria-invalid');
      control.setAttribute('aria-describedby', `help-${s.key}`);
      continue;
    }
    if (!msg) {
      msg = document.createElement('p');
      msg.className = 'field-error';
      msg.id = `err-${s.key}`;
      field.appendChild(msg);
    }
    msg.textContent = err.key ? t(err.key) : err.text;
    control.setAttribute('aria-invalid', 'true');
    control.setAttribute('aria-describedby', `${msg.id} help-${s.key}`);
  }
  const general = [...generalErrors];
  if (!configValid()) general.push(t('configInvalid'));
  $('#config-errors').textContent = general.join(' ');
  summarizeSettings();
}

// The folded settings' one-line summary; settings that need fixing unfold them.
function summarizeSettings() {
  const summary = $('#settings-summary');
  if (!formSettings().length) return;  // the core's settings table has not loaded yet
  const valid = configValid();
  summary.classList.toggle('error', !valid);
  summary.textContent = valid
    ? t('settingsSummaryLine', {
      preset: t(presetKey(matchPreset(settings.get().values, core.get().presets))),
      config: describeConfig(JSON.parse(runAllConfig())),
    })
    : t('settingsSummaryInvalid');
  if (!valid) $('#settings').open = true;
}

export function writeUrl() {
  const { texts } = settings.get();
  const { lang: chosen, embed, theme } = chrome.get();
  const query = writeQuery(texts, { lang: chosen, embed, theme });
  history.replaceState(null, '', query + location.hash);
  for (const a of document.querySelectorAll('.open-full')) {
    a.href = location.pathname + writeQuery(texts, { lang: chosen });
  }
}

function syncPreset() {
  $('#preset').value = configValid() ? matchPreset(settings.get().values, core.get().presets) : 'custom';
}

// The form read, judged and kept: whoever follows the settings (the control bar, the estimate)
// hears of it through the store.
export function onSettingsEdited() {
  settings.set(judged());
  showErrors();
  syncPreset();
  writeUrl();
}

// The form's events and the preset selector's, from the first paint on (the fields come later).
export function listenToForm() {
  form().addEventListener('input', onSettingsEdited);
  form().addEventListener('change', onSettingsEdited);
  form().addEventListener('submit', (e) => e.preventDefault());
  $('#preset').addEventListener('change', (e) => applyPreset(e.target.value));
}

function applyPreset(name) {
  const preset = core.get().presets[name];
  if (!preset) return;
  fillForm(settingsFromConfig(preset));
  onSettingsEdited();
  showRecorded(name);
}

// A link's text as a notice quotes it: at most 40 characters, so a pasted script or a long
// value cannot fill the page (it goes into the DOM as text either way).
const quoted = (text) => (text.length > 40 ? `${text.slice(0, 39)}…` : text);

// What the page uses in place of a bad language, theme or embed value.
function chromeFallback(key) {
  if (key === 'lang') return t('urlUsingLang', { language: $(`#lang option[value="${lang()}"]`).textContent });
  if (key === 'theme') return t('urlUsingTheme');
  return t('urlUsingWholePage');
}

// Settings from the link. If any of its settings does not parse, or the validator refuses them
// together (a rule between fields, the memory limit), the page takes every setting of the preset
// the link is nearest to, never a mix of the link's values and fallbacks, so what runs is a
// setting someone chose. One notice names each problem and what the page uses instead; a bad
// language, theme or embed, or a parameter the page does not read, changes no setting.
export function settingsFromLink(query) {
  const { presets, presetNames } = core.get();
  const { embed } = chrome.get();
  const linked = { ...settings.get().base, ...query.settings };
  const settingItems = [];
  const otherItems = [];
  for (const p of query.problems) {
    const field = fieldLabel(p.key);
    const text = quoted(p.text);
    const problem = p.allowed ? t('urlUse', { allowed: p.allowed.join(', ') }) : t(p.error);
    if (CHROME_KEYS.includes(p.key)) otherItems.push(t('urlChrome', { field, text, problem, fallback: chromeFallback(p.key) }));
    else settingItems.push(t('urlProblem', { field, text, problem }));
  }
  for (const m of validatorMessages(linked)) {
    settingItems.push(m.key ? t('urlRefused', { field: fieldLabel(m.key), problem: m.rest }) : m.text);
  }
  for (const u of query.unknown) otherItems.push(t('urlUnknown', { key: quoted(u.key), text: quoted(u.text) }));
  const items = [...settingItems, ...otherItems];
  // An embed hides the control bar until a run starts: its notice goes in the experiment's box.
  const experiment = embed || '';
  let values = linked;
  if (settingItems.length) {
    const preset = nearestPreset(linked, presets, presetNames);
    values = settingsFromConfig(presets[preset]);
    const lead = items.length === 1 ? 'linkFallbackOne' : 'linkFallbackMany';
    notice(t(lead, { n: items.length, preset: t(presetKey(preset)) }), 'error', { items, experiment });
  } else if (items.length) {
    notice(t(items.length === 1 ? 'linkProblem' : 'linkProblems', { n: items.length }), 'error', { items, experiment });
  }
  fillForm(values);
  onSettingsEdited();
}

// The core's learning rates of a config, by its JSON text: the config line is drawn at every
// frame of a run, and a config's rates never change.
const ratesOf = new Map();
// The learning rates the config's runs train at (the core's learningRates): the training rate,
// and those of the learning-rate sweep (experiment 6) named as such, so that a summary of Run
// all does not read as one training at six rates.
function learningRates(config) {
  const text = JSON.stringify(config);
  const key = `${lang()}:${text}`;
  if (!ratesOf.has(key)) {
    const rates = core.get().wolab.learningRates(text);
    const lr = config.train.lr;
    const sweep = rates.filter((r) => r !== lr);
    ratesOf.set(key, !sweep.length ? String(lr)
      : rates.includes(lr) ? t('lrWithSweep', { lr, rates: sweep.join(', ') })
        : t('lrSweepOnly', { rates: rates.join(', ') }));
  }
  return ratesOf.get(key);
}

export function describeConfig(config) {
  const s = settingsFromConfig(config);
  const seedText = s.seeds === 1 ? t('seedOne', { seed: s.seed }) : t('seedRange', { from: s.seed, to: s.seed + s.seeds - 1 });
  const count = (n, one, many) => t(n === 1 ? one : many, { n });
  // A setting the run does not read with this config (settings(): unused_by; g2p's alphabet and
  // length) is left out.
  const at = (path) => path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), config);
  const used = (key) => {
    const row = allSettings().find((r) => r.key === key);
    return !(row && row.unused_by && Object.entries(row.unused_by).some(([path, values]) => values.includes(at(path))));
  };
  return t('configLine', {
    ...s, task: t(`task_${s.task}`), heads: count(s.heads, 'headsOne', 'headsMany'), layers: count(s.layers, 'layersOne', 'layersMany'),
    lr: learningRates(config), ln: t(`ln_${s.ln}`), seedText,
    length: used('length') ? t('configLength', { n: s.length }) : '', alphabet: used('alphabet') ? t('configAlphabet', { n: s.alphabet }) : '',
  });
}
