#!/usr/bin/env node
// Renders one of docs/ to a standalone HTML page of the built site, so that the page can link
// the rules its verdicts follow (docs/claims.md -> dist/rules.html; build-wasm.sh runs it). No
// dependencies: the Markdown the docs use, and nothing else:
//   headings (ids as GitHub makes them: "## The claims" -> #the-claims), paragraphs, lists
//   (nested by indentation, "1." numbered), fenced code, tables, `code`, **bold**, *italic*,
//   [links](...) and the empty anchors <a id="..."></a> that give a place in the text an id
//   (claim-1 ... in docs/claims.md) on GitHub and here alike.
// Every other character is text: <, >, &, " and ' are escaped wherever they stand. A link to a
// fragment (#x) or to http(s) stays a link; one to another file of docs/, which the site does
// not carry, becomes its text followed by the file's name.
//   node scripts/render-doc.js docs/claims.md dist/rules.html
//   const { renderMarkdown, renderPage } = require('./scripts/render-doc.js');
'use strict';

const fs = require('fs');

const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

// GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens.
const slug = (text) => text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');

// Inline Markdown of one block's text -> HTML.
function inline(text) {
  let out = '';
  let rest = text;
  const patterns = [
    [/^`([^`]+)`/, (m) => `<code>${escapeHtml(m[1])}</code>`],
    [/^<a id="([A-Za-z][\w-]*)"><\/a>/, (m) => `<a id="${m[1]}"></a>`],
    [/^\[([^\]]+)\]\(([^)\s]+)\)/, (m) => link(m[1], m[2])],
    [/^\*\*(\S(?:.*?\S)?)\*\*/, (m) => `<strong>${inline(m[1])}</strong>`],
    [/^\*(\S(?:.*?\S)?)\*/, (m) => `<em>${inline(m[1])}</em>`],
  ];
  while (rest) {
    let hit = null;
    for (const [re, html] of patterns) {
      const m = re.exec(rest);
      if (m) {
        hit = [m[0].length, html(m)];
        break;
      }
    }
    if (hit) {
      out += hit[1];
      rest = rest.slice(hit[0]);
    } else {
      // Up to the next character that may open a span.
      const next = rest.slice(1).search(/[`<[*]/);
      const n = next < 0 ? rest.length : next + 1;
      out += escapeHtml(rest.slice(0, n));
      rest = rest.slice(n);
    }
  }
  return out;
}

function link(text, target) {
  if (target.startsWith('#') || /^https?:\/\//.test(target)) return `<a href="${escapeHtml(target)}">${inline(text)}</a>`;
  return `${inline(text)} (<code>docs/${escapeHtml(target)}</code>)`;
}

const indentOf = (line) => line.match(/^ */)[0].length;
const listItem = (line) => /^( *)([-*]|\d+\.) (.*)$/.exec(line);
const tableSeparator = (line) => /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line);
const isTable = (line, next) => /^\s*\|/.test(line) && next !== undefined && tableSeparator(next);
const startsBlock = (line, next) => /^ *(#{1,6} |```)/.test(line) || Boolean(listItem(line)) || isTable(line, next);
const cells = (line) => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());

// Lines (de-indented to their container) -> HTML blocks.
function blocks(lines) {
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i += 1;
      continue;
    }
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    if (heading) {
      const level = heading[1].length;
      out.push(`<h${level} id="${escapeHtml(slug(heading[2].replace(/[`*]/g, '')))}">${inline(heading[2])}</h${level}>`);
      i += 1;
    } else if (line.startsWith('```')) {
      const end = lines.findIndex((l, k) => k > i && l.startsWith('```'));
      const stop = end < 0 ? lines.length : end;
      out.push(`<pre><code>${escapeHtml(lines.slice(i + 1, stop).join('\n'))}</code></pre>`);
      i = stop + 1;
    } else if (isTable(line, lines[i + 1])) {
      const head = cells(line);
      i += 2;
      const rows = [];
      while (i < lines.length && /^\s*\|/.test(lines[i])) rows.push(cells(lines[i++]));
      const row = (tag, r) => `<tr>${r.map((c) => `<${tag}>${inline(c)}</${tag}>`).join('')}</tr>`;
      out.push(`<table><thead>${row('th', head)}</thead><tbody>${rows.map((r) => row('td', r)).join('')}</tbody></table>`);
    } else if (listItem(line)) {
      i = list(lines, i, out);
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() && !startsBlock(lines[i], lines[i + 1])) para.push(lines[i++].trim());
      out.push(`<p>${inline(para.join(' '))}</p>`);
    }
  }
  return out.join('\n');
}

// The list that starts at lines[i]: its items, each holding the lines indented under it (and
// lines that continue its text without indent). Returns the index after it.
function list(lines, i, out) {
  const first = listItem(lines[i]);
  const ordered = /\d/.test(first[2]);
  const items = [];
  while (i < lines.length) {
    const m = listItem(lines[i]);
    if (!m || m[1].length !== 0 || /\d/.test(m[2]) !== ordered) break;
    const width = m[1].length + m[2].length + 1;
    const body = [m[3]];
    i += 1;
    while (i < lines.length) {
      const l = lines[i];
      if (!l.trim()) {
        const next = lines.slice(i).find((x) => x.trim());
        if (next === undefined || indentOf(next) < width) break;
        body.push('');
      } else if (indentOf(l) >= width) body.push(l.slice(width));
      else if (body[body.length - 1].trim() && !startsBlock(l, lines[i + 1])) body.push(l.trim());  // lazy continuation
      else break;
      i += 1;
    }
    items.push(`<li>${blocks(body)}</li>`);
  }
  const start = ordered && Number.parseInt(first[2], 10) !== 1 ? ` start="${Number.parseInt(first[2], 10)}"` : '';
  out.push(ordered ? `<ol${start}>\n${items.join('\n')}\n</ol>` : `<ul>\n${items.join('\n')}\n</ul>`);
  return i;
}

function renderMarkdown(text) {
  return blocks(text.replace(/\r\n?/g, '\n').split('\n'));
}

// A page of the site: the page's stylesheet, a way back to it, the document; no script, and
// nothing from anywhere but the site (its Content-Security-Policy).
function renderPage(text) {
  const title = (/^# (.*)$/m.exec(text) || [null, 'W_o Lab'])[1].replace(/[`*]/g, '');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'self'; img-src data:">
<title>${escapeHtml(title)} · W_o Lab</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="style.css">
</head>
<body class="doc">
<p><a href="./">← W_o Lab</a></p>
<main>
${renderMarkdown(text)}
</main>
</body>
</html>
`;
}

if (require.main === module) {
  const [source, target] = process.argv.slice(2);
  if (!source || !target) {
    console.error('usage: node scripts/render-doc.js DOC.md OUT.html');
    process.exit(2);
  }
  fs.writeFileSync(target, renderPage(fs.readFileSync(source, 'utf8')));
}

module.exports = { renderMarkdown, renderPage };
