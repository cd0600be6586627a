// English names of what the page shows: settings and their choices, presets, experiments, variants,
// measures, and the parts of the block diagram.
// One of the page's texts by area (web/i18n/i18n.js merges a language's three; tests/e2e/page.spec.js
// checks both languages have the same keys in each area). Strings are only ever set with textContent.

export const texts = {
  // The presets and the settings, with their choices.
  presetQuick: 'Quick',
  presetArticle: 'Article',
  presetCustom: 'Custom',
  f_task: 'Task', task_copy: 'copy', task_reverse: 'reverse', task_sort: 'sort', task_g2p: 'g2p (words → sounds)',
  f_d_model: 'Model width (d_model)', f_heads: 'Heads', f_layers: 'Layers', f_d_ff: 'Feed-forward width (d_ff)',
  f_ln: 'LayerNorm', ln_post: 'post-LN', ln_pre: 'pre-LN',
  f_length: 'Sequence length', f_alphabet: 'Alphabet size', f_heldout: 'Held-out sequences', f_batch: 'Batch', f_lr: 'Learning rate',
  f_steps: 'Steps', f_seeds: 'Seeds', f_seed: 'First seed', f_probe_every: 'Probe every (steps)',
  f_schedule: 'Learning-rate schedule', schedule_constant: 'constant', schedule_cosine: 'warmup, then cosine decay',
  f_warmup: 'Warmup steps', f_lr_min: 'Final learning rate',
  f_clip: 'Gradient clip', f_lrs: 'Learning rates of experiment 6', f_stability_clip: 'Gradient clip of experiment 6',
  f_lang: 'Language', f_embed: 'Embedded experiment', f_theme: 'Theme',

  // The experiments.
  remove_wo_title: '1 · Remove W_o',
  freeze_wo_title: '2 · Freeze W_o',
  wo_heatmap_title: '3 · Look inside W_o',
  activation_stats_title: '4 · Activation statistics',
  gain_vs_learning_title: '5 · Is it the learning, or the scale?',
  wo_purpose_title: '8 · What is W_o for?',
  lr_stability_title: '6 · Does W_o keep training stable?',

  // Where the activation statistics are measured.
  site_concat: 'concat',
  site_wo_out: 'W_o(concat)',
  site_residual: 'x + W_o(concat)',
  sameAs_concat: '= concat (no W_o)',

  // The article the claims come from.
  articleTitle: '从论文到代码：拆解Transformer多头注意力最后线性层的3个设计哲学（含可运行Colab示例）',
  articleTitleEn: '(“From paper to code: taking apart 3 design philosophies of the last linear layer of Transformer multi-head attention (with a runnable Colab example)”)',

  // The measures.
  mTokenAcc: 'token accuracy', mExact: 'exact match', mSteps: 'steps to loss < {thr}', mLossAt: 'loss at step {step}',
  mWer: 'WER on every held-out word', mPer: 'PER on every held-out word',
  mPerArea: 'held-out PER over the run (its mean at the probes)',

  // The settings of real words (experiment 7).
  f_words_d_model: 'Model width of experiment 7', f_words_heads: 'Heads of experiment 7', f_words_layers: 'Layers of experiment 7',
  f_words_d_ff: 'Feed-forward width of experiment 7', f_words_steps: 'Steps of experiment 7', f_words_batch: 'Batch of experiment 7 (words)',
  f_words_probe_every: 'Probe every (steps) in experiment 7', f_words_heldout: 'Held-out words measured at each probe of experiment 7',
  real_words_title: '7 · Does it hold on real words?',

  // The block diagram: the variants of its switch, its parts and its labels.
  ds_learned: 'learned', ds_identity: 'none (identity)', ds_frozen_random: 'frozen random', ds_learned_identity_init: 'identity at start',
  ds_block_diagonal: 'per-head blocks', ds_scalar_gain: 'one gain', ds_identity_matched: 'none, wider FFN',
  dp_heads: 'Heads',
  dp_concat: 'Concat',
  dp_wo: 'W_o',
  dp_residual: 'Residual sum',
  dp_norm: 'LayerNorm',
  dp_gradient: 'Gradient',
  dAttn: 'attention', dQkv: 'Q K V per head', dHeads: 'heads', dConcat: 'concat', dNoWo: 'no W_o',
  dResidual: 'residual path: x + attention', dNorm: 'LayerNorm', dNextShort: 'FFN', dNext: 'to the FFN', dGradient: 'gradient flows back',

  // What W_o is for: the measure of each lead.
  purposeMeasure_per: 'final PER (points)',
  purposeMeasure_loss_at_100: 'final loss (% higher without)',
  purposeMeasure_steps_to_loss_0_1: 'steps to loss < 0.1 (% more without)',
};
