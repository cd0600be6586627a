// Results recorded with the native CLI at build time (scripts/record.sh writes
// recorded/index.json, which names each experiment's file in recorded/<preset>/), shown on load
// so that a reader sees curves, tables and verdicts before pressing Run. Same origin only; every
// file goes through the core's parseResults like an imported one. Without the files (a dev
// server) the page says so and works.

import { t } from './i18n.js';
import { parseResults } from './analysis.js';

const folder = (preset) => `recorded/${preset}/`;

// Whether `file` (the name showResults keeps) is a recording of `preset`.
export const isRecordedWith = (file, preset) => file.startsWith(folder(preset));

// Fetches the files of `experiments` (the names the page shows) recorded with `preset`.
// show(results, text, { source, file }): results-shown.js's showResults; returns why it did not show them, or ''.
export async function loadRecorded(preset, experiments, show) {
  let index;
  try {
    const response = await fetch('recorded/index.json', { cache: 'no-cache' });
    if (!response.ok) throw new Error(String(response.status));
    index = await response.json();
  } catch {
    const none = document.getElementById('claims-none');
    none.dataset.i18n = 'recordedNone';
    none.textContent = t('recordedNone');
    return;
  }
  const recorded = (index.presets && index.presets[preset]) || {};
  const files = experiments.filter((e) => Object.hasOwn(recorded, e)).map((e) => folder(preset) + String(recorded[e]));
  const texts = await Promise.all(files.map(async (file) => {
    try {
      const response = await fetch(file);
      return response.ok ? [file, await response.text()] : null;
    } catch {
      return null;
    }
  }));
  for (const entry of texts) {
    if (!entry) continue;
    const [file, text] = entry;
    try {
      const parsed = await parseResults(text);
      show(JSON.parse(parsed), parsed, { source: 'recorded', file });
    } catch (e) {
      console.error(`${file}: ${e.message || e}`);
    }
  }
}
