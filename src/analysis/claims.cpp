// The article's claims judged from the findings, and analyze(), the analysis's entry point
// (docs/claims.md, "The claims").
#include "analysis/verdicts.h"

#include "analysis/codes.h"
#include "io/json_input.h"
#include "io/messages.h"
#include "lab/results.h"

namespace wolab {
namespace verdicts {
namespace {

// ---- Claims ----

// The first results object of the experiments, in this order of preference, that has the variants.
const Exp* source(const std::vector<Exp>& exps, const std::vector<std::string>& names,
                  const std::vector<std::string>& variants) {
  for (const std::string& name : names)
    for (const Exp& e : exps) {
      if (e.name != name || e.lrs.size() > 1) continue;
      bool all = true;
      for (const std::string& v : variants) all = all && e.has(v);
      if (all) return &e;
    }
  return nullptr;
}

// The reason decides the verdict (codes.h).
json claim(int id, Reason reason, const Exp* e = nullptr, json figures = json::object()) {
  return {{"id", id}, {"verdict", code(verdict_of(reason))}, {"reason", code(reason)},
          {"experiment", e ? json(e->name) : json(nullptr)}, {"figures", std::move(figures)}};
}

json pair_figures(const Exp& e, const Pair& p, const MetricPair& m) {
  return {{"comparison", metric_json(e, p, m)}, {"still_learning", still_learning(e, {p.a, p.b})}};
}

// 1. Without W_o the loss falls clearly slower: learned against identity on speed.
json claim_slower(const std::vector<Exp>& exps) {
  const Exp* e = source(exps, claim_sources(1), {"learned", "identity"});
  if (!e) return claim(1, Reason::experiment_absent);
  Pair p = pair(*e, "learned", "identity");
  if (p.n() == 0) return claim(1, Reason::no_pairs, e);
  const MetricPair& m = *p.speed;
  json f = pair_figures(*e, p, m);
  if (m.leader != 1) return claim(1, Reason::not_slower, e, f);
  if (!m.consistent) return claim(1, Reason::slower_some_seeds, e, f);
  if (m.mean_gap() < kClearSpeedGap) return claim(1, Reason::slower_small_gap, e, f);
  return claim(1, Reason::clearly_slower, e, f);
}

// 2. Without W_o final accuracy drops by 5-15%: learned against identity on token accuracy.
json claim_drop(const std::vector<Exp>& exps) {
  const Exp* e = source(exps, claim_sources(2), {"learned", "identity"});
  if (!e) return claim(2, Reason::experiment_absent);
  Pair p = pair(*e, "learned", "identity");
  if (p.n() == 0) return claim(2, Reason::no_pairs, e);
  const MetricPair& m = p.by("token_acc");
  json f = pair_figures(*e, p, m);
  if (p.at_ceiling) return claim(2, Reason::both_at_ceiling, e, f);
  if (m.leader != 1) return claim(2, Reason::no_drop, e, f);
  if (!m.consistent) return claim(2, Reason::drop_some_seeds, e, f);
  if (m.mean_gap() < kClaimedDropLow) return claim(2, Reason::drop_smaller, e, f);
  if (m.mean_gap() > kClaimedDropHigh) return claim(2, Reason::drop_larger, e, f);
  return claim(2, Reason::drop_in_range, e, f);
}

// 3. A frozen random W_o does better than none: frozen_random against identity on performance.
json claim_frozen_better(const std::vector<Exp>& exps) {
  const Exp* e = source(exps, claim_sources(3), {"frozen_random", "identity"});
  if (!e) return claim(3, Reason::experiment_absent);
  Pair p = pair(*e, "frozen_random", "identity");
  if (p.n() == 0) return claim(3, Reason::no_pairs, e);
  const MetricPair& m = *p.performance;
  json f = pair_figures(*e, p, m);
  // gain_vs_learning separates the matrix's scale from its being frozen.
  for (const Exp& g : exps)
    if (g.name == "gain_vs_learning") {
      json fg = finding(g);
      f["refinement"] = {{"experiment", g.name}, {"speed_vs_identity", fg["speed_vs_identity"]},
                         {"scaled_like_identity", fg["scaled_like_identity"]}, {"unscaled_lags", fg["unscaled_lags"]}};
      break;
    }
  if (m.leader == 1) return claim(3, m.consistent ? Reason::frozen_better : Reason::frozen_better_some_seeds, e, f);
  return claim(3, m.leader == 2 ? Reason::identity_better : Reason::no_difference, e, f);
}

// 4. ...but far worse than a learned W_o: learned against frozen_random on performance.
json claim_far_worse(const std::vector<Exp>& exps) {
  const Exp* e = source(exps, claim_sources(4), {"learned", "frozen_random"});
  if (!e) return claim(4, Reason::experiment_absent);
  Pair p = pair(*e, "learned", "frozen_random");
  if (p.n() == 0) return claim(4, Reason::no_pairs, e);
  const MetricPair& m = *p.performance;
  json f = pair_figures(*e, p, m);
  if (m.leader != 1) return claim(4, Reason::not_worse, e, f);
  if (!m.consistent) return claim(4, Reason::worse_some_seeds, e, f);
  const double far = m.info->higher_better ? kFarAccuracyGap : kFarSpeedGap;
  if (m.mean_gap() < far) return claim(4, Reason::worse_not_far, e, f);
  return claim(4, Reason::far_worse, e, f);
}

// 5. The learned W_o is neither diagonal-dominant nor uniform; some heads' blocks weigh more.
json claim_structure(const std::vector<Exp>& exps) {
  const Exp* e = source(exps, claim_sources(5), {"learned"});
  if (!e) return claim(5, Reason::experiment_absent);
  WoStructure s = wo_structure(*e);
  if (s.seeds == 0) return claim(5, Reason::no_snapshots, e);
  const bool a = s.not_dominant.consistent(), b = s.imbalanced.consistent();
  const Reason reason = a && b ? Reason::both_hold : a ? Reason::not_dominant_only
                        : b ? Reason::imbalance_only : Reason::neither_holds;
  return claim(5, reason, e, s.to_json());
}

// 6. W_o regulates the attention output's scale, so the residual sum is steadier.
json claim_scale(const std::vector<Exp>& exps) {
  const Exp* e = source(exps, claim_sources(6), {"learned", "identity"});
  if (!e) return claim(6, Reason::experiment_absent);
  ScaleFacts s = scale_facts(*e);
  if (s.seeds == 0) return claim(6, Reason::no_stats, e);
  const bool a = s.adapts.consistent(), b = s.steadier.consistent();
  const Reason reason = a && b ? Reason::both_hold : a ? Reason::adapts_only
                        : b ? Reason::steadier_only : Reason::neither_holds;
  return claim(6, reason, e, s.to_json());
}

// 7. Without W_o training is unstable and may need a much smaller learning rate.
json claim_stability(const std::vector<Exp>& exps) {
  const Exp* e = nullptr;
  for (const std::string& name : claim_sources(7))
    for (const Exp& x : exps)
      if (!e && x.name == name && x.has("learned") && x.has("identity")) e = &x;
  if (!e) return claim(7, Reason::experiment_absent);
  const std::vector<LrRow> rows = lr_table(*e);
  // Every rate of the sweep needs, for both variants, a run that trained to its end: a rate
  // whose runs were all stopped (or never ran) would read as one the variant cannot train.
  std::vector<double> missing;
  for (double lr : e->lrs)
    for (const char* v : {"learned", "identity"}) {
      bool ended = false;
      for (const LrRow& r : rows) ended = ended || (r.variant == v && r.lr == lr && r.ended() > 0);
      if (!ended && (missing.empty() || missing.back() != lr)) missing.push_back(lr);
    }
  if (!missing.empty()) return claim(7, Reason::rates_incomplete, e, {{"lrs_incomplete", missing}});
  auto l = highest_trainable(rows, "learned"), i = highest_trainable(rows, "identity");
  const int dl = diverged_runs(rows, "learned"), di = diverged_runs(rows, "identity");
  json undecided = json::array();
  for (const auto& [v, h] : {std::pair{"learned", l}, std::pair{"identity", i}})
    if (auto r = undecided_next(rows, v, h))
      undecided.push_back({{"variant", v}, {"lr", r->lr}, {"still_learning", r->still_learning}, {"runs", r->runs}});
  json f = {{"highest_trainable_lr", {{"learned", optional_number(l)}, {"identity", optional_number(i)}}},
            {"diverged", {{"learned", dl}, {"identity", di}}},
            {"undecided", undecided},
            {"lrs", e->lrs}};
  if (!l && !i) return claim(7, Reason::none_trained, e, f);
  const bool smaller = !i || *i < *l;  // (l is set whenever i is not)
  if (smaller && (!i || *l / *i >= kMuchSmallerLr - 1e-9)) return claim(7, Reason::much_smaller_lr, e, f);
  if (smaller) return claim(7, Reason::smaller_lr, e, f);
  if (di > dl) return claim(7, Reason::diverges_more, e, f);
  return claim(7, Reason::not_needed, e, f);
}

json thresholds_json() {
  return {{"loss_threshold", kLossThreshold},         {"accuracy_tie", kAccuracyTie},
          {"relative_tie", kRelativeTie},             {"consistent_share", kConsistentShare},
          {"clear_speed_gap", kClearSpeedGap},        {"far_speed_gap", kFarSpeedGap},
          {"clear_accuracy_gap", kClearAccuracyGap},  {"far_accuracy_gap", kFarAccuracyGap},
          {"claimed_drop_low", kClaimedDropLow},      {"claimed_drop_high", kClaimedDropHigh},
          {"ceiling_accuracy", kCeilingAccuracy},     {"smooth_share", kSmoothShare},
          {"tail_share", kTailShare},                 {"still_falling", kStillFalling},
          {"dominant_rows_share", kDominantRowsShare}, {"head_imbalance", kHeadImbalance},
          {"scale_change", kScaleChange},             {"trainable_share", kTrainableShare},
          {"much_smaller_lr", kMuchSmallerLr}};
}

}  // namespace
}  // namespace verdicts

using namespace verdicts;

json analyze(const std::vector<json>& results) {
  std::vector<Exp> exps;
  for (size_t i = 0; i < results.size(); ++i) exps.push_back(read_experiment(results[i], i));

  // Also in each experiment's entry, which the page reads on its own.
  const json thresholds = thresholds_json();
  json experiments = json::array();
  for (const Exp& e : exps) {
    const json& c = (*e.results)["config"];
    json comparisons = json::array(), convergence = json::array();
    // Several learning rates (lr_stability): its per-rate table replaces pairs and convergence.
    if (e.lrs.size() <= 1) {
      for (size_t a = 0; a < e.variants.size(); ++a)
        for (size_t b = a + 1; b < e.variants.size(); ++b)
          comparisons.push_back(pair_json(e, pair(e, e.variants[a], e.variants[b])));
      for (const std::string& v : e.variants) convergence.push_back(convergence_of(e, v).to_json(v));
    }
    experiments.push_back({{"experiment", e.name},
                           {"config", c},
                           {"seeds", e.seeds().size()},
                           {"variants", e.variants},
                           {"learning_rates", e.lrs},
                           {"smooth_window", smooth_window(e)},
                           {"comparisons", comparisons},
                           {"convergence", convergence},
                           {"finding", finding(e)},
                           {"thresholds", thresholds}});
  }

  json claims = {claim_slower(exps),    claim_drop(exps),  claim_frozen_better(exps), claim_far_worse(exps),
                 claim_structure(exps), claim_scale(exps), claim_stability(exps)};
  return {{"format", "wolab-analysis"},
          {"version", 1},
          {"thresholds", thresholds},
          {"experiments", experiments},
          {"claims", claims},
          {"conclusion", conclusion(claims)}};
}

json analyze_text(const std::string& results_array) {
  std::string problem;
  const std::optional<json> parsed_list = parse_json(results_array, problem);
  if (!parsed_list) throw ConfigError("analysis: not valid JSON (" + problem + ")");
  if (!parsed_list->is_array()) throw ConfigError("analysis: expected a JSON array of results documents");
  const json& list = *parsed_list;
  std::vector<json> parsed;
  for (size_t i = 0; i < list.size(); ++i) {
    try {
      parsed.push_back(results_from_json(list[i]));  // parsed once: a W_o heatmap's results are tens of MB
    } catch (const ConfigError& e) {
      std::string what = e.what();
      if (what.rfind("results: ", 0) == 0) what = what.substr(9);
      throw ConfigError("results[" + std::to_string(i) + "]: " + what);
    }
  }
  return analyze(parsed);
}

}  // namespace wolab
