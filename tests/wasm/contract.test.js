// bindings/wolab.d.ts against what bindings/embind.cpp registers, name by name, both ways:
//  - read statically: every module function, class (its constructors, methods and class
//    functions), value_object (its fields), enum_ (its values) and constant of the
//    EMSCRIPTEN_BINDINGS block; and, for each function or method whose C++ returns a `val`
//    object, the fields it sets (`.set("name", ...)`, through the helpers it calls) against the
//    fields of the type the d.ts gives it;
//  - in the built module (build-wasm/, skipped until it is built): the names Embind exposed and
//    the argument counts each accepts, and the JSON text the d.ts types (settings(), plan(),
//    codes(), analyze(), a trainer's probeRecord(), ...) walked against those types, so that a
//    field the core writes and the d.ts does not declare, or the reverse, fails by its path.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const { loadWolab, root } = require('./helpers.js');

const wasmDir = process.env.WOLAB_WASM_DIR || path.join(root, 'build-wasm');
const built = fs.existsSync(path.join(wasmDir, 'wolab.js')) && fs.existsSync(path.join(wasmDir, 'wolab.wasm'));

// What every Embind class handle has without being registered (Embind's ClassHandle).
const HANDLE_METHODS = ['clone', 'delete', 'deleteLater', 'isAliasOf', 'isDeleted'];
// Types whose values have no fields of their own to compare.
const OPAQUE = new Set(['string', 'number', 'boolean', 'null', 'undefined', 'void', 'unknown', 'any', 'object',
  'never', 'Float32Array', 'Float64Array', 'Int32Array', 'Uint8Array', 'ArrayBuffer', 'Promise', 'JsonText']);

// ---------------------------------------------------------------------------------------------
// C++: the EMSCRIPTEN_BINDINGS block and the functions of embind.cpp.

// C++ source without comments; string and character literals kept.
function stripCppComments(text) {
  return text.replace(/"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|\/\/[^\n]*|\/\*[\s\S]*?\*\//g,
    (m) => (m[0] === '/' ? m.replace(/[^\n]/g, ' ') : m));
}

// Index of the bracket closing the one at `open` (strings skipped).
function closing(text, open) {
  const pairs = { '(': ')', '{': '}', '[': ']' };
  const stack = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (c === '(' || c === '{' || c === '[') stack.push(pairs[c]);
    else if (c === ')' || c === '}' || c === ']') {
      if (stack.pop() !== c) throw new Error(`unbalanced '${c}' at ${i}`);
      if (stack.length === 0) return i;
    }
  }
  throw new Error(`no closing bracket for the one at ${open}`);
}

// Splits at top-level `sep` (outside brackets and strings).
function splitTop(text, sep) {
  const parts = [];
  let depth = 0, start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if ('({['.includes(c)) depth++;
    else if (')}]'.includes(c)) depth--;
    else if (c === sep && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

// `&impl` or `&Class::member` of a registration's arguments, as 'impl' (or null).
const implOf = (args) => {
  const m = /&\s*([\w:]+)/.exec(args);
  return m ? m[1] : null;
};

// The registrations of embind.cpp's EMSCRIPTEN_BINDINGS block:
// { functions: {name: [impl]}, classes: {Name: {constructors, methods: {name: [impl]},
//   classFunctions: {name: [impl]}, properties: []}}, valueObjects: {Name: [field]},
//   enums: {Name: [value]}, constants: [name], unread: [statement] }.
function parseBindings(source) {
  const text = stripCppComments(source);
  const at = /EMSCRIPTEN_BINDINGS\s*\(\s*\w+\s*\)\s*\{/.exec(text);
  if (!at) throw new Error('no EMSCRIPTEN_BINDINGS block');
  const open = at.index + at[0].length - 1;
  const body = text.slice(open + 1, closing(text, open));
  const out = { functions: {}, classes: {}, valueObjects: {}, enums: {}, constants: [], unread: [] };
  const add = (map, name, impl) => (map[name] ||= []).push(impl);
  for (const statement of splitTop(body, ';')) {
    if (/^using\b/.test(statement)) continue;
    const head = /^(?:emscripten::)?(function|constant|class_|value_object|value_array|enum_)\s*(<[^(]*>)?\s*\(/.exec(statement);
    if (!head) {
      out.unread.push(statement);
      continue;
    }
    const argsOpen = head[0].length - 1;
    const argsClose = closing(statement, argsOpen);
    const args = statement.slice(argsOpen + 1, argsClose);
    const name = (/^"(\w+)"/.exec(args) || [])[1];
    if (!name) {
      out.unread.push(statement);
      continue;
    }
    // The chained calls after it: .what("name", ...) or .what(...).
    const chain = [];
    for (let rest = statement.slice(argsClose + 1).trim(); rest;) {
      const m = /^\.\s*(\w+)\s*(<[^(]*>)?\s*\(/.exec(rest);
      if (!m) {
        out.unread.push(statement);
        break;
      }
      const close = closing(rest, m[0].length - 1);
      const a = rest.slice(m[0].length, close);
      chain.push({ what: m[1], name: (/^"(\w+)"/.exec(a.trim()) || [])[1], args: a });
      rest = rest.slice(close + 1).trim();
    }
    const kind = head[1];
    if (kind === 'function') add(out.functions, name, implOf(args));
    else if (kind === 'constant') out.constants.push(name);
    else if (kind === 'value_object') out.valueObjects[name] = chain.filter((c) => c.what === 'field').map((c) => c.name);
    else if (kind === 'value_array') out.valueObjects[name] = chain.filter((c) => c.what === 'element').map((_, i) => String(i));
    else if (kind === 'enum_') out.enums[name] = chain.filter((c) => c.what === 'value').map((c) => c.name);
    else {
      const cls = out.classes[name] = { constructors: [], methods: {}, classFunctions: {}, properties: [] };
      for (const c of chain) {
        if (c.what === 'constructor') cls.constructors.push(implOf(c.args));
        else if (c.what === 'function') add(cls.methods, c.name, implOf(c.args));
        else if (c.what === 'class_function') add(cls.classFunctions, c.name, implOf(c.args));
        else if (c.what === 'property') cls.properties.push(c.name);
        else if (c.what !== 'smart_ptr' && c.what !== 'allow_subclass') out.unread.push(`${name}.${c.what}`);
      }
    }
  }
  return out;
}

// The functions defined at the top level of a C++ file (not indented): {name: {returns, params,
// sets, calls}}, `params` its parameter count, `sets` the names its body gives a val object
// (`.set("name", ...)`), `calls` the other functions of the file it calls.
function cppFunctions(source) {
  const text = stripCppComments(source);
  const found = {};
  const head = /^(?:template\s*<[^>]*>\s*)?([A-Za-z_][\w:<>, ]*?[\s*&]+)(\w+)\s*\(/gm;
  for (let m; (m = head.exec(text));) {
    const returns = m[1].trim();
    if (/^(return|using|namespace|struct|class|else|if|for|while|switch|EM_JS)\b/.test(returns)) continue;
    const paramsClose = closing(text, m.index + m[0].length - 1);
    const after = /^[^;{]*\{/.exec(text.slice(paramsClose + 1));  // `const`, `-> decltype(...)`
    if (!after) continue;
    const open = paramsClose + after[0].length;
    const close = closing(text, open);
    const body = text.slice(open + 1, close);
    const params = splitTop(text.slice(m.index + m[0].length, paramsClose), ',').filter((p) => p !== 'void').length;
    const f = found[m[2]] ||= { returns, params, sets: new Set(), calls: new Set() };
    for (const s of body.matchAll(/\.set\(\s*"(\w+)"/g)) f.sets.add(s[1]);
    for (const c of body.matchAll(/(?<![\w.:>])(\w+)\s*\(/g)) f.calls.add(c[1]);
    head.lastIndex = close;
  }
  for (const f of Object.values(found)) f.calls = new Set([...f.calls].filter((c) => c in found));
  return found;
}

// The val fields a function sets, itself or through the functions it calls; null when its C++
// does not return a val (or is not defined in the file).
function valFields(functions, name) {
  if (!functions[name] || !/^(emscripten::)?val$/.test(functions[name].returns)) return null;
  const seen = new Set([name]), fields = new Set(), todo = [name];
  while (todo.length) {
    const f = functions[todo.pop()];
    f.sets.forEach((s) => fields.add(s));
    for (const c of f.calls) if (!seen.has(c)) seen.add(c), todo.push(c);
  }
  return fields;
}

// ---------------------------------------------------------------------------------------------
// TypeScript: the declarations of a .d.ts, as far as wolab.d.ts uses the language.

function tokenize(text) {
  const tokens = [];
  const re = /\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|('(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*")|(\d+(?:\.\d+)?)|([A-Za-z_$][\w$]*)|(=>|\.\.\.|[{}()[\]<>:;,|&?=.])/y;
  for (let m; re.lastIndex < text.length;) {
    const at = re.lastIndex;
    if (!(m = re.exec(text))) throw new Error(`d.ts: cannot read ${JSON.stringify(text.slice(at, at + 20))}`);
    if (m[1]) tokens.push({ kind: 'string', value: m[1].slice(1, -1) });
    else if (m[2]) tokens.push({ kind: 'number', value: Number(m[2]) });
    else if (m[3]) tokens.push({ kind: 'name', value: m[3] });
    else if (m[4]) tokens.push({ kind: 'punct', value: m[4] });
  }
  return tokens;
}

// Declarations: { Name: {kind: 'interface', extends: [type], members} | {kind: 'type', type} |
// {kind: 'class', members} | {kind: 'enum', values} }. A member: {name, optional, static, type}
// for a property, {name, method: true, optional, static, params: {min, max}, type} for a
// method or constructor. A type: {kind: 'ref', name, args} | {kind: 'literal', value} |
// {kind: 'object', members} | {kind: 'array', of} | {kind: 'union', of} | {kind: 'typeof', name}
// | {kind: 'index', of, key}.
function parseDts(text) {
  const t = tokenize(text);
  let i = 0;
  const peek = (v) => t[i] && t[i].value === v;
  const eat = (v) => {
    if (!peek(v)) throw new Error(`d.ts: expected '${v}', got '${t[i] ? t[i].value : 'the end'}' (token ${i})`);
    return t[i++];
  };
  const name = () => {
    if (!t[i] || t[i].kind !== 'name') throw new Error(`d.ts: expected a name, got '${t[i] && t[i].value}'`);
    return t[i++].value;
  };

  function params() {
    eat('(');
    let min = 0, max = 0;
    while (!peek(')')) {
      const rest = peek('...') && eat('...');
      name();
      const optional = peek('?') && eat('?');
      if (peek(':')) eat(':'), type();
      if (rest) max = Infinity;
      else max++, min += optional ? 0 : 1;
      if (peek(',')) eat(',');
    }
    eat(')');
    return { min, max };
  }
  function members(close) {
    const list = [];
    while (!peek(close)) {
      const m = {};
      if (peek('static')) eat('static'), m.static = true;
      if (peek('readonly')) eat('readonly');
      m.name = t[i].kind === 'string' ? t[i++].value : name();
      if (peek('?')) eat('?'), m.optional = true;
      if (peek('(')) {
        m.method = true;
        m.params = params();
        m.type = peek(':') ? (eat(':'), type()) : { kind: 'ref', name: 'void', args: [] };
      } else {
        eat(':');
        m.type = type();
      }
      list.push(m);
      if (peek(';') || peek(',')) i++;
    }
    eat(close);
    return list;
  }
  function primary() {
    const tok = t[i];
    if (peek('(')) {
      eat('(');
      const inner = type();
      eat(')');
      return inner;
    }
    if (peek('{')) return eat('{'), { kind: 'object', members: members('}') };
    if (tok.kind === 'string' || tok.kind === 'number') return i++, { kind: 'literal', value: tok.value };
    if (peek('typeof')) return eat('typeof'), { kind: 'typeof', name: name() };
    const n = name();
    if (n === 'true' || n === 'false') return { kind: 'literal', value: n === 'true' };
    const args = [];
    if (peek('<')) {
      eat('<');
      do args.push(type()); while (peek(',') && eat(','));
      eat('>');
    }
    return { kind: 'ref', name: n, args };
  }
  function postfix() {
    let ty = primary();
    while (peek('[')) {
      eat('[');
      if (peek(']')) ty = { kind: 'array', of: ty };
      else ty = { kind: 'index', of: ty, key: type() };
      eat(']');
    }
    return ty;
  }
  function type() {
    if (peek('|')) eat('|');
    const of = [postfix()];
    while (peek('|')) eat('|'), of.push(postfix());
    return of.length === 1 ? of[0] : { kind: 'union', of };
  }

  const decls = {};
  while (i < t.length) {
    if (peek('export')) eat('export');
    if (peek('default')) eat('default');
    if (peek('declare')) eat('declare');
    const what = name();
    if (what === 'interface') {
      const n = name();
      const ext = [];
      if (peek('extends')) {
        eat('extends');
        do ext.push(type()); while (peek(',') && eat(','));
      }
      eat('{');
      decls[n] = { kind: 'interface', extends: ext, members: members('}') };
    } else if (what === 'type') {
      const n = name();
      eat('=');
      decls[n] = { kind: 'type', type: type() };
      eat(';');
    } else if (what === 'class') {
      const n = name();
      eat('{');
      decls[n] = { kind: 'class', members: members('}').map((m) => (m.name === 'constructor' ? { ...m, isConstructor: true } : m)) };
    } else if (what === 'enum') {
      const n = name();
      eat('{');
      decls[n] = { kind: 'enum', values: members('}').map((m) => m.name) };
    } else if (what === 'function') {
      const n = name();
      decls[n] = { kind: 'function', params: params(), type: (eat(':'), type()) };
      eat(';');
    } else {
      throw new Error(`d.ts: cannot read a declaration starting '${what}'`);
    }
  }
  return decls;
}

// The members of an interface or class, those it extends included.
function membersOf(decls, n) {
  const d = decls[n];
  if (!d || (d.kind !== 'interface' && d.kind !== 'class')) return null;
  return [...(d.extends || []).flatMap((e) => membersOf(decls, e.name) || []), ...d.members];
}

// Every field name reachable in a type (nested objects, arrays, unions and named types
// followed), for the comparison with the fields a val is given.
function typeFields(decls, ty, seen = new Set()) {
  const fields = new Set();
  const walk = (x) => {
    if (x.kind === 'object') for (const m of x.members) fields.add(m.name), walk(m.type);
    else if (x.kind === 'array') walk(x.of);
    else if (x.kind === 'union') x.of.forEach(walk);
    else if (x.kind === 'ref' && !OPAQUE.has(x.name) && !seen.has(x.name)) {
      seen.add(x.name);
      const d = decls[x.name];
      if (!d) throw new Error(`d.ts: unknown type ${x.name}`);
      if (d.kind === 'type') walk(d.type);
      else for (const m of membersOf(decls, x.name) || []) if (!m.method) fields.add(m.name), walk(m.type);
    }
  };
  walk(ty);
  return fields;
}

// Resolves named types, `T['key']` and type aliases to a structural type.
function resolve(decls, ty) {
  if (ty.kind === 'ref' && decls[ty.name]) {
    const d = decls[ty.name];
    if (d.kind === 'type') return resolve(decls, d.type);
    if (d.kind === 'interface' || d.kind === 'class') return { kind: 'object', members: membersOf(decls, ty.name).filter((m) => !m.method), name: ty.name };
  }
  if (ty.kind === 'index') {
    const of = resolve(decls, ty.of);
    const key = ty.key.value;
    const pick = (o) => o.members.find((m) => m.name === key);
    const branches = of.kind === 'union' ? of.of.map((b) => resolve(decls, b)) : [of];
    const types = branches.map(pick).filter(Boolean).map((m) => m.type);
    return types.length === 1 ? types[0] : { kind: 'union', of: types };
  }
  return ty;
}

// Where a JSON value departs from a d.ts type: a list of "path: problem" lines.
function checkValue(decls, value, ty, where) {
  const problems = [];
  ty = resolve(decls, ty);
  const say = (p) => problems.push(`${where}: ${p}`);
  if (ty.kind === 'union') {
    const branches = ty.of.map((b) => resolve(decls, b));
    if (branches.every((b) => b.kind === 'literal')) {
      if (!branches.some((b) => b.value === value)) say(`${JSON.stringify(value)}, the d.ts says ${branches.map((b) => JSON.stringify(b.value)).join(' | ')}`);
      return problems;
    }
    // The branch the value departs least from.
    return branches.map((b) => checkValue(decls, value, b, where)).reduce((a, b) => (b.length < a.length ? b : a));
  }
  if (ty.kind === 'literal') {
    if (value !== ty.value) say(`${JSON.stringify(value)}, the d.ts says ${JSON.stringify(ty.value)}`);
  } else if (ty.kind === 'array') {
    if (!Array.isArray(value)) say(`${JSON.stringify(value)}, the d.ts says an array`);
    else value.forEach((v, k) => problems.push(...checkValue(decls, v, ty.of, `${where}[${k}]`)));
  } else if (ty.kind === 'object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      say(`${JSON.stringify(value)}, the d.ts says an object${ty.name ? ` (${ty.name})` : ''}`);
    } else {
      const declared = new Map(ty.members.map((m) => [m.name, m]));
      for (const k of Object.keys(value)) {
        if (!declared.has(k)) say(`field "${k}" is in the module's output, not in wolab.d.ts${ty.name ? ` (${ty.name})` : ''}`);
        else if (!(value[k] === undefined && declared.get(k).optional)) problems.push(...checkValue(decls, value[k], declared.get(k).type, `${where}.${k}`));
      }
      for (const m of ty.members) if (!m.optional && !(m.name in value)) say(`field "${m.name}" is in wolab.d.ts${ty.name ? ` (${ty.name})` : ''}, not in the module's output`);
    }
  } else if (ty.kind === 'ref') {
    const primitive = { string: 'string', number: 'number', boolean: 'boolean', JsonText: 'string' }[ty.name];
    if (primitive && typeof value !== primitive) say(`${JSON.stringify(value)}, the d.ts says ${ty.name}`);
    else if (ty.name === 'null' && value !== null) say(`${JSON.stringify(value)}, the d.ts says null`);
    else if (ty.name === 'Record') {
      if (value === null || typeof value !== 'object') say(`${JSON.stringify(value)}, the d.ts says a Record`);
      else for (const [k, v] of Object.entries(value)) problems.push(...checkValue(decls, v, ty.args[1], `${where}.${k}`));
    } else if (ty.name === 'object' && (value === null || typeof value !== 'object')) say(`${JSON.stringify(value)}, the d.ts says an object`);
    else if (!primitive && !OPAQUE.has(ty.name) && ty.name !== 'Record' && !decls[ty.name]) say(`the d.ts names an unknown type ${ty.name}`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// The comparison.

// The accepted argument counts of a d.ts method (or constructor) declared once or overloaded.
function arities(decls) {
  return decls.flatMap((m) => Array.from({ length: Math.min(m.params.max, 20) - m.params.min + 1 }, (_, k) => m.params.min + k));
}
const sorted = (xs) => [...new Set(xs)].sort();

// Every name on one side and not on the other, and every val whose fields differ from its
// d.ts type's: a list of lines, empty when the two agree.
function compareStatic(bindings, cppFns, decls) {
  const problems = [];
  const moduleDecl = decls.WolabModule;
  if (!moduleDecl) return ['wolab.d.ts declares no interface WolabModule'];
  const moduleMembers = new Map(moduleDecl.members.map((m) => [m.name, m]));
  for (const s of bindings.unread) problems.push(`embind.cpp: a registration this check cannot read: ${s.replace(/\s+/g, ' ').slice(0, 80)}`);

  const both = (what, cppNames, dtsNames) => {
    for (const n of cppNames) if (!dtsNames.includes(n)) problems.push(`${what}${n}: registered in embind.cpp, not in wolab.d.ts`);
    for (const n of dtsNames) if (!cppNames.includes(n)) problems.push(`${what}${n}: in wolab.d.ts, not registered in embind.cpp`);
  };
  // The argument counts JS may call with: the C++ functions' (less the object for a method)
  // against the d.ts declarations'; not checked where an impl is a member function (`&T::f`).
  const aritiesAgree = (what, impls, declared, self = 0) => {
    if (!declared.length || impls.some((impl) => !cppFns[impl])) return;
    const cpp = sorted(impls.map((impl) => cppFns[impl].params - self)), dts = sorted(arities(declared));
    if (cpp.join() !== dts.join()) problems.push(`${what}: embind.cpp takes ${cpp.join(' or ')} arguments, wolab.d.ts allows ${dts.join(' or ')}`);
  };
  const fieldsAgree = (what, impls, ty) => {
    for (const impl of impls) {
      const cpp = valFields(cppFns, impl);
      if (!cpp) continue;
      const dts = typeFields(decls, ty);
      both(`${what} returns a field `, sorted([...cpp]), sorted([...dts]));
    }
  };

  // Module functions, classes, enums and constants are the module's members.
  const exposed = [...Object.keys(bindings.functions), ...Object.keys(bindings.classes), ...Object.keys(bindings.enums), ...bindings.constants];
  both('module member ', sorted(exposed), sorted([...moduleMembers.keys()]));
  for (const [n, impls] of Object.entries(bindings.functions)) {
    const m = moduleMembers.get(n);
    if (m && !m.method) problems.push(`${n}: a function in embind.cpp, a property in wolab.d.ts`);
    if (m && m.method) fieldsAgree(`${n}()`, impls, m.type);
    aritiesAgree(n, impls, moduleDecl.members.filter((x) => x.name === n && x.method));
  }
  for (const n of [...Object.keys(bindings.classes), ...Object.keys(bindings.enums)]) {
    const m = moduleMembers.get(n);
    if (m && !(m.type.kind === 'typeof' && m.type.name === n)) problems.push(`WolabModule.${n}: expected 'typeof ${n}'`);
  }

  for (const [n, cls] of Object.entries(bindings.classes)) {
    const d = decls[n];
    if (!d || d.kind !== 'class') {
      problems.push(`class ${n}: registered in embind.cpp, not declared (declare class) in wolab.d.ts`);
      continue;
    }
    const methods = d.members.filter((m) => m.method && !m.static && !m.isConstructor);
    const statics = d.members.filter((m) => m.method && m.static);
    const props = d.members.filter((m) => !m.method);
    both(`${n}.`, sorted([...Object.keys(cls.methods), ...HANDLE_METHODS.filter((h) => methods.some((m) => m.name === h))]), sorted(methods.map((m) => m.name)));
    if (!methods.some((m) => m.name === 'delete')) problems.push(`${n}.delete: every class handle has it; wolab.d.ts does not declare it`);
    both(`${n}.`, sorted(Object.keys(cls.classFunctions)), sorted(statics.map((m) => m.name)));
    both(`${n}.`, sorted(cls.properties), sorted(props.map((m) => m.name)));
    if (cls.constructors.length && !d.members.some((m) => m.isConstructor)) problems.push(`${n}: embind.cpp registers a constructor, wolab.d.ts declares none`);
    if (!cls.constructors.length && d.members.some((m) => m.isConstructor)) problems.push(`${n}: wolab.d.ts declares a constructor, embind.cpp registers none`);
    for (const [mn, impls] of Object.entries(cls.methods)) {
      const m = methods.find((x) => x.name === mn);
      if (m) fieldsAgree(`${n}.${mn}()`, impls, m.type);
      aritiesAgree(`${n}.${mn}`, impls, methods.filter((x) => x.name === mn), 1);
    }
    for (const [sn, impls] of Object.entries(cls.classFunctions)) aritiesAgree(`${n}.${sn}`, impls, statics.filter((x) => x.name === sn));
    aritiesAgree(`new ${n}`, cls.constructors, d.members.filter((m) => m.isConstructor));
  }
  for (const n of Object.keys(decls)) {
    if (decls[n].kind === 'class' && !bindings.classes[n]) problems.push(`class ${n}: declared in wolab.d.ts, not registered in embind.cpp`);
  }

  for (const [n, fields] of Object.entries(bindings.valueObjects)) {
    const members = membersOf(decls, n);
    if (!members) problems.push(`value_object ${n}: registered in embind.cpp, no interface ${n} in wolab.d.ts`);
    else both(`${n}.`, sorted(fields), sorted(members.filter((m) => !m.method).map((m) => m.name)));
  }
  for (const [n, values] of Object.entries(bindings.enums)) {
    if (!decls[n] || decls[n].kind !== 'enum') problems.push(`enum ${n}: registered in embind.cpp, no declare enum ${n} in wolab.d.ts`);
    else both(`${n}.`, sorted(values), sorted(decls[n].values));
  }
  return problems;
}

const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');
const bindingsText = read('bindings/embind.cpp');
const dtsText = read('bindings/wolab.d.ts');

// ---------------------------------------------------------------------------------------------
// The parsers' own tests, on made-up snippets.

test('the C++ reader finds every kind of registration, and the val fields through helpers', () => {
  const cpp = [
    'namespace {',
    'val inner(int x) {',
    '  val out = val::object();',
    '  out.set("depth", x);  // out.set("commented", 1);',
    '  return out;',
    '}',
    'val outer(const Thing& t) {',
    '  return js_errors([&] { val o = val::object(); o.set("inner", inner(1)); o.set("name", std::string("a;b")); return o; });',
    '}',
    'std::string text(Thing& t, bool all) { return "x"; }',
    'template <class F>',
    'auto js_errors(F&& f) -> decltype(f()) { return f(); }',
    '}  // namespace',
    'EMSCRIPTEN_BINDINGS(m) {',
    '  using emscripten::function;',
    '  function("makeThing", &outer);',
    '  /* function("gone", &gone); */',
    '  emscripten::class_<Thing>("Thing")',
    '      .constructor(&make, allow_raw_pointers())',
    '      .class_function("load", &load)',
    '      .function("text", &text)',
    '      .function("text", &text_all)',
    '      .property("size", &Thing::size);',
    '  emscripten::value_object<Point>("Point").field("x", &Point::x).field("y", &Point::y);',
    '  emscripten::enum_<Mode>("Mode").value("FAST", Mode::fast).value("SLOW", Mode::slow);',
    '  emscripten::constant("LIMIT", 10);',
    '  emscripten::register_vector<int>("Ints");',
    '}',
  ].join('\n');
  const b = parseBindings(cpp);
  assert.deepEqual(b.functions, { makeThing: ['outer'] });
  assert.deepEqual(b.classes.Thing, { constructors: ['make'], methods: { text: ['text', 'text_all'] }, classFunctions: { load: ['load'] }, properties: ['size'] });
  assert.deepEqual(b.valueObjects, { Point: ['x', 'y'] });
  assert.deepEqual(b.enums, { Mode: ['FAST', 'SLOW'] });
  assert.deepEqual(b.constants, ['LIMIT']);
  assert.deepEqual(b.unread, ['emscripten::register_vector<int>("Ints")']);
  const fns = cppFunctions(cpp);
  assert.deepEqual(Object.keys(fns).sort(), ['inner', 'js_errors', 'outer', 'text']);
  assert.deepEqual(sorted(valFields(fns, 'outer')), ['depth', 'inner', 'name']);
  assert.equal(valFields(fns, 'text'), null);
  assert.deepEqual([fns.inner.params, fns.outer.params, fns.text.params], [1, 1, 2]);
});

test('the d.ts reader reads interfaces, classes, unions and overloads; the comparison names each difference', () => {
  const dts = [
    '// a comment with a ( and a {',
    'export type Kind = \'a\' | \'b\';',
    '/** docs */',
    'export type State =',
    '  | { state: \'running\' }',
    '  /** commented branch */',
    '  | { state: \'stopped\'; step: number };',
    'export interface Base { name: string }',
    'export interface Made extends Base { inner: { depth: number }[]; extra?: Kind | null }',
    'export declare class Thing {',
    '  constructor(json: string, lexicon?: Base);',
    '  static load(bytes: Uint8Array): Thing;',
    '  text(all?: boolean): string;',
    '  status(): State;',
    '  delete(): void;',
    '}',
    'export interface WolabModule {',
    '  makeThing(t: Thing): Made;',
    '  oldThing(): void;',
    '  Thing: typeof Thing;',
    '  LIMIT: number;',
    '}',
    'export default function createWolab(options?: object): Promise<WolabModule>;',
  ].join('\n');
  const decls = parseDts(dts);
  assert.deepEqual(Object.keys(decls), ['Kind', 'State', 'Base', 'Made', 'Thing', 'WolabModule', 'createWolab']);
  assert.deepEqual(decls.Thing.members.map((m) => [m.name, m.params]), [
    ['constructor', { min: 1, max: 2 }], ['load', { min: 1, max: 1 }], ['text', { min: 0, max: 1 }],
    ['status', { min: 0, max: 0 }], ['delete', { min: 0, max: 0 }]]);
  assert.deepEqual(arities(decls.Thing.members.filter((m) => m.isConstructor)), [1, 2]);
  assert.deepEqual(sorted([...typeFields(decls, { kind: 'ref', name: 'Made', args: [] })]), ['depth', 'extra', 'inner', 'name']);
  assert.deepEqual(sorted([...typeFields(decls, { kind: 'ref', name: 'State', args: [] })]), ['state', 'step']);

  const made = { kind: 'ref', name: 'Made', args: [] };
  assert.deepEqual(checkValue(decls, { name: 'x', inner: [{ depth: 1 }], extra: 'a' }, made, 'made'), []);
  assert.deepEqual(checkValue(decls, { inner: [{ depth: 1, width: 2 }], extra: 'c' }, made, 'made'), [
    'made.inner[0]: field "width" is in the module\'s output, not in wolab.d.ts',
    'made.extra: "c", the d.ts says "a" | "b"',
    'made: field "name" is in wolab.d.ts (Made), not in the module\'s output',
  ]);
  assert.deepEqual(checkValue(decls, { state: 'stopped', step: 3 }, { kind: 'ref', name: 'State', args: [] }, 's'), []);
  assert.deepEqual(checkValue(decls, 'running', { kind: 'index', of: { kind: 'ref', name: 'State', args: [] }, key: { kind: 'literal', value: 'state' } }, 's'), []);

  const cpp = [
    'val outer(const Thing& t) { val o = val::object(); o.set("name", 1); o.set("inner", 2); o.set("depth", 3); o.set("width", 4); return o; }',
    'std::string text(const Thing& t) { return "t"; }',
    'EMSCRIPTEN_BINDINGS(m) {',
    '  function("makeThing", &outer);',
    '  function("newThing", &outer);',
    '  emscripten::class_<Thing>("Thing").constructor(&make).function("text", &text).function("size", &size);',
    '}',
  ].join('\n');
  assert.deepEqual(compareStatic(parseBindings(cpp), cppFunctions(cpp), decls), [
    'module member newThing: registered in embind.cpp, not in wolab.d.ts',
    'module member LIMIT: in wolab.d.ts, not registered in embind.cpp',
    'module member oldThing: in wolab.d.ts, not registered in embind.cpp',
    'makeThing() returns a field width: registered in embind.cpp, not in wolab.d.ts',
    'makeThing() returns a field extra: in wolab.d.ts, not registered in embind.cpp',
    'Thing.size: registered in embind.cpp, not in wolab.d.ts',
    'Thing.status: in wolab.d.ts, not registered in embind.cpp',
    'Thing.load: in wolab.d.ts, not registered in embind.cpp',
    'Thing.text: embind.cpp takes 0 arguments, wolab.d.ts allows 0 or 1',
  ]);
});

// ---------------------------------------------------------------------------------------------
// The real files.

test('wolab.d.ts declares exactly what embind.cpp registers, and each val with the fields its C++ sets', () => {
  const bindings = parseBindings(bindingsText);
  const decls = parseDts(dtsText);
  // The reader found the bindings at all: at least the module functions and both classes.
  assert.ok(Object.keys(bindings.functions).length >= 20, Object.keys(bindings.functions).join(', '));
  assert.deepEqual(Object.keys(bindings.classes).sort(), ['Lexicon', 'Trainer']);
  assert.deepEqual(compareStatic(bindings, cppFunctions(bindingsText), decls), []);
});

// The module's own view: the names Embind exposed (a free function carries `argCount`, or an
// `overloadTable` when overloaded; a class's prototype descends from ClassHandle) and the
// argument counts each accepts, against the d.ts.
function embindArities(fn) {
  if (fn.overloadTable) return Object.keys(fn.overloadTable).map(Number);
  return typeof fn.argCount === 'number' ? [fn.argCount] : null;
}

test('the built module exposes the d.ts names, each taking the argument counts the d.ts allows', { skip: !built && `no ${path.relative(root, wasmDir)}/wolab.js (scripts/build-wasm.sh)` }, async () => {
  const wolab = await loadWolab();
  const decls = parseDts(dtsText);
  const problems = [];
  const functions = {}, classes = {};
  for (const [k, v] of Object.entries(wolab)) {
    if (typeof v !== 'function') continue;
    if (v.prototype && typeof v.prototype.isAliasOf === 'function') classes[k] = v;
    else if (embindArities(v)) functions[k] = v;
  }
  const moduleMembers = decls.WolabModule.members;
  const compare = (what, got, declared) => {
    for (const n of Object.keys(got)) {
      const d = declared.filter((m) => m.name === n);
      if (!d.length) problems.push(`${what}${n}: in the built module, not in wolab.d.ts`);
      else {
        const has = sorted(embindArities(got[n]).map(String)), want = sorted(arities(d).map(String));
        if (has.join() !== want.join()) problems.push(`${what}${n}: takes ${has.join(' or ')} arguments, wolab.d.ts allows ${want.join(' or ')}`);
      }
    }
    for (const n of new Set(declared.map((m) => m.name))) if (!(n in got)) problems.push(`${what}${n}: in wolab.d.ts, not in the built module`);
  };
  compare('', functions, moduleMembers.filter((m) => m.method));
  for (const n of moduleMembers.filter((m) => m.type.kind === 'typeof').map((m) => m.name)) {
    if (!classes[n]) problems.push(`${n}: a class in wolab.d.ts, not in the built module`);
  }
  for (const [n, cls] of Object.entries(classes)) {
    const d = decls[n];
    if (!d || d.kind !== 'class') {
      problems.push(`class ${n}: in the built module, not in wolab.d.ts`);
      continue;
    }
    const methods = Object.fromEntries(Object.getOwnPropertyNames(cls.prototype).filter((m) => m !== 'constructor').map((m) => [m, cls.prototype[m]]));
    compare(`${n}.`, methods, d.members.filter((m) => m.method && !m.static && !m.isConstructor && !HANDLE_METHODS.includes(m.name)));
    const statics = Object.fromEntries(Object.getOwnPropertyNames(cls).filter((m) => typeof cls[m] === 'function' && embindArities(cls[m])).map((m) => [m, cls[m]]));
    compare(`${n}.`, statics, d.members.filter((m) => m.static));
    for (const h of HANDLE_METHODS) if (typeof cls.prototype[h] !== 'function') problems.push(`${n}.${h}: not on the built class`);
  }
  assert.ok(Object.keys(functions).length >= 20, Object.keys(functions).join(', '));
  assert.deepEqual(problems, []);
});

// The presets' committed results (recorded/presets/<preset>/), every experiment's: their analysis
// has each kind of finding.
function recordedResults(preset) {
  const dir = path.join(root, 'recorded', 'presets', preset);
  const files = Object.values(JSON.parse(fs.readFileSync(path.join(dir, 'preset.files.json'), 'utf8')));
  return files.map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
}

test('the JSON text the module returns has the fields the d.ts types it with', { skip: !built && `no ${path.relative(root, wasmDir)}/wolab.js (scripts/build-wasm.sh)` }, async () => {
  const wolab = await loadWolab();
  const decls = parseDts(dtsText);
  const ref = (name) => ({ kind: 'ref', name, args: [] });
  const arrayOf = (name) => ({ kind: 'array', of: ref(name) });
  const problems = new Set();
  // Each problem once, whatever element of an array it was found in.
  const check = (what, text, ty) => checkValue(decls, JSON.parse(text), ty, what).forEach((p) => problems.add(p.replace(/\[\d+\]/g, '[]')));

  check('settings()', wolab.settings(), arrayOf('Setting'));
  check('experiments()', wolab.experiments(), arrayOf('ExperimentInfo'));
  check('codes()', wolab.codes(), ref('Codes'));
  check('wordsTable()', wolab.wordsTable(), ref('WordsTable'));
  for (const config of Object.values(JSON.parse(wolab.presets()))) {
    check('plan()', wolab.plan(JSON.stringify(config), '["all"]'), arrayOf('PlannedRun'));
  }

  // A probe fragment of a tiny run that keeps every part of its record.
  const t = new wolab.Trainer(JSON.stringify({
    model: { d_model: 8, heads: 2, layers: 1, d_ff: 16 }, task: { name: 'copy', alphabet: 6, length: 3 },
    train: { steps: 10, probe_every: 5 },
  }));
  try {
    t.recordWoSnapshots(true);
    t.step(5);
    check('probeRecord()', t.probeRecord(), ref('ProbeFragment'));
  } finally {
    t.delete();
  }

  const conclusion = { kind: 'index', of: ref('Analysis'), key: { kind: 'literal', value: 'conclusion' } };
  for (const preset of ['quick', 'article']) {
    const analysis = wolab.analyze(JSON.stringify(recordedResults(preset)));
    check('analyze()', analysis, ref('Analysis'));
    check('analysisWords()', wolab.analysisWords(analysis, 'en'), ref('AnalysisWords'));
    check('claimWords()', wolab.claimWords(JSON.stringify(JSON.parse(analysis).claims[0]), 'zh'), ref('ClaimWords'));
    check('conclude()', wolab.conclude(analysis, analysis), conclusion);
  }
  assert.deepEqual([...problems], []);
});
