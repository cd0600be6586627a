#include "lab/experiment.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "run/tasks.h"

namespace wolab {

using json = nlohmann::json;

const std::vector<ExperimentInfo>& experiments() {
  using W = WoMode;
  // name, variants, stats, wo_snapshots, lr_sweep, needs_data, page
  // wo_purpose and words_purpose (docs/claims.md, "What W_o is for"): learned and identity with
  // three controls, each one change away from them: mixing (block_diagonal keeps each head's
  // own block and no other), gain (scalar_gain, one learned scale) and parameters
  // (identity_matched, a wider FFN); on real words also the frozen matrices of identity's gain.
  static const std::vector<ExperimentInfo> list = {
      {"remove_wo", {W::learned, W::identity}, false, false, false, ""},
      {"freeze_wo", {W::learned, W::identity, W::frozen_random, W::learned_identity_init}, false, false, false, ""},
      {"wo_heatmap", {W::learned}, false, true, false, ""},
      {"activation_stats", {W::learned, W::identity}, true, false, false, ""},
      {"gain_vs_learning",
       {W::learned, W::identity, W::frozen_random, W::frozen_random_scaled, W::frozen_orthogonal},
       false, false, false, ""},
      {"lr_stability", {W::learned, W::identity, W::frozen_random, W::learned_identity_init}, false, false, true, ""},
      {"real_words", {W::learned, W::identity, W::frozen_random, W::learned_identity_init}, false, false, false,
       "lexicon"},
      {"wo_purpose", {W::learned, W::identity, W::block_diagonal, W::scalar_gain, W::identity_matched}, false,
       false, false, ""},
      {"words_purpose",
       {W::learned, W::identity, W::block_diagonal, W::scalar_gain, W::identity_matched, W::frozen_random_scaled,
        W::frozen_orthogonal},
       false, false, false, "lexicon", /*page=*/false},
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
    if ((name == "all" && e.page) || name == e.name) out.push_back(&e);
  return out;
}

json experiments_json(bool with_native) {
  json out = json::array();
  for (const auto& e : experiments()) {
    if (!e.page && !with_native) continue;
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
                   {"not_kept", record_parts_not_kept(e)},
                   {"needs_data", e.needs_data.empty() ? json(nullptr) : json(e.needs_data)}});
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

RunConfig run_config(const ExperimentInfo& e, const ExperimentConfig& cfg) {
  RunConfig run = cfg.base;
  if (e.needs_data == "lexicon") {
    const RealWordsConfig& w = cfg.real_words;
    run.task.kind = TaskKind::g2p;
    run.task.heldout = w.heldout;
    run.model.d_model = w.d_model;
    run.model.heads = w.heads;
    run.model.layers = w.layers;
    run.model.d_ff = w.d_ff;
    run.train.steps = w.steps;
    run.train.batch = w.batch;
    run.train.probe_every = w.probe_every;
  }
  derive(run);
  return run;
}

bool needs_lexicon(const ExperimentConfig& cfg) {
  for (const ExperimentInfo* e : selected_experiments(cfg.experiment))
    if (run_config(*e, cfg).task.kind == TaskKind::g2p) return true;
  return false;
}

}  // namespace wolab
