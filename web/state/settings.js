// The settings the form holds (controls/settings-form.js builds and reads the form, and the core's
// validator judges them) and what follows from them alone.
import { experimentConfig } from './state.js';
import { store } from './store.js';

// Owner: controls/settings-form.js.
// base: the default preset's settings, what a link leaves out; values: the last value of each
// field that parsed; texts: each field's text as typed (what the URL carries); fieldErrors: key
// -> { key: i18n key } or { text: validator message }; generalErrors: validator messages that
// name no field of the form.
export const settings = store({ base: {}, values: {}, texts: {}, fieldErrors: {}, generalErrors: [] });

export function configValid() {
  const { fieldErrors, generalErrors } = settings.get();
  return Object.keys(fieldErrors).length === 0 && generalErrors.length === 0;
}

// The config of Run all with these settings, as JSON text: the core plans, and judges, "all" by
// what every experiment needs (its memory estimate counts experiment 3's W_o snapshots).
export const runAllConfig = (values = settings.get().values) => JSON.stringify(experimentConfig(values, 'all'));
