// The experiments on W_o, each a list of variants (W_o modes) compared over seeds, and the plan
// of the runs that a set of them needs. Every variant of a seed starts from the same weights
// except W_o and sees the same data stream: the Trainer derives both from train.seed alone.
// The CLI trains the plan here (run_experiment); the page asks for it through Embind (plan()).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config.h"
#include "trainer.h"

namespace wolab {

// One experiment and what its runs keep besides their losses, evals and final metrics.
struct ExperimentInfo {
  std::string name;
  std::vector<WoMode> variants;  // in the order results and tables show them
  bool stats = false;         // activation stats at every probe step
  bool wo_snapshots = false;  // W_o snapshots and OV singular values of its learned-W_o variants
  // One run per (variant, learning rate of lr_stability.lrs, seed), clipped at
  // lr_stability.clip; the other experiments train at train.lr, clipped at train.clip.
  bool lr_sweep = false;
};

// remove_wo, freeze_wo, wo_heatmap, activation_stats, gain_vs_learning, lr_stability: the
// order "all" lists them in.
const std::vector<ExperimentInfo>& experiments();
// nullptr for an unknown name (and for "all", which is not one experiment).
const ExperimentInfo* find_experiment(const std::string& name);
// The experiments a config's "experiment" names: one, every one for "all", none if unknown.
std::vector<const ExperimentInfo*> selected_experiments(const std::string& name);
// The learning rates an experiment trains at (lr_stability.lrs for a sweep, else train.lr) and
// its gradient clip (lr_stability.clip for a sweep, else train.clip).
std::vector<float> learning_rates(const ExperimentInfo& e, const ExperimentConfig& cfg);
float gradient_clip(const ExperimentInfo& e, const ExperimentConfig& cfg);
// [{"name": "remove_wo", "variants": ["learned", "identity"], "stats": false,
//   "wo_snapshots": false, "lr_sweep": false}, ...]
nlohmann::json experiments_json();

// One run to train, and every experiment that compares it.
struct PlannedRun {
  RunConfig config;        // model.wo (the variant), train.seed, train.lr, train.clip all set
  bool keep_stats = false;  // Trainer::keep_stats
  bool keep_wo = false;     // Trainer::keep_wo_snapshots
  std::vector<std::string> experiments;  // in experiments() order
};

// The runs that the named experiments ("all" for every one) need, each distinct (variant,
// seed, lr, clip) once, keeping the union of what its experiments keep: identical configs train
// identically, so one run serves all of them. Seed by seed; within a seed in the order the
// experiments list their variants (and learning rates). Throws ConfigError if cfg is invalid
// for any of them or a name is unknown. cfg.experiment is not read: `names` chooses.
std::vector<PlannedRun> plan_runs(const ExperimentConfig& cfg, const std::vector<std::string>& names);
// [{"variant": "learned", "seed": 0, "lr": 0.001, "clip": 1, "keep": {"stats": true,
//   "wo": false}, "experiments": ["remove_wo", "activation_stats"], "config": {model, task,
//   train}}, ...] (docs/api.md).
nlohmann::json plan_json(const std::vector<PlannedRun>& plan);

// Called once a run's Trainer exists and after every chunk of steps; the last call of a run
// has trainer.finished(). `run` is the run's index in the plan, 0 .. runs - 1. Calls never
// overlap, also when runs train in parallel.
using ProgressFn = std::function<void(int run, int runs, const Trainer& trainer)>;

// Trains plan_runs(cfg, {cfg.experiment}), up to `jobs` runs at a time, each on its own thread
// (1: one after another on this thread), and returns one results JSON (results.h) per
// experiment, in experiments() order. The results do not depend on `jobs`. A run that
// diverges is recorded with its status and the others go on. Throws ConfigError if cfg is
// invalid.
std::vector<nlohmann::json> run_experiment(const ExperimentConfig& cfg, const ProgressFn& progress = nullptr,
                                           int jobs = 1);

}  // namespace wolab
