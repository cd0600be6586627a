// The CLI's English for an analysis (format_analysis): the page words the same JSON itself.
#include "analysis/analysis.h"

#include <cmath>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

namespace wolab {

using json = nlohmann::json;

// ---- English text for the CLI ----

namespace {

std::string fmt(const char* format, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

std::string plural(int n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }
std::string seeds(int n) { return plural(n, "seed", "seeds"); }
// "in 2 of 3 seeds", or "in the only seed" when there is one.
std::string in_seeds(int k, int n) { return n == 1 ? "in the only seed" : "in " + std::to_string(k) + " of " + seeds(n); }

// One decimal, and no "-0.0" for a difference that rounds to nothing.
std::string points(double x) { return fmt("%.1f", std::fabs(100 * x) < 0.05 ? 0.0 : 100 * x); }
std::string percent(double x) { return fmt(std::fabs(x) < 0.1 ? "%.1f%%" : "%.0f%%", 100 * x); }
std::string number(double x) { return fmt(x == std::floor(x) && std::fabs(x) < 1e9 ? "%.0f" : "%.4g", x); }

using Format = std::function<std::string(double)>;

// "mean unit", then "(min to max)" when there are several values: never a ± for one value.
std::string with_range(const json& s, const Format& f, const std::string& unit = "") {
  if (s.is_null()) return "-";
  std::string out = f(s["mean"].get<double>()) + unit;
  if (s["n"].get<int>() > 1) out += " (" + f(s["min"].get<double>()) + " to " + f(s["max"].get<double>()) + ")";
  return out;
}

// A difference first minus second: "+3.5 points (+2.8 to +4.2, sd 1.0)".
std::string difference(const std::string& metric, const json& s) {
  if (s.is_null()) return "-";
  const bool acc = metric == "token_acc" || metric == "exact", steps = metric == "steps_to_loss_0_1";
  const double scale = acc ? 100 : 1;
  const char* format = acc || steps ? "%+.1f" : "%+.4f";
  const double zero = acc || steps ? 0.05 : 0.00005;  // what rounds to 0 prints as +0, not -0
  const auto f = [&](double x) { return fmt(format, std::fabs(scale * x) < zero ? 0.0 : scale * x); };
  std::string out = f(s["mean"].get<double>()) + (acc ? " points" : steps ? " steps" : "");
  if (s["n"].get<int>() > 1)
    out += " (" + f(s["min"].get<double>()) + " to " + f(s["max"].get<double>()) + ", sd " +
           fmt(acc || steps ? "%.1f" : "%.4f", scale * s["sd"].get<double>()) + ")";
  return out;
}

std::string metric_label(const json& m) {
  const std::string name = m["metric"].get<std::string>();
  if (name == "token_acc") return "token accuracy";
  if (name == "exact") return "exact match";
  if (name == "steps_to_loss_0_1") return "steps to loss < " + number(kLossThreshold);
  return "loss at step " + std::to_string(m["step"].get<int>());
}

// Who was ahead on one metric, in how many seeds, and by how much.
std::string lead_phrase(const json& m) {
  const int n = m["n"].get<int>(), ties = m["ties"].get<int>(), neither = m["neither"].get<int>();
  const std::string a = m["a"].get<std::string>(), b = m["b"].get<std::string>(), name = m["metric"].get<std::string>();
  if (n == 0) return "no seed where both runs finished";
  std::string extra;
  if (ties) extra += ", " + plural(ties, "tie", "ties");
  if (neither) extra += ", neither reached it in " + std::to_string(neither);
  if (m["leader"].is_null()) {
    if (n == 1) return neither ? "neither reached it in the only seed" : "tied in the only seed";
    return "no leader: " + a + " ahead in " + std::to_string(m["ahead_a"].get<int>()) + ", " + b + " in " +
           std::to_string(m["ahead_b"].get<int>()) + extra + " of " + seeds(n);
  }
  const std::string leader = m["leader"].get<std::string>(), other = leader == a ? b : a;
  const int k = m[leader == a ? "ahead_a" : "ahead_b"].get<int>();
  std::string out = leader + " ahead " + in_seeds(k, n) + extra;
  const json& g = m["gap"];
  if (g.is_null()) return out;
  if (name == "token_acc" || name == "exact") return out + ", by " + with_range(g, points, " points");
  if (name == "steps_to_loss_0_1") {
    const bool censored = m[leader == a ? "reached_b" : "reached_a"].get<int>() < n;
    return out + "; " + other + " needed " + (censored ? "at least " : "") + with_range(g, percent, " more steps");
  }
  return out + "; " + other + "'s loss was higher by " + with_range(g, percent);
}

std::string convergence_phrase(const json& c) {
  const int done = c["done"].get<int>();
  std::vector<std::pair<int, const char*>> parts = {{c["converged"].get<int>(), "converged"},
                                                    {c["still_learning"].get<int>(), "still learning at the last step"},
                                                    {c["stalled"].get<int>(), "not converged and no longer improving"}};
  std::string out;
  for (const auto& [k, what] : parts) {
    if (!k) continue;
    if (!out.empty()) out += "; ";
    out += what + std::string(done == 1   ? " (1 seed)"
                              : k < done  ? " in " + std::to_string(k) + " of " + seeds(done)
                              : done == 2 ? " in both seeds"
                                          : " in all " + std::to_string(done) + " seeds");
  }
  if (done == 0) out = "no run finished";
  const int diverged = c["diverged"].get<int>(), stopped = c["stopped"].get<int>();
  if (diverged) out += "; diverged in " + std::to_string(diverged);
  if (stopped) out += "; stopped in " + std::to_string(stopped);
  return out;
}

// "lr 0.001", or "learning rates 0.001 to 0.03" for a sweep.
std::string rate_phrase(const json& e) {
  const json& lrs = e["learning_rates"];
  if (lrs.size() == 1) return "lr " + number(lrs[0].get<double>());
  return "learning rates " + number(lrs.front().get<double>()) + " to " + number(lrs.back().get<double>());
}

std::string config_line(const json& e) {
  const json& c = e["config"];
  const int heads = c["model"]["heads"].get<int>(), layers = c["model"]["layers"].get<int>();
  return e["experiment"].get<std::string>() + ": " + c["task"]["name"].get<std::string>() + ", alphabet " +
         std::to_string(c["task"]["alphabet"].get<int>()) + ", length " + std::to_string(c["task"]["length"].get<int>()) +
         "; d_model " + std::to_string(c["model"]["d_model"].get<int>()) + ", " + plural(heads, "head", "heads") + ", " +
         plural(layers, "layer", "layers") + ", d_ff " + std::to_string(c["model"]["d_ff"].get<int>()) + ", " +
         c["model"]["ln"].get<std::string>() + "-LN; " + std::to_string(c["train"]["steps"].get<int>()) + " steps, " +
         rate_phrase(e) + "; " + seeds(e["seeds"].get<int>());
}

std::string wo_phrase(const json& f) {
  const auto x = [](double v) { return fmt("%.2f", v); };
  return "learned W_o at the last step over " + seeds(f["seeds"].get<int>()) + ": diagonally dominant rows " +
         with_range(f["dominant_rows"], percent) + " (diagonal-dominant from " + percent(kDominantRowsShare) +
         "); diagonal energy " + with_range(f["diagonal_energy"], x) + " times a matrix with no diagonal preference; " +
         "largest/smallest head-block norm " + with_range(f["head_imbalance_final"], x) + " against " +
         with_range(f["head_imbalance_init"], x) + " at step 0; changed " + with_range(f["change_from_init"], percent) +
         " from step 0";
}

std::string scale_phrase(const json& f) {
  const auto x = [](double v) { return fmt("%.3f", v); };
  const int n = f["seeds"].get<int>();
  return "std(W_o(concat)) / std(concat) with learned W_o " + with_range(f["scale_ratio_first"], x) +
         " at the first probe, " + with_range(f["scale_ratio_last"], x) + " at the last (changed by at least " +
         percent(kScaleChange) + " " + in_seeds(f["adapts"]["holds"].get<int>(), n) +
         "); variation of the residual sum's std over training (CV) " + with_range(f["residual_cv_learned"], x) +
         " with learned W_o against " + with_range(f["residual_cv_identity"], x) + " with identity (learned steadier " +
         in_seeds(f["steadier"]["holds"].get<int>(), n) + ")";
}

std::string early_phrase(const json& f) {
  const auto x = [](double v) { return fmt("%.3f", v); };
  const int n = f["seeds"].get<int>();
  return "at step " + std::to_string(f["step"].get<int>()) + ", the first probe: std(W_o(concat)) / std(concat) with learned W_o " +
         with_range(f["scale_ratio_first"], x) + " (small, below " + fmt("%.2f", 1 - kScaleChange) + ", " +
         in_seeds(f["small"]["holds"].get<int>(), n) + "); the attention output's share of the residual sum, " +
         "std(W_o(concat)) / std(x + W_o(concat)), " + with_range(f["output_share_learned"], x) + " with learned W_o against " +
         with_range(f["output_share_identity"], x) + " with identity (smaller " + in_seeds(f["protects"]["holds"].get<int>(), n) + ")";
}

std::string valve_phrase(const json& f) {
  const auto x = [](double v) { return fmt("%.3f", v); };
  const int n = f["seeds"].get<int>();
  return "spread of the per-head gradient norms at the concat (CV across heads, mean over the probes) " +
         with_range(f["head_grad_cv_learned"], x) + " with learned W_o against " + with_range(f["head_grad_cv_identity"], x) +
         " with identity (different " + in_seeds(f["reshapes"]["holds"].get<int>(), n) + ", lower with W_o " +
         in_seeds(f["balances"]["holds"].get<int>(), n) + "; two trainings compared, not one gradient with and without W_o)";
}

// Experiment 5's why: the singular values of each fixed W_o at step 0 (finding.singular_values).
std::string singular_values_text(const json& list) {
  const auto x = [](double v) { return fmt("%.2f", v); };
  std::string identity, out;
  for (const json& s : list) {
    const std::string v = s["variant"].get<std::string>(), gain = s["gain"].get<std::string>();
    if (v == "identity") {
      identity = " (identity's: " + x(s["mean"].get<double>()) + ")";
      continue;
    }
    out += (out.empty() ? "" : "; ") + v + " " + x(s["mean"].get<double>()) + " (" + x(s["min"].get<double>()) + " to " +
           x(s["max"].get<double>()) + "), root mean square " + x(s["rms"].get<double>()) + ": it " +
           (gain == "shrinks"    ? "shrinks the attention output and the gradient through it"
            : gain == "amplifies" ? "amplifies the attention output and the gradient through it"
                                  : "keeps their scale, as identity does");
  }
  if (out.empty()) return "";
  return "  Why: the singular values of W_o at step 0" + identity + ": " + out + ".\n";
}

// Experiment 6's why: the rates where runs stalled near chance (finding.stalls).
std::string stalls_text(const json& f) {
  std::string out;
  const std::string chance = "ln " + std::to_string(f["alphabet"].get<int>()) + " = " + fmt("%.2f", f["chance_loss"].get<double>()) +
                             ", guessing among " + std::to_string(f["alphabet"].get<int>()) + " symbols";
  for (const json& s : f["stalls"]) {
    const int diverged = s["diverged"].get<int>();
    out += "  At lr " + number(s["lr"].get<double>()) + ", " + std::to_string(s["near_chance"].get<int>()) + " of " +
           plural(s["ended"].get<int>(), "run", "runs") + " that trained to their end stalled near chance: final loss " +
           with_range(s["final_loss"], [](double v) { return fmt("%.2f", v); }) + " against " + chance + " (within " +
           percent(kNearChance) + ")" + (diverged ? "; " + std::to_string(diverged) + " diverged" : ", rather than diverge") + ".\n";
  }
  return out;
}

// Experiment 4's early-versus-late table (finding.early_late), as the page draws it.
std::string early_late_text(const json& rows) {
  if (rows.empty()) return "";
  const auto x = [](const json& v) { return v.is_null() ? std::string("-") : fmt("%.4f", v.get<double>()); };
  std::string out = "  Early (step " + std::to_string(rows[0]["early_step"].get<int>()) + ") against late (step " +
                    std::to_string(rows[0]["late_step"].get<int>()) + "), mean over seeds:\n";
  char line[256];
  std::snprintf(line, sizeof line, "    %-24s %-6s %-9s %-11s %-11s %-11s %s\n", "variant", "layer", "site", "early mean",
                "early std", "late mean", "late std");
  out += line;
  for (const json& r : rows) {
    std::snprintf(line, sizeof line, "    %-24s %-6d %-9s %-11s %-11s %-11s %s\n", r["variant"].get<std::string>().c_str(),
                  r["layer"].get<int>(), r["site"].get<std::string>().c_str(), x(r["early_mean"]).c_str(),
                  x(r["early_std"]).c_str(), x(r["late_mean"]).c_str(), x(r["late_std"]).c_str());
    out += line;
  }
  return out;
}

std::string lr_table_text(const json& f) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "    %-24s %-8s %-12s %-26s %-28s %-12s %s\n", "variant", "lr", "reached", "steps to loss < 0.1",
                "final held-out loss", "near chance", "diverged");
  out += line;
  for (const json& r : f["table"]) {
    const std::string reached = std::to_string(r["reached"].get<int>()) + " of " + std::to_string(r["runs"].get<int>());
    std::snprintf(line, sizeof line, "    %-24s %-8s %-12s %-26s %-28s %-12d %d%s\n", r["variant"].get<std::string>().c_str(),
                  number(r["lr"].get<double>()).c_str(), reached.c_str(),
                  with_range(r["steps_to_loss_0_1"], [](double v) { return fmt("%.0f", v); }).c_str(),
                  with_range(r["final_loss"], [](double v) { return fmt("%.4f", v); }).c_str(), r["near_chance"].get<int>(),
                  r["diverged"].get<int>(),
                  r["still_learning"].get<int>() ? (", still learning at the last step in " +
                                                    std::to_string(r["still_learning"].get<int>())).c_str() : "");
    out += line;
  }
  out += stalls_text(f);
  std::string tolerant;
  for (const json& v : f["most_tolerant"]) tolerant += (tolerant.empty() ? "" : ", ") + v.get<std::string>();
  const json& h = f["highest_trainable_lr"];
  if (tolerant.empty()) {
    out += "  No variant reached loss < " + number(kLossThreshold) + " in " + percent(kTrainableShare) +
           " of its seeds at any learning rate.\n";
  } else {
    out += "  Trainable (loss < " + number(kLossThreshold) + " in at least " + percent(kTrainableShare) +
           " of the seeds) at the highest learning rate: " + tolerant + " (" + number(h[f["most_tolerant"][0].get<std::string>()].get<double>()) + ").\n";
  }
  const json& ivl = f["identity_vs_learned"];
  if (!ivl.is_null()) {
    auto lr = [&](const char* v) { return h[v].is_null() ? std::string("none") : number(h[v].get<double>()); };
    out += "  Without W_o (identity) the highest trainable learning rate is " +
           std::string(ivl == "smaller" ? "smaller than" : ivl == "larger" ? "larger than" : "the same as") +
           " with learned W_o: " + lr("identity") + " against " + lr("learned") + ".\n";
  }
  return out;
}

std::string finding_text(const json& e) {
  const json& f = e["finding"];
  std::string out;
  if (f.contains("table")) out += lr_table_text(f);
  if (f.contains("pairs"))
    for (const json& p : f["pairs"]) {
      if (p["n"].get<int>() == 0) continue;
      out += "  " + p["a"].get<std::string>() + " against " + p["b"].get<std::string>() + ": speed (" +
             metric_label(p["speed"]) + "): " + lead_phrase(p["speed"]) + "; token accuracy: " +
             lead_phrase(p["accuracy"]) + ".\n";
    }
  if (f.contains("speed_vs_identity")) {
    std::string list;
    for (const auto& [v, outcome] : f["speed_vs_identity"].items())
      if (!outcome.is_null()) list += (list.empty() ? "" : ", ") + v + " " + outcome.get<std::string>();
    out += "  Speed against identity: " + list + ".\n";
    if (!f["scaled_like_identity"].is_null())
      out += std::string("  The identity-scaled frozen matrices ") +
             (f["scaled_like_identity"].get<bool>() ? "learn about as fast as identity" : "lag behind identity") + ".\n";
    if (!f["unscaled_lags"].is_null())
      out += std::string("  The unscaled frozen_random ") +
             (f["unscaled_lags"].get<bool>() ? "lags behind identity." : "does not lag clearly behind identity.") + "\n";
    out += singular_values_text(f["singular_values"]);
  }
  if (f.contains("wo") && f["wo"]["seeds"].get<int>() > 0) out += "  " + wo_phrase(f["wo"]) + ".\n";
  if (f.contains("scale") && f["scale"]["seeds"].get<int>() > 0) out += "  " + scale_phrase(f["scale"]) + ".\n";
  if (f.contains("early_late")) out += early_late_text(f["early_late"]);
  return out;
}

const char* const kClaimText[] = {
    "Without W_o, the loss falls clearly slower.",
    "Without W_o, final accuracy drops by 5-15%.",
    "A frozen random W_o does better than no W_o.",
    "...but far worse than a learned W_o.",
    "The learned W_o is neither diagonal-dominant nor uniform; some heads' blocks carry more weight.",
    "W_o regulates the scale of the attention output, so the residual sum is steadier.",
    "Without W_o, training is unstable and may need a much smaller learning rate.",
    "Early in training W_o's output is small, so the attention path changes the residual stream little, protecting it.",
    "W_o is an adjustable valve for the gradient reaching each head, so that all parameters learn evenly.",
};

std::string claim_figures(const json& c) {
  const json& f = c["figures"];
  const int id = c["id"].get<int>();
  std::string out;
  if (f.contains("comparison")) {
    out = metric_label(f["comparison"]) + ": " + lead_phrase(f["comparison"]);
    std::string still;
    for (const json& v : f["still_learning"]) still += (still.empty() ? "" : ", ") + v.get<std::string>();
    if (!still.empty()) out += " (still learning at the last step: " + still + ")";
  } else if (id == 5 && f.contains("seeds")) {
    out = wo_phrase(f);
  } else if (id == 6 && f.contains("seeds")) {
    out = scale_phrase(f);
  } else if (id == 8 && f.contains("seeds")) {
    out = early_phrase(f);
  } else if (id == 9 && f.contains("seeds")) {
    out = valve_phrase(f);
  } else if (id == 7 && f.contains("highest_trainable_lr")) {
    auto lr = [&](const char* v) {
      const json& x = f["highest_trainable_lr"][v];
      return x.is_null() ? std::string("none") : number(x.get<double>());
    };
    out = "highest trainable learning rate: learned " + lr("learned") + ", identity " + lr("identity") +
          "; diverged runs: learned " + std::to_string(f["diverged"]["learned"].get<int>()) + ", identity " +
          std::to_string(f["diverged"]["identity"].get<int>());
    std::string next;
    for (const json& u : f["undecided"])
      next += (next.empty() ? "" : ", ") + u["variant"].get<std::string>() + " at " + number(u["lr"].get<double>());
    if (!next.empty()) out += " (still learning at the last step, so longer runs might train " + next + ")";
  }
  if (f.contains("refinement")) {
    const json& r = f["refinement"];
    if (!r["scaled_like_identity"].is_null())
      out += std::string("; in gain_vs_learning the identity-scaled frozen matrices ") +
             (r["scaled_like_identity"].get<bool>() ? "learn about as fast as identity" : "lag behind identity") +
             (r["unscaled_lags"] == true ? " while the unscaled one lags" : "");
  }
  return out;
}

// Who was ahead on a metric, for the comparisons table: "learned 3 of 3, 1 tie".
std::string ahead_cell(const json& m) {
  const int n = m["n"].get<int>(), ties = m["ties"].get<int>(), neither = m["neither"].get<int>();
  std::string extra;
  if (ties) extra += ", " + plural(ties, "tie", "ties");
  if (neither) extra += ", " + std::to_string(neither) + " reached by neither";
  if (m["leader"].is_null())
    return "no leader (" + std::to_string(m["ahead_a"].get<int>()) + "-" + std::to_string(m["ahead_b"].get<int>()) +
           extra + ")";
  const std::string leader = m["leader"].get<std::string>();
  return leader + " " + std::to_string(m[leader == m["a"] ? "ahead_a" : "ahead_b"].get<int>()) + " of " +
         std::to_string(n) + extra;
}

std::string comparison_table(const json& p) {
  const std::string a = p["a"].get<std::string>(), b = p["b"].get<std::string>();
  const int n = p["n"].get<int>();
  std::string out = "  " + a + " vs " + b + ": " + (n == 1 ? "1 paired seed" : std::to_string(n) + " paired seeds");
  if (p["excluded"].get<int>())
    out += "; " + std::to_string(p["excluded"].get<int>()) + " left out (diverged: " + a + " " +
           std::to_string(p["diverged"]["a"].get<int>()) + ", " + b + " " + std::to_string(p["diverged"]["b"].get<int>()) +
           "; stopped: " + a + " " + std::to_string(p["stopped"]["a"].get<int>()) + ", " + b + " " +
           std::to_string(p["stopped"]["b"].get<int>()) + ")";
  out += "\n";
  if (n == 0) return out;
  char line[256];
  std::snprintf(line, sizeof line, "    %-22s %-44s %s\n", "", "ahead (seeds)", ("difference " + a + " - " + b).c_str());
  out += line;
  for (const json& m : p["metrics"]) {
    const std::string name = m["metric"].get<std::string>();
    std::string diff = difference(name, m["diff"]);
    if (name == "steps_to_loss_0_1")
      diff += "; reached it: " + a + " " + std::to_string(m["reached_a"].get<int>()) + ", " + b + " " +
              std::to_string(m["reached_b"].get<int>()) + " of " + std::to_string(n);
    std::snprintf(line, sizeof line, "    %-22s %-44s ", metric_label(m).c_str(), ahead_cell(m).c_str());
    out += line + diff + "\n";
  }
  return out;
}

}  // namespace

// The CLI's English per code: the maps are keyed by the tables of codes.h, and a test checks
// that every code has its text.
std::string verdict_text(Verdict v) {
  static const std::map<Verdict, std::string> text = {
      {Verdict::supported, "supported"},
      {Verdict::partly_supported, "partly supported"},
      {Verdict::not_supported, "not supported"},
      {Verdict::not_tested, "not tested with these settings"},
  };
  return text.at(v);
}

std::string reason_text(Reason r) {
  static const std::map<Reason, std::string> text = {
      {Reason::experiment_absent, "the experiment that tests it is not among these results"},
      {Reason::no_pairs, "no seed where both runs finished"},
      {Reason::no_snapshots, "no learned run kept its W_o snapshots"},
      {Reason::no_stats, "no activation statistics for both learned and identity"},
      {Reason::none_trained, "neither learned nor identity trained at any learning rate"},
      {Reason::rates_incomplete, "a learning rate where learned or identity has no run that trained to its end (stopped runs count for nothing)"},
      {Reason::clearly_slower, "a consistent and clear gap"},
      {Reason::slower_small_gap, "consistent, but under the " + percent(kClearSpeedGap) + " gap called clear"},
      {Reason::slower_some_seeds, "ahead in most seeds, but not in " + percent(kConsistentShare) + " of them"},
      {Reason::not_slower, "learned was not ahead in most seeds"},
      {Reason::both_at_ceiling, "both variants reached the accuracy ceiling"},
      {Reason::no_drop, "learned was not ahead in most seeds"},
      {Reason::drop_some_seeds, "ahead in most seeds, but not in " + percent(kConsistentShare) + " of them"},
      {Reason::drop_smaller, "a consistent drop, smaller than the claimed 5-15 points"},
      {Reason::drop_larger, "a consistent drop, larger than the claimed 5-15 points"},
      {Reason::drop_in_range, "a consistent drop within the claimed 5-15 points"},
      {Reason::frozen_better, "frozen_random ahead consistently"},
      {Reason::frozen_better_some_seeds, "frozen_random ahead in most seeds, but not consistently"},
      {Reason::identity_better, "identity, with no W_o, did better"},
      {Reason::no_difference, "neither was ahead in most seeds"},
      {Reason::far_worse, "a consistent and far gap"},
      {Reason::worse_not_far, "consistent, but not a far gap"},
      {Reason::worse_some_seeds, "learned ahead in most seeds, but not consistently"},
      {Reason::not_worse, "learned was not ahead in most seeds"},
      {Reason::both_hold, "both parts hold"},
      {Reason::not_dominant_only, "not diagonal-dominant, but no head's block stands out"},
      {Reason::imbalance_only, "some heads' blocks stand out, but W_o is diagonal-dominant"},
      {Reason::adapts_only, "the scale ratio changes, but the residual sum is not steadier"},
      {Reason::steadier_only, "the residual sum is steadier, but the scale ratio does not change"},
      {Reason::neither_holds, "neither part holds"},
      {Reason::much_smaller_lr, "identity's highest trainable learning rate is much smaller"},
      {Reason::smaller_lr, "identity's highest trainable learning rate is smaller, but not much smaller"},
      {Reason::diverges_more, "identity diverged more often, at no smaller learning rate"},
      {Reason::not_needed, "identity trained at a learning rate as high as learned's"},
      {Reason::small_only, "W_o's output is small, but the attention output's share of the residual sum is not smaller than without W_o"},
      {Reason::protects_only, "the attention output's share of the residual sum is smaller than without W_o, but W_o's output is not small"},
      {Reason::valve_only, "W_o changes how the gradient is shared among the heads, but not towards balance"},
      {Reason::one_head, "one attention head: there is no sharing among heads to measure"},
  };
  return text.at(r);
}

std::string format_analysis(const json& analysis) {
  std::string out = "Each seed gives every variant the same weights except W_o, and the same data: variants are\n"
                    "compared seed by seed.\n";
  for (const json& e : analysis["experiments"]) {
    out += "\n" + config_line(e) + "\n";
    for (const json& c : e["convergence"]) {
      char line[64];
      std::snprintf(line, sizeof line, "    %-24s ", c["variant"].get<std::string>().c_str());
      out += line + convergence_phrase(c) + "\n";
    }
    out += finding_text(e);
    if (!e["comparisons"].empty())
      out += "  The loss at a step is the mean training loss over the " + std::to_string(e["smooth_window"].get<int>()) +
             " steps ending there.\n";
    for (const json& p : e["comparisons"]) out += comparison_table(p);
  }
  out += "\nThe article's claims, checked against these runs\n";
  for (const json& c : analysis["claims"]) {
    const int id = c["id"].get<int>();
    char line[64];
    const std::string verdict = verdict_text(verdict_from_code(c["verdict"].get<std::string>()));
    std::snprintf(line, sizeof line, "  %d  %-31s ", id, verdict.c_str());
    out += line + std::string(kClaimText[id - 1]) + "\n";
    std::string measured = claim_figures(c);
    const std::string where = c["experiment"].is_null() ? "" : " (" + c["experiment"].get<std::string>() + ")";
    const std::string reason = reason_text(reason_from_code(c["reason"].get<std::string>()));
    out += "     " + reason + where + (measured.empty() ? "" : ": " + measured) + ".\n";
  }
  return out;
}

}  // namespace wolab
