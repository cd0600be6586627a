// The settings' help (settings_help.h), English and Chinese side by side.
#include "lab/settings_help.h"

#include <stdexcept>

namespace wolab {

const std::vector<SettingHelp>& settings_help_rows() {
  static const std::vector<SettingHelp> rows = {
      {"experiment", {"experiment to run (all: every one, one results file each)",
                      "要运行的实验（all：全部实验，每个一个结果文件）"}},
      {"seeds", {"runs per variant, with seeds seed..seed+N-1", "每个变体的运行次数，种子为 seed..seed+N-1"}},
      {"model.d_model", {"width of the residual stream", "残差流的宽度"}},
      {"model.heads", {"attention heads per layer (must divide d_model)", "每层的注意力头数（须整除 d_model）"}},
      {"model.layers", {"Transformer blocks", "Transformer 块数"}},
      {"model.d_ff", {"hidden width of the feed-forward layer", "前馈层的隐藏宽度"}},
      {"model.ln", {"LayerNorm after (post, as in the article) or before (pre) each sublayer",
                    "LayerNorm 放在每个子层之后（post，与文章相同）或之前（pre）"}},
      {"model.wo", {"W_o of a single run (experiments set it per variant)", "单个运行的 W_o（各实验按变体设置）"}},
      {"task.name",
       {"what the answer is: the input copied, reversed or sorted, or a word's pronunciation (g2p, CMUdict; "
        "its symbols and lengths come from the data, not alphabet and length)",
        "答案是什么：输入的复制、反转或排序，或一个单词的读音（g2p，CMUdict；其符号和长度来自数据，"
        "而不是 alphabet 和 length）"}},
      {"task.alphabet", {"distinct symbols (not used by g2p)", "不同符号的个数（g2p 不用）"}},
      {"task.length", {"symbols per input sequence (not used by g2p)", "每个输入序列的符号数（g2p 不用）"}},
      {"task.heldout",
       {"held-out sequences the evals and final metrics are measured on (the first N of one fixed set; "
        "g2p: the held-out words measured at probe steps, all of them at the end)",
        "测量评估和最终指标所用的留出序列数（一个固定集合的前 N 条；g2p：探测步测量的留出单词数，"
        "结束时测量全部）"}},
      {"train.steps", {"training steps per run", "每个运行的训练步数"}},
      {"train.batch", {"sequences per step", "每步的序列数"}},
      {"train.lr", {"Adam learning rate (the schedule cosine's peak)", "Adam 学习率（cosine 调度的峰值）"}},
      {"train.schedule",
       {"learning rate over the run: constant, or cosine (a linear warmup to lr over train.warmup steps, "
        "then a cosine decay to train.lr_min at the last step)",
        "学习率在运行中如何变化：constant（恒定），或 cosine（在 train.warmup 步内线性预热到 lr，"
        "然后余弦衰减，在最后一步降到 train.lr_min）"}},
      {"train.warmup", {"steps of linear warmup of the schedule cosine (less than the run's steps; not used by constant)",
                        "cosine 调度线性预热的步数（少于运行的步数；constant 不用）"}},
      {"train.lr_min", {"learning rate the schedule cosine decays to (at most train.lr; not used by constant)",
                        "cosine 调度最终降到的学习率（不超过 train.lr；constant 不用）"}},
      {"train.clip", {"global gradient-norm clip (0: off)", "全局梯度范数裁剪（0：不裁剪）"}},
      {"train.probe_every", {"steps between held-out evals, activation stats and W_o snapshots",
                             "两次留出集评估、激活统计和 W_o 快照之间的步数"}},
      {"train.loss_every",
       {"steps per point of the results' loss curve, each point their mean training loss (1: every step; a "
        "long run's results file is N times smaller)",
        "结果中损失曲线每个点涵盖的步数，每个点是这些步的平均训练损失（1：每一步；长运行的结果文件因此小 N 倍）"}},
      {"train.seed", {"seed of the first run (weights and data)", "第一个运行的种子（权重和数据）"}},
      {"lr_stability.lrs", {"learning rates of experiment lr_stability (in place of train.lr)",
                            "实验 lr_stability 的学习率（代替 train.lr）"}},
      {"lr_stability.clip", {"gradient-norm clip of experiment lr_stability (0: off, so that clipping hides no instability)",
                             "实验 lr_stability 的梯度范数裁剪（0：不裁剪，以免裁剪掩盖不稳定）"}},
      {"real_words.d_model", {"width of the residual stream in experiment real_words (in place of model.d_model)",
                              "实验 real_words 的残差流宽度（代替 model.d_model）"}},
      {"real_words.heads", {"attention heads per layer in experiment real_words (must divide its d_model)",
                            "实验 real_words 每层的注意力头数（须整除它的 d_model）"}},
      {"real_words.layers", {"Transformer blocks in experiment real_words", "实验 real_words 的 Transformer 块数"}},
      {"real_words.d_ff", {"feed-forward width in experiment real_words", "实验 real_words 的前馈层宽度"}},
      {"real_words.steps", {"training steps per run of experiment real_words", "实验 real_words 每个运行的训练步数"}},
      {"real_words.batch", {"words per step in experiment real_words", "实验 real_words 每步的单词数"}},
      {"real_words.probe_every", {"steps between held-out evals in experiment real_words",
                                  "实验 real_words 两次留出集评估之间的步数"}},
      {"real_words.heldout", {"held-out words measured at each probe step of experiment real_words (all of them at the end)",
                              "实验 real_words 每个探测步测量的留出单词数（结束时测量全部）"}},
  };
  return rows;
}

const Texts& setting_help(const std::string& path) {
  for (const SettingHelp& row : settings_help_rows())
    if (path == row.path) return row.help;
  throw std::logic_error("settings help: no help for " + path);
}

}  // namespace wolab
