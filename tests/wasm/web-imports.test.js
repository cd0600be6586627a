// The page's modules (web/) import each other without a cycle, every import and every script a
// module names by URL is a file that exists, and each piece of shared state (web/state/) is set
// only by the module its declaration names as its owner. The graph is scripts/import-graph.js's,
// which prints it.
'use strict';

const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const test = require('node:test');
const { findCycles, folderPairs, importGraph, parseModule } = require('../../scripts/import-graph.js');

const WEB = path.resolve(__dirname, '..', '..', 'web');

// A throwaway web/ of these files ({ 'a/b.js': text }), for the checks' own tests.
function fakeWeb(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wolab-web-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

test('the parser reads static, dynamic, re-exported and URL-named modules, and no commented-out one', () => {
  const parsed = parseModule([
    "import { a } from './a.js';",
    "import {\n  b,\n  c,\n} from '../room/b.js';",
    "import './side-effect.js';",
    "export { d } from './d.js';",
    "const e = await import('./e.js');",
    "// import { f } from './f.js';",
    "/* import('./g.js') */",
    "const w = new Worker(new URL('./worker.js', import.meta.url));",
    "importScripts(fromPage(msg.script), fromPage('wasm/load.js'));",
    "const h = await import(name);",
    "const url = 'http://example.org/x.js'; // a string, not an import",
  ].join('\n'));
  assert.deepEqual(parsed.imports, ['./a.js', '../room/b.js', './side-effect.js', './d.js', './e.js']);
  assert.deepEqual(parsed.urls, ['./worker.js']);
  assert.deepEqual(parsed.pageUrls, ['wasm/load.js']);
  assert.deepEqual(parsed.unreadable, ['import(name)']);
});

test('the checks find a cycle, a missing file and an import that is not a literal', () => {
  const root = fakeWeb({
    'app.js': "import { a } from './x/a.js';\nimport('./gone.js');\n",
    'x/a.js': "import { b } from '../y/b.js';\nexport const a = 1;\n",
    'y/b.js': "import { a } from '../x/a.js';\nconst c = import(`./${a}.js`);\nexport const b = 2;\n",
  });
  const graph = importGraph(root);
  assert.deepEqual(findCycles(graph), [{ members: ['x/a.js', 'y/b.js'], cycle: ['x/a.js', 'y/b.js'] }]);
  assert.equal(graph.problems.length, 2);
  assert.match(graph.problems[0], /^app\.js: names '\.\/gone\.js', and web\/gone\.js does not exist$/);
  assert.match(graph.problems[1], /^y\/b\.js: import\(`.*`\) does not name its module as a string literal$/);
  fs.rmSync(root, { recursive: true });
});

test('web/ has no import cycle, and every module it names exists', () => {
  const graph = importGraph(WEB);
  assert.ok(graph.modules.length > 40, `${graph.modules.length} modules`);
  assert.ok(graph.edges.length > 100, `${graph.edges.length} edges`);
  assert.deepEqual(graph.problems, []);
  assert.deepEqual(findCycles(graph).map(({ cycle }) => [...cycle, cycle[0]].join(' -> ')), []);
  // Every module but the shell's scripts and the workers is reached from app.js.
  const reached = new Set(['app.js']);
  for (let grown = true; grown;) {
    grown = false;
    for (const e of graph.edges) {
      if (reached.has(e.from) && !reached.has(e.to)) {
        reached.add(e.to);
        grown = true;
      }
    }
  }
  assert.deepEqual(graph.modules.filter((m) => !reached.has(m)), ['embed.js']);
});

// Each `export const name = store(...)`, `signal()` or `new Map()` in web/state/ is preceded by a
// comment "Owner: <module>." (a path under web/); no other module sets, updates, emits or
// changes it. An owner that is the state module itself changes it only through its own functions,
// which other modules call.
function declaredOwners() {
  const owners = [];
  for (const file of fs.readdirSync(path.join(WEB, 'state'))) {
    const text = fs.readFileSync(path.join(WEB, 'state', file), 'utf8');
    for (const m of text.matchAll(/^export const (\w+) = (store|signal|new Map)\(/gm)) {
      const before = text.slice(0, m.index).split('\n').slice(0, -1);
      const comment = [];
      while (before.length && before[before.length - 1].startsWith('//')) comment.unshift(before.pop());
      const owner = /Owner: ([\w./-]+\.js)/.exec(comment.join(' '));
      owners.push({ name: m[1], file: `state/${file}`, owner: owner && owner[1] });
    }
  }
  return owners;
}

test('each piece of shared state has one owner, and only the owner changes it', () => {
  const owners = declaredOwners();
  assert.ok(owners.length >= 7, owners.map((o) => o.name).join(', '));
  const graph = importGraph(WEB);
  for (const { name, file, owner } of owners) {
    assert.ok(owner, `${file}: ${name} names no owner`);
    assert.ok(graph.modules.includes(owner), `${file}: ${name}'s owner ${owner} is not a module of web/`);
    const writers = graph.modules.filter((m) => {
      const text = fs.readFileSync(path.join(WEB, m), 'utf8');
      return m !== file && new RegExp(`\\b${name}\\.(set|update|emit|delete|clear)\\(`).test(text);
    });
    assert.deepEqual(writers, owner === file ? [] : [owner], `${name} (${file}) is changed by ${writers.join(', ') || 'nobody'}`);
  }
});

// The rooms of web/, bottom to top, and what each may import besides itself: the shell (app.js)
// above them all; a room imports only from rooms listed before it.
const ROOMS = ['i18n', 'wasm', 'state', 'base', 'results', 'runs', 'words', 'lesson', 'views', 'controls', 'sections', '.'];

test('the folders are rooms by layer: each imports only from the rooms below it, so no two import each other', () => {
  const graph = importGraph(WEB);
  const room = (m) => path.posix.dirname(m);
  const folders = [...new Set(graph.modules.map(room))].sort();
  assert.deepEqual(folders, [...ROOMS].sort(), 'every folder of web/ has its place in ROOMS');
  const upward = graph.edges.filter((e) => ROOMS.indexOf(room(e.to)) > ROOMS.indexOf(room(e.from)))
    .map((e) => `${e.from} -> ${e.to}`);
  assert.deepEqual(upward, []);
  assert.deepEqual(folderPairs(graph), []);
});

test('folderPairs finds two folders that import each other, and not a one-way import', () => {
  const root = fakeWeb({
    'x/a.js': "import { b } from '../y/b.js';\nexport const a = 1;\n",
    'y/b.js': "export const b = 2;\n",
    'y/c.js': "import { a } from '../x/a.js';\n",
    'z/d.js': "import { b } from '../y/b.js';\n",
  });
  assert.deepEqual(folderPairs(importGraph(root)), [['x', 'y']]);
  fs.rmSync(root, { recursive: true });
});

// An experiment's record (web/state/experiments.js) is data: it changes only through that
// module's functions (each says so on experimentChanged), and no module stores a node or a
// callback on it.
const WRITES_RECORD = /\bexp\.\w+(?:\.\w+)*\s*(?:(?<![=!<>])=(?![=>])|\+=|-=|\+\+|--)|\bexp\.\w+\.(?:push|pop|splice|shift|unshift|sort)\(|Object\.assign\(\s*exp\b/;

test('the check of writes to a record finds assignments and changes, and not comparisons', () => {
  for (const text of ['exp.summary = null;', 'exp.epoch += 1', 'exp.runs.push(run)', 'Object.assign(exp, f)', 'exp.a.b = 2']) {
    assert.match(text, WRITES_RECORD, text);
  }
  for (const text of ['if (exp.runs.length === 0)', 'exp.epoch !== epoch', 'x = exp.name', 'exp.runs.some(active)', 'a => exp.b']) {
    assert.doesNotMatch(text, WRITES_RECORD, text);
  }
});

test('only web/state/experiments.js changes an experiment\'s record', () => {
  const writers = importGraph(WEB).modules.filter((m) => m !== 'state/experiments.js').flatMap((m) => {
    const code = fs.readFileSync(path.join(WEB, m), 'utf8').replace(/\/\/.*$/gm, '');
    return code.split('\n').filter((line) => WRITES_RECORD.test(line)).map((line) => `${m}: ${line.trim()}`);
  });
  assert.deepEqual(writers, []);
});

test('an experiment\'s record holds data only, and each change is announced', async () => {
  const state = await import(path.join(WEB, 'state', 'experiments.js'));
  const exp = state.addExperiment({ name: 'x', variants: ['learned', 'identity'], needs_data: '' });
  const seen = [];
  state.experimentChanged.subscribe(({ exp: e, now }) => seen.push([e.name, now]));
  state.reset(exp, { source: 'live' }, true);
  state.addRuns(exp, [{ id: 1 }]);
  assert.equal(state.change(exp, { summary: {} }, { epoch: exp.epoch - 1 }), false, 'an older epoch changes nothing');
  assert.equal(state.change(exp, { settled: true }), true);
  assert.deepEqual(seen, [['x', true], ['x', false], ['x', false]]);
  assert.equal(exp.epoch, 1);
  assert.equal(exp.summary, null);
  const kinds = (value) => (value === null || typeof value !== 'object' ? [typeof value] : [value.constructor.name, ...Object.values(value).flatMap(kinds)]);
  const found = new Set(Object.values(exp).flatMap(kinds));
  assert.deepEqual([...found].filter((k) => !['string', 'number', 'boolean', 'object', 'Object', 'Array'].includes(k)), []);
});

test('one module hands a run config to the core to plan (runs/plan.js), on either thread', () => {
  const callers = importGraph(WEB).modules.filter((m) => /\bplan(?:Aside)?\(/.test(fs.readFileSync(path.join(WEB, m), 'utf8').replace(/\/\/.*$/gm, '')));
  assert.deepEqual(callers.filter((m) => !['runs/plan.js', 'results/analysis.js', 'results/analysis-worker.js'].includes(m)), []);
});

// The core's tables that web/state/ keeps (state.js, run-status.js) are set by one function each,
// `export function setX`, whose comment names its owner: only the owner calls it.
test('each table the page keeps from the core is set once, by its owner alone', () => {
  const graph = importGraph(WEB);
  const setters = [];
  for (const file of fs.readdirSync(path.join(WEB, 'state'))) {
    const text = fs.readFileSync(path.join(WEB, 'state', file), 'utf8');
    for (const m of text.matchAll(/^export function (set[A-Z]\w*)\(/gm)) {
      const before = text.slice(0, m.index).split('\n').slice(0, -1);
      const comment = [];
      while (before.length && before[before.length - 1].startsWith('//')) comment.unshift(before.pop());
      const owner = /Owner: ([\w./-]+\.js)/.exec(comment.join(' '));
      setters.push({ name: m[1], file: `state/${file}`, owner: owner && owner[1] });
    }
  }
  assert.ok(setters.length >= 2, setters.map((s) => s.name).join(', '));
  for (const { name, file, owner } of setters) {
    assert.ok(owner, `${file}: ${name} names no owner`);
    const callers = graph.modules.filter((m) => m !== file && new RegExp(`\\b${name}\\(`).test(fs.readFileSync(path.join(WEB, m), 'utf8')));
    assert.deepEqual(callers, [owner], `${name} (${file}) is called by ${callers.join(', ')}`);
  }
});
