// The data files this page can hand to a run: the core names what a choice or an experiment needs
// (settings() and experiments(): needs_data, docs/api.md), and this table says where the page
// finds each. Nothing here is fetched at boot: a training worker fetches a file when a job needs
// it (web/runs/worker.js), and the real-words section's word box when it comes near the viewport.
// At boot the page only asks the server whether each file is there (dataMissing, a HEAD request):
// a build assembled without the lexicon (build-wasm.sh before the native build made it) serves
// none, and the sections that need it say so instead of failing run by run.
export const DATA_FILES = { lexicon: 'cmudict-g2p.txt' };

const checks = new Map();  // name -> promise of dataMissing's answer

// Why the page cannot load the data file `name`: '' when the server has it, else its URL and the
// server's answer ("cmudict-g2p.txt: 404 Not Found"). Asked once per file, unless `again` (npm
// start puts the lexicon in place while the page is open: scripts/place.sh).
export function dataMissing(name, again = false) {
  if (again) checks.delete(name);
  if (!checks.has(name)) {
    const url = DATA_FILES[name];
    checks.set(name, fetch(url, { method: 'HEAD', cache: 'no-cache' })
      .then((r) => (r.ok ? '' : `${url}: ${r.status} ${r.statusText}`.trim()))
      .catch((e) => `${url}: ${e.message || e}`));
  }
  return checks.get(name);
}

// Whether the page can load the data a table row names (null: it needs none).
export const canLoad = (name) => name == null || Object.hasOwn(DATA_FILES, name);

// The files a run config needs, { name: url }, from the settings table's needs_data: the data
// its value of each such field names (the task g2p: the lexicon).
export function dataFor(config, settings) {
  const out = {};
  for (const s of settings) {
    if (!s.needs_data) continue;
    const value = s.path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), config);
    const name = s.needs_data[value];
    if (name) out[name] = DATA_FILES[name];
  }
  return out;
}
