// "What the runs found": each of the article's claims in one plain sentence, with its verdict
// badge and how many seeds it rests on, grouped by the article's three design philosophies. The
// sentences, the verdict words and the groups' titles are the core's (analysisWords, one table of
// words in every language of the page); the claims panel (claims-panel.js) puts each line at the
// head of its claim's evidence, which stays one click away, and says whose runs the lines read.
import { lang, presetKey, t } from '../i18n/i18n.js';
import { el } from '../base/dom.js';
import { core } from '../state/engine.js';
import { askedOnce, claimWords } from './lesson.js';

// The core's words of an analysis in the page's language: { groups: [{code, title, claims}],
// statements: [{id, text, says}], headline, claims: [{id, group, statement, verdict, reason,
// plain, lead}], words_claims }; null without one.
export function wordsOf(analysis) {
  const { wolab } = core.get();
  if (!analysis || !wolab) return null;
  return askedOnce(analysis, () => wolab.analysisWords(JSON.stringify(analysis), lang()));
}

// How many seeds a claim's plain sentence rests on, from its figures (codes().plain names them):
// { k, n } where the sentence counts seeds a variant was ahead in, { parts: [k1, k2], n } for a
// two-part claim (the seeds where each part holds, in the claim's order), { n } where it counts
// the seeds only, null where it counts none (a sweep of learning rates, a claim not tested).
export function seedsOf(plain) {
  const f = (plain && plain.figures) || {};
  if (!Number.isInteger(f.seeds) || f.seeds < 1) return null;
  if (Array.isArray(plain.parts) && plain.parts.every(Number.isInteger)) return { parts: plain.parts, n: f.seeds };
  return Number.isInteger(f.seeds_ahead) ? { k: f.seeds_ahead, n: f.seeds } : { n: f.seeds };
}

// n dots, the first k filled (all of them for k null).
function dots(k, n) {
  const row = el('span', 'dot-row');
  for (let i = 0; i < n; i++) row.append(el('span', k == null || i < k ? 'dot on' : 'dot'));
  return row;
}

// A row of dots, one per seed, those the claim's lead held in filled; a row per part for a
// two-part claim.
function seedDots(seeds) {
  const box = el('span', 'seed-dots');
  const label = seeds.parts ? t('sumSeedsParts', { a: seeds.parts[0], b: seeds.parts[1], n: seeds.n })
    : seeds.k == null ? t('sumSeedsN', { n: seeds.n }) : t('sumSeedsK', { k: seeds.k, n: seeds.n });
  box.setAttribute('role', 'img');
  box.setAttribute('aria-label', label);
  box.title = label;
  if (seeds.parts) box.append(...seeds.parts.map((k) => dots(k, seeds.n)));
  else box.append(dots(seeds.k, seeds.n));
  box.append(el('span', 'seed-count', label));
  return box;
}

const sourceKey = { live: 'sumLive', recorded: 'sumRecorded', import: 'sumImported' };

// Claim `id` as the article states it, from the core's words: { text, says }.
export function statementOf(words, id) {
  return words.statements.find((s) => s.id === id);
}

// The summary line of claim `id` from the panel's cell of the column the summary reads (cellOf
// in claims-panel.js: running, analysing, none, or a verdict) and that column's words: the claim
// as the article states it, then what the runs found. `tagged`: the cell's source differs from
// the one the heading names, so the line says its own.
export function summaryLine(id, cell, words, tagged) {
  const line = document.createDocumentFragment();
  line.append(el('span', 'statement', statementOf(words, id).says));
  if (cell.state !== 'verdict') {
    const badge = cell.state === 'running' ? t('cellRunning', { k: cell.k, n: cell.n })
      : cell.state === 'analysing' ? t('cellAnalysing') : t(cell.why);
    line.append(el('span', `badge v-${cell.state === 'none' ? 'none' : 'running'}`, badge));
    return line;
  }
  const said = words.claims.find((c) => c.id === id);
  line.append(el('span', `badge v-${cell.claim.verdict}`, (said || claimWords(cell.claim)).verdict));
  if (said) line.append(el('span', 'plain', said.plain));
  const seeds = seedsOf(cell.claim.plain);
  if (seeds) line.append(seedDots(seeds));
  if (tagged) line.append(el('span', `source-tag src-${cell.source}`, t(sourceKey[cell.source])));
  return line;
}

// The heading's line of where the summary's verdicts come from: the column's preset, and whether
// its cells are recorded, live, imported or a mix. sources: the sources of its cells' verdicts.
export function sourceLine(preset, sources, seeds) {
  const kinds = [...new Set(sources)];
  const name = t(presetKey(preset));
  if (!kinds.length) return t('sumSourceNone', { preset: name });
  if (kinds.length > 1) return t('sumSourceMixed', { preset: name });
  return t({ live: 'sumSourceLive', recorded: 'sumSourceRecorded', import: 'sumSourceImported' }[kinds[0]], { preset: name, seeds });
}
