// The claims panel, "What the runs found": each of the article's claims in one plain sentence
// with its verdict (claims-summary.js, the core's words), grouped by the article's design
// philosophies and read from the column of the settings' preset; behind each, one click away,
// its verdict under every preset of the core (presetNames()) side by side, and under the
// reader's own settings when results shown were trained with them. A preset's column reads each
// experiment from the results shown when they are of that preset (trained here, imported, or
// recorded), else from that preset's recording (fetched once, analysed in a second analysis
// worker; a preset's recordings all together come with their analysis, recorded.js); each cell
// says which. While runs of the experiments a claim reads train, its cell says so instead of
// showing a verdict. Real words are read from the runs trained to the end (results/converged.js),
// a column per size; a preset's recorded short runs of them are section 7's to train, not
// evidence. Also the conclusion under the panel, from the analysis of the results shown.
// The evidence's words are lesson.js's.

import { lang, presetKey, t } from '../i18n/i18n.js';
import { $, el } from '../base/dom.js';
import { chrome } from '../state/chrome.js';
import { core } from '../state/engine.js';
import { experimentChanged, experiments, resultsChanged } from '../state/experiments.js';
import { batch } from '../state/runs.js';
import { analyze, analyzeAside } from '../results/analysis.js';
import { invalidate } from '../base/frames.js';
import { claimFigures, claimWords, reasonLine, renderConclusion } from './lesson.js';
import { active } from '../state/run-status.js';
import { matchPreset, settingsFromConfig } from '../state/state.js';
import { recordedAnalysis, recordedFiles, recordedPreset, whenRecordingsChange } from '../results/recorded.js';
import { sourceLine, statementOf, summaryLine, wordsOf } from './claims-summary.js';
import { convergedRecording } from '../results/converged.js';

const CUSTOM = 'custom';  // the column of results trained with settings that match no preset

const panel = {
  sources: new Map(),     // claim id -> the experiments it reads, in the core's order of preference
                          // (codes().claim_sources)
  words: { ids: new Set(), sources: [] },  // the claims judged again on real words, and what
                          // that judgement reads (codes().words_claims)
  recordings: new Map(),  // preset -> Map experiment -> { file, text } once fetched, or null while
                          // being fetched: each preset's recordings, fetched once
  analyses: new Map(),    // inputs' key (inputKey) -> their analysis, or its promise while it is
                          // being made: those in use only
  shown: null,            // the analysis of the results shown, or null
  columns: [],            // [{ preset, inputs: Map experiment -> input (columnInputs), recorded: the
                          // preset's recordings were in, analysis }]
  ready: false,           // set up (not in an embed, which shows no panel)
  loaded: false,          // the recorded results the page shows on load are in place
  queued: false,          // an update will run once this task is over
  busy: false,            // an update is being made
  changed: false,         // the results shown changed since the update being made began
  converged: [],          // the sizes trained to the end natively (results/converged.js), each a
                          // column that reads its recorded analysis: real words only
};

// codes: the core's codes() (parsed); shown: a promise settled once the recorded results the
// page shows on load are in place (results-shown.js showRecorded), before which no other
// preset's recordings are fetched.
export function setUpClaims(codes, shown) {
  panel.sources = new Map(codes.claim_sources.map((c) => [c.id, c.experiments]));
  panel.words = { ids: new Set(codes.words_claims.ids), sources: codes.words_claims.experiments };
  panel.ready = !chrome.get().embed;
  // Real words trained to the end natively: a column of their own per size, once fetched.
  convergedRecording().then((recording) => {
    panel.converged = recording ? recording.sizes : [];
    analysesChanged();
  });
  shown.finally(() => {
    panel.loaded = true;
    analysesChanged();
  });
  analysesChanged();
}

// The preset an experiment's results (or its runs under way) belong to: a recording's folder,
// else the preset its config matches, else CUSTOM; null with no config.
// Matched once per config (a new Run or file brings a new config object): the panel asks for
// every cell at every render while runs train.
const matched = new WeakMap();  // config -> preset
function presetOf(exp) {
  if (exp.source === 'recorded') return recordedPreset(exp.file);
  if (!exp.config) return null;
  if (!matched.has(exp.config)) matched.set(exp.config, matchPreset(settingsFromConfig(exp.config), core.get().presets));
  return matched.get(exp.config);
}

const training = (exp) => exp.runs.some(active);
// Its runs are training, or have ended and their analysis is on its way.
const pending = (exp) => exp.runs.length > 0 && !exp.analysed;

// An input of an analysis: one results document (doc, a Blob) of `experiment`. key names it for
// as long as it is shown (a recording by its file; live and imported results by their
// experiment's epoch); aside: a recording the page does not show.
const shownInput = (exp) => ({
  source: exp.source, experiment: exp.name, doc: exp.resultsBlob,
  key: exp.source === 'recorded' ? exp.file : `${exp.source}:${exp.name}:${exp.epoch}`,
});

// The results shown, with their analysis made (results-shown.js).
const shownExps = () => [...experiments.values()].filter((exp) => exp.analysis);

// What `preset`'s column reads, per experiment: the results shown of that preset; else its
// recording, unless the experiment's runs with that preset are under way (the claims that read
// it then say "running", and its new results replace the recording).
function columnInputs(preset) {
  const inputs = new Map();
  const recorded = panel.recordings.get(preset);
  for (const exp of experiments.values()) {
    const mine = presetOf(exp) === preset;
    if (mine && exp.analysis) inputs.set(exp.name, shownInput(exp));
    else if (recorded && recorded.has(exp.name) && !(mine && pending(exp))) {
      const { file, blob } = recorded.get(exp.name);
      inputs.set(exp.name, { source: 'recorded', experiment: exp.name, doc: blob, key: file, aside: true });
    }
  }
  return inputs;
}

// The core's presets, then CUSTOM while some results shown or runs are of settings of one's own.
function columnPresets() {
  const custom = [...experiments.values()].some((exp) => exp.runs.length && presetOf(exp) === CUSTOM);
  const converged = panel.converged.map((size) => size.preset);
  return [...core.get().presetNames, ...converged, ...(custom ? [CUSTOM] : [])];
}

// A column of runs trained to the end natively: its recorded analysis of real_words alone.
function convergedColumn(preset) {
  const size = panel.converged.find((s) => s.preset === preset);
  if (!size) return null;
  const inputs = new Map(panel.words.sources.map((name) => [name, { source: 'recorded', experiment: name, key: `converged/${preset}` }]));
  return { preset, inputs, recorded: true, analysis: size.analysis, size };
}

// A size trained to the end, from its runs' own settings: "4 heads of width 16, 10000 steps".
function sizeLabel(size) {
  const { model, train } = size.analysis.experiments[0].run_config;
  return t('convergedSize', { heads: model.heads, width: model.d_model / model.heads, steps: train.steps });
}

// A column's heading: the preset's name, or the size trained to the end.
function columnLabel(column) {
  return column.size ? t('colConverged', { size: sizeLabel(column.size) }) : t(presetKey(column.preset));
}

const inputKey = (inputs) => inputs.map((i) => i.key).join('\n');
const serials = new WeakMap();  // analysis -> a number of its own, which names it in a row's key
let nextSerial = 1;

// The analysis recorded with a preset's files, when `inputs` are all of them and nothing else:
// what the core's analyze of them here would give (its experiments in the inputs' order). A
// promise of it, or of null.
async function recordedWhole(inputs) {
  const presets = new Set(inputs.map((i) => (i.source === 'recorded' ? recordedPreset(i.key) : null)));
  if (presets.size !== 1 || presets.has(null)) return null;
  const analysis = await recordedAnalysis([...presets][0]);
  if (!analysis || analysis.experiments.length !== inputs.length) return null;
  const byName = new Map(analysis.experiments.map((e) => [e.experiment, e]));
  if (!inputs.every((i) => byName.has(i.experiment))) return null;
  return { ...analysis, experiments: inputs.map((i) => byName.get(i.experiment)) };
}

// The analysis of these inputs (null for none), made once while they stay in use: a promise of
// it until it is made. A preset's recordings all together come with theirs; other recordings
// alone go to the second worker (analysis.js), and the panel is updated once their analysis is in.
function analysisOf(inputs) {
  if (!inputs.length) return null;
  const key = inputKey(inputs);
  if (!panel.analyses.has(key)) {
    const aside = inputs.every((i) => i.aside);
    const analysed = () => (aside ? analyzeAside : analyze)(inputs.map((i) => i.doc)).then((text) => JSON.parse(text));
    const made = recordedWhole(inputs).then((recorded) => recorded || analysed()).then((analysis) => {
      serials.set(analysis, nextSerial++);
      if (panel.analyses.get(key) === made) panel.analyses.set(key, analysis);
      return analysis;
    });
    panel.analyses.set(key, made);
    if (aside) made.then(analysesChanged, (e) => console.error(e));
  }
  return panel.analyses.get(key);
}

const isMade = (a) => !(a instanceof Promise);

// A preset's recordings, fetched once, then the panel updated with them. Not before the results
// the page shows on load are in place and every result shown has its own analysis: the sections'
// verdicts come first.
function fetchRecordings(preset) {
  if (panel.recordings.has(preset) || preset === CUSTOM || !panel.loaded) return;
  if ([...experiments.values()].some((exp) => pending(exp) && !training(exp))) return;
  panel.recordings.set(preset, null);
  recordedFiles(preset, [...experiments.keys()]).then((files) => {
    if (files && files.recording) {
      // Being recorded (npm start): asked again once the recordings change.
      whenRecordingsChange(() => {
        panel.recordings.delete(preset);
        analysesChanged();
      });
      return;
    }
    panel.recordings.set(preset, new Map((files || []).map((f) => [f.experiment, f])));
    analysesChanged();
  });
}

// The results shown changed (results/results-shown.js, through resultsChanged, or a column's
// recording here): the analyses anew once this task is over (showing
// several recorded experiments in a row costs one update, not one per experiment), one update at
// a time: changes made while one is being made are taken up together after it (with W_o
// snapshots at d_model 256 one analysis takes seconds).
function analysesChanged() {
  if (!panel.ready) return;
  panel.changed = true;
  if (panel.queued || panel.busy) return;
  panel.queued = true;
  setTimeout(update, 0);
}

async function update() {
  panel.queued = false;
  // Not while the recordings shown on load arrive one by one: once they are all in, their
  // recorded analysis is the panel's, where each partial set would have been analysed anew.
  if (!panel.loaded) return;
  panel.changed = false;
  panel.busy = true;
  try {
    const shown = shownExps().map(shownInput);
    panel.shown = await analysisOf(shown);
    conclude();
    // Each column as it was until its new analysis is in, and drawn as soon as it is: a small
    // preset's column need not wait for a large one's, nor any column for another preset's
    // recordings (their analysis updates the panel again when it is in).
    const presets = columnPresets();
    const wanted = new Set([inputKey(shown)]);
    const empty = (preset) => ({ preset, inputs: new Map(), recorded: false, analysis: null });
    panel.columns = presets.map((preset) => panel.columns.find((c) => c.preset === preset) || empty(preset));
    for (const [i, preset] of presets.entries()) {
      const converged = convergedColumn(preset);
      if (converged) {
        panel.columns = panel.columns.map((c, j) => (j === i ? converged : c));
        renderTable();
        continue;
      }
      const inputs = columnInputs(preset);
      // A column reads its preset's recording of every experiment it has no results of.
      if (inputs.size < experiments.size) fetchRecordings(preset);
      const recorded = Boolean(panel.recordings.get(preset));
      const list = [...inputs.values()];
      wanted.add(inputKey(list));
      let analysis = analysisOf(list);
      if (!isMade(analysis) && list.every((input) => input.aside)) continue;
      analysis = await analysis;
      panel.columns = panel.columns.map((c, j) => (j === i ? { preset, inputs, recorded, analysis } : c));
      renderTable();
    }
    for (const key of panel.analyses.keys()) if (!wanted.has(key)) panel.analyses.delete(key);
  } catch (e) {
    console.error(e);  // each experiment's own analysis (results-shown.js) has already reported it
  }
  panel.busy = false;
  if (panel.changed) analysesChanged();
}

// The conclusion of the results shown: the core's headline of their claims, and on real words the
// runs trained to the end (the first size recorded), not the short runs the page shows.
function conclude() {
  const a = panel.shown;
  const size = panel.converged[0];
  const { wolab } = core.get();
  const words = size && a ? JSON.parse(wolab.conclude(JSON.stringify(a), JSON.stringify(size.analysis))).words : null;
  renderConclusion(a, a && wordsOf(a).headline, words && { ...words, size: sizeLabel(size) });
}

// Runs started, advanced or ended: the running marks, at most every few frames.
function claimsChanged() {
  if (panel.ready) invalidate(panel, renderTable);
}
resultsChanged.subscribe(analysesChanged);
experimentChanged.subscribe(claimsChanged);

// The panel and the conclusion anew (a change of language).
export function renderClaims() {
  if (!panel.ready) return;
  conclude();
  renderTable();
}

// ---------- one cell ----------

// The experiments a claim's verdict in `column` depends on: those it prefers up to the one it
// read, all of them when it read none. A claim the core lists no experiments for depends on the
// one it read. words: its verdict on real words.
function dependsOn(id, claim, words) {
  const sources = (words ? panel.words.sources : panel.sources.get(id)) || [];
  const read = claim && claim.experiment;
  if (!read) return sources;
  return sources.includes(read) ? sources.slice(0, sources.indexOf(read) + 1) : [read];
}

// What a cell shows: { state: 'running', k, n } | { state: 'analysing' } | { state: 'none', why }
// | { state: 'verdict', claim, source, serial }. why: the i18n key of why there is no verdict:
// runs of these experiments were trained here with this preset and stopped before any finished,
// the preset's recordings are still to come, none is recorded, or (CUSTOM) none was run.
// words: the claim's verdict on real words (the analysis's words_claims).
function cellOf(column, id, words = false) {
  const claims = column.analysis && column.analysis[words ? 'words_claims' : 'claims'];
  const claim = claims && claims.find((c) => c.id === id);
  const depends = dependsOn(id, claim, words);
  const mine = (name) => experiments.get(name) && presetOf(experiments.get(name)) === column.preset;
  // While runs of any experiment the claim may read train, it counts the runs of all of them in
  // this batch (the pool's runs since it was last idle), however far their analysis has got: the
  // count never goes back as one of them settles and the claim reads another.
  const sources = (words ? panel.words.sources : panel.sources.get(id)) || [];
  const inBatch = new Set(batch.get().jobs.map((job) => job.id));
  const live = sources.filter(mine).map((name) => experiments.get(name))
    .filter((exp) => exp.source === 'live' && exp.runs.some((r) => inBatch.has(r.job)));
  if (live.some(training)) {
    // A training run several of these experiments share counts once (live-runs.js: one job).
    const runs = new Map(live.flatMap((exp) => exp.runs.map((r) => [r.job, r])));
    return { state: 'running', k: [...runs.values()].filter((r) => !active(r)).length, n: runs.size };
  }
  // An experiment being analysed, or analysed but not yet read by the column's analysis.
  const unread = (exp) => exp.analysis && (column.inputs.get(exp.name) || {}).key !== shownInput(exp).key;
  const busy = depends.filter(mine).map((name) => experiments.get(name)).filter((exp) => pending(exp) || unread(exp));
  if (busy.length) return { state: 'analysing' };
  const read = depends.find((name) => column.inputs.has(name));
  if (!claim || !read) {
    const tried = (exp) => exp && exp.source === 'live' && exp.runs.length > 0 && presetOf(exp) === column.preset;
    const why = column.size ? 'cellWordsOnly' : depends.some((name) => tried(experiments.get(name))) ? 'cellStopped'
      : column.preset === CUSTOM ? 'cellNotRun' : column.recorded ? 'cellNotRecorded' : 'cellLoading';
    return { state: 'none', why };
  }
  const source = column.inputs.get(claim.experiment || read).source;
  // Real words are judged from the runs trained to the end (their own columns); a preset's
  // recorded 400-step runs are the short version section 7 trains, not evidence for the claim.
  if (words && !column.size && source === 'recorded' && panel.converged.length) return { state: 'none', why: 'cellWordsToTheEnd' };
  // The recording read in place of live runs of this preset that ended with none finished
  // (live-runs.js, settle): said, not left to look like the reader's result.
  const ended = source === 'recorded' && mine(claim.experiment || read) && experiments.get(claim.experiment || read).liveEnded;
  return { state: 'verdict', claim, source, ended: Boolean(ended), serial: serials.get(column.analysis) };
}

const sourceKey = { live: 'srcLive', recorded: 'srcRecorded', import: 'srcImport' };

// A cell's verdict, figures and reason, into `box` (a table cell, or its real-words part).
function renderCell(box, column, cell) {
  box.dataset.state = cell.state;
  if (cell.state === 'running') {
    box.dataset.source = 'live';
    box.append(el('span', 'verdict v-running', t('cellRunning', { k: cell.k, n: cell.n })), ' ', el('span', 'source-tag', t('srcLive')));
    return;
  }
  if (cell.state === 'analysing') {
    box.append(el('span', 'verdict v-running', t('cellAnalysing')));
    return;
  }
  if (cell.state === 'none') {
    box.append(el('span', 'verdict v-none', t(cell.why)));
    return;
  }
  const { claim: c, source } = cell;
  const th = column.analysis.thresholds;
  box.dataset.source = source;
  box.dataset.verdict = c.verdict;
  box.append(el('span', `verdict v-${c.verdict}`, claimWords(c).verdict), ' ', el('span', 'source-tag', t(sourceKey[source])));
  const figures = el('p', 'figures', claimFigures(c, th));
  if (c.experiment) {
    const link = el('a', null, t('seeExperiment', { title: t(`${c.experiment}_title`) }));
    link.href = `#exp-${c.experiment}`;
    figures.append(t('parenOpen'), link, t('parenClose'));
  }
  box.append(figures);
  box.append(el('p', 'reason', reasonLine(c)));
  if (c.fragile) box.append(el('p', 'fragile', t('cellFragile')));
  if (cell.ended) box.append(el('p', 'fallback', t('cellRecordedFallback')));
}

// A claim's cell: its verdict on the toy tasks and, for the claims judged again on real words,
// that verdict below it under its own heading (unless there is none to show in this column).
function renderCells(td, column, cells) {
  renderCell(td, column, cells.toy);
  if (!cells.words || (cells.words.state === 'none' && cells.words.why !== 'cellWordsToTheEnd')) return;
  const words = el('div', 'words-verdict');
  // A preset's column on real words: the reader's own short runs (section 7), said so.
  const short = !column.size && cells.words.state === 'verdict';
  words.append(el('p', 'words-label', t(short ? 'cellWordsShort' : 'cellWords')));
  renderCell(words, column, cells.words);
  td.append(words);
}

// ---------- the summary and the evidence ----------

const NO_CLAIMS = { claims: [], words_claims: [] };  // an analysis of nothing, for the groups' words

// The column the summary reads: that of the settings' preset (Custom: settings of one's own) once
// it has something to say (`said(i)`: a verdict, or runs under way), else the first with one.
function summaryColumn(columns, said) {
  const preset = $('#preset').value || core.get().presetNames[0];
  const mine = columns.findIndex((c) => c.preset === preset);
  if (mine >= 0 && said(mine)) return columns[mine];
  return columns.find((c) => c.analysis) || columns.find((c, i) => said(i)) || columns[0];
}

// A claim's evidence, one click away: the article's claim with its rule, and its cell under every
// preset (verdict, figures, reason, and on real words for claims 1-4), as a row of a table.
function evidence(id, columns, labels, cells, words) {
  const head = el('tr');
  head.append(el('th', null, t('claimHead')), ...columns.map((column, i) => {
    const cell = el('th', null, labels[i]);
    cell.dataset.preset = column.preset;
    if (column.size) cell.dataset.converged = '';  // real words trained to the end natively
    cell.scope = 'col';
    return cell;
  }));
  const tr = el('tr');
  tr.dataset.claim = id;
  const claim = el('th', 'claim', `${id}. ${statementOf(words, id).text} `);
  claim.scope = 'row';
  const rule = el('a', 'rule-link', t('ruleLink'));
  rule.href = `rules.html#claim-${id}`;
  claim.append(rule);
  tr.append(claim, ...columns.map((column, i) => {
    const td = el('td');
    td.dataset.preset = column.preset;
    td.dataset.label = labels[i];  // the column's name above a cell where the columns stack
    renderCells(td, column, cells[i]);
    return td;
  }));
  const table = el('table', 'claims-table');
  table.append(el('thead'), el('tbody'));
  table.tHead.append(head);
  table.tBodies[0].append(tr);
  const wrap = el('div', 'table-wrap claim-evidence');
  wrap.append(table);
  return wrap;
}

// The claims, grouped by the article's design philosophies (the core's words: their titles and
// order), each a <details>: its summary line the plain answer, its body the evidence. A claim's
// parts are made anew only when what they say changed, so that a link being followed or focused
// keeps its place, and an open claim stays open, while runs report.
function renderTable() {
  // Runs started with settings of one's own add their column, results shown of them gone remove it.
  if (columnPresets().join() !== panel.columns.map((c) => c.preset).join()) analysesChanged();
  const columns = panel.columns;
  const first = columns.find((c) => c.analysis);
  const ids = first ? first.analysis.claims.map((c) => c.id) : [...panel.sources.keys()];
  const cells = new Map(ids.map((id) => [id, columns.map((column) => ({
    toy: cellOf(column, id), words: panel.words.ids.has(id) ? cellOf(column, id, true) : null,
  }))]));
  const any = [...cells.values()].some((row) => row.some((c) => c.toy.state !== 'none' || (c.words && c.words.state !== 'none')));
  // Made while hidden too, so that a claim's place exists before its verdict does.
  $('#claims-none').hidden = any;
  $('#claims-body').hidden = !any;
  $('#claims-source').hidden = !any;
  if (!columns.length) return;  // before the first update: no column yet
  const labels = columns.map(columnLabel);
  // A column with nothing analysed yet (runs under way): the groups' titles from the words of no
  // claims.
  const read = summaryColumn(columns, (i) => ids.some((id) => cells.get(id)[i].toy.state !== 'none'));
  const at = columns.indexOf(read);
  const words = wordsOf(read.analysis || NO_CLAIMS);
  const mine = ids.map((id) => cells.get(id)[at].toy);
  const sources = mine.filter((c) => c.state === 'verdict').map((c) => c.source);
  const heading = sources.length && sources.every((x) => x === sources[0]) ? sources[0] : null;
  const seeds = mine.map((c) => c.claim && c.claim.plain && c.claim.plain.figures.seeds).find(Number.isInteger);
  $('#claims-source').textContent = sourceLine(read.preset, sources, seeds ?? '—');
  // The headline: what the verdicts shown found overall, once every claim shows one.
  const headline = $('#claims-headline');
  headline.hidden = !any || !words.headline || mine.some((c) => c.state !== 'verdict');
  headline.textContent = headline.hidden ? '' : words.headline;
  $('#claims-source').dataset.source = heading || (sources.length ? 'mixed' : 'none');
  const box = $('#claims-body');
  const groups = words.groups.map((g) => {
    let section = box.querySelector(`section[data-group="${g.code}"]`);
    if (!section) {
      section = el('section', 'claim-group');
      section.dataset.group = g.code;
      section.append(el('h3'), el('ol', 'claim-list'));
    }
    section.firstChild.textContent = g.title;
    const list = section.lastChild;
    const items = g.claims.filter((id) => cells.has(id)).map((id) => {
      let item = box.querySelector(`details[data-claim="${id}"]`);
      if (!item) {
        item = el('details', 'claim');
        item.dataset.claim = id;
        item.append(el('summary'), el('div'));
      }
      const cell = cells.get(id)[at].toy;
      const tagged = cell.state === 'verdict' && cell.source !== heading;
      const said = words.claims.find((c) => c.id === id);
      const bare = (c) => c && (({ claim, ...rest }) => rest)(c);
      const summaryKey = JSON.stringify([lang(), bare(cell), cell.claim && cell.claim.verdict, said, tagged]);
      if (item.dataset.summaryKey !== summaryKey) {
        item.dataset.summaryKey = summaryKey;
        item.dataset.state = cell.state;
        item.dataset.verdict = cell.state === 'verdict' ? cell.claim.verdict : '';
        item.dataset.source = cell.state === 'verdict' ? cell.source : '';
        item.firstChild.replaceChildren(summaryLine(id, cell, words, tagged));
      }
      const key = JSON.stringify([lang(), labels, cells.get(id).map((c) => [bare(c.toy), bare(c.words)]), said]);
      if (item.dataset.key !== key) {
        item.dataset.key = key;
        item.lastChild.replaceWith(evidence(id, columns, labels, cells.get(id), words));
      }
      const li = item.parentElement || el('li');
      li.append(item);
      return li;
    });
    if (items.some((li, i) => list.children[i] !== li) || list.children.length !== items.length) list.replaceChildren(...items);
    return section;
  });
  if (groups.some((g, i) => box.children[i] !== g) || box.children.length !== groups.length) box.replaceChildren(...groups);
}
