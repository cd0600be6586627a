#include "experiment.h"

#include <algorithm>
#include <stdexcept>

#include "results.h"

namespace wolab {

using json = nlohmann::json;

namespace {

// Steps per Trainer::step call: small enough for a lively progress bar, large enough that the
// callback costs nothing next to the training.
constexpr int kChunk = 10;

bool contains(const std::vector<WoMode>& modes, WoMode m) {
  return std::find(modes.begin(), modes.end(), m) != modes.end();
}

}  // namespace

const std::vector<ExperimentInfo>& experiments() {
  using W = WoMode;
  static const std::vector<ExperimentInfo> list = {
      {"remove_wo", {W::learned, W::identity}},
      {"freeze_wo", {W::learned, W::identity, W::frozen_random, W::learned_identity_init}},
      {"wo_heatmap", {W::learned}},
      {"activation_stats", {W::learned, W::identity}},
  };
  return list;
}

const ExperimentInfo* find_experiment(const std::string& name) {
  for (const auto& e : experiments())
    if (e.name == name) return &e;
  return nullptr;
}

json experiments_json() {
  json out = json::array();
  for (const auto& e : experiments()) {
    json variants = json::array();
    for (WoMode v : e.variants) variants.push_back(to_string(v));
    out.push_back({{"name", e.name}, {"variants", variants}});
  }
  return out;
}

std::vector<json> run_experiment(const ExperimentConfig& cfg, const ProgressFn& progress) {
  auto problems = validate(cfg);
  if (!problems.empty()) throw ConfigError(problems.front());

  std::vector<const ExperimentInfo*> chosen;
  for (const auto& e : experiments())
    if (cfg.experiment == "all" || cfg.experiment == e.name) chosen.push_back(&e);

  // The variants any chosen experiment compares, each trained once per seed.
  std::vector<WoMode> variants;
  bool keep_learned_wo = false;
  for (const ExperimentInfo* e : chosen) {
    for (WoMode v : e->variants)
      if (!contains(variants, v)) variants.push_back(v);
    keep_learned_wo = keep_learned_wo || e->name == "wo_heatmap";
  }

  const int runs = cfg.seeds * static_cast<int>(variants.size());
  std::vector<json> records;  // seed by seed, variant by variant
  for (int i = 0; i < cfg.seeds; ++i) {
    for (WoMode v : variants) {
      RunConfig run = cfg.base;
      run.model.wo = v;
      run.train.seed = cfg.base.train.seed + static_cast<uint64_t>(i);
      Trainer trainer(run);
      const bool keep_wo = keep_learned_wo && v == WoMode::learned;
      trainer.keep_wo_snapshots(keep_wo);
      const int index = static_cast<int>(records.size());
      if (progress) progress(index, runs, trainer);
      while (!trainer.finished()) {
        if (trainer.step(kChunk).empty() && !trainer.finished())
          throw std::logic_error("Trainer::step ran no step on an unfinished run");
        if (progress) progress(index, runs, trainer);
      }
      records.push_back(run_record(trainer, v, keep_wo));
    }
  }

  std::vector<json> results;
  for (const ExperimentInfo* e : chosen) {
    std::vector<json> mine;
    for (const json& r : records) {
      if (!contains(e->variants, *wo_mode_from_string(r["variant"].get<std::string>()))) continue;
      mine.push_back(r);
      if (e->name != "wo_heatmap") mine.back()["wo"] = json::array();  // snapshots: wo_heatmap only
    }
    results.push_back(make_results(cfg, e->name, std::move(mine)));
  }
  return results;
}

}  // namespace wolab
