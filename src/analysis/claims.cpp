// The article's claims judged from the findings, and analyze(), the analysis's entry point
// (docs/claims.md, "The claims").
#include "analysis/verdicts.h"

#include <algorithm>

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

int stopped_runs(const Exp& e) {
  int n = 0;
  for (const Run& r : e.runs) n += r.state == State::stopped;
  return n;
}

// The runs of the variants that could not train (their worker failed: results "failed").
int failed_runs(const Exp& e, const std::vector<std::string>& variants) {
  int n = 0;
  for (const std::string& v : e.failed) n += std::find(variants.begin(), variants.end(), v) != variants.end();
  return n;
}

// The runs of variants a and b that the config plans (a run per seed) and the results do not
// hold, nor list as failed: the reader stopped them before they began (a merge takes every slice
// of a plan; the page leaves out a run stopped before it began).
int not_begun(const Exp& e, const std::string& a, const std::string& b) {
  int held = failed_runs(e, {a, b});
  for (const Run& r : e.runs) held += r.variant == a || r.variant == b;
  return std::max(0, 2 * e.seeds_planned - held);
}

// The pair's comparison was cut short: a run of the experiment was stopped, or a run of the pair
// was stopped before it began, or failed.
bool cut_short(const Exp& e, const std::string& a, const std::string& b) {
  return stopped_runs(e) > 0 || not_begun(e, a, b) > 0 || failed_runs(e, {a, b}) > 0;
}

// A claim whose variants lost a run to a failure is not decided, whatever the other runs say:
// the experiment did not run as planned (`runs_failed`, with the first failure's message).
std::optional<json> runs_failed(int id, const Exp& e, const std::vector<std::string>& variants) {
  const int n = failed_runs(e, variants);
  if (n == 0) return std::nullopt;
  return claim(id, Reason::runs_failed, &e,
               {{"failed", n}, {"error", e.first_failure}, {"runs", e.runs.size()}, {"variants", variants}});
}

json stopped_claim(int id, const Exp& e, const std::string& a, const std::string& b) {
  if (auto c = runs_failed(id, e, {a, b})) return *c;
  return claim(id, Reason::runs_stopped, &e,
               {{"stopped", stopped_runs(e)}, {"not_begun", not_begun(e, a, b)}, {"runs", e.runs.size()},
                {"pair", {a, b}}});
}

// A pair with no paired seed. When the reader cut the comparison short (cut_short) the claim
// was tested and left undecided: `not_decided`, `runs_stopped`. Otherwise (a run diverged) it
// cannot be tested on these results: `no_pairs`.
json unpaired(int id, const Exp& e, const Pair& p) {
  if (!cut_short(e, p.a, p.b)) return claim(id, Reason::no_pairs, &e);
  return stopped_claim(id, e, p.a, p.b);
}

// No experiment of the list has runs of both variants. One that compares them and whose
// comparison the reader cut short (the runs of a variant never began) was tested and stopped:
// `runs_stopped`; otherwise the claim is not tested here: `experiment_absent`.
json absent(int id, const std::vector<Exp>& exps, const std::vector<std::string>& names, const std::string& a,
            const std::string& b) {
  for (const std::string& name : names)
    for (const Exp& e : exps) {
      const auto plans = [&](const std::string& v) {
        return std::find(e.planned.begin(), e.planned.end(), v) != e.planned.end();
      };
      if (e.name == name && e.lrs.size() <= 1 && plans(a) && plans(b) && cut_short(e, a, b))
        return stopped_claim(id, e, a, b);
    }
  return claim(id, Reason::experiment_absent);
}

// No experiment of the list has runs of every variant of a claim of one experiment (5-9): one
// that compares them and lost runs to failures leaves the claim undecided (`runs_failed`);
// otherwise the claim is not tested here.
json missing(int id, const std::vector<Exp>& exps, const std::vector<std::string>& variants) {
  for (const std::string& name : claim_sources(id))
    for (const Exp& e : exps) {
      if (e.name != name) continue;
      bool plans = true;
      for (const std::string& v : variants)
        plans = plans && std::find(e.planned.begin(), e.planned.end(), v) != e.planned.end();
      if (!plans) continue;
      if (auto c = runs_failed(id, e, variants)) return *c;
    }
  return claim(id, Reason::experiment_absent);
}

json pair_figures(const Exp& e, const Pair& p, const MetricPair& m) {
  return {{"comparison", metric_json(e, p, m)}, {"still_learning", p.still_learning}};
}

// A claim of two parts, (a) and (b) (5, 6, 8, 9): with no seed to read, `absent`; too few seeds,
// not decided; otherwise the reason of the parts that hold (both_hold, a_only, b_only or
// neither_holds), fragile where a part splits the seeds.
json two_parts(int id, const Exp* e, int seeds, const json& f, const Part& a, const Part& b, Reason absent,
               Reason a_only, Reason b_only) {
  if (seeds == 0) return claim(id, absent, e);
  if (auto c = too_few_seeds(id, seeds, e, f)) return *c;
  const bool ha = a.consistent(), hb = b.consistent();
  const Reason reason = ha && hb ? Reason::both_hold : ha ? a_only : hb ? b_only : Reason::neither_holds;
  return claim(id, reason, e, f, a.split() || b.split());
}

// 5. The learned W_o is neither diagonal-dominant nor uniform; some heads' blocks weigh more.
json claim_structure(const std::vector<Exp>& exps) {
  const Exp* e = source(exps, claim_sources(5), {"learned"});
  if (!e) return missing(5, exps, {"learned"});
  if (auto c = runs_failed(5, *e, {"learned"})) return *c;
  const WoStructure s = wo_structure(*e);
  return two_parts(5, e, s.seeds, s.to_json(), s.not_dominant, s.imbalanced, Reason::no_snapshots,
                   Reason::not_dominant_only, Reason::imbalance_only);
}

// 6. W_o regulates the attention output's scale, so the residual sum is steadier.
json claim_scale(const std::vector<Exp>& exps) {
  const Exp* e = source(exps, claim_sources(6), {"learned", "identity"});
  if (!e) return missing(6, exps, {"learned", "identity"});
  if (auto c = runs_failed(6, *e, {"learned", "identity"})) return *c;
  const ScaleFacts s = scale_facts(*e);
  // The steadier sum is the claim's "so that": with it contradicted, adapts_only is not_supported.
  return two_parts(6, e, s.seeds, s.to_json(), s.adapts, s.steadier, Reason::no_stats, Reason::adapts_only,
                   Reason::steadier_only);
}

// 7. Without W_o training is unstable and may need a much smaller learning rate.
json claim_stability(const std::vector<Exp>& exps) {
  const Exp* e = nullptr;
  for (const std::string& name : claim_sources(7))
    for (const Exp& x : exps)
      if (!e && x.name == name && x.has("learned") && x.has("identity")) e = &x;
  if (!e) return missing(7, exps, {"learned", "identity"});
  if (auto c = runs_failed(7, *e, {"learned", "identity"})) return *c;
  const std::vector<LrRow> rows = lr_table(*e);
  // Every rate of the sweep needs, for both variants, kMinSeeds runs that trained to their end:
  // a rate whose runs were stopped (or never ran) would otherwise read as one the variant cannot
  // train, and one seed at one rate cannot decide it.
  json incomplete = json::array();
  for (double lr : e->lrs)
    for (const char* v : {"learned", "identity"}) {
      int ended = 0;
      for (const LrRow& r : rows) ended += r.variant == v && r.lr == lr ? r.ended() : 0;
      if (ended < kMinSeeds) incomplete.push_back({{"variant", v}, {"lr", lr}, {"ended", ended}});
    }
  if (!incomplete.empty())
    return claim(7, Reason::rates_incomplete, e, {{"incomplete", incomplete}, {"needed", kMinSeeds}});
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
  // Fragile when a rate that decides L or I, or the first rate above it, split its seeds.
  bool fragile = false;
  for (const auto& [v, h] : {std::pair{"learned", l}, std::pair{"identity", i}}) {
    const LrRow* next = nullptr;
    for (const LrRow& r : rows) {
      if (r.variant != v) continue;
      fragile = fragile || (h && r.lr == *h && r.split());
      if ((!h || r.lr > *h) && (!next || r.lr < next->lr)) next = &r;
    }
    fragile = fragile || (next && next->split());
  }
  const auto verdict = [&](Reason r) { return claim(7, r, e, f, fragile); };
  const bool smaller = !i || *i < *l;  // (l is set whenever i is not)
  // One seed at one grid step cannot decide it: when identity, at the first rate above I that
  // learned trains, is one seed short of training there, one more seed would move I up to it.
  if (smaller)
    for (const LrRow& r : rows)
      if (r.variant == "identity" && (!i || r.lr > *i) && r.lr <= *l) {
        if (r.reached + 1 >= kTrainableShare * r.ended() - 1e-9) {
          f["one_seed_short"] = {{"lr", r.lr}, {"reached", r.reached}, {"ended", r.ended()}};
          return claim(7, Reason::one_seed_apart, e, f);
        }
        break;  // the rates are ascending: only the first one above I counts
      }
  if (smaller && (!i || *l / *i >= kMuchSmallerLr - 1e-9)) return verdict(Reason::much_smaller_lr);
  if (smaller) return verdict(Reason::smaller_lr);
  if (di > dl) return verdict(Reason::diverges_more);
  return verdict(Reason::not_needed);
}

// 8. Early in training W_o's output is small, which protects the residual stream.
json claim_early(const std::vector<Exp>& exps) {
  const Exp* e = source(exps, claim_sources(8), {"learned", "identity"});
  if (!e) return missing(8, exps, {"learned", "identity"});
  if (auto c = runs_failed(8, *e, {"learned", "identity"})) return *c;
  const EarlyFacts s = early_facts(*e);
  // A small output that does not protect the residual stream is the cause without its consequence.
  return two_parts(8, e, s.seeds, s.to_json(), s.small, s.protects, Reason::no_stats, Reason::small_only,
                   Reason::protects_only);
}

// 9. W_o is a valve for the gradient reaching each head, so that all parameters learn evenly.
json claim_valve(const std::vector<Exp>& exps) {
  const Exp* e = source(exps, claim_sources(9), {"learned", "identity"});
  if (!e) return missing(9, exps, {"learned", "identity"});
  if (auto c = runs_failed(9, *e, {"learned", "identity"})) return *c;
  if (e->heads < 2) return claim(9, Reason::one_head, e);
  const ValveFacts s = valve_facts(*e);
  // A seed that balances also reshapes (head_grads.cpp): (b) without (a) cannot occur, and (b)
  // decides the claim.
  return two_parts(9, e, s.seeds, s.to_json(), s.reshapes, s.balances, Reason::no_stats, Reason::valve_only,
                   Reason::both_hold);
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
          {"much_smaller_lr", kMuchSmallerLr},        {"min_seeds", kMinSeeds},
          {"near_chance", kNearChance},               {"word_rate_tie", kWordRateTie},
          {"threshold_window", kThresholdWindow},     {"interval_level", 0.95},
          {"recovers_most", kRecoversMost}};
}

}  // namespace

// Claims 1-4 are judged twice: from the toy tasks' experiments (claim_sources) and from
// real_words alone (real_words.cpp), under the same rules; `names` is the list to read.

// 1. Without W_o the loss falls clearly slower: learned against identity on speed.
json claim_slower(const std::vector<Exp>& exps, const std::vector<std::string>& names) {
  const Exp* e = source(exps, names, {"learned", "identity"});
  if (!e) return absent(1, exps, names, "learned", "identity");
  if (auto c = runs_failed(1, *e, {"learned", "identity"})) return *c;
  Pair p = pair(*e, "learned", "identity");
  if (p.n() == 0) return unpaired(1, *e, p);
  const MetricPair& m = *p.speed;
  const json f = pair_figures(*e, p, m);
  if (auto c = too_few_seeds(1, p.n(), e, f)) return *c;
  const auto verdict = [&](Reason r) { return claim(1, r, e, f, m.split()); };
  if (m.leader != 1) return verdict(Reason::not_slower);
  if (!m.consistent) return verdict(Reason::slower_some_seeds);
  if (!m.clear()) return verdict(Reason::slower_small_gap);
  return verdict(Reason::clearly_slower);
}

// 2. Without W_o final accuracy drops by 5–15%. learned against identity on the final accuracy
// (token accuracy; on real words PER, accuracy_metric).
json claim_drop(const std::vector<Exp>& exps, const std::vector<std::string>& names) {
  const Exp* e = source(exps, names, {"learned", "identity"});
  if (!e) return absent(2, exps, names, "learned", "identity");
  if (auto c = runs_failed(2, *e, {"learned", "identity"})) return *c;
  Pair p = pair(*e, "learned", "identity");
  if (p.n() == 0) return unpaired(2, *e, p);
  const MetricPair& m = *p.final_accuracy;
  json f = pair_figures(*e, p, m);
  if (auto c = too_few_seeds(2, p.n(), e, f)) return *c;
  // A claim about final accuracy needs final runs: one still learning has not reached its own.
  if (!p.still_learning.empty()) {
    f["needs_more_than"] = e->steps;
    return claim(2, Reason::still_learning, e, f);
  }
  const auto verdict = [&](Reason r) { return claim(2, r, e, f, m.split()); };
  if (p.at_ceiling) return verdict(Reason::both_at_ceiling);
  if (m.leader != 1) return verdict(Reason::no_drop);
  if (!m.consistent) return verdict(Reason::drop_some_seeds);
  // The drop's 95% interval (paired t; kMinSeeds seeds give one) places it against the claim.
  const Effect drop = m.advantage();
  if (*drop.hi < kClaimedDropLow) return verdict(Reason::drop_smaller);
  if (*drop.lo > kClaimedDropHigh) return verdict(Reason::drop_larger);
  if (*drop.lo >= kClaimedDropLow && *drop.hi <= kClaimedDropHigh) return verdict(Reason::drop_in_range);
  return verdict(Reason::drop_unsure);
}

// 3. A frozen random W_o does better than none: frozen_random against identity on performance.
json claim_frozen_better(const std::vector<Exp>& exps, const std::vector<std::string>& names) {
  const Exp* e = source(exps, names, {"frozen_random", "identity"});
  if (!e) return absent(3, exps, names, "frozen_random", "identity");
  if (auto c = runs_failed(3, *e, {"frozen_random", "identity"})) return *c;
  Pair p = pair(*e, "frozen_random", "identity");
  if (p.n() == 0) return unpaired(3, *e, p);
  const MetricPair& m = *p.performance;
  json f = pair_figures(*e, p, m);
  // gain_vs_learning separates the matrix's scale from its being frozen (on its own task).
  for (const Exp& g : exps)
    if (g.name == "gain_vs_learning" && g.g2p == e->g2p) {
      json fg = finding(g);
      f["refinement"] = {{"experiment", g.name}, {"speed_vs_identity", fg["speed_vs_identity"]},
                         {"scaled_like_identity", fg["scaled_like_identity"]}, {"unscaled_lags", fg["unscaled_lags"]}};
      break;
    }
  if (auto c = too_few_seeds(3, p.n(), e, f)) return *c;
  const auto verdict = [&](Reason r) { return claim(3, r, e, f, m.split()); };
  if (m.leader == 1) return verdict(m.consistent ? Reason::frozen_better : Reason::frozen_better_some_seeds);
  return verdict(m.leader == 2 ? Reason::identity_better : Reason::no_difference);
}

// 4. ...but far worse than a learned W_o: learned against frozen_random on performance.
json claim_far_worse(const std::vector<Exp>& exps, const std::vector<std::string>& names) {
  const Exp* e = source(exps, names, {"learned", "frozen_random"});
  if (!e) return absent(4, exps, names, "learned", "frozen_random");
  if (auto c = runs_failed(4, *e, {"learned", "frozen_random"})) return *c;
  Pair p = pair(*e, "learned", "frozen_random");
  if (p.n() == 0) return unpaired(4, *e, p);
  const MetricPair& m = *p.performance;
  const json f = pair_figures(*e, p, m);
  if (auto c = too_few_seeds(4, p.n(), e, f)) return *c;
  const auto verdict = [&](Reason r) { return claim(4, r, e, f, m.split()); };
  if (m.leader != 1) return verdict(Reason::not_worse);
  if (!m.consistent) return verdict(Reason::worse_some_seeds);
  if (!m.past(m.info->points ? kFarAccuracyGap : kFarSpeedGap)) return verdict(Reason::worse_not_far);
  return verdict(Reason::far_worse);
}

json claim(int id, Reason reason, const Exp* e, json figures, bool fragile) {
  const Verdict v = verdict_of(reason);
  json out = {{"id", id}, {"group", claim_group(id)}, {"verdict", code(v)}, {"reason", code(reason)},
              {"experiment", e ? json(e->name) : json(nullptr)},
              {"fragile", fragile && v != Verdict::not_decided && v != Verdict::not_tested},
              {"figures", std::move(figures)}};
  out["plain"] = plain_of(out);
  return out;
}

std::optional<json> too_few_seeds(int id, int n, const Exp* e, json figures) {
  if (n >= kMinSeeds) return std::nullopt;
  figures["n"] = n;
  figures["needed"] = kMinSeeds;
  return claim(id, Reason::too_few_seeds, e, std::move(figures));
}

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
                           {"producer", e.results->value("producer", "wolab")},
                           {"config", c},
                           {"run_config", e.run_config},
                           {"seeds", e.seeds().size()},
                           {"variants", e.variants},
                           {"learning_rates", e.lrs},
                           {"smooth_window", smooth_window(e)},
                           {"threshold_window", threshold_window(e.steps)},
                           {"comparisons", comparisons},
                           {"convergence", convergence},
                           {"finding", finding(e)},
                           {"thresholds", thresholds}});
  }

  json claims = {claim_slower(exps, claim_sources(1)),
                 claim_drop(exps, claim_sources(2)),
                 claim_frozen_better(exps, claim_sources(3)),
                 claim_far_worse(exps, claim_sources(4)),
                 claim_structure(exps),
                 claim_scale(exps),
                 claim_stability(exps),
                 claim_early(exps),
                 claim_valve(exps)};

  json words = real_words_claims(exps);
  json summary = conclusion(claims, words);
  return {{"format", "wolab-analysis"},
          {"version", 1},
          {"thresholds", thresholds},
          {"experiments", experiments},
          {"claims", claims},
          {"words_claims", std::move(words)},
          {"conclusion", std::move(summary)}};
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
