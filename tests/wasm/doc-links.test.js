// The links of the Markdown files and the places the code cites in the docs exist:
//  - every link of a tracked .md file (README.md, docs/*.md, ...) to a local file names a file
//    that exists, relative to the linking file; one with #anchor, an anchor of the target: a
//    heading's GitHub slug (lower case, punctuation dropped, spaces to hyphens, -1, -2 for
//    repeats) or an explicit <a id="..."> or {#...};
//  - every pointer into the docs in src/, web/, tests/, scripts/, bindings/, CMakeLists.txt and
//    the .md files themselves, in the forms the project writes them: `docs/NAME.md` names a file
//    that exists, `docs/NAME.md#anchor` an anchor of it, and `docs/NAME.md, "Place"` (or
//    `docs/NAME.md "Place"`, across a comment's line break too) a place in it: a heading (its
//    text, or the text before its parenthesis: "Probe fragments" for "Probe fragments (the
//    page's live record)") or a term in bold that opens a paragraph or a list item ("Spreads"
//    for "**Spreads.** Every figure ...");
//  - docs/layout.md names every file of src/ in its folder's entry, and every file of bindings/
//    and scripts/ in theirs.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const test = require('node:test');

const ROOT = path.resolve(__dirname, '..', '..');
// Where the code that cites the docs lives, and the files there that are text.
const CODE_DIRS = ['src', 'web', 'tests', 'scripts', 'bindings'];
const CODE_FILES = ['CMakeLists.txt'];
const CODE_EXT = /\.(cpp|h|js|mjs|ts|sh|py|cmake|tmpl|html|css|txt)$/;
// Not the project's own text: builds, dependencies, data.
const SKIP_DIRS = new Set(['.git', 'node_modules', 'dist', 'recorded', 'test-results', 'fixtures', 'corpus', 'regressions']);

function walk(dir, keep, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('build')) walk(p, keep, out);
    } else if (keep(e.name)) out.push(p);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Markdown: headings, anchors, links.

// The text without fenced code blocks (their lines kept blank, so line numbers hold).
const withoutFences = (text) => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (m) => m.replace(/[^\n]/g, ''));
// ... and without inline code.
const withoutCode = (text) => withoutFences(text).replace(/(`+)[\s\S]*?\1/g, (m) => m.replace(/[^\n]/g, ' '));

// A heading's text as it reads: inline code, emphasis and link targets gone.
const headingText = (raw) => raw.replace(/\s*\{#[\w-]+\}\s*$/, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '').trim();
// GitHub's anchor of a heading.
const slug = (text) => text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');

// What a Markdown file offers to point at: {anchors: Set, headings: [text], terms: [text]}.
function places(markdown) {
  const text = withoutFences(markdown);
  const anchors = new Set(), headings = [], terms = [];
  const seen = new Map();
  for (const m of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const h = headingText(m[1]);
    headings.push(h);
    const s = slug(h);
    const n = seen.get(s) || 0;
    seen.set(s, n + 1);
    anchors.add(n ? `${s}-${n}` : s);
    const explicit = /\{#([\w-]+)\}\s*$/.exec(m[1]);
    if (explicit) anchors.add(explicit[1]);
  }
  for (const m of withoutCode(markdown).matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
  for (const m of text.matchAll(/^[ \t]*(?:[-*+][ \t]+|\d+\.[ \t]+)?(?:<a [^>]*><\/a>)?\*\*([^*\n]+?)[.:]?\*\*/gm)) terms.push(m[1].trim());
  return { anchors, headings, terms };
}

// The local links of a Markdown file: [{line, target, file, anchor}] (file '' for #anchor alone).
function links(markdown) {
  const out = [];
  const text = withoutCode(markdown);
  const lineOf = (i) => text.slice(0, i).split('\n').length;
  const add = (target, i) => {
    if (/^[a-z][\w+.-]*:/i.test(target)) return;  // http:, https:, mailto:
    const [file, anchor] = target.split('#');
    out.push({ line: lineOf(i), target, file: decodeURIComponent(file), anchor: anchor === undefined ? null : anchor });
  };
  for (const m of text.matchAll(/!?\[(?:[^\]\n]|\n(?!\n))*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) add(m[1], m.index);
  for (const m of text.matchAll(/^[ \t]*\[[^\]\n]+\]:[ \t]*<?(\S+?)>?(?:[ \t]+"[^"\n]*")?[ \t]*$/gm)) add(m[1], m.index);
  for (const m of text.matchAll(/<a\s[^>]*href="([^"]+)"/g)) add(m[1], m.index);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Pointers into the docs, in code and in prose.

// A line break with the comment leader of the next line (//, #, *, --): where the text of a
// comment goes on.
const LINE_BREAK = /[ \t]*\n[ \t]*(?:\/\/+|#+|\*+(?!\/)|--)?[ \t]*/g;

// [{line, file, anchor, place}]: `docs/NAME.md`, `docs/NAME.md#anchor`, `docs/NAME.md, "Place"`,
// `docs/NAME.md "Place"`, also wrapped over two lines of a comment; with `bare`, NAME.md alone
// too (in the docs, the same folder's file).
function pointers(text, { bare = false } = {}) {
  // The text run together, each line break one space, and where each line starts in it.
  let flat = '', last = 0;
  const starts = [0];
  for (const m of text.matchAll(LINE_BREAK)) {
    flat += `${text.slice(last, m.index)} `;
    last = m.index + m[0].length;
    starts.push(flat.length);
  }
  flat += text.slice(last);
  const lineOf = (i) => starts.filter((s) => s <= i).length;
  const name = bare ? String.raw`(?:docs\/ ?)?[\w-]+\.md` : String.raw`docs\/ ?[\w-]+\.md`;
  const re = new RegExp(String.raw`(?<![\w/.-])(${name})(?:#([\w-]+))?(?:,? "([A-Za-z\`][^"]{0,80})")?`, 'g');
  return [...flat.matchAll(re)].map((m) => ({
    line: lineOf(m.index), file: m[1].replace(' ', ''), anchor: m[2] || null, place: m[3] ? m[3].replace(/`/g, '') : null,
  }));
}

// Does `place` name a heading or a bold term of the file?
function hasPlace({ headings, terms }, place) {
  return headings.some((h) => h === place || h.startsWith(`${place} (`)) || terms.includes(place);
}

// Every problem of the links and pointers of these files, as "file:line: ..." lines.
function check(root, markdownFiles, codeFiles) {
  const problems = [];
  const cache = new Map();
  const placesOf = (file) => {
    if (!cache.has(file)) cache.set(file, places(fs.readFileSync(file, 'utf8')));
    return cache.get(file);
  };
  const rel = (f) => path.relative(root, f);
  const target = (from, p, where) => {
    const file = p.file ? path.resolve(from, p.file) : where;
    if (!fs.existsSync(file)) return `${p.file}: no such file`;
    if (p.anchor !== null && p.anchor !== undefined && !placesOf(file).anchors.has(p.anchor)) return `#${p.anchor}: no heading or anchor of ${rel(file)} has it`;
    if (p.place && !hasPlace(placesOf(file), p.place)) return `"${p.place}": no heading or bold term of ${rel(file)} says it`;
    return null;
  };
  for (const md of markdownFiles) {
    const text = fs.readFileSync(md, 'utf8');
    for (const l of links(text)) {
      const problem = target(path.dirname(md), l, md);
      if (problem) problems.push(`${rel(md)}:${l.line}: link (${l.target}): ${problem}`);
    }
    // Prose pointers: docs/NAME.md from the root, NAME.md from the file's own folder.
    const prose = text.replace(/\]\([^)]*\)/g, ']');
    for (const p of pointers(prose, { bare: true })) {
      const problem = target(p.file.startsWith('docs/') ? root : path.dirname(md), p, md);
      if (problem) problems.push(`${rel(md)}:${p.line}: ${p.file}${p.place ? `, "${p.place}"` : ''}: ${problem}`);
    }
  }
  for (const f of codeFiles) {
    for (const p of pointers(fs.readFileSync(f, 'utf8'))) {
      const problem = target(root, p, null);
      if (problem) problems.push(`${rel(f)}:${p.line}: ${p.file}${p.anchor ? `#${p.anchor}` : ''}${p.place ? `, "${p.place}"` : ''}: ${problem}`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------

test('the readers find headings, anchors, links and pointers as GitHub and the code write them', () => {
  const md = [
    '# The results JSON (version 2)', '', '## W_o snapshots apart', '## `npm start` from a fresh clone',
    '## Repeat', '## Repeat', '### Custom {#mine}', '<a id="claim-1"></a>**Spreads.** Every figure',
    '- **Clear**: consistent', '```', '## Not a heading', '[not a link](gone.md)', '```',
    'See [a](other.md#w_o-snapshots-apart "title"), [b](#repeat-1), ![c](img/x.png), `[d](code.md)`,',
    'and [e](https://example.org/x.md) and (docs/results.md, "The summary").', '', '[ref]: ref.md#top',
  ].join('\n');
  const p = places(md);
  assert.deepEqual([...p.anchors], ['the-results-json-version-2', 'w_o-snapshots-apart', 'npm-start-from-a-fresh-clone',
    'repeat', 'repeat-1', 'custom', 'mine', 'claim-1']);
  assert.deepEqual(p.headings, ['The results JSON (version 2)', 'W_o snapshots apart', 'npm start from a fresh clone', 'Repeat', 'Repeat', 'Custom']);
  assert.deepEqual(p.terms, ['Spreads', 'Clear']);
  assert.deepEqual(links(md).map((l) => [l.line, l.file, l.anchor]), [
    [14, 'other.md', 'w_o-snapshots-apart'], [14, '', 'repeat-1'], [14, 'img/x.png', null], [17, 'ref.md', 'top']]);
  assert.ok(hasPlace(p, 'The results JSON') && hasPlace(p, 'npm start from a fresh clone') && hasPlace(p, 'Spreads'));
  assert.ok(!hasPlace(p, 'Not a heading') && !hasPlace(p, 'W_o snapshots'));

  const code = [
    '// The record (docs/results.md, "A run"), and docs/api.md#loading; the rules: docs/',
    '// claims.md "The claims", wrapped, and docs/claims.md, "Real',
    '// words" too.',
    '# docs/sweeps.md',
    'node scripts/render-doc.js docs/claims.md "$tmp/rules.html"',
    'not mydocs/x.md, nor results.md, "Checks"',
  ].join('\n');
  assert.deepEqual(pointers(code), [
    { line: 1, file: 'docs/results.md', anchor: null, place: 'A run' },
    { line: 1, file: 'docs/api.md', anchor: 'loading', place: null },
    { line: 1, file: 'docs/claims.md', anchor: null, place: 'The claims' },
    { line: 2, file: 'docs/claims.md', anchor: null, place: 'Real words' },
    { line: 4, file: 'docs/sweeps.md', anchor: null, place: null },
    { line: 5, file: 'docs/claims.md', anchor: null, place: null },
  ]);
});

test('the check names each broken link and pointer with its file and line', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wolab-doc-links-'));
  const write = (name, text) => {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  };
  write('README.md', '# Lab\n\n[ok](docs/a.md#one), [gone](docs/b.md), [no anchor](docs/a.md#two)\n');
  write('docs/a.md', '# A\n\n## One\n\nSee [up](../README.md#lab) and [self](a.md#one) and [wrong](docs/a.md).\n');
  write('src/x.cpp', '// docs/a.md, "One" and docs/a.md, "Two"\n// docs/c.md\nint x;\n');
  const md = ['README.md', 'docs/a.md'].map((f) => path.join(root, f));
  assert.deepEqual(check(root, md, [path.join(root, 'src/x.cpp')]), [
    'README.md:3: link (docs/b.md): docs/b.md: no such file',
    'README.md:3: link (docs/a.md#two): #two: no heading or anchor of docs/a.md has it',
    'docs/a.md:5: link (docs/a.md): docs/a.md: no such file',
    'src/x.cpp:1: docs/a.md, "Two": "Two": no heading or bold term of docs/a.md says it',
    'src/x.cpp:2: docs/c.md: docs/c.md: no such file',
  ]);
  fs.rmSync(root, { recursive: true });
});

test('every link of the Markdown files and every pointer of the code into the docs lands', () => {
  const markdown = walk(ROOT, (n) => n.endsWith('.md'));
  // Not this file, whose examples point nowhere on purpose.
  const code = [...CODE_DIRS.flatMap((d) => walk(path.join(ROOT, d), (n) => CODE_EXT.test(n))), ...CODE_FILES.map((f) => path.join(ROOT, f))]
    .filter((f) => f !== __filename);
  assert.ok(markdown.some((f) => f.endsWith(path.join('docs', 'claims.md'))) && markdown.length >= 15, `${markdown.length} Markdown files`);
  assert.ok(code.length >= 250, `${code.length} files of code`);
  assert.deepEqual(check(ROOT, markdown, code), []);
});

// docs/layout.md's tree: { 'src/': text, 'src/config/': text, 'scripts/': text, ... }, each
// folder's entry (a line naming it in the first column, or indented by two under src/, and the
// lines that go on with it).
function layoutEntries(markdown) {
  const block = /^```\n([\s\S]*?)^```$/m.exec(markdown)[1];
  const entries = {};
  let top = null, current = null;
  for (const line of block.split('\n')) {
    const m = /^( {0,2})(\S+\/)\s/.exec(line);
    if (m) {
      if (!m[1]) top = m[2];
      current = m[1] ? top + m[2] : m[2];
      entries[current] = '';
    }
    if (current) entries[current] += `${line}\n`;
  }
  return entries;
}

test('docs/layout.md names every file of src/, bindings/, scripts/ and web/ where it lists its folder', () => {
  const entries = layoutEntries(fs.readFileSync(path.join(ROOT, 'docs', 'layout.md'), 'utf8'));
  const names = (text, name) => new RegExp(`(?<![\\w.])${name.replace(/\./g, '\\.')}(?!\\w)`).test(text);
  const missing = [];
  const src = path.join(ROOT, 'src');
  for (const folder of fs.readdirSync(src)) {
    const entry = entries[`src/${folder}/`];
    if (entry === undefined) {
      missing.push(`src/${folder}/: no entry`);
      continue;
    }
    // A .h and its .cpp by their stem (run_config); a header alone also as itself (layers.h).
    for (const file of fs.readdirSync(path.join(src, folder))) {
      const stem = file.replace(/\.(h|cpp)$/, '');
      if (!names(entry, stem) && !names(entry, file)) missing.push(`src/${folder}/${file}`);
    }
  }
  for (const folder of ['bindings', 'scripts']) {
    const entry = entries[`${folder}/`] || '';
    for (const file of fs.readdirSync(path.join(ROOT, folder))) if (!names(entry, file)) missing.push(`${folder}/${file}`);
  }
  // web/: each room's modules by their stem (live-runs) in the room's entry, the shell's files
  // anywhere in web/'s entries (its last line, "(top)").
  const web = path.join(ROOT, 'web');
  for (const item of fs.readdirSync(web, { withFileTypes: true })) {
    if (!item.isDirectory()) {
      const shell = Object.keys(entries).filter((k) => k.startsWith('web/')).map((k) => entries[k]).join('');
      if (!names(shell, item.name)) missing.push(`web/${item.name}`);
      continue;
    }
    const entry = entries[`web/${item.name}/`];
    if (entry === undefined) {
      missing.push(`web/${item.name}/: no entry`);
      continue;
    }
    for (const file of fs.readdirSync(path.join(web, item.name))) {
      if (!names(entry, file.replace(/\.js$/, '')) && !names(entry, file)) missing.push(`web/${item.name}/${file}`);
    }
  }
  assert.deepEqual(missing, []);
});
