// docs/embed.md lists the experiments an embed can show: the core's experiments() that need no
// data file (the page loads none), no fewer and no more, in its order.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { loadWolab } = require('./helpers.js');

const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'embed.md'), 'utf8');

test('the embed parameter lists every experiment of the core', async () => {
  const wolab = await loadWolab();
  const names = JSON.parse(wolab.experiments()).filter((e) => !e.needs_data).map((e) => e.name);
  const row = doc.split('\n').find((line) => line.startsWith('| `embed` |'));
  assert.ok(row, 'docs/embed.md has a row for the embed parameter');
  const values = row.split('|')[2];
  assert.deepEqual([...values.matchAll(/`(\w+)`/g)].map((m) => m[1]), names);
  // The table of measured heights has a row per experiment too.
  for (const name of names) assert.match(doc, new RegExp(`^\\| \`${name}\` \\| [\\d,]+ \\| [\\d,]+ \\|`, 'm'), name);
});
