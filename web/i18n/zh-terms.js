// Chinese (中文) names of what the page shows: settings and their choices, presets, experiments,
// variants, measures, and the parts of the block diagram.
// One of the page's texts by area (web/i18n/i18n.js merges a language's three; tests/e2e/page.spec.js
// checks both languages have the same keys in each area). Strings are only ever set with textContent.

export const texts = {
  // The presets and the settings, with their choices.
  presetQuick: '快速',
  presetArticle: '文章',
  presetCustom: '自定义',
  f_task: '任务', task_copy: '复制 (copy)', task_reverse: '反转 (reverse)', task_sort: '排序 (sort)', task_g2p: '读音 (g2p)',
  f_d_model: '模型宽度 (d_model)', f_heads: '头数', f_layers: '层数', f_d_ff: '前馈层宽度 (d_ff)',
  f_ln: 'LayerNorm 位置', ln_post: '后置 (post-LN)', ln_pre: '前置 (pre-LN)',
  f_length: '序列长度', f_alphabet: '字母表大小', f_heldout: '验证序列数', f_batch: '批大小', f_lr: '学习率',
  f_steps: '步数', f_seeds: '种子数', f_seed: '起始种子', f_probe_every: '探测间隔（步）',
  f_schedule: '学习率调度', schedule_constant: '恒定', schedule_cosine: '预热后余弦衰减',
  f_warmup: '预热步数', f_lr_min: '最终学习率',
  f_clip: '梯度裁剪', f_lrs: '实验 6 的学习率', f_stability_clip: '实验 6 的梯度裁剪',
  f_lang: '语言', f_embed: '嵌入的实验', f_theme: '主题',

  // The experiments.
  remove_wo_title: '1 · 去掉 W_o',
  freeze_wo_title: '2 · 冻结 W_o',
  wo_heatmap_title: '3 · 看看 W_o 里面',
  activation_stats_title: '4 · 激活统计',
  gain_vs_learning_title: '5 · 是学习，还是尺度？',
  wo_purpose_title: '8 · W_o 到底做什么？',
  lr_stability_title: '6 · W_o 能让训练保持稳定吗？',

  // Where the activation statistics are measured.
  site_concat: '拼接 concat',
  site_wo_out: 'W_o(concat)',
  site_residual: 'x + W_o(concat)',
  sameAs_concat: '= 拼接 concat（无 W_o）',

  // The article the claims come from.
  articleTitle: '《从论文到代码：拆解Transformer多头注意力最后线性层的3个设计哲学（含可运行Colab示例）》',
  articleTitleEn: '（英文：“From paper to code: taking apart 3 design philosophies of the last linear layer of Transformer multi-head attention (with a runnable Colab example)”）',

  // The measures.
  mTokenAcc: 'token 准确率', mExact: '完全匹配率', mSteps: '损失降到 {thr} 以下所需步数', mLossAt: '第 {step} 步的损失',
  mWer: '全部留出词的词错误率（WER）', mPer: '全部留出词的音素错误率（PER）',
  mPerArea: '整个运行中的留出音素错误率（各探测点的平均）',

  // The settings of real words (experiment 7).
  f_words_d_model: '实验 7 的模型宽度', f_words_heads: '实验 7 的头数', f_words_layers: '实验 7 的层数',
  f_words_d_ff: '实验 7 的前馈宽度', f_words_steps: '实验 7 的步数', f_words_batch: '实验 7 的批大小（单词）',
  f_words_probe_every: '实验 7 每隔多少步测量', f_words_heldout: '实验 7 每次测量的验证单词数',
  real_words_title: '7 · 换成真实单词还成立吗？',

  // The block diagram: the variants of its switch, its parts and its labels.
  ds_learned: '可学习', ds_identity: '无 W_o（单位矩阵）', ds_frozen_random: '冻结的随机矩阵', ds_learned_identity_init: '从单位矩阵开始',
  ds_block_diagonal: '每头一块', ds_scalar_gain: '一个增益', ds_identity_matched: '无 W_o，FFN 更宽',
  dp_heads: '注意力头',
  dp_concat: '拼接',
  dp_wo: 'W_o',
  dp_residual: '残差相加',
  dp_norm: '层归一化',
  dp_gradient: '梯度',
  dAttn: '注意力', dQkv: '每个头的 Q K V', dHeads: '头', dConcat: '拼接', dNoWo: '无 W_o',
  dResidual: '残差路径：x + 注意力', dNorm: '层归一化', dNextShort: 'FFN', dNext: '进入 FFN', dGradient: '梯度反向流回',

  // What W_o is for: the measure of each lead.
  purposeMeasure_per: '最终 PER（百分点）',
  purposeMeasure_loss_at_100: '最终损失（没有它时高出的百分比）',
  purposeMeasure_steps_to_loss_0_1: '损失降到 0.1 以下的步数（没有它时多出的百分比）',
  // The variants' Chinese names, shown beside their codes (variantLabel in i18n.js).
  v_learned: '可学习', v_identity: '无 W_o', v_frozen_random: '冻结的随机矩阵',
  v_learned_identity_init: '从单位矩阵开始学习', v_frozen_random_scaled: '冻结的随机矩阵 ×√3', v_frozen_orthogonal: '冻结的随机正交矩阵',
  v_block_diagonal: '按头分块的可学习矩阵', v_scalar_gain: '可学习的标量增益', v_identity_matched: '无 W_o，参数量相同',
};
