// Constructed results for the analysis tests (test_analysis_*.cpp): runs whose loss curves,
// accuracies, W_o snapshots and probes are chosen so that each verdict is known in advance.
#pragma once

#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/analysis.h"
#include "lab/config.h"
#include "lab/results.h"

namespace wolab::analysis_test {

using json = nlohmann::json;

inline constexpr int kSteps = 100;
// A loss floor whose curve (at tau 10) is flat over the last 10% of the run: a run below the
// ceiling that converged rather than one still learning (docs/claims.md, "Convergence").
inline constexpr double kFlatFloor = 0.02;

// One run: its training loss falls as floor + (2.3 - floor)·exp(-step / tau); its held-out token
// accuracy is acc_mid at step 50 and acc at the end.
struct Spec {
  std::string variant;
  int seed = 0;
  double tau = 10, floor = 0.001;
  double acc = 1.0, acc_mid = 1.0;
  int diverged_at = 0;  // 0: done
  json stats = json::array(), wo = json::array();
};

inline double loss_at(const Spec& s, int step) { return s.floor + (2.3 - s.floor) * std::exp(-step / s.tau); }

// A schema-1 run record, as the first CLI wrote it.
inline json record(const Spec& s) {
  const int last = s.diverged_at ? s.diverged_at - 1 : kSteps;
  json steps = json::array(), losses = json::array(), reached = nullptr;
  for (int i = 1; i <= last; ++i) {
    steps.push_back(i);
    losses.push_back(loss_at(s, i));
    if (reached.is_null() && loss_at(s, i) < 0.1) reached = i;
  }
  // A diverged run keeps its eval at step 0 only, and its final metrics come from there.
  json ev = {{"step", {0}}, {"loss", {2.3}}, {"token_acc", {0.1}}, {"exact", {0}}};
  json fin = {{"loss", 2.3}, {"token_acc", 0.1}, {"exact", 0}, {"greedy_exact", nullptr}, {"steps_to_loss_0_1", reached}};
  if (!s.diverged_at) {
    ev = {{"step", {0, 50, kSteps}},
          {"loss", {2.3, loss_at(s, 50), loss_at(s, kSteps)}},
          {"token_acc", {0.1, s.acc_mid, s.acc}},
          {"exact", {0, s.acc_mid / 2, s.acc / 2}}};
    fin = {{"loss", loss_at(s, kSteps)}, {"token_acc", s.acc}, {"exact", s.acc / 2}, {"greedy_exact", s.acc / 2},
           {"steps_to_loss_0_1", reached}};
  }
  return {{"variant", s.variant}, {"seed", s.seed}, {"parameters", 100}, {"curve", {{"step", steps}, {"loss", losses}}},
          {"eval", ev}, {"stats", s.stats}, {"wo", s.wo}, {"final", fin},
          {"status", s.diverged_at ? "diverged at step " + std::to_string(s.diverged_at) : "done"}};
}

inline json config(const std::string& experiment, int layers = 1) {
  return {{"experiment", experiment},
          {"seeds", 3},
          {"model", {{"d_model", 8}, {"heads", 2}, {"layers", layers}, {"d_ff", 16}}},
          {"task", {{"name", "copy"}, {"alphabet", 4}, {"length", 3}}},
          {"train", {{"steps", kSteps}, {"probe_every", 10}}}};
}

// A schema-1 results file of these runs, read back as parse_results returns it.
inline json results(const std::string& experiment, const std::vector<Spec>& specs, int layers = 1) {
  json runs = json::array();
  for (const Spec& s : specs) runs.push_back(record(s));
  json file = {{"format", "wolab-results"}, {"version", 1}, {"created_by", "test"}, {"experiment", experiment},
               {"config", config(experiment, layers)}, {"runs", runs}, {"summary", json::array()}};
  return parse_results(file.dump());
}

// Results `r` whose config plans `seeds` seeds: the analysis counts a planned run missing from
// the file as stopped before it began.
inline json planning_seeds(json r, int seeds) {
  r["config"]["seeds"] = seeds;
  return r;
}

// An experiment the schema-1 reader does not know, built in the shape parse_results returns:
// typed status, each run's learning rate.
inline json sweep_results(const std::string& experiment, const std::vector<std::pair<Spec, double>>& runs) {
  json list = json::array();
  for (const auto& [spec, lr] : runs) {
    json r = record(spec);
    r["status"] = spec.diverged_at ? json{{"state", "diverged"}, {"step", spec.diverged_at}} : json{{"state", "done"}};
    r["lr"] = lr;
    list.push_back(r);
  }
  json c = config_json(parse_experiment_config(config("remove_wo").dump()));
  return {{"experiment", experiment}, {"config", c}, {"runs", list}};
}

inline const json& claim(const json& analysis, int id) { return analysis["claims"][id - 1]; }

inline const json& comparison(const json& analysis, const std::string& a, const std::string& b) {
  for (const json& p : analysis["experiments"][0]["comparisons"])
    if (p["a"] == a && p["b"] == b) return p;
  throw std::runtime_error("no comparison " + a + " vs " + b);
}

inline const json& metric(const json& pair, const std::string& name) {
  for (const json& m : pair["metrics"])
    if (m["metric"] == name) return m;
  throw std::runtime_error("no metric " + name);
}

inline std::vector<Spec> learned_identity(std::vector<double> learned_tau, std::vector<double> identity_tau) {
  std::vector<Spec> out;
  for (size_t i = 0; i < learned_tau.size(); ++i) {
    out.push_back({"learned", int(i), learned_tau[i]});
    out.push_back({"identity", int(i), identity_tau[i]});
  }
  return out;
}

// freeze_wo of 3 seeds with these final token accuracies (below the ceiling, so performance is
// accuracy), per seed.
inline json freeze_results(std::vector<double> learned, std::vector<double> identity, std::vector<double> frozen_random) {
  std::vector<Spec> runs;
  for (int seed = 0; seed < 3; ++seed)
    for (auto [variant, acc] : {std::pair{"learned", learned[seed]}, {"identity", identity[seed]},
                                {"frozen_random", frozen_random[seed]}})
      runs.push_back({variant, seed, 10, kFlatFloor, acc, acc});
  return results("freeze_wo", runs);
}

// (8*8) W_o entries, row-major (out, in).
inline json matrix(const std::function<double(int, int)>& f) {
  json data = json::array();
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) data.push_back(f(i, j));
  return data;
}

inline json snapshot(int step, const json& data, int layer = 0) {
  return {{"step", step}, {"layer", layer}, {"rows", 8}, {"cols", 8}, {"data", data}};
}

// W_o at step 0: no diagonal preference, every head's block alike.
inline double wo_at_init(int i, int j) { return 0.3 * std::sin(7.0 * i + 3.0 * j + 1); }

// A W_o at step 0 that is diagonal-dominant: the identity plus a little of wo_at_init.
inline double dominant_at_init(int i, int j) { return (i == j ? 1.0 : 0.0) + 0.05 * wo_at_init(i, j); }

// wo_heatmap of 3 learned seeds whose W_o went from `init` to `trained`.
inline json heatmap_results(const std::function<double(int, int)>& trained,
                     const std::function<double(int, int)>& init = wo_at_init) {
  std::vector<Spec> runs;
  for (int seed = 0; seed < 3; ++seed) {
    Spec s{"learned", seed};
    s.wo = {snapshot(0, matrix(init)), snapshot(50, matrix(init)), snapshot(kSteps, matrix(trained))};
    runs.push_back(s);
  }
  return results("wo_heatmap", runs);
}

// Probe entries of layer 0 every 10 steps, with the given std of W_o(concat) and of the
// residual sum at probe k of 10 (concat's std is 1).
inline json stats(const std::function<double(int)>& wo_std, const std::function<double(int)>& residual_std) {
  json out = json::array();
  for (int k = 1; k <= 10; ++k)
    out.push_back({{"step", 10 * k}, {"layer", 0}, {"concat", {{"mean", 0}, {"std", 1}}},
                   {"wo_out", {{"mean", 0}, {"std", wo_std(k)}}}, {"residual", {{"mean", 0}, {"std", residual_std(k)}}},
                   {"head_grad_norm", {0.1, 0.1}}});
  return out;
}

// activation_stats of `seeds` seeds: learned's W_o(concat) and residual stds as given, identity's
// residual drifting by 10% of its start a probe.
inline json activation_results(const std::function<double(int)>& learned_wo, const std::function<double(int)>& learned_residual,
                        int seeds = 3) {
  std::vector<Spec> runs;
  for (int seed = 0; seed < seeds; ++seed) {
    Spec l{"learned", seed}, i{"identity", seed};
    l.stats = stats(learned_wo, learned_residual);
    i.stats = stats([](int) { return 1.0; }, [](int k) { return 1.0 + 0.1 * k; });
    runs.push_back(l);
    runs.push_back(i);
  }
  return results("activation_stats", runs);
}

// Learned W_o's scale grows from 0.54 to 0.9 of concat's.
inline double adapting_wo(int k) { return 0.5 + 0.04 * k; }

// lr_stability of `seeds` seeds at these rates: learned trains at every one (with a loss floor
// below 0.1); the identity runs that `diverges` picks diverge at step 30.
inline json stability_results(const std::vector<double>& lrs, const std::function<bool(int seed, double lr)>& diverges,
                       double floor = 0.001, int seeds = 3) {
  std::vector<std::pair<Spec, double>> runs;
  for (double lr : lrs)
    for (int seed = 0; seed < seeds; ++seed) {
      runs.push_back({Spec{"learned", seed, 10, floor}, lr});
      Spec i{"identity", seed, 12, floor};
      if (diverges(seed, lr)) i.diverged_at = 30;
      runs.push_back({i, lr});
    }
  return sweep_results("lr_stability", runs);
}

}  // namespace wolab::analysis_test
