// Types of the W_o Lab WebAssembly module (bindings/embind.cpp), hand-written.
//
// Load it with the MODULARIZE factory: in a classic Web Worker
//   importScripts('wolab.js');  const wolab = await createWolab();
// and in node (CJS; Emscripten 3.1.6 cannot fetch the .wasm there, so hand it the bytes)
//   const wolab = await require('./wolab.js')({ wasmBinary: fs.readFileSync('wolab.wasm') });
// wolab-nosimd.js / .wasm is the same module for browsers without WASM SIMD.
//
// Errors: every function and method throws a JS `Error` whose message is the core's one-line
// message (for configs the validator's `<field path>: <problem>; <what is allowed>`). The module
// and every trainer stay usable after an error, and a failing call leaks no memory.
//
// Memory: the wasm heap grows on demand up to 1 GiB (CMake's WOLAB_WASM_MAXIMUM_MEMORY); the
// validator refuses any config whose estimated memory exceeds 512 MiB (kMaxRunBytes in
// src/run/memory_estimate.h) before anything is allocated. Every typed array returned here is a copy that
// the caller owns, so it stays valid when the heap grows.
//
// JSON schemas: docs/config.md (config) and docs/results.md (results); this API: docs/api.md.

/** A config or results JSON document, as text. */
export type JsonText = string;

/** Mean and population standard deviation of one activation site over a batch. */
export interface MeanStd {
  mean: number;
  std: number;
}

/** Held-out metrics, teacher forced, on the fixed held-out set of the task. */
export interface EvalResult {
  /** Steps trained when measured. */
  step: number;
  /** Mean cross-entropy over the answer positions. */
  loss: number;
  /** Share of answer tokens predicted right. */
  token_acc: number;
  /** Share of sequences with every answer token right. */
  exact: number;
}

/** One layer of a probe: the article's activation statistics around W_o. */
export interface LayerStats {
  /** The concatenated head outputs (B,T,d). */
  concat: MeanStd;
  /** W_o(concat) (B,T,d); equals concat when W_o is the identity. */
  wo_out: MeanStd;
  /** x + W_o(concat), before the LayerNorm in post-LN. */
  residual: MeanStd;
  /** (heads) L2 norm of the loss gradient reaching each head's slice of the concat. */
  head_grad_norm: number[];
}

/** A probe: taken on the training batch of every probe_every-th step and of the last step. */
export interface ProbeStats {
  step: number;
  /** (layers) */
  layers: LayerStats[];
}

/** Where a run stands (the results schema's "status"); `step` exactly for stopped and diverged. */
export type RunStatus =
  | { state: 'running' }
  | { state: 'done' }
  /** Stopped by the user after `step` steps. */
  | { state: 'stopped'; step: number }
  /** The training loss of step `step` (or the held-out loss after its update) was not finite. */
  | { state: 'diverged'; step: number };

/** One row of settings(): a config field, from the core's settings table (src/lab/config.cpp). */
export interface Setting {
  /** JSON path, e.g. "model.d_model" (docs/config.md). */
  path: string;
  /** Short unique name for a form field and a URL parameter, e.g. "d_model", "lrs". */
  key: string;
  /** CLI flag, e.g. "--d-model"; "" for model.wo. */
  flag: string;
  /** reals: an increasing list of 1..max_items numbers, each within min/max. */
  kind: 'integer' | 'real' | 'choice' | 'reals';
  default: number | string | number[];
  /** Range of a number (each number of a list); null for a choice. */
  min: number | null;
  /** null for a choice, and where there is no upper limit. */
  max: number | null;
  /** true when min itself is not allowed: (min, max]. */
  lo_open: boolean;
  /** reals only: most numbers in the list; null otherwise. */
  max_items: number | null;
  /** choice only: the allowed strings; null otherwise. */
  choices: string[] | null;
  /** task.name only: the choices that need a data file the front end loads ("lexicon"). */
  needs_data: Record<string, string> | null;
  /** task.alphabet and task.length: the values of other fields (by path) with which a run does not
   * read this one ({"task.name": ["g2p"]}); null otherwise. */
  unused_by: Record<string, string[]> | null;
  /** false for the fields the plan sets per run (experiment, model.wo): not a form field. */
  form: boolean;
  /** What is allowed, in the words of validation messages, e.g. "an integer in 1..1024". */
  allowed: string;
  /** What the setting is, in every language of the core (src/lab/settings_help.cpp): the CLI's
   * --help prints the English, the page shows the one of its language under the field. */
  help: Record<WordsLang, string>;
}

/** One row of experiments(): an experiment, its variants and what its runs keep. */
export interface ExperimentInfo {
  name: string;
  /** W_o modes, in the order results and tables show them. */
  variants: string[];
  /** Its runs keep activation stats (record "stats"; Trainer.keepStats). */
  stats: boolean;
  /** Its learned-W_o variants keep W_o snapshots and OV values ("wo", "ov"; Trainer.recordWoSnapshots). */
  wo_snapshots: boolean;
  /** One run per (variant, lr of lr_stability.lrs, seed), clipped at lr_stability.clip. */
  lr_sweep: boolean;
  /** The record parts its results leave empty, as it does not keep them: "stats", "wo", "ov". */
  not_kept: string[];
  /** The data file its runs train on ("lexicon": real_words, on the task g2p), which a front end
   * must load and hand to the trainer; null for the toy tasks. The page leaves such an
   * experiment out. */
  needs_data: string | null;
  /** Its variants whose W_o never trains (frozen_random, frozen_random_scaled, frozen_orthogonal),
   * in the order of `variants`. */
  frozen: string[];
}

/** One run of plan(): train it once, for every experiment in `experiments`. */
export interface PlannedRun {
  variant: string;
  seed: number;
  lr: number;
  clip: number;
  /** Call keepStats(keep.stats) and recordWoSnapshots(keep.wo) before the first step. */
  keep: { stats: boolean; wo: boolean };
  /** The experiments that compare this run, in experiments() order. */
  experiments: string[];
  /**
   * What it costs to train to its last step, in multiply-adds (docs/api.md, "The cost of a
   * run"): total = steps·step + probes·probe + finish.
   */
  cost: { step: number; probe: number; finish: number; steps: number; probes: number; total: number };
  /** Its run config: model, task, train with model.wo, train.seed, lr and clip set. */
  config: { model: object; task: object; train: object };
}

/**
 * What the trainer measured at its latest probe step, in the results record's shapes
 * (docs/results.md, "Probe fragments"): append `step` and `eval`'s values to the record's eval
 * columns and the entries of stats, wo and ov to its arrays.
 */
export interface ProbeFragment {
  step: number;
  /** null at step 0 and once an eval was not finite. */
  eval: { loss: number; token_acc: number; exact: number } | null;
  stats: object[];
  /**
   * head_norms: (heads) ‖W_o[:, head cols]‖_F; head_change_norms: the same of W_o − W_o at step 0;
   * what claim 5 reads of the matrix (docs/results.md, "A run"): dominant_rows, the share of
   * diagonally dominant rows; diagonal_energy, the diagonal's share of ‖W_o‖²_F times d_model;
   * change_from_init, ‖W_o − W_o(0)‖_F / ‖W_o(0)‖_F (null without step 0). data is absent with
   * woData false.
   */
  wo: {
    step: number; layer: number; rows: number; cols: number; data?: number[]; head_norms: number[];
    head_change_norms: number[] | null; dominant_rows: number; diagonal_energy: number; change_from_init: number | null;
  }[];
  ov: { step: number; layer: number; head: number; values: number[] }[];
}

/** One training run: a model, its Adam state, its data stream and what it measured. */
/** A pronunciation: the same phonemes as ARPAbet and IPA, whole and one by one (docs/g2p.md). */
export interface Pronunciation {
  /** ARPAbet separated by spaces, e.g. "K AE T"; "?" for a predicted letter or mark. */
  arpabet: string;
  /** IPA run together, e.g. "kæt". */
  ipa: string;
  /** (phonemes) e.g. ["K", "AE", "T"] */
  phonemes: string[];
  /** (phonemes) e.g. ["k", "æ", "t"] */
  ipaPhonemes: string[];
}

/** What the lexicon lists for a word. */
export interface LexiconEntry {
  /** The word as read: lower case. */
  word: string;
  listed: boolean;
  /** Listed and held out of training (never drawn for a training batch); false when not listed. */
  heldout: boolean;
  /** At least wordLetters().min letters: as long as some word a run trains on. Shorter, a model's answer is a guess no training shaped. */
  trainedLength: boolean;
  /** As listed; the first is the one a run trains on. Empty when not listed. */
  pronunciations: Pronunciation[];
}

/** A g2p model's greedy pronunciation of a word (Trainer.pronounce). */
export interface WordPronunciation extends Pronunciation {
  /** The word as the model read it: lower case. */
  word: string;
  /** False when the model reached its last position without predicting [EOS]. */
  eos: boolean;
  /** The lexicon's entry for the word (the trainer's lexicon). */
  dictionary: LexiconEntry;
  layers: number;
  heads: number;
  /** Letters of the word. */
  letters: number;
  /**
   * (layers * heads * phonemes * letters) the weight the position predicting each output
   * phoneme gave each letter, per layer and head; a row sums to at most 1 (the rest went to
   * [BOS], [SEP] and the phonemes before). A copy: it survives the heap growing.
   */
  attention: Float32Array;
}

/**
 * The CMUdict lexicon and its fixed split (docs/g2p.md), from the text of the compact file the
 * build makes (build/data/cmudict-g2p.txt) or of CMUdict's dict.txt. Trainers made with it
 * share it; delete() the handle when done (trainers keep what they use).
 */
export declare class Lexicon {
  /** @throws Error("dictionary ...") when the text is not the format or is cut short. */
  constructor(text: string);
  /** Words in the lexicon. */
  words(): number;
  /** Of them, held out of training. */
  heldoutWords(): number;
  /**
   * The entry of a word as typed (upper case read as lower case).
   * @throws Error('word "b4": "4" is not a letter a-z; ...') for a word a model cannot read.
   */
  lookUp(word: string): LexiconEntry;
  delete(): void;
}

export declare class Trainer {
  /**
   * Validates the config (every field optional, defaults as in docs/config.md; "experiment" and
   * "seeds" are accepted and checked, model.wo picks the variant) and initialises the
   * weights from train.seed exactly as the native CLI does. The task g2p needs `lexicon`
   * (the toy tasks ignore it).
   * @throws Error with the validator's first message when the config is invalid.
   */
  constructor(configJson: JsonText, lexicon?: Lexicon);

  /**
   * A trainer restored from checkpoint() bytes (or a file of the CLI's --save-checkpoint): it
   * continues exactly as the saved one would have, with the same losses. A checkpoint keeps the
   * losses but not the held-out evals, probes or W_o snapshots taken before it, so stats() is
   * null and record() lists only those taken after the reload.
   * A g2p checkpoint needs `lexicon`.
   * @throws Error("checkpoint: ...") when the bytes are not a valid wolab checkpoint.
   */
  static fromCheckpoint(bytes: Uint8Array, lexicon?: Lexicon): Trainer;

  /**
   * Runs up to n training steps and returns their losses, (n') with n' <= n: fewer once
   * train.steps is reached, the run was stopped, or it diverged (then status() says where).
   * Call it in chunks (V8 optimises wasm only between calls; ~50 ms a call works well).
   */
  step(n: number): Float32Array;
  /** Steps trained so far. */
  stepsDone(): number;
  /** The next step that probes: the next multiple of train.probe_every, or the last step; stepsDone() once finished. */
  nextProbeStep(): number;
  /** True once all train.steps ran, or the run was stopped or diverged. */
  finished(): boolean;
  /** Where the run stands. */
  status(): RunStatus;
  /** Ends a running run where it is ({state: 'stopped', step: stepsDone()}); record() then gives its finals. */
  stop(): void;

  /** Held-out loss, token accuracy and exact match now (teacher forced). */
  evaluate(): EvalResult;
  /** The held-out eval taken at the latest probe step (free: nothing is recomputed), or null before the first. */
  lastEval(): EvalResult | null;
  /** Held-out exact match when the model generates each answer token from its own output. */
  greedyExact(): number;
  /** The latest probe, or null before the first probe step. */
  stats(): ProbeStats | null;

  /** (d*d) W_o of `layer` now, row-major (out, in) as in PyTorch; the identity without one (identity, identity_matched), g·I for scalar_gain. */
  woWeights(layer: number): Float32Array;
  /** (d*d) W_o of `layer` at step 0. */
  woInit(layer: number): Float32Array;
  /** (heads) Frobenius norm of each head's block of W_o columns: how strongly W_o reads it. */
  headBlockNorms(layer: number): Float32Array;
  /** (d_k) singular values, largest first, of the head's OV circuit W_o[:, head] · W_v[head, :]. */
  ovSingularValues(layer: number, head: number): Float32Array;
  /** (T*T) attention weights of a held-out example, row = query, column = key (causal). */
  attention(layer: number, head: number, example: number): Float32Array;
  /**
   * A g2p model's greedy pronunciation of a word as typed, with the lexicon's entry and the
   * attention maps (docs/g2p.md, "Pronouncing a word").
   * @throws Error for a bad word (empty, over 12 letters, a character outside a-z, named) or a
   *   model of another task.
   */
  pronounce(word: string): WordPronunciation;
  /** The parameters that train, counted as PyTorch counts them but for block_diagonal's zeros between heads. */
  parameterCount(): number;

  /**
   * Keep activation stats at every probe step (on by default); turning it off drops those
   * taken. A planned run's keep.stats says which.
   */
  keepStats(keep: boolean): void;
  /**
   * Keep W_o of every layer and the OV singular values of every head at step 0 and at every
   * probe step, for the record's "wo" and "ov" (a planned run's keep.wo). Costs
   * layers·(d² + d)·(steps/probe_every + 1) floats, so it is off by default; turning it off
   * drops what was kept. Call it before the first step.
   * @throws Error("train.probe_every: ...") when the snapshots would exceed the memory limit.
   */
  recordWoSnapshots(keep: boolean): void;
  /**
   * What the latest probe step measured (step 0 before the first), as JSON text of a
   * ProbeFragment. With woData false, its "wo" entries leave out "data" (see woSnapshot).
   */
  probeRecord(woData?: boolean): JsonText;
  /**
   * This run's entry of the results "runs" array (docs/results.md, version 2) as JSON text, as
   * far as the run has come: while running, "final" is null and the status running (take it
   * at step 0 and append probeRecord()'s fragments); once finished, with its final metrics
   * (computed now for a done or stopped run, which costs a held-out evaluation). With woData
   * false, its "wo" entries leave out "data" (see woSnapshot).
   */
  record(woData?: boolean): JsonText;
  /**
   * A copy (d·d, row-major) of the kept W_o snapshot of `layer` at `step`: the "data" that
   * record(false) and probeRecord(false) leave out, as numbers rather than decimal text.
   * @throws Error("woSnapshot: no W_o snapshot of layer L at step S") when none was kept there.
   */
  woSnapshot(step: number, layer: number): Float32Array;

  /** The whole run (weights, Adam moments, data stream position, losses) as safetensors bytes. */
  checkpoint(): Uint8Array;

  /** Frees the trainer's wasm memory; the object is unusable afterwards. Call it once per trainer. */
  delete(): void;
}

/** The module createWolab() resolves to. */
export interface WolabModule {
  /** Every problem of a config, one line each (the CLI's messages); [] when it is valid. */
  validateConfig(configJson: JsonText): string[];
  /**
   * Bytes one run of the config holds at its peak, with W_o snapshots or without: what
   * validateConfig checks against its 512 MiB limit. Throws on a field's bad value.
   */
  memoryEstimate(configJson: JsonText, woSnapshots: boolean): number;
  /** {"quick": config, "article": config}, fully defaulted, as JSON text. */
  presets(): JsonText;
  /** The presets' names in the order the page offers them; the first is the page's default. */
  presetNames(): string[];
  /** The learning rates the config's experiment trains at, increasing (every experiment's for "all"). Throws on a bad config. */
  learningRates(configJson: JsonText): number[];
  /** JSON text of ExperimentInfo[]: the page's experiments in their order ("all" runs them all). */
  experiments(): JsonText;
  /** JSON text of Setting[]: every config field, in the settings table's order. */
  settings(): JsonText;
  /**
   * The runs that these experiments need, each distinct (variant, seed, lr, clip) once, seed by
   * seed: JSON text of PlannedRun[]. The same plan `wolab run` trains.
   * @param configJson the experiment config (its "experiment" is not read).
   * @param experimentsJson a JSON array of experiment names, "all" for every one.
   * @throws Error with the validator's message for a bad config, Error("experiments: ...") for an unknown name.
   */
  plan(configJson: JsonText, experimentsJson: JsonText): JsonText;
  /** The core's version, e.g. "0.1.0" (results say "created_by": "wolab <version>"). */
  version(): string;
  /**
   * The notebook (nbformat 4 JSON text) of the config's experiment in PyTorch, with the plan
   * plan() makes of it, its text in `lang` ("en" or "zh"): the one `wolab notebook` writes for
   * the same settings (docs/notebooks.md). A g2p experiment's lexicon cell names
   * "cmudict-g2p.txt", the file the page serves.
   * @throws Error with the validator's message for a bad config, Error("experiment: ...") for "all",
   * Error("lang: ...") for another language.
   */
  makeNotebook(configJson: JsonText, lang: string): JsonText;
  /**
   * The full results document (version 2, with the summary per variant and learning rate) of
   * `experiment` from its config and a JSON array of finished Trainer.record() entries: the
   * same code the CLI uses. Each run keeps only what the experiment keeps.
   * @throws Error("results: ...") for a malformed or running run, Error with the validator's message for a bad config.
   */
  makeResults(experiment: string, configJson: JsonText, runsJson: JsonText): JsonText;
  /**
   * makeResults of records sent without their W_o matrices (each "wo" entry without "data",
   * its figures kept): each run with snapshots names the wo file `<woStem>.<variant>.seed<N>.safetensors`
   * that `wolab split-wo` would write, and keeps its figures as the trainer computed them
   * (docs/results.md, "W_o snapshots apart"). The page's summary and analysis of a live
   * experiment: at d_model 256 the matrices were 50 MB of JSON that the analysis never reads.
   * @throws Error("woStem: ...") for an empty or non-string stem; otherwise as makeResults.
   */
  makeResultsWoApart(experiment: string, configJson: JsonText, runsJson: JsonText, woStem: string): JsonText;
  /**
   * Checks an imported results document (version 1 or 2) and returns it normalised as version
   * 2 (config fully defaulted, version 1 runs converted, summary recomputed from the runs).
   * @throws Error("results: <where>: <what is wrong>") with `fault`: what kind of file it is
   * ({@link ResultsFault}), for a page to word the refusal.
   */
  parseResults(json: JsonText): JsonText;
  /**
   * The W_o matrices of a wo file, the binary file a results run names in `wo_file`
   * (docs/results.md, "W_o snapshots apart"): float16 values widened to float32, all in one
   * array, matrix i at `matrices[i].offset`, (rows, cols) row-major (out, in); by step, then layer.
   * @throws Error("wo file: <what is wrong>") for a truncated, corrupt or foreign file.
   */
  readWoFile(bytes: Uint8Array): {
    variant: string; seed: number;
    matrices: { step: number; layer: number; rows: number; cols: number; offset: number }[];
    data: Float32Array;
  };
  /**
   * (rows, heads) row-major: for each row of a (rows, cols) row-major matrix, the Frobenius norm
   * of each head's block of its columns, as headBlockNorms computes it for the whole matrix. Of a
   * W_o (out, in): how much each output feature draws from each head.
   * @throws Error("rowHeadNorms: ...") unless matrix is a Float32Array of rows × cols values
   * and heads divides cols.
   */
  rowHeadNorms(matrix: Float32Array, rows: number, cols: number, heads: number): Float32Array;
  /**
   * What a set of results measured (the analysis `wolab report` prints): per results document
   * its convergence per variant, its paired comparisons seed by seed and its finding, then a
   * verdict on each of the article's nine claims. JSON text of an {@link Analysis}: codes and
   * numbers only, to be worded by the page; every rule and threshold is in docs/claims.md.
   * @param resultsArrayJson a JSON array of results documents, each checked as parseResults does.
   * @throws Error("results[i]: <where>: <what is wrong>") naming the first bad document.
   */
  analyze(resultsArrayJson: JsonText): JsonText;
  /**
   * JSON text of the {@link Codes}: every verdict, reason and run state the core writes, from
   * its tables (src/analysis/codes.h, src/config/run_status.h), for a page to word each one.
   */
  codes(): JsonText;
  /** The letters of the words a g2p run trains on: a longer word is refused, a shorter one read with a caution (LexiconEntry.trainedLength). */
  wordLetters(): { min: number; max: number };
  /**
   * The words of an analysis in one language, from the core's one table of words
   * (src/analysis/words_table.cpp, the CLI's too): JSON text of {@link AnalysisWords}, each
   * claim's verdict, reason, plain sentence and lead phrase, and the titles of the article's three
   * design philosophies that group the claims.
   * @param analysisJson the JSON text analyze returned (a claim without `plain` gets it computed).
   * @param lang 'en' or 'zh'.
   * @throws Error("analysis: not valid JSON (...)"), Error("words: unknown language ...").
   */
  analysisWords(analysisJson: JsonText, lang: WordsLang): JsonText;
  /** An analysis's conclusion (Analysis.conclusion's shape) with its real-words part read from a second analysis's words_claims: real words recorded apart, trained to the end. */
  conclude(analysisJson: JsonText, wordsAnalysisJson: JsonText): JsonText;
  /** The words of one claim of an analysis (a {@link ClaimVerdict}'s JSON text), as analysisWords gives each. */
  claimWords(claimJson: JsonText, lang: WordsLang): JsonText;
  /**
   * Who was ahead on one metric of a paired comparison, in words: "learned ahead in 3 of 3
   * seeds; identity's loss was 11% higher on average, under the 20% called clear".
   * @param metricJson JSON text of a {@link MetricComparison} (a pair's metric, or a claim's figures.comparison).
   */
  leadWords(metricJson: JsonText, lang: WordsLang): string;
  /** JSON text of {@link WordsTable}: every template of the core's words, English and Chinese side by side. */
  wordsTable(): JsonText;
  Trainer: typeof Trainer;
  Lexicon: typeof Lexicon;
}

/**
 * Why parseResults refused a file, as the `fault` of its Error: not JSON; JSON cut short (it ends
 * before its last value does); JSON but not a results file; a results file of a version this
 * build does not read; a results file with something wrong inside.
 */
export type ResultsFault = 'not_json' | 'truncated' | 'not_results' | 'version' | 'damaged';

/** n values summarised; sd (sample) is null when n = 1. */
export interface Spread {
  n: number;
  mean: number;
  min: number;
  max: number;
  sd: number | null;
}

/**
 * The mean paired effect over seeds and its 95% interval, paired t on n − 1 degrees of freedom
 * (docs/claims.md, "Effect sizes"): a − b in points for a rate (scale "difference"), ln(a / b)
 * for steps and losses (scale "log_ratio"); sd, lo and hi null with one seed.
 */
export interface Effect {
  scale: 'difference' | 'log_ratio';
  n: number;
  mean: number;
  sd: number | null;
  lo: number | null;
  hi: number | null;
  level: number;
}

/** One metric compared seed by seed between variants a and b (differences are a − b). */
export interface MetricComparison {
  /** token_acc | exact | steps_to_loss_0_1 | loss_at_25 | loss_at_50 | loss_at_100; on real words also per | wer | per_area */
  metric: string;
  a: string;
  b: string;
  /** Paired seeds: both runs finished (done). */
  n: number;
  ahead_a: number;
  ahead_b: number;
  ties: number;
  /** Seeds where neither run reached the loss threshold (steps_to_loss_0_1 only; else 0). */
  neither: number;
  /** The variant ahead in more than half the seeds, or null. */
  leader: string | null;
  /** The leader is ahead in at least thresholds.consistent_share of the seeds. */
  consistent: boolean;
  /** Consistent, and the advantage's 95% interval past the clear gap (speed or accuracy); never with one seed. */
  clear: boolean;
  /** a − b over the seeds where both have a value (accuracies as fractions). */
  diff: Spread | null;
  /** Per seed in the leader's favour: accuracy points as fractions, or the other's extra steps or loss relative to the leader's. */
  gap: Spread | null;
  /** The paired effect of a against b and its 95% interval; null with no seed. */
  effect: Effect | null;
  /** The effect in the leader's favour (positive when it favours the leader); null with no leader. */
  advantage: Effect | null;
  values: { seed: number; a: number | null; b: number | null }[];
  /** Steps to the threshold only: seeds where each reached it. */
  reached_a?: number;
  reached_b?: number;
  /** loss_at_* only: the step the smoothed loss is taken at. */
  step?: number;
}

export interface PairComparison {
  a: string;
  b: string;
  n: number;
  /** Seeds left out because a run of the pair diverged or was stopped. */
  excluded: number;
  diverged: { a: number; b: number };
  stopped: { a: number; b: number };
  /** Both at the accuracy ceiling in every paired seed. */
  at_ceiling: boolean;
  /** The variants of the pair with a run still learning at its last step in a paired seed
   * (docs/claims.md, "Paired comparisons"). */
  still_learning: string[];
  /** The metric that measures speed for this pair: steps_to_loss_0_1 or loss_at_100; per_area on real words. */
  speed: string;
  /** The metric that measures performance: token_acc (per on real words), or the speed metric when at_ceiling or still learning. */
  performance: string;
  metrics: MetricComparison[];
}

export interface VariantConvergence {
  variant: string;
  runs: number;
  done: number;
  converged: number;
  still_learning: number;
  stalled: number;
  diverged: number;
  stopped: number;
  /** converged | still_learning | stalled | mixed | none_finished */
  state: string;
}

export interface ExperimentAnalysis {
  experiment: string;
  /** Who trained its runs: "wolab", or "pytorch-notebook" for a notebook's file (docs/notebooks.md). */
  producer: string;
  config: object;
  /** The run config its runs trained with: config's base, with real_words' own model and task. */
  run_config: object;
  seeds: number;
  variants: string[];
  /** The runs' distinct learning rates, ascending (one unless the experiment sweeps them). */
  learning_rates: number[];
  /** Steps the smoothed losses average over. */
  smooth_window: number;
  /** Steps the mean loss compared with the loss threshold is taken over (docs/claims.md, "Paired comparisons"). */
  threshold_window: number;
  /** Every pair of variants in the experiment's order (empty for a learning-rate sweep). */
  comparisons: PairComparison[];
  convergence: VariantConvergence[];
  /** The experiment's facts (docs/claims.md, "Findings per experiment"): pairs, wo, scale, speed_vs_identity, table, ... */
  finding: Record<string, unknown>;
  /** The same as Analysis.thresholds, so that one experiment's analysis reads on its own. */
  thresholds: Record<string, number>;
}

/** A claim's verdict, one of codes().verdicts. */
export type VerdictCode = 'supported' | 'partly_supported' | 'not_supported' | 'not_decided' | 'not_tested';

export interface ClaimVerdict {
  /** 1..9, the article's claims in docs/claims.md's order. */
  id: number;
  /** The article's design philosophy the claim belongs to, a code of codes().claim_groups. */
  group: 'fusion' | 'freedom' | 'residual_gradient';
  verdict: VerdictCode;
  /** Why, as a code of codes().reasons, which decides the verdict (docs/claims.md lists them per claim). */
  reason: string;
  /** The experiment the figures come from, or null. */
  experiment: string | null;
  /** The seeds that decided the verdict split: a rerun may differ (false unless there is a verdict). */
  fragile: boolean;
  figures: Record<string, unknown>;
  /** The answer in plain words, to be worded (analysisWords): a code of codes().plain and the figures its sentence quotes. */
  plain: PlainAnswer;
}

/**
 * A claim's answer in plain words (docs/claims.md, "Plain words"): e.g. {"code":
 * "slower_small_gap", "figures": {"seeds_ahead": 3, "seeds": 3, "gap_pct": 11.3, "gap_lo": 7.2,
 * "gap_hi": 15.4}, "metric": "loss_at_100"}. Figures are numbers (counts of seeds, gaps in percent
 * or points to one decimal, two under 1, and the ends of their 95% interval, learning rates, a
 * ratio), a learning rate or an interval's end null where there is none.
 */
export interface PlainAnswer {
  code: string;
  figures: Record<string, number | null>;
  /** Claims 1-4: the compared metric (claim 1's sentence names its measure). */
  metric?: string;
  /** Two-part claims: per part, the seeds where it holds and did not as initialised (the dots). */
  parts?: number[];
}

/** The languages the core writes its texts in (src/config/languages.h; wordsTable().languages). */
export type WordsLang = 'en' | 'zh';

/** analysisWords(): an analysis in words of one language. */
export interface AnalysisWords {
  lang: WordsLang;
  /** The article's three design philosophies in its order, each with its title and its claims' ids in reading order. */
  groups: { code: ClaimVerdict['group']; title: string; claims: number[] }[];
  /** Every claim as the article states it (text), and with "The article: " before it (says), analysed or not. */
  statements: { id: number; text: string; says: string }[];
  /** What the claims found overall, in one line ("Of the article's 9 claims, these runs …"); null with no claim. */
  headline: string | null;
  /** Per claim of Analysis.claims, in its order. */
  claims: ClaimWords[];
  /** Per claim of Analysis.words_claims (claims 1-4 on real words), in its order. */
  words_claims: ClaimWords[];
  /** Per experiment whose finding has a decomposition (docs/claims.md, "What W_o is for"), its words. */
  purpose: PurposeWords[];
}

/** What W_o is for, in words: one experiment's decomposition of W_o's lead. */
export interface PurposeWords {
  experiment: string;
  d_model: number;
  heads: number;
  /** W_o's lead over identity, of which the controls' shares are taken: "Without W_o the ... was
   * worse by ..., over n seeds." */
  lead: string;
  /** The answer, worded from the decomposition's code. */
  answer: string;
  /** Per control (block_diagonal, scalar_gain, identity_matched): its name, the share of the lead
   * it brings back (null when undecided) as a phrase and as a line, and its gap to identity. */
  controls: { variant: string; name: string; share: string | null; line: string | null; gap: string | null }[];
}

export interface ClaimWords {
  id: number;
  group: ClaimVerdict['group'];
  /** The claim as the article states it. */
  statement: string;
  /** The verdict as a badge says it: "partly supported". */
  verdict: string;
  /** Why, with the thresholds and the seeds counted (the CLI's reason). */
  reason: string;
  /** One plain sentence: at most 25 words in English, 60 characters in Chinese. */
  plain: string;
  /** leadWords of the claim's figures.comparison (claims 1-4), else null. */
  lead: string | null;
}

/** wordsTable(): key -> template per language; {name} marks a figure, the same names in every language. */
export interface WordsTable {
  languages: WordsLang[];
  words: Record<string, Record<WordsLang, string>>;
}

export interface Analysis {
  format: 'wolab-analysis';
  version: 1;
  /** Every threshold the rules use, by name (docs/claims.md). */
  thresholds: Record<string, number>;
  experiments: ExperimentAnalysis[];
  claims: ClaimVerdict[];
  /** Claims 1-4 judged again on real words (experiment real_words) alone, same rules, in order
   * (docs/claims.md, "Real words"). */
  words_claims: ClaimVerdict[];
  /** What the conclusion under the claims says (docs/claims.md, "The conclusion"). */
  conclusion: {
    counts: { supported: number; partly_supported: number; not_supported: number; not_decided: number; not_tested: number };
    /** Some claim's pair was still learning at the last step, or a learning rate is undecided. */
    still_learning: boolean;
    /** Ids of the claims whose comparison the conclusion quotes: of 1 and 3, those tested. */
    quotes: number[];
    /** Ids of claims 1-4 whose verdicts on the toy tasks and on real words, where both decide,
     * are the same (agree) or not (differ). */
    words: { agree: number[]; differ: number[] };
  };
}

/** codes(): the codes of the core's JSON, each list in its table's order. */
export interface Codes {
  /** Every verdict a claim can get. */
  verdicts: VerdictCode[];
  /** Every reason a claim can be given, with the one verdict it comes with. */
  reasons: { code: string; verdict: VerdictCode }[];
  /** Every state of a run's status ({@link RunStatus}). */
  states: RunStatus['state'][];
  /** The states of a run that trained to its end: all its steps, or until it diverged. */
  trained_to_end: RunStatus['state'][];
  /** The states of a run the reader cut short (stopped): neither trained to its end nor failed. */
  cut_short: RunStatus['state'][];
  /** The state of a run that could not train (its worker failed), as makeResults takes it
   * ({variant, seed, lr, status: {state: failed_state}, error}; docs/results.md, "Failed runs"). */
  failed_state: 'failed';
  /** The experiments each claim reads, in its order of preference (docs/claims.md). */
  claim_sources: { id: number; experiments: string[] }[];
  /** The claims judged a second time on real words, and the experiment they read. */
  words_claims: { ids: number[]; experiments: string[] };
  /** The article's three design philosophies, in its order, each with its claims in reading order. */
  claim_groups: { code: ClaimVerdict['group']; claims: number[] }[];
  /** Every plain code a claim's answer can have, with the names of the figures it carries
   * ("gap": gap_pct or gap_points; gap_lo, gap_hi: its 95% interval's ends). */
  plain: { code: string; figures: string[] }[];
}

/** Options of the Emscripten factory that matter here. */
export interface WolabOptions {
  /** The .wasm bytes, when the module cannot fetch them itself (node). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Where the .wasm lives, given its file name (default: next to the script). */
  locateFile?(path: string, scriptDirectory: string): string;
}

/** The MODULARIZE factory: `createWolab` in a worker's global scope, module.exports in node. */
export default function createWolab(options?: WolabOptions): Promise<WolabModule>;
