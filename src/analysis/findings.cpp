// Findings per experiment: the comparisons each experiment's verdict speaks about
// (docs/claims.md, "Findings per experiment").
#include "analysis/verdicts.h"

#include <map>

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
  };
  return pairs;
}

json key_pair_json(const Exp& e, const Pair& p) {
  return {{"a", p.a},
          {"b", p.b},
          {"n", p.n()},
          {"excluded", p.excluded},
          {"speed", metric_json(e, p, *p.speed)},
          {"accuracy", metric_json(e, p, p.by("token_acc"))},
          {"at_ceiling", p.at_ceiling},
          {"still_learning", p.still_learning}};
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
  }
  if (e.name == "wo_heatmap") out["wo"] = wo_structure(e).to_json();
  if (e.name == "activation_stats") {
    out["scale"] = scale_facts(e).to_json();
    out["early_late"] = early_late(e);
  }
  return out;
}

}  // namespace wolab::verdicts
