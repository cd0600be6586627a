// Every sentence once: the claims' statements, the verdicts' labels, the settings' help and the
// list of languages are each written in one table, and the sources of src/, bindings/ and web/
// read it there rather than write it again. The texts are read from the built module (the core's
// wordsTable() and settings()), so a copy in any other file, English or Chinese, fails here.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { loadWolab, root } = require('./helpers.js');

// The source files (path from the root, text without comments) of src/, bindings/ and web/.
function sources() {
  const out = [];
  for (const dir of ['src', 'bindings', 'web']) {
    for (const file of fs.readdirSync(path.join(root, dir), { recursive: true })) {
      if (!/\.(cpp|h|js|ts|html)$/.test(file)) continue;
      const name = path.posix.join(dir, file.split(path.sep).join('/'));
      out.push({ name, text: withoutComments(fs.readFileSync(path.join(root, name), 'utf8')) });
    }
  }
  return out;
}
// Block comments, and line comments (not the // of a URL: "https://...").
const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\])\/\/.*$/gm, '$1')
  .replace(/<!--[\s\S]*?-->/g, '');
// Every string literal of a source's text, its quotes off ('…', "…", `…` without ${}).
const literals = (text) => [...text.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`([^`$\\]*)`/g)]
  .map((m) => m[1] ?? m[2] ?? m[3]);
// The files with a string literal that is exactly `text`.
const literalIn = (files, text) => files.filter((f) => literals(f.text).includes(text)).map((f) => f.name);
// The files whose text holds `text` anywhere.
const anywhereIn = (files, text) => files.filter((f) => f.text.includes(text)).map((f) => f.name);

const TABLE = 'src/analysis/words_table.cpp';

test('each claim\'s statement and each verdict\'s label is written once, in the core\'s table of words', async () => {
  const wolab = await loadWolab();
  const { languages, words } = JSON.parse(wolab.wordsTable());
  const codes = JSON.parse(wolab.codes());
  const files = sources();
  const statements = Object.keys(words).filter((k) => /^claim_\d+$/.test(k));
  assert.equal(statements.length, 9, 'the article\'s nine claims');
  const labels = codes.verdicts.map((v) => `v_${v}`);
  for (const key of [...statements, ...labels]) assert.ok(words[key], `the core's table has ${key}`);
  for (const lang of languages) {
    // A statement is a sentence: no file but the table holds it, in a literal or as part of one.
    for (const key of statements) assert.deepEqual(anywhereIn(files, words[key][lang]), [TABLE], `${key} (${lang})`);
    // A label is a few words, which longer texts and comments use: no file but the table has it as
    // a whole literal. (The English "supported" is also the verdict's code, codes.h's alone.)
    for (const key of labels) {
      const text = words[key][lang];
      const also = codes.verdicts.includes(text) ? ['src/analysis/codes.h', 'bindings/wolab.d.ts'] : [];
      assert.deepEqual(literalIn(files, text).sort(), [TABLE, ...also].sort(), `${key} (${lang}): "${text}"`);
    }
  }
});

test('the settings\' help is the core\'s: the page writes none of its own', async () => {
  const settings = JSON.parse((await loadWolab()).settings());
  const others = sources().filter((f) => f.name !== 'src/lab/settings_help.cpp');
  for (const s of settings) {
    for (const [lang, text] of Object.entries(s.help)) {
      assert.ok(text.length > 0, `${s.path}: help in ${lang}`);
      assert.deepEqual(literalIn(others, text), [], `${s.path}'s help (${lang}) written again outside src/lab/settings_help.cpp`);
    }
  }
  // Nor in other words: the page's texts have no help of a setting (the h_<key> it had).
  const i18n = await import(pathToFileURL(path.join(root, 'web/i18n/i18n.js')));
  globalThis.document = { documentElement: {} };  // setLang sets the page's lang attribute
  for (const lang of i18n.languages()) {
    i18n.setLang(lang);
    const restated = settings.filter((s) => i18n.t(`h_${s.key}`) !== `h_${s.key}`).map((s) => s.key);
    assert.deepEqual(restated, [], `${lang}: the page's own help of these settings`);
  }
  // The form shows the core's help in the page's language.
  assert.match(fs.readFileSync(path.join(root, 'web/controls/settings-form.js'), 'utf8'), /\.textContent = s\.help\[lang\(\)\]/);
  assert.deepEqual(others.filter((f) => f.name.startsWith('web/') && /\bh_\$\{/.test(f.text)).map((f) => f.name), []);
});

test('the languages are listed once in the core and once in the page, the same ones', async () => {
  const { languages } = JSON.parse((await loadWolab()).wordsTable());
  assert.deepEqual(languages, ['en', 'zh']);
  const files = sources();
  // The core's list (src/config/languages.h): no other source of src/ or the bindings names a
  // language by its code.
  for (const code of languages) {
    const core = literalIn(files.filter((f) => !f.name.startsWith('web/') && f.name !== 'bindings/wolab.d.ts'), code);
    assert.deepEqual(core, ['src/config/languages.h'], `"${code}" in the core`);
  }
  // The d.ts types the list, the same languages in the same order.
  const type = fs.readFileSync(path.join(root, 'bindings/wolab.d.ts'), 'utf8').match(/export type WordsLang = ([^;]+);/);
  assert.deepEqual(type[1].split('|').map((s) => s.trim().replace(/'/g, '')), languages);
  // The page's list is its table of texts (web/i18n/i18n.js), which it needs before the core has
  // loaded: the same languages, the default first, each named in itself. No module outside
  // web/i18n/ names a language by its code, and index.html lists none (its lang="en" is the
  // language of its own text, shown until the script sets the page's).
  const i18n = await import(pathToFileURL(path.join(root, 'web/i18n/i18n.js')));
  assert.deepEqual(i18n.languages(), languages);
  assert.deepEqual(i18n.languages().map(i18n.languageName), ['English', '中文']);
  for (const code of languages) {
    const page = literalIn(files.filter((f) => /^web\/.*\.js$/.test(f.name) && !f.name.startsWith('web/i18n/')), code);
    assert.deepEqual(page, [], `"${code}" in the page outside web/i18n/`);
  }
  assert.doesNotMatch(fs.readFileSync(path.join(root, 'web/index.html'), 'utf8'), /<option value="(en|zh)"/);
});

test('the checks find a copy: a statement, a label, a help and a language code written again', () => {
  const copy = (name, text) => ({ name, text: withoutComments(text) });
  const files = [
    copy('web/x.js', "const s = 'Without W_o, the loss falls clearly slower.';"),
    copy('web/y.js', 'const v = "not decided"; // not tested with these settings'),
    copy('web/z.js', "const h = { d_model: 'width of the residual stream' };"),
    copy('web/w.js', "const ok = lang() === 'zh' ? '：' : ': ';"),
  ];
  assert.deepEqual(anywhereIn(files, 'Without W_o, the loss falls clearly slower.'), ['web/x.js']);
  assert.deepEqual(literalIn(files, 'not decided'), ['web/y.js']);
  assert.deepEqual(literalIn(files, 'not tested with these settings'), [], 'a comment is not a copy');
  assert.deepEqual(literalIn(files, 'width of the residual stream'), ['web/z.js']);
  assert.deepEqual(literalIn(files, 'zh'), ['web/w.js']);
});
