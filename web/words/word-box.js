// "Try a word": a typed word pronounced by each variant's model the page has (the first seed's
// of the runs trained to the end natively on load, else the recorded short runs', and a live
// run's once it has finished), in ARPAbet and IPA side by side, against
// the dictionary's pronunciation when the word is listed, each phoneme that differs marked. The
// decoding is the core's (Trainer.pronounce), in the word worker (web/words/words.js); a word it
// cannot read gets the core's one line instead of an answer.
import { t, variantLabel } from '../i18n/i18n.js';
import { el, errorText } from '../base/dom.js';
import { headerCells, labelRow, fitTable } from '../base/tables.js';
import { nearViewport, recordedModels } from '../results/recorded.js';
import { pronounce, setModel } from './words.js';
import { convergedRecording } from '../results/converged.js';
import { core } from '../state/engine.js';
import { modelTrained } from '../state/runs.js';

// The edit alignment of `got` to `want` (phoneme lists): for each phoneme of `got`, whether it
// is the one `want` has there, and the number of edits.
function alignment(got, want) {
  const d = Array.from({ length: got.length + 1 }, (_, i) => Array.from({ length: want.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= got.length; i++) {
    for (let j = 1; j <= want.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (got[i - 1] === want[j - 1] ? 0 : 1));
    }
  }
  const same = new Array(got.length).fill(false);
  for (let i = got.length, j = want.length; i > 0;) {
    if (j > 0 && d[i][j] === d[i - 1][j - 1] + (got[i - 1] === want[j - 1] ? 0 : 1)) {
      same[i - 1] = got[i - 1] === want[j - 1];
      i--; j--;
    } else if (d[i][j] === d[i - 1][j] + 1) i--;
    else j--;
  }
  return { same, edits: d[got.length][want.length] };
}

// The phonemes as spans, those not in the dictionary's place marked.
function phonemeCells(list, same, sep) {
  const out = [];
  list.forEach((p, i) => {
    if (i && sep) out.push(sep);
    const span = el(same && !same[i] ? 'mark' : 'span', same && !same[i] ? 'ph-diff' : 'ph', p);
    out.push(span);
  });
  return out;
}

export class WordBox {
  // redraw: its section drawn again in the next frame.
  constructor(exp, redraw) {
    this.exp = exp;
    this.redraw = redraw;
    modelTrained.subscribe(({ run, bytes }) => {
      if (run.experiment === exp.name) this.takeModel(run, bytes);
    });
    this.models = new Map();  // variant -> { source: 'recorded' | 'live', seed, epoch }
    this.recordedFor = '';    // the recorded file whose models were asked for
    this.latest = 0;          // the latest request: older answers are dropped
    this.loading = false;     // the recorded models are being fetched and loaded
    this.asked = '';          // the word asked last, asked again as models arrive
    this.box = el('div', 'word-box');
    this.heading = el('h3');
    const form = el('form', 'word-form');
    this.label = el('label');
    this.input = el('input');
    this.input.type = 'text';
    this.input.id = `word-${exp.name}`;
    this.input.autocomplete = 'off';
    this.input.spellcheck = false;
    this.input.maxLength = 40;  // the core says what is too long; this only bounds the typing
    this.label.htmlFor = this.input.id;
    this.go = el('button', 'primary');
    this.go.type = 'submit';
    form.append(this.label, this.input, this.go);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      // Spaces around a word (a paste, a phone's keyboard) are no part of it.
      this.input.value = this.input.value.trim();
      this.ask(this.input.value);
    });
    this.status = el('p', 'hint word-status');
    this.error = el('p', 'error word-error');
    this.error.setAttribute('role', 'alert');
    this.dictionary = el('p', 'word-dictionary');
    this.caution = el('p', 'word-caution');
    this.caution.hidden = true;
    const wrap = el('div', 'table-wrap');
    this.table = el('table', 'word-table');
    this.table.hidden = true;
    wrap.append(this.table);
    // One-click words: held-out words on which the recorded models differ (chosen by the build).
    this.chips = el('p', 'word-chips');
    this.chips.hidden = true;
    // The attention of the chosen variant's layer, per head: which letters each phoneme read.
    this.attn = el('div', 'word-attention');
    this.attn.hidden = true;
    this.attnTitle = el('p');
    this.attnVariant = el('select');
    this.attnLayer = el('select');
    this.attnVariantLabel = el('label');
    this.attnLayerLabel = el('label');
    this.attnVariant.id = `word-attn-variant-${exp.name}`;
    this.attnLayer.id = `word-attn-layer-${exp.name}`;
    this.attnVariantLabel.htmlFor = this.attnVariant.id;
    this.attnLayerLabel.htmlFor = this.attnLayer.id;
    for (const s of [this.attnVariant, this.attnLayer]) s.addEventListener('change', () => this.showAttention());
    this.heads = el('div', 'word-heads');
    const pick = el('p', 'word-attention-pick');
    pick.append(this.attnVariantLabel, this.attnVariant, ' ', this.attnLayerLabel, this.attnLayer);
    this.attn.append(this.attnTitle, pick, this.heads);
    this.box.append(this.heading, form, this.chips, this.status, this.error, this.dictionary, this.caution, wrap, this.attn);
    this.answer = null;  // the latest answer shown, redrawn on a change of language
  }

  render() {
    this.heading.textContent = t('wordTitle');
    const { wolab } = core.get();
    this.letters = wolab ? wolab.wordLetters() : this.letters;
    this.label.textContent = this.letters ? t('wordLabelLimits', this.letters) : t('wordLabel');
    this.go.textContent = t('wordGo');
    this.input.placeholder = t('wordPlaceholder');
    if (this.chipsLead) this.chipsLead.textContent = t('wordChips');
    // Without the lexicon (exp.missing, data-files.js) there is nothing to look up or load: said
    // once, and the form is off.
    const missing = Boolean(this.exp.missing);
    this.input.disabled = missing;
    this.go.disabled = missing;
    this.box.dataset.available = String(!missing);
    if (missing) {
      this.chips.hidden = true;
      this.status.textContent = t('wordUnavailable');
      return;
    }
    if (this.exp.missing === '') this.loadRecorded();  // not before the server said it has the lexicon
    const variants = this.inOrder([...this.models.keys()], (v) => v);
    this.status.textContent = this.loading && this.asked ? t('wordLoading')
      : variants.length ? t('wordModels', { variants: variants.map(variantLabel).join(', ') }) : t('wordNoModels');
    this.box.dataset.models = String(variants.length);
    if (this.answer) this.show(this.answer);
  }

  // Items in the experiment's order of variants (experiments()), whatever order the models came in.
  inOrder(items, variant) {
    const rank = (x) => this.exp.variants.indexOf(variant(x));
    return [...items].sort((a, b) => rank(a) - rank(b));
  }

  // The models trained to the end natively (web/results/converged.js: the wider size's first
  // seed) once the box comes near the viewport, with the example words the build chose for them;
  // where none were recorded, the recorded first seed's model of each variant while the section
  // shows a recording. A live run's model replaces a variant's (takeModel).
  loadRecorded() {
    const exp = this.exp;
    if (!nearViewport(this.box, this.redraw)) return;
    if (!this.converged) {
      this.loading = true;
      this.converged = convergedRecording().then(async (recording) => {
        const size = recording && (recording.sizes.find((s) => s.preset === 'converged') || recording.sizes[0]);
        if (!size) return false;
        this.showExamples(recording.examples);
        await this.fetchModels(size.models, 'converged');
        return true;
      }).catch((e) => {
        this.error.textContent = errorText(e);
        return false;
      }).then((converged) => {
        this.loaded();
        return converged;
      });
    }
    this.converged.then((converged) => {
      if (converged || exp.source !== 'recorded' || this.recordedFor === exp.file) return;
      this.recordedFor = exp.file;
      this.loading = true;
      recordedModels(exp.file).then(async ({ files, examples }) => {
        this.showExamples(examples);
        await this.fetchModels(files, 'recorded');
      }).catch((e) => {
        this.error.textContent = errorText(e);
      }).finally(() => this.loaded());
    });
  }

  // The models are in: a word asked while they loaded is answered by all of them now.
  loaded() {
    this.loading = false;
    if (this.asked) this.ask(this.asked);
    this.redraw();
  }

  // Each variant's model from its url (variant -> url, named <variant>.seed<N>...), unless a live
  // run's has taken its place meanwhile.
  async fetchModels(files, source) {
    for (const [variant, url] of Object.entries(files)) {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (this.models.has(variant) && this.models.get(variant).source === 'live') continue;
      await setModel(variant, bytes);
      // A live run's model that came meanwhile was set after this one: it stays.
      if (this.models.has(variant) && this.models.get(variant).source === 'live') continue;
      this.models.set(variant, { source, seed: Number((url.match(/\.seed(\d+)\./) || [0, 0])[1]) });
      this.redraw();
    }
  }

  showExamples(words) {
    this.chips.hidden = words.length === 0;
    this.chipsLead = el('span', 'hint');
    this.chips.replaceChildren(this.chipsLead, ...words.map((word) => {
      const b = el('button', 'small word-chip', word);
      b.type = 'button';
      b.addEventListener('click', () => {
        this.input.value = word;
        this.ask(word);
      });
      return b;
    }));
    this.redraw();
  }

  // A live run of this experiment has finished with this model (safetensors bytes): it replaces
  // the variant's recorded model, and a later seed's of the same Run does not replace it.
  takeModel(run, bytes) {
    const had = this.models.get(run.variant);
    if (had && had.source === 'live' && had.epoch === this.exp.epoch && had.seed <= run.seed) return;
    this.models.set(run.variant, { source: 'live', seed: run.seed, epoch: this.exp.epoch });
    setModel(run.variant, bytes).then(() => {
      if (this.input.value.trim()) this.ask(this.input.value);
    }).catch((e) => {
      this.error.textContent = errorText(e);
    });
    this.redraw();
  }

  async ask(word) {
    const request = ++this.latest;
    this.asked = word;
    this.box.dataset.state = 'asking';
    let answer;
    try {
      answer = await pronounce(word);
    } catch (e) {
      if (request !== this.latest) return;
      // A word it cannot read: the core's line alone, nothing left of the previous word.
      this.answer = null;
      this.asked = '';
      this.error.textContent = errorText(e);
      this.dictionary.textContent = '';
      this.caution.hidden = true;
      this.table.hidden = true;
      this.attn.hidden = true;
      this.heads.replaceChildren();
      this.box.dataset.state = 'refused';
      this.redraw();
      return;
    }
    if (request !== this.latest) return;
    this.answer = answer;
    this.show(answer);
    this.box.dataset.ms = answer.ms.toFixed(1);
    // While the recorded models load, the answer so far (the dictionary's line, the models in
    // already) and a hint; loadRecorded asks again once they are all in.
    this.box.dataset.state = this.loading ? 'waiting' : 'answered';
    this.redraw();
  }

  show({ dictionary, answers: unordered }) {
    this.error.textContent = '';
    const answers = this.inOrder(unordered, (a) => a.key);
    const listed = dictionary.listed ? dictionary.pronunciations : [];
    this.dictionary.textContent = !dictionary.listed ? t('wordNotListed', { word: dictionary.word })
      : t(dictionary.heldout ? 'wordHeldOut' : 'wordTrainedOn', {
        word: dictionary.word, arpabet: listed.map((p) => p.arpabet).join(' | '), ipa: listed.map((p) => `/${p.ipa}/`).join(' | '),
      });
    // A word shorter than any the models trained on: their answer is a guess, said so.
    this.caution.hidden = dictionary.trainedLength;
    this.caution.textContent = dictionary.trainedLength ? '' : t('wordOutside', { word: dictionary.word, ...this.letters });
    this.table.hidden = answers.length === 0;
    this.table.replaceChildren();
    this.table.createCaption().textContent = t('wordCaption', { word: dictionary.word });
    this.table.createTHead().insertRow().append(...headerCells(['colVariant', 'colModel', 'colArpabet', 'colIpa', 'colDictionary']));
    const body = this.table.createTBody();
    for (const a of answers) {
      // Marked against the dictionary's nearest pronunciation (a word may have several).
      const best = listed.map((p) => alignment(a.phonemes, p.phonemes)).sort((x, y) => x.edits - y.edits)[0] || null;
      const tr = body.insertRow();
      tr.dataset.variant = a.key;
      const th = el('th', null, variantLabel(a.key));
      th.scope = 'row';
      const model = this.models.get(a.key);
      tr.append(th);
      const label = { live: 'wordLive', converged: 'wordConverged', recorded: 'wordRecorded' };
      tr.insertCell().textContent = model ? t(label[model.source], { seed: model.seed }) : '';
      const arpabet = tr.insertCell();
      arpabet.className = 'word-arpabet';
      arpabet.append(...phonemeCells(a.phonemes, best && best.same, ' '));
      if (!a.eos) arpabet.append(' ', t('wordNoEnd'));
      const ipa = tr.insertCell();
      ipa.className = 'word-ipa';
      ipa.append('/', ...phonemeCells(a.ipaPhonemes, best && best.same, ''), '/');
      tr.insertCell().textContent = !best ? '—' : best.edits === 0 ? t('wordSame') : t(best.edits === 1 ? 'wordEditOne' : 'wordEdits', { n: best.edits });
      labelRow(tr);
    }
    fitTable(this.table.parentElement);
    this.showAttention();
  }

  // One grid per head of the chosen variant's chosen layer: a row per output phoneme, a column
  // per letter, each cell as dark as the weight the phoneme's position gave the letter
  // (Trainer.pronounce's attention, docs/api.md).
  showAttention() {
    const answers = this.answer ? this.inOrder(this.answer.answers, (a) => a.key) : [];
    this.attn.hidden = answers.length === 0;
    if (!answers.length) return;
    this.attnTitle.textContent = t('wordAttention');
    this.attnVariantLabel.textContent = t('wordAttnVariant');
    this.attnLayerLabel.textContent = t('wordAttnLayer');
    const keep = (select, values, label) => {
      const was = select.value;
      select.replaceChildren(...values.map((v) => {
        const o = el('option', null, label(v));
        o.value = String(v);
        return o;
      }));
      if (values.map(String).includes(was)) select.value = was;
    };
    keep(this.attnVariant, answers.map((a) => a.key), variantLabel);
    const a = answers.find((x) => x.key === this.attnVariant.value) || answers[0];
    keep(this.attnLayer, Array.from({ length: a.layers }, (_, l) => l), (l) => String(l + 1));
    const layer = Number(this.attnLayer.value) || 0;
    const letters = [...a.word];
    const n = a.phonemes.length;
    this.heads.replaceChildren(...Array.from({ length: a.heads }, (_, h) => {
      const table = el('table', 'word-head');
      table.createCaption().textContent = t('wordAttnHead', { head: h + 1 });
      const head = table.createTHead().insertRow();
      head.append(el('th'), ...letters.map((c) => el('th', null, c)));
      const body = table.createTBody();
      for (let i = 0; i < n; i++) {
        const tr = body.insertRow();
        tr.append(el('th', null, a.phonemes[i]));
        for (let j = 0; j < a.letters; j++) {
          const w = a.attention[((layer * a.heads + h) * n + i) * a.letters + j];
          const td = tr.insertCell();
          td.style.setProperty('--w', w.toFixed(3));
          td.title = w.toFixed(2);
        }
      }
      return table;
    }));
  }
}
