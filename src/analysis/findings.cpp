// Findings per experiment: the comparisons each experiment's verdict speaks about
// (docs/claims.md, "Findings per experiment").
#include "analysis/verdicts.h"

#include <cmath>
#include <map>

#include "config/run_config.h"

namespace wolab::verdicts {

namespace {

// (a, b) pairs, each read as "a against b".
const std::map<std::string, std::vector<std::pair<std::string, std::string>>>& key_pairs() {
  static const std::map<std::string, std::vector<std::pair<std::string, std::string>>> pairs = {
      {"remove_wo", {{"learned", "identity"}}},
      {"freeze_wo", {{"learned", "identity"}, {"frozen_random", "identity"}, {"learned", "frozen_random"},
                     {"learned_identity_init", "learned"}}},
      {"activation_stats", {{"learned", "identity"}}},
      {"gain_vs_learning", {{"frozen_random_scaled", "identity"}, {"frozen_orthogonal", "identity"},
                            {"frozen_random", "identity"}, {"learned", "identity"}}},
      // each variant against learned, on final PER and WER (every held-out word)
      {"real_words", {{"identity", "learned"}, {"frozen_random", "learned"}, {"learned_identity_init", "learned"}}},
      // learned and each control against identity: the gaps the decomposition divides
      {"wo_purpose", {{"learned", "identity"}, {"block_diagonal", "identity"}, {"scalar_gain", "identity"},
                      {"identity_matched", "identity"}}},
      {"words_purpose", {{"learned", "identity"}, {"block_diagonal", "identity"}, {"scalar_gain", "identity"},
                         {"identity_matched", "identity"}, {"frozen_random_scaled", "identity"},
                         {"frozen_orthogonal", "identity"}}},
  };
  return pairs;
}

// Real words also give PER and WER.
json key_pair_json(const Exp& e, const Pair& p) {
  json out = {{"a", p.a},
              {"b", p.b},
              {"n", p.n()},
              {"excluded", p.excluded},
              {"speed", metric_json(e, p, *p.speed)},
              {"accuracy", metric_json(e, p, p.by(accuracy_metric(e)))},  // real words: PER
              {"at_ceiling", p.at_ceiling},
              {"still_learning", p.still_learning}};
  out.update(words_figures(e, p));
  return out;
}

// Speed of `variant` against identity: "behind" (identity clearly ahead), "ahead" (variant
// clearly ahead) or "similar"; null when the pair has no finished seed.
json speed_outcome(const Exp& e, const std::string& variant) {
  if (!e.has(variant) || !e.has("identity")) return nullptr;
  Pair p = pair(e, variant, "identity");
  if (p.n() == 0) return nullptr;
  const MetricPair& s = *p.speed;
  if (s.clear()) return s.leader == 2 ? "behind" : "ahead";
  return "similar";
}

// Experiment 5's why: per variant whose W_o never changes (identity and the frozen ones), in
// the experiment's order, the singular values of its W_o at step 0 over the layers and runs
// (the results' wo_sv): [{variant, n, mean, min, max, rms, gain}], n the values pooled. rms,
// the root mean square, is the factor by which W_o scales an input with no preferred direction,
// and the gradient through it; gain says whether that shrinks, keeps or amplifies it
// (kScaleChange).
json singular_values(const Exp& e) {
  json out = json::array();
  for (const std::string& v : e.variants) {
    const auto mode = wo_mode_from_string(v);
    if (!mode || (*mode != WoMode::identity && !wo_frozen(*mode))) continue;
    std::vector<double> sv;
    for (const Run& r : e.runs)
      if (r.variant == v && member_or_null(*r.record, "wo_sv").is_array())
        for (const json& layer : (*r.record)["wo_sv"])
          for (const json& x : layer) sv.push_back(x.get<double>());
    if (sv.empty()) continue;  // version 1 files have none
    const Spread s = *spread_of(sv);
    double squares = 0;
    for (double x : sv) squares += x * x;
    const double rms = std::sqrt(squares / sv.size());
    out.push_back({{"variant", v}, {"n", s.n}, {"mean", s.mean}, {"min", s.min}, {"max", s.max}, {"rms", rms},
                   {"gain", rms < 1 - kScaleChange ? "shrinks" : rms > 1 + kScaleChange ? "amplifies" : "keeps"}});
  }
  return out;
}

}  // namespace

json finding(const Exp& e) {
  if (e.name == "lr_stability") return lr_finding(e);
  json out = json::object();
  auto it = key_pairs().find(e.name);
  if (it != key_pairs().end()) {
    json pairs = json::array();
    for (const auto& [a, b] : it->second)
      if (e.has(a) && e.has(b)) pairs.push_back(key_pair_json(e, pair(e, a, b)));
    out["pairs"] = pairs;
  }
  if (e.name == "gain_vs_learning") {
    json outcomes = json::object();
    for (const char* v : {"frozen_random_scaled", "frozen_orthogonal", "frozen_random", "learned"})
      outcomes[v] = speed_outcome(e, v);
    out["speed_vs_identity"] = outcomes;
    const json &scaled = outcomes["frozen_random_scaled"], &orth = outcomes["frozen_orthogonal"];
    out["scaled_like_identity"] =
        scaled.is_null() || orth.is_null() ? json(nullptr) : json(scaled != "behind" && orth != "behind");
    out["unscaled_lags"] = outcomes["frozen_random"].is_null() ? json(nullptr) : json(outcomes["frozen_random"] == "behind");
    out["singular_values"] = singular_values(e);
  }
  if (e.name == "wo_heatmap") out["wo"] = wo_structure(e).to_json();
  if (e.name == "wo_purpose" || e.name == "words_purpose") out["decomposition"] = decomposition(e);
  if (e.name == "activation_stats") {
    out["scale"] = scale_facts(e).to_json();
    out["early_late"] = early_late(e);
    out["early_late_reading"] = early_late_reading(out["early_late"]);
  }
  return out;
}

}  // namespace wolab::verdicts
