// The experiments on W_o, each a list of variants (W_o modes) compared over seeds (the plan of
// the runs that a set of them needs is lab/plan.h). Every variant of a seed starts from the same weights
// except W_o and sees the same data stream: the Trainer derives both from train.seed alone.
// The CLI trains the plan here (run_experiment); the page asks for it through Embind (plan()).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/run_config.h"

namespace wolab {

// Settings of experiment lr_stability, which trains every variant at each of these learning
// rates in place of train.lr, and with this clip in place of train.clip.
struct LrStabilityConfig {
  std::vector<float> lrs = {1e-3f, 3e-3f, 1e-2f, 2e-2f, 3e-2f};  // increasing
  float clip = 0;  // off: clipping would hide the instability the experiment measures
};

// Settings of experiment real_words, which trains on the task g2p (CMUdict, docs/g2p.md) with
// this model and this training length in place of base's; the rest (ln, lr, clip, Adam, seed)
// is base's. Words need a wider model and far more steps than the toy tasks, so presets set
// both (docs/findings.md, "Choosing the real words presets").
struct RealWordsConfig {
  int d_model = 64;
  int heads = 4;
  int layers = 2;
  int d_ff = 256;
  int steps = 2000;
  int batch = 32;
  int probe_every = 100;
  int heldout = 256;  // held-out words measured at each probe step (all of them at the end)
};

// An experiment (or "all"): the runs lab/plan.h plans from it, `seeds` per variant.
struct ExperimentConfig {
  std::string experiment = "remove_wo";
  int seeds = 5;
  RunConfig base;
  LrStabilityConfig lr_stability;
  RealWordsConfig real_words;
};

// One experiment and what its runs keep besides their losses, evals and final metrics.
struct ExperimentInfo {
  std::string name;
  std::vector<WoMode> variants;  // in the order results and tables show them
  bool stats = false;         // activation stats at every probe step
  bool wo_snapshots = false;  // W_o snapshots and OV singular values of its learned-W_o variants
  // One run per (variant, learning rate of lr_stability.lrs, seed), clipped at
  // lr_stability.clip; the other experiments train at train.lr, clipped at train.clip.
  bool lr_sweep = false;
  // The data file its runs read ("lexicon": the CMUdict lexicon of the task g2p), which a front
  // end must load and hand to the trainer; "" for the toy tasks, which need none. Such an
  // experiment trains with run_config(), not base.
  std::string needs_data;
  // Trained by the page and by "all"; false: by name only, natively (a sweep too long for a
  // browser, whose recorded results the page shows).
  bool page = true;
};

// remove_wo, freeze_wo, wo_heatmap, activation_stats, gain_vs_learning, lr_stability,
// real_words, wo_purpose: the order "all" lists them in; then words_purpose, the native one.
const std::vector<ExperimentInfo>& experiments();
// nullptr for an unknown name (and for "all", which is not one experiment).
const ExperimentInfo* find_experiment(const std::string& name);
// The experiments a config's "experiment" names: one, every one the page trains for "all", none
// if unknown.
std::vector<const ExperimentInfo*> selected_experiments(const std::string& name);
// The learning rates an experiment trains at (lr_stability.lrs for a sweep, else train.lr) and
// its gradient clip (lr_stability.clip for a sweep, else train.clip).
std::vector<float> learning_rates(const ExperimentInfo& e, const ExperimentConfig& cfg);
float gradient_clip(const ExperimentInfo& e, const ExperimentConfig& cfg);
// The run settings an experiment trains with (W_o mode, seed, lr and clip aside): cfg.base, or
// for real_words cfg.base with the task g2p and real_words' model and training length; derived.
RunConfig run_config(const ExperimentInfo& e, const ExperimentConfig& cfg);
// Whether a run of cfg.experiment ("all": of any experiment) trains on the task g2p, so that the
// CMUdict lexicon must be loaded.
bool needs_lexicon(const ExperimentConfig& cfg);
// The parts of a run record (docs/results.md) that an experiment's results leave empty, since
// it does not keep them: "stats" without ExperimentInfo::stats, "wo" and "ov" without
// wo_snapshots. A shared run keeps what any of its experiments keeps.
std::vector<std::string> record_parts_not_kept(const ExperimentInfo& e);
// The learning rates `cfg.experiment` trains at, increasing: every rate of every experiment for
// "all", none for an unknown name.
std::vector<float> learning_rates(const ExperimentConfig& cfg);
// [{"name": "remove_wo", "variants": ["learned", "identity"], "stats": false,
//   "wo_snapshots": false, "lr_sweep": false, "frozen": [], "not_kept": ["stats", "wo", "ov"],
//   "needs_data": null}, ...]; needs_data: ExperimentInfo::needs_data, null when empty.
// frozen: its variants whose W_o never trains (wo_frozen), in the order of variants. The page's
// experiments only, unless with_native.
nlohmann::json experiments_json(bool with_native = false);

}  // namespace wolab
