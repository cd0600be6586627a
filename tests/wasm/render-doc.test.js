// scripts/render-doc.js, which ships docs/claims.md as the site's rules.html: the Markdown the
// docs use, every other character as text, and an id for each claim the claims panel links to.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { renderMarkdown, renderPage } = require('../../scripts/render-doc.js');

const root = path.join(__dirname, '..', '..');

test('headings, nested and numbered lists, code, tables and links', () => {
  const html = renderMarkdown([
    '## The claims', '', 'A *spread*: **two** `a<b`.', '',
    '1. **First.** Text', '   going on.', '   - sub one;', '   - sub two.', '',
    '   A second paragraph.', '2. Second.', '',
    '| a | b |', '| :--- | --- |', '| `x` | y |', '',
    '```', 'if (a < b) {}', '```',
    'See [the summary](results.md#the-summary), [here](#the-claims) and [W_o Lab](https://example.org/a?b=1&c=2).',
  ].join('\n'));
  assert.equal(html, [
    '<h2 id="the-claims">The claims</h2>',
    '<p>A <em>spread</em>: <strong>two</strong> <code>a&lt;b</code>.</p>',
    '<ol>',
    '<li><p><strong>First.</strong> Text going on.</p>\n<ul>\n<li><p>sub one;</p></li>\n<li><p>sub two.</p></li>\n</ul>\n<p>A second paragraph.</p></li>',
    '<li><p>Second.</p></li>',
    '</ol>',
    '<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td><code>x</code></td><td>y</td></tr></tbody></table>',
    '<pre><code>if (a &lt; b) {}</code></pre>',
    '<p>See the summary (<code>docs/results.md#the-summary</code>), <a href="#the-claims">here</a> and <a href="https://example.org/a?b=1&amp;c=2">W_o Lab</a>.</p>',
  ].join('\n'));
});

test('markup in the text is text, but for the empty anchors that give a place an id', () => {
  const html = renderMarkdown('1. <a id="claim-1"></a>**A** <b onclick="x()">b</b> & <a id="x" href="javascript:y">z</a> \'q\' <a id="1bad"></a>');
  assert.equal(html, '<ol>\n<li><p><a id="claim-1"></a><strong>A</strong> &lt;b onclick=&quot;x()&quot;&gt;b&lt;/b&gt; &amp; '
    + '&lt;a id=&quot;x&quot; href=&quot;javascript:y&quot;&gt;z&lt;/a&gt; &#39;q&#39; &lt;a id=&quot;1bad&quot;&gt;&lt;/a&gt;</p></li>\n</ol>');
  // A link to somewhere that is neither a fragment nor http(s) is no link.
  assert.doesNotMatch(renderMarkdown('[x](javascript:alert(1))'), /href/);
});

test('docs/claims.md: a page with an id for every claim, in order, and nothing from another origin', () => {
  const page = renderPage(fs.readFileSync(path.join(root, 'docs', 'claims.md'), 'utf8'));
  assert.match(page, /^<!DOCTYPE html>\n<html lang="en">/);
  assert.match(page, /<title>The analysis: paired comparisons, convergence and the article&#39;s claims · W_o Lab<\/title>/);
  const ids = [...page.matchAll(/<a id="claim-(\d+)"><\/a><strong>/g)].map((m) => Number(m[1]));
  assert.ok(ids.length >= 7, `claims with an id: ${ids}`);
  assert.deepEqual(ids, ids.map((_, i) => i + 1));
  assert.match(page, /<h2 id="the-claims">The claims<\/h2>/);
  assert.doesNotMatch(page, /(src|href)="(https?:)?\/\//);
});
