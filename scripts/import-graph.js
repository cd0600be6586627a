#!/usr/bin/env node
// The import graph of the page's modules (web/): every static and dynamic import, and every
// script a module names by URL (a worker: new URL('./x.js', import.meta.url); a classic worker's
// importScripts through fromPage('room/x.js')).
//   node scripts/import-graph.js          one line per module: its imports, then its URLs (->>)
//   node scripts/import-graph.js --dot    the same as a Graphviz digraph, one cluster per folder
// Exit status 1 when an import names a file that does not exist, cannot be read as a literal,
// or closes a cycle (tests/wasm/web-imports.test.js asserts the same).
'use strict';

const fs = require('fs');
const path = require('path');

const WEB = path.resolve(__dirname, '..', 'web');

// Comments out of the way (a commented-out import is none); strings and code stay. A `//` after
// a quote or a colon on the same line (a URL in a string) is not a comment.
function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"\\])\/\/.*$/gm, '$1');
}

// What one module's text names: { imports: [spec], urls: [spec relative to the module],
// pageUrls: [spec relative to web/], unreadable: [text of an import whose target is not a literal] }.
function parseModule(text) {
  const code = stripComments(text);
  const imports = [];
  const unreadable = [];
  for (const m of code.matchAll(/(?:^|[;\n])\s*(?:import|export)\s+(?:[\w$*{}\s,]+?\s+from\s+)?(['"])([^'"]+)\1/g)) imports.push(m[2]);
  for (const m of code.matchAll(/\bimport\s*\(\s*([^)]*?)\s*\)/g)) {
    const literal = /^(['"])([^'"]+)\1$/.exec(m[1]);
    if (literal) imports.push(literal[2]);
    else unreadable.push(m[0]);
  }
  const urls = [...code.matchAll(/new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g)].map((m) => m[2]);
  const pageUrls = [...code.matchAll(/\bfromPage\(\s*(['"])([^'"]+)\1\s*\)/g)].map((m) => m[2]);
  return { imports, urls, pageUrls, unreadable };
}

// Every .js file under web/, as paths relative to it ('runs/runner.js'), sorted.
function webModules(root = WEB) {
  return fs.readdirSync(root, { recursive: true }).map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.js')).sort();
}

// The graph: { modules, edges: [{ from, to, kind: 'import' | 'url' }], problems: [text] }.
// Paths are relative to web/.
function importGraph(root = WEB) {
  const modules = webModules(root);
  const edges = [];
  const problems = [];
  const known = new Set(modules);
  for (const from of modules) {
    const parsed = parseModule(fs.readFileSync(path.join(root, from), 'utf8'));
    const targets = [
      ...parsed.imports.map((spec) => ({ spec, base: path.posix.dirname(from), kind: 'import' })),
      ...parsed.urls.map((spec) => ({ spec, base: path.posix.dirname(from), kind: 'url' })),
      ...parsed.pageUrls.map((spec) => ({ spec, base: '.', kind: 'url' })),
    ];
    for (const { spec, base, kind } of targets) {
      if (!spec.startsWith('./') && !spec.startsWith('../') && kind === 'import') {
        problems.push(`${from}: imports '${spec}', which is not a relative path (the page has no bundler)`);
        continue;
      }
      const to = path.posix.normalize(path.posix.join(base, spec));
      if (!known.has(to)) problems.push(`${from}: names '${spec}', and web/${to} does not exist`);
      else if (!edges.some((e) => e.from === from && e.to === to && e.kind === kind)) edges.push({ from, to, kind });
    }
    for (const text of parsed.unreadable) problems.push(`${from}: ${text} does not name its module as a string literal`);
  }
  return { modules, edges, problems };
}

// The import cycles of a graph (import edges only: a worker runs in a thread of its own): one
// { members, cycle } per set of modules that import each other (a strongly connected component,
// Tarjan's), members sorted, cycle one shortest way round through the first member, as a list of
// modules whose last imports the first; [] when there is none.
function findCycles({ modules, edges }) {
  const next = new Map(modules.map((m) => [m, []]));
  for (const e of edges) if (e.kind === 'import') next.get(e.from).push(e.to);
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let counter = 0;
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component);
    }
  };
  for (const m of modules) if (!index.has(m)) visit(m);
  const cycles = [];
  for (const component of components) {
    const inside = new Set(component);
    const start = component.sort()[0];
    if (component.length === 1 && !next.get(start).includes(start)) continue;
    // A shortest way back to `start` inside the component (breadth first).
    const from = new Map([[start, null]]);
    const queue = [start];
    let last = null;
    while (queue.length && last === null) {
      const v = queue.shift();
      for (const w of next.get(v)) {
        if (w === start) { last = v; break; }
        if (inside.has(w) && !from.has(w)) {
          from.set(w, v);
          queue.push(w);
        }
      }
    }
    const cycle = [];
    for (let v = last; v !== null; v = from.get(v)) cycle.unshift(v);
    cycles.push({ members: component, cycle });
  }
  return cycles;
}

function asText({ modules, edges }) {
  const lines = [];
  for (const m of modules) {
    const imports = edges.filter((e) => e.from === m && e.kind === 'import').map((e) => e.to);
    const urls = edges.filter((e) => e.from === m && e.kind === 'url').map((e) => e.to);
    lines.push(`${m}${imports.length ? ` -> ${imports.join(', ')}` : ''}${urls.length ? ` ->> ${urls.join(', ')}` : ''}`);
  }
  return lines.join('\n');
}

function asDot({ modules, edges }) {
  const rooms = new Map();
  for (const m of modules) {
    const room = m.includes('/') ? m.slice(0, m.indexOf('/')) : '';
    if (!rooms.has(room)) rooms.set(room, []);
    rooms.get(room).push(m);
  }
  const lines = ['digraph web {', '  rankdir=LR;', '  node [shape=box, fontsize=10];'];
  for (const [room, members] of rooms) {
    const nodes = members.map((m) => `"${m}";`).join(' ');
    lines.push(room ? `  subgraph "cluster_${room}" { label="${room}/"; ${nodes} }` : `  ${nodes}`);
  }
  for (const e of edges) lines.push(`  "${e.from}" -> "${e.to}"${e.kind === 'url' ? ' [style=dashed]' : ''};`);
  lines.push('}');
  return lines.join('\n');
}

// The folders of web/ that import each other (modules of the top, the shell, are folder '.'): each
// pair [a, b] (a < b) with a module of a importing one of b and a module of b importing one of a.
function folderPairs({ edges }) {
  const folder = (m) => path.posix.dirname(m);
  const imports = new Set(edges.filter((e) => folder(e.from) !== folder(e.to)).map((e) => `${folder(e.from)} ${folder(e.to)}`));
  return [...imports].map((k) => k.split(' ')).filter(([a, b]) => a < b && imports.has(`${b} ${a}`)).sort();
}

module.exports = { importGraph, findCycles, folderPairs, parseModule, webModules };

if (require.main === module) {
  const graph = importGraph();
  const cycles = findCycles(graph);
  console.log(process.argv.includes('--dot') ? asDot(graph) : asText(graph));
  const imports = graph.edges.filter((e) => e.kind === 'import').length;
  const report = [`${graph.modules.length} modules, ${imports} imports, ${graph.edges.length - imports} scripts named by URL`];
  for (const { members, cycle } of cycles) {
    report.push(`cycle among ${members.length} modules (${members.join(', ')}), e.g. ${[...cycle, cycle[0]].join(' -> ')}`);
  }
  const pairs = folderPairs(graph);
  report.push(`${pairs.length} pairs of folders import each other${pairs.map(([a, b]) => `${pairs[0][0] === a && pairs[0][1] === b ? ': ' : ', '}${a} <-> ${b}`).join('')}`);
  for (const p of graph.problems) report.push(`problem: ${p}`);
  if (!cycles.length && !graph.problems.length) report.push('no import cycle; every import names a file that exists');
  console.error(report.join('\n'));
  process.exit(cycles.length || graph.problems.length ? 1 : 0);
}
