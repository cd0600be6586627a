// A claim's answer in plain words: a code of kPlainCodes and the figures its sentence quotes,
// read from the claim's reason and figures (docs/claims.md, "Plain words").
#include <cmath>
#include <stdexcept>

#include "analysis/analysis.h"

namespace wolab {

using json = nlohmann::json;

namespace {

// 100·x to one decimal: a share or a gap in percent, a rate's gap in points.
double hundredths(double x) { return std::round(1000 * x) / 10; }
// A gap's 100·x to one decimal, two under 1 (a fraction of a point is a result on real words).
double gap_figure(double x) { return std::fabs(100 * x) < 1 ? std::round(10000 * x) / 100 : hundredths(x); }

json plain_json(const char* code, json figures = json::object()) { return {{"code", code}, {"figures", std::move(figures)}}; }

// Claims 1-4: the paired comparison the verdict read. `ahead` is the variant whose seeds ahead the
// sentence counts (a, the one the claim favours, unless the code says otherwise).
// The gap is the paired effect (`effect`: docs/claims.md "Effect sizes") in the favour of the
// variant the sentence counts, its mean and 95% interval, in points for a rate, in percent for a
// log ratio (e^x - 1: 20% more steps or loss); negative where that variant was behind on average.
json comparison_plain(const char* code, const json& m, bool b_ahead = false) {
  json f = {{"seeds_ahead", m[b_ahead ? "ahead_b" : "ahead_a"]}, {"seeds", m["n"]}};
  const json& e = m["effect"];
  if (e.is_object()) {
    const bool log_ratio = e["scale"] == "log_ratio";
    const std::string metric = m["metric"].get<std::string>();
    // a - b and ln(a / b) favour a when higher is better (accuracies), when lower is otherwise.
    const double sign = (metric == "token_acc" || metric == "exact" ? 1 : -1) * (b_ahead ? -1 : 1);
    const auto at = [&](double x) { return gap_figure(log_ratio ? std::expm1(sign * x) : sign * x); };
    const bool interval = e["lo"].is_number();
    f[log_ratio ? "gap_pct" : "gap_points"] = at(e["mean"].get<double>());
    f["gap_lo"] = interval ? json(at(sign > 0 ? e["lo"].get<double>() : e["hi"].get<double>())) : json(nullptr);
    f["gap_hi"] = interval ? json(at(sign > 0 ? e["hi"].get<double>() : e["lo"].get<double>())) : json(nullptr);
  }
  json plain = plain_json(code, std::move(f));
  plain["metric"] = m["metric"];  // what was compared: claim 1's words name it
  return plain;
}

// A lead under a size (clear for claim 1, far for claim 4) whose interval lies wholly under it
// keeps its code; one whose interval reaches past it (its mean may be past too) is not surely
// under or over: `unsure`.
json under_or_unsure(json plain, const char* unsure) {
  const json& f = plain["figures"];
  const bool pct = f.contains("gap_pct");
  const double size = 100 * (plain["code"] == "slower_small_gap" ? kClearSpeedGap : pct ? kFarSpeedGap : kFarAccuracyGap);
  if (f["gap_hi"].is_number() && f["gap_hi"].get<double>() >= size) plain["code"] = unsure;
  return plain;
}

// A two-part claim's plain answer also lists, in "parts", the seeds where each part holds and did
// not as initialised (a part's `learned`), in the claim's order of its parts (docs/claims.md):
// what a reader's row of dots per part shows. A seed where the part held from the start earns no dot.
json with_parts(json plain, const json& a, const json& b) {
  plain["parts"] = {a["learned"], b["learned"]};
  return plain;
}

json parts_plain(const char* code, const json& f, const char* a, const char* b, const char* a_name,
                 const char* b_name) {
  return with_parts(plain_json(code, {{a_name, f[a]["holds"]}, {b_name, f[b]["holds"]}, {"seeds", f["seeds"]}}), f[a],
                    f[b]);
}

// Claim 5: is W_o diagonal-dominant, as it was at step 0 or not, and does a head's block stand out.
json structure_plain(const json& f) {
  const json& nd = f["not_dominant"];
  const bool uneven = f["imbalanced"]["consistent"].get<bool>();
  const int n = f["seeds"].get<int>();
  json fig = {{"diagonal_seeds", n - nd["holds"].get<int>()},
              {"uneven_seeds", f["imbalanced"]["holds"]},
              {"seeds", n},
              {"rows_pct", hundredths(f["dominant_rows"]["mean"].get<double>())}};
  const auto parts = [&](json plain) { return with_parts(std::move(plain), nd, f["imbalanced"]); };
  if (nd["consistent"].get<bool>()) return parts(plain_json(uneven ? "mixed_uneven" : "mixed_even", fig));
  if (nd["init_only"].get<bool>()) {
    fig.erase("diagonal_seeds");
    fig["rows_init_pct"] = hundredths(f["dominant_rows_init"]["mean"].get<double>());
    return parts(plain_json(uneven ? "mixed_from_start_uneven" : "mixed_from_start_even", fig));
  }
  return parts(plain_json(uneven ? "diagonal_uneven" : "diagonal_even", fig));
}

json lr_plain(const char* code, const json& f) {
  return plain_json(code, {{"lr_learned", f["highest_trainable_lr"]["learned"]},
                      {"lr_identity", f["highest_trainable_lr"]["identity"]}});
}

}  // namespace

json plain_of(const json& claim) {
  const json& f = claim["figures"];
  const int id = claim["id"].get<int>();
  const Reason reason = reason_from_code(claim["reason"].get<std::string>());
  const json& m = f.contains("comparison") ? f["comparison"] : f;
  switch (reason) {
    case Reason::experiment_absent:
    case Reason::no_pairs:
    case Reason::no_snapshots:
    case Reason::no_stats:
    case Reason::none_trained:
    case Reason::runs_stopped:
    case Reason::one_head: return plain_json(code(reason));
    case Reason::runs_failed: return plain_json("runs_failed", {{"failed", f["failed"]}});
    case Reason::too_few_seeds: return plain_json("too_few_seeds", {{"seeds", f["n"]}, {"needed", f["needed"]}});
    case Reason::still_learning: return plain_json("still_learning", {{"steps", f["needs_more_than"]}});
    case Reason::rates_incomplete: return plain_json("rates_incomplete", {{"needed", f["needed"]}});
    case Reason::one_seed_apart: {
      const json& r = f["one_seed_short"];
      return plain_json("one_seed_apart", {{"lr", r["lr"]}, {"reached", r["reached"]}, {"runs", r["ended"]}});
    }
    case Reason::clearly_slower: return comparison_plain("slower_clear", m);
    case Reason::slower_small_gap: return under_or_unsure(comparison_plain("slower_small_gap", m), "slower_unsure_gap");
    case Reason::slower_some_seeds: return comparison_plain("slower_some_seeds", m);
    case Reason::not_slower: return comparison_plain("not_slower", m);
    case Reason::both_at_ceiling: return plain_json("both_at_ceiling", {{"seeds", m["n"]}});
    case Reason::no_drop: return comparison_plain("no_drop", m);
    case Reason::drop_some_seeds: return comparison_plain("drop_some_seeds", m);
    case Reason::drop_smaller: return comparison_plain("drop_smaller", m);
    case Reason::drop_larger: return comparison_plain("drop_larger", m);
    case Reason::drop_in_range: return comparison_plain("drop_in_range", m);
    case Reason::drop_unsure: return comparison_plain("drop_unsure", m);
    case Reason::frozen_better: return comparison_plain("frozen_better", m);
    case Reason::frozen_better_some_seeds: return comparison_plain("frozen_better_some_seeds", m);
    case Reason::identity_better: return comparison_plain("identity_better", m, true);
    case Reason::no_difference: {
      json p = comparison_plain("no_difference", m);
      p["figures"].erase("seeds_ahead");
      return p;
    }
    case Reason::far_worse: return comparison_plain("far_worse", m);
    case Reason::worse_not_far: return under_or_unsure(comparison_plain("worse_not_far", m), "worse_unsure_far");
    case Reason::worse_some_seeds: return comparison_plain("worse_some_seeds", m);
    case Reason::not_worse: return comparison_plain("not_worse", m);
    case Reason::much_smaller_lr:
      if (f["highest_trainable_lr"]["identity"].is_null())
        return plain_json("lr_identity_none", {{"lr_learned", f["highest_trainable_lr"]["learned"]}});
      return lr_plain("lr_much_smaller", f);
    case Reason::smaller_lr: return lr_plain("lr_smaller", f);
    case Reason::not_needed: return lr_plain("lr_not_needed", f);
    case Reason::diverges_more:
      return plain_json("lr_diverges_more", {{"diverged_learned", f["diverged"]["learned"]},
                                        {"diverged_identity", f["diverged"]["identity"]}});
    default: break;
  }
  // The two-part claims (5, 6, 8, 9): the seeds where each part holds.
  const bool both = reason == Reason::both_hold, neither = reason == Reason::neither_holds;
  switch (id) {
    case 5: return structure_plain(f);
    case 6:
      return parts_plain(both ? "scale_both" : neither ? "scale_neither"
                         : reason == Reason::adapts_only ? "scale_adapts_only" : "scale_steadier_only",
                         f, "adapts", "steadier", "adapts_seeds", "steadier_seeds");
    case 8: {
      // A small output that the step-0 W_o already gave, in every seed where it was small, is the
      // initialisation's, not W_o's learning: said so, with the step-0 gain.
      const bool as_initialised = f["small"]["init_only"].get<bool>();
      const bool protects = f["protects"]["consistent"].get<bool>();
      json p = parts_plain(as_initialised ? (protects ? "early_init_protects" : "early_init")
                           : both ? "early_both" : neither ? "early_neither"
                           : reason == Reason::small_only ? "early_small_only" : "early_protects_only",
                           f, "small", "protects", "small_seeds", "protects_seeds");
      const auto rounded = [](const json& r) { return r.is_object() ? json(std::round(1000 * r["mean"].get<double>()) / 1000) : json(nullptr); };
      p["figures"]["ratio"] = rounded(f["scale_ratio_first"]);
      if (as_initialised) p["figures"]["ratio_init"] = rounded(f["scale_ratio_init"]);
      return p;
    }
    case 9: {
      // A part that held already at the first probe, in every seed where it held, is how W_o was
      // initialised, not a valve it learned.
      const char* code = both ? "valve_balances" : neither ? "valve_neither" : "valve_reshapes_only";
      if (f["balances"]["init_only"].get<bool>()) code = "valve_balances_as_initialised";
      else if (!f["balances"]["consistent"].get<bool>() && f["reshapes"]["init_only"].get<bool>())
        code = "valve_reshapes_as_initialised";
      return parts_plain(code, f, "reshapes", "balances", "reshapes_seeds", "balances_seeds");
    }
    default: break;
  }
  throw std::logic_error("analysis: claim " + std::to_string(id) + " has no plain words for " + code(reason));
}

}  // namespace wolab
