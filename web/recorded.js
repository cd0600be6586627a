// Results recorded with the native CLI at build time (scripts/record.sh writes
// recorded/index.json, which names each experiment's file in recorded/<preset>/), shown on load
// so that a reader sees curves, tables and verdicts before pressing Run, and read by the claims
// panel for every preset. Same origin only; every file goes through the core (parseResults for
// the sections, analyze for the panel) like an imported one. Without the files (a dev server)
// the page says so and works.

import { t } from './i18n.js';
import { parseResults } from './analysis.js';

const folder = (preset) => `recorded/${preset}/`;

// Whether `file` (the name showResults keeps) is a recording of `preset`.
export const isRecordedWith = (file, preset) => file.startsWith(folder(preset));

// The preset a recording (by the name showResults keeps) was made with.
export const recordedPreset = (file) => file.split('/')[1];

// The files of `experiments` (the names the page shows) recorded with `preset`, as recorded:
// [{ experiment, file, text }], those that could not be fetched left out; null when there is no
// index (nothing is recorded here).
export async function recordedFiles(preset, experiments) {
  let index;
  try {
    const response = await fetch('recorded/index.json', { cache: 'no-cache' });
    if (!response.ok) throw new Error(String(response.status));
    index = await response.json();
  } catch {
    return null;
  }
  const recorded = (index.presets && index.presets[preset]) || {};
  const files = await Promise.all(experiments.filter((e) => Object.hasOwn(recorded, e)).map(async (experiment) => {
    const file = folder(preset) + String(recorded[experiment]);
    try {
      const response = await fetch(file);
      return response.ok ? { experiment, file, text: await response.text() } : null;
    } catch {
      return null;
    }
  }));
  return files.filter(Boolean);
}

// Fetches the files of `experiments` recorded with `preset` and shows them.
// show(results, text, { source, file }): results-shown.js's showResults; returns why it did not show them, or ''.
export async function loadRecorded(preset, experiments, show) {
  const files = await recordedFiles(preset, experiments);
  if (!files) {
    const none = document.getElementById('claims-none');
    none.dataset.i18n = 'recordedNone';
    none.textContent = t('recordedNone');
    return;
  }
  for (const { file, text } of files) {
    try {
      const parsed = await parseResults(text);
      show(JSON.parse(parsed), parsed, { source: 'recorded', file });
    } catch (e) {
      console.error(`${file}: ${e.message || e}`);
    }
  }
}
