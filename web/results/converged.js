// Real words trained to the end natively (scripts/record-converged.sh; recorded/converged/, which
// build-wasm.sh copies to dist/converged/): per model size (a native preset of the core,
// converged and converged_narrow) its results, their analysis (`wolab report --json`, the core's
// analyze of them) and one model per variant, plus the manifest (command, version, commit, CPU
// and wall time, sha256 of each file) and the held-out words the build chose for the word box.
// Same origin only; fetched once. Without the folder (a dev server) there is nothing to show.

const ROOT = 'converged/';

let loaded = null;  // the promise of everything, once asked for

async function fetchJson(path) {
  const response = await fetch(ROOT + path);
  if (!response.ok) throw new Error(`${ROOT}${path}: ${response.status}`);
  return response.json();
}

// The sizes in the manifest's order, each { preset, analysis, models: { variant: url },
// results() }, with the manifest and the example words: a promise of { manifest, sizes,
// examples }, or of null when nothing was recorded here. results() is a promise of the results
// file (megabytes: every step's loss), fetched once, only when a view asks for it.
export function convergedRecording() {
  if (!loaded) loaded = load().catch((e) => {
    console.error(`converged: ${e.message || e}`);
    return null;
  });
  return loaded;
}

async function load() {
  let manifest;
  try {
    manifest = await fetchJson('manifest.json');
  } catch {
    return null;
  }
  const files = Object.keys(manifest.files || {});
  // In the order they were recorded (the manifest's presets), each with its results file.
  const resultsFile = (p) => files.find((f) => f.startsWith(`${p}/results.`) && f.endsWith('.json'));
  const presets = (manifest.presets || []).filter(resultsFile);
  const sizes = await Promise.all(presets.map(async (preset) => {
    const analysis = await fetchJson(`${preset}/analysis.json`);
    let results = null;
    const models = Object.fromEntries(files.filter((f) => f.startsWith(`${preset}/models/`) && f.endsWith('.safetensors'))
      .map((f) => [f.split('/').pop().split('.')[0], ROOT + f]));
    return { preset, analysis, models, results: () => (results ||= fetchJson(resultsFile(preset))) };
  }));
  let examples = [];
  if (files.includes('examples.txt')) {
    const response = await fetch(`${ROOT}examples.txt`);
    if (response.ok) examples = (await response.text()).split('\n').map((w) => w.trim()).filter(Boolean);
  }
  return { manifest, sizes, examples };
}
