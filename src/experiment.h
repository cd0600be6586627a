// The article's four experiments on W_o, each a list of variants (W_o modes) compared over seeds.
// Every variant of a seed starts from the same weights except W_o and sees the same data
// stream: the Trainer derives both from train.seed alone.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config.h"
#include "trainer.h"

namespace wolab {

struct ExperimentInfo {
  std::string name;
  std::vector<WoMode> variants;  // in the order results and tables show them
};

// remove_wo, freeze_wo, wo_heatmap, activation_stats: the order "all" runs them in.
const std::vector<ExperimentInfo>& experiments();
// nullptr for an unknown name (and for "all", which is not one experiment).
const ExperimentInfo* find_experiment(const std::string& name);
// [{"name": "remove_wo", "variants": ["learned", "identity"]}, ...]
nlohmann::json experiments_json();

// Called once a run's Trainer exists and after every chunk of steps; the last call of a run
// has trainer.finished(). `run` counts from 0 up to `runs` - 1 over the whole call.
using ProgressFn = std::function<void(int run, int runs, const Trainer& trainer)>;

// Trains cfg.seeds seeds (train.seed + i) × the variants of cfg.experiment, one Trainer each,
// seed by seed, and returns one results JSON (results.h) per experiment: one for a single
// experiment, four for "all". "all" trains each (variant, seed) once and shares the record
// among the experiments that compare it, since identical configs train identically. A run that
// diverges is recorded with its status and the others go on. Throws ConfigError if cfg is invalid.
std::vector<nlohmann::json> run_experiment(const ExperimentConfig& cfg, const ProgressFn& progress = nullptr);

}  // namespace wolab
