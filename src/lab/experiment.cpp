#include "lab/experiment.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace wolab {

using json = nlohmann::json;

const std::vector<ExperimentInfo>& experiments() {
  using W = WoMode;
  // name, variants, stats, wo_snapshots, lr_sweep
  static const std::vector<ExperimentInfo> list = {
      {"remove_wo", {W::learned, W::identity}, false, false, false},
      {"freeze_wo", {W::learned, W::identity, W::frozen_random, W::learned_identity_init}, false, false, false},
      {"wo_heatmap", {W::learned}, false, true, false},
      {"activation_stats", {W::learned, W::identity}, true, false, false},
      {"gain_vs_learning",
       {W::learned, W::identity, W::frozen_random, W::frozen_random_scaled, W::frozen_orthogonal},
       false, false, false},
      {"lr_stability", {W::learned, W::identity, W::frozen_random, W::learned_identity_init}, false, false, true},
  };
  return list;
}

const ExperimentInfo* find_experiment(const std::string& name) {
  for (const auto& e : experiments())
    if (e.name == name) return &e;
  return nullptr;
}

std::vector<const ExperimentInfo*> selected_experiments(const std::string& name) {
  std::vector<const ExperimentInfo*> out;
  for (const auto& e : experiments())
    if (name == "all" || name == e.name) out.push_back(&e);
  return out;
}

json experiments_json() {
  json out = json::array();
  for (const auto& e : experiments()) {
    json variants = json::array(), frozen = json::array();
    for (WoMode v : e.variants) {
      variants.push_back(to_string(v));
      if (wo_frozen(v)) frozen.push_back(to_string(v));
    }
    out.push_back({{"name", e.name},
                   {"variants", variants},
                   {"stats", e.stats},
                   {"wo_snapshots", e.wo_snapshots},
                   {"lr_sweep", e.lr_sweep},
                   {"frozen", frozen},
                   {"not_kept", record_parts_not_kept(e)}});
  }
  return out;
}

std::vector<float> learning_rates(const ExperimentInfo& e, const ExperimentConfig& cfg) {
  return e.lr_sweep ? cfg.lr_stability.lrs : std::vector<float>{cfg.base.train.lr};
}

std::vector<float> learning_rates(const ExperimentConfig& cfg) {
  std::vector<float> out;
  for (const ExperimentInfo* e : selected_experiments(cfg.experiment))
    for (float lr : learning_rates(*e, cfg)) out.push_back(lr);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> record_parts_not_kept(const ExperimentInfo& e) {
  std::vector<std::string> out;
  if (!e.stats) out.push_back("stats");
  if (!e.wo_snapshots) out.insert(out.end(), {"wo", "ov"});
  return out;
}

float gradient_clip(const ExperimentInfo& e, const ExperimentConfig& cfg) {
  return e.lr_sweep ? cfg.lr_stability.clip : cfg.base.train.clip;
}

}  // namespace wolab
