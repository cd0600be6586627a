// The docs say what the core says: docs/config.md's settings table, the settings the page's form
// leaves out and the preset table (every setting of each preset) against the core's settings()
// and presets(), and every list of experiments in docs/embed.md and README.md against
// experiments() (the embeddable ones: those whose data the page can load, web/state/data-files.js).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { loadWolab } = require('./helpers.js');

const root = path.join(__dirname, '..', '..');
const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');
const cells = (row) => row.split('|').slice(1, -1).map((c) => c.trim());
// A markdown table's row whose first cell is `name` in backticks, as its cells; undefined without one.
const rowOf = (doc, name) => {
  const row = doc.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
  return row && cells(row);
};

test('docs/config.md: a row per setting, with its key, flag and default', async () => {
  const doc = read('docs/config.md');
  const settings = JSON.parse((await loadWolab()).settings());
  for (const s of settings) {
    const row = rowOf(doc, s.path);
    assert.ok(row, `docs/config.md has no row for ${s.path}`);
    assert.equal(row[1], `\`${s.key}\``, s.path);
    assert.equal(row[2], s.flag ? `\`${s.flag}\`` : 'none', s.path);
    const shown = Array.isArray(s.default) ? `\`[${s.default.join(', ')}]\``
      : typeof s.default === 'string' ? `\`${s.default}\`` : String(s.default);
    assert.equal(row[4], shown, `${s.path}: default`);
  }
  // The settings the page's form leaves out, in one sentence.
  const line = doc.split('\n').find((l) => l.startsWith("Not in the page's form"));
  assert.ok(line, "docs/config.md says which settings are not in the page's form");
  const listed = [...line.split(':').slice(2).join(':').matchAll(/`([\w.]+)`/g)].map((m) => m[1]);
  assert.deepEqual(listed.sort(), settings.filter((s) => !s.form).map((s) => s.path).sort());
  assert.doesNotMatch(doc, /not in the page's form \(`settings\(\)`: `form` false\): the page\s+does not load/);
});

// A preset's row of docs/config.md as the core's presets() makes it.
function presetRow(name, c) {
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const m = c.model, k = c.task, r = c.train, w = c.real_words;
  return [`\`${name}\``, String(c.seeds),
    `d_model ${m.d_model}, ${plural(m.heads, 'head', 'heads')}, ${plural(m.layers, 'layer', 'layers')}, d_ff ${m.d_ff}, ${m.ln}-LN`,
    `${k.name}, alphabet ${k.alphabet}, length ${k.length}, ${k.heldout} held out`,
    `${r.steps} steps, batch ${r.batch}, lr ${r.lr}, clip ${r.clip}, probe every ${r.probe_every}, seed ${r.seed}`,
    `lrs ${c.lr_stability.lrs.join(', ')}; clip ${c.lr_stability.clip}`,
    `d_model ${w.d_model}, ${plural(w.heads, 'head', 'heads')}, ${plural(w.layers, 'layer', 'layers')}, d_ff ${w.d_ff}; ` +
      `${w.steps} steps, batch ${w.batch}, probe every ${w.probe_every}, ${w.heldout} held out`];
}

test('docs/config.md: the preset table is every setting of the core\'s presets', async () => {
  const doc = read('docs/config.md');
  const presets = JSON.parse((await loadWolab()).presets());
  for (const [name, config] of Object.entries(presets)) {
    assert.deepEqual(rowOf(doc, name), presetRow(name, config), `docs/config.md's row of preset ${name}`);
  }
});

// The experiments an embed can show: the page's, those whose data it can load.
async function embeddable() {
  const { canLoad } = await import(pathToFileURL(path.join(root, 'web', 'state', 'data-files.js')).href);
  const experiments = JSON.parse((await loadWolab()).experiments());
  assert.ok(experiments.some((e) => e.needs_data), 'an experiment that needs data (real_words)');
  return experiments.filter((e) => canLoad(e.needs_data)).map((e) => e.name);
}

test('docs/embed.md: the embed parameter and the heights table list every experiment the page shows', async () => {
  const doc = read('docs/embed.md');
  const names = await embeddable();
  const row = rowOf(doc, 'embed');
  assert.ok(row, 'docs/embed.md has a row for the embed parameter');
  assert.deepEqual([...row[1].matchAll(/`(\w+)`/g)].map((m) => m[1]), names);
  // The table of measured heights: a row per experiment, four heights each, no other row.
  for (const name of names) assert.match(doc, new RegExp(`^\\| \`${name}\` \\| [\\d,]+ \\| [\\d,]+ \\| [\\d,]+ \\| [\\d,]+ \\|$`, 'm'), name);
  const heightRows = doc.split('\n').filter((l) => /^\| `\w+` \| [\d,]+ \|/.test(l)).map((l) => cells(l)[0].slice(1, -1));
  assert.deepEqual(heightRows, names);
  const counted = doc.match(/\b(one|two|three|four|five|six|seven|eight|nine) (?:embeddable )?experiments\b/);
  if (counted) assert.equal(counted[1], ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'][names.length - 1]);
});

// README's list of experiments, whatever its shape: the rows of a table (or the items of a list)
// that begin with an experiment's name in backticks. If it lists any, it lists every one of
// experiments(), in its order, and no name the core does not know.
test('README.md: its list of experiments, if it has one, is the core\'s', async () => {
  const doc = read('README.md');
  const names = JSON.parse((await loadWolab()).experiments()).map((e) => e.name);
  const known = new Set(names);
  const lead = [...doc.matchAll(/^(?:\| |[-*] )`([a-z][a-z0-9_]*)`/gm)].map((m) => m[1]);
  // The leading names that are experiments, and those shaped like one in the same list.
  const listed = lead.filter((n) => known.has(n));
  if (!listed.length) return;
  assert.deepEqual([...new Set(listed)], names, 'README.md lists the core\'s experiments, each, in order');
});

test("docs/claims.md quotes each claim as the core's words state it, in bold after its anchor", async () => {
  const doc = read('docs/claims.md').replace(/\n\s+/g, ' ');
  const words = JSON.parse((await loadWolab()).analysisWords(JSON.stringify({ claims: [], words_claims: [] }), 'en'));
  assert.equal(words.statements.length, 9);
  for (const { id, text } of words.statements) {
    const at = doc.indexOf(`<a id="claim-${id}"></a>**`);
    assert.ok(at >= 0, `docs/claims.md has no anchor for claim ${id}`);
    const start = doc.indexOf('**', at) + 2;
    assert.equal(doc.slice(start, doc.indexOf('**', start)), text, `claim ${id}`);
  }
});
