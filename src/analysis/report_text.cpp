// The CLI's English for an analysis (format_analysis): the page words the same JSON itself.
#include "analysis/analysis.h"
#include "analysis/words.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace wolab {

using json = nlohmann::json;

// ---- English text for the CLI ----

namespace {

using wording::fmt;
using wording::number;
using wording::percent;
using wording::percent_range;
using wording::points;

std::string plural(int n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }
std::string seeds(int n) { return plural(n, "seed", "seeds"); }
// "in 2 of 3 seeds", or "in the only seed" when there is one.
std::string in_seeds(int k, int n) { return n == 1 ? "in the only seed" : "in " + std::to_string(k) + " of " + seeds(n); }

// What "clear" means for speed, as the rule states it (docs/claims.md).
std::string clear_rule() {
  return "ahead in at least " + percent(kConsistentShare) + " of the seeds, the gap's 95% interval past " +
         percent(kClearSpeedGap);
}

using Format = std::function<std::string(double)>;

std::string with_range(const json& s, const Format& f, const std::string& unit = "") {
  return wording::with_range(s, f, Lang::en, unit);
}

// A rate compared in points: an accuracy, or real words' PER and WER.
bool in_points(const std::string& metric) {
  return metric == "token_acc" || metric == "exact" || metric == "per" || metric == "wer";
}

// A difference first minus second: "+3.5 points (+2.8 to +4.2, sd 1.0)".
std::string difference(const std::string& metric, const json& s) {
  if (s.is_null()) return "-";
  const bool acc = in_points(metric), steps = metric == "steps_to_loss_0_1";
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

// The mean paired effect and its 95% interval (docs/claims.md "Effect sizes"): "; 95% interval
// +0.1 to +0.4 points" for a rate (the difference's mean is the column's), "; a/b 0.97 (95% interval
// 0.95 to 0.99)" for a log ratio, as the ratio; the ratio alone for one seed.
std::string effect_cell(const json& m) {
  const json& e = m["effect"];
  if (e.is_null()) return "";
  const bool has_interval = e["lo"].is_number();
  if (e["scale"] == "difference") {
    if (!has_interval) return "";
    const auto f = [](double x) { return fmt("%+.1f", std::fabs(100 * x) < 0.05 ? 0.0 : 100 * x); };
    return "; 95% interval " + f(e["lo"].get<double>()) + " to " + f(e["hi"].get<double>()) + " points";
  }
  const auto r = [](double x) { return fmt("%.3f", std::exp(x)); };
  std::string out = "; " + m["a"].get<std::string>() + "/" + m["b"].get<std::string>() + " " + r(e["mean"].get<double>());
  if (has_interval) out += " (95% interval " + r(e["lo"].get<double>()) + " to " + r(e["hi"].get<double>()) + ")";
  return out;
}

std::string metric_label(const json& m) {
  const std::string name = m["metric"].get<std::string>();
  if (name == "token_acc") return "token accuracy";
  if (name == "exact") return "exact match";
  if (name == "per") return "PER (all words)";
  if (name == "wer") return "WER (all words)";
  if (name == "steps_to_loss_0_1") return "steps to loss < " + number(kLossThreshold);
  if (name == "per_area") return "held-out PER, run mean";
  return "loss at step " + std::to_string(m["step"].get<int>());
}

std::string lead_phrase(const json& m) { return lead_words(m, Lang::en); }

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
  const json& c = e["run_config"];
  const int heads = c["model"]["heads"].get<int>(), layers = c["model"]["layers"].get<int>();
  const std::string task = c["task"]["name"] == "g2p" ? std::string("g2p (CMUdict)")
                                                      : c["task"]["name"].get<std::string>() + ", alphabet " +
                                                            std::to_string(c["task"]["alphabet"].get<int>()) + ", length " +
                                                            std::to_string(c["task"]["length"].get<int>());
  return e["experiment"].get<std::string>() + ": " + task + "; d_model " + std::to_string(c["model"]["d_model"].get<int>()) + ", " + plural(heads, "head", "heads") + ", " +
         plural(layers, "layer", "layers") + ", d_ff " + std::to_string(c["model"]["d_ff"].get<int>()) + ", " +
         c["model"]["ln"].get<std::string>() + "-LN; " + std::to_string(c["train"]["steps"].get<int>()) + " steps, " +
         rate_phrase(e) + "; " + seeds(e["seeds"].get<int>());
}

// Claim 5's per-seed figures, "1.62, 0.93, 1.10": no mean hides a seed.
std::string per_seed(const json& f, const char* key) {
  std::string out;
  for (const json& s : f["per_seed"]) out += (out.empty() ? "" : ", ") + fmt("%.2f", s[key].get<double>());
  return out;
}

std::string wo_phrase(const json& f) {
  const auto x = [](double v) { return fmt("%.2f", v); };
  return "learned W_o at the last step over " + seeds(f["seeds"].get<int>()) + ": diagonally dominant rows " +
         percent_range(f["dominant_rows"], Lang::en) + " against " + percent_range(f["dominant_rows_init"], Lang::en) +
         " at step 0 (W_o counts as diagonal-dominant when " + percent(kDominantRowsShare) +
         " or more of its rows are); diagonal energy " +
         with_range(f["diagonal_energy"], x) + " times a matrix with no diagonal preference; " +
         "largest/smallest head-block norm per seed (in its most uneven layer) " + per_seed(f, "head_imbalance_final") +
         " against " + per_seed(f, "head_imbalance_init") + " at step 0; the norm of its change since step 0 is " +
         percent_range(f["change_from_init"], Lang::en) + " of its norm at step 0";
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
  std::snprintf(line, sizeof line, "    %-24s %-6s %-9s %-11s %-11s %-11s %-11s %s\n", "variant", "layer", "site",
                "early mean", "early std", "late mean", "late std", "late/early std");
  out += line;
  for (const json& r : rows) {
    if (r.contains("same_as")) {  // identity's W_o(concat): the concat again
      std::snprintf(line, sizeof line, "    %-24s %-6d %-9s = %s (no W_o)\n", r["variant"].get<std::string>().c_str(),
                    r["layer"].get<int>(), r["site"].get<std::string>().c_str(), r["same_as"].get<std::string>().c_str());
      out += line;
      continue;
    }
    const std::string ratio = r["std_ratio"].is_null() ? "-" : fmt("%.2f", r["std_ratio"].get<double>());
    std::snprintf(line, sizeof line, "    %-24s %-6d %-9s %-11s %-11s %-11s %-11s %s\n",
                  r["variant"].get<std::string>().c_str(), r["layer"].get<int>(), r["site"].get<std::string>().c_str(),
                  x(r["early_mean"]).c_str(), x(r["early_std"]).c_str(), x(r["late_mean"]).c_str(),
                  x(r["late_std"]).c_str(), ratio.c_str());
    out += line;
  }
  return out;
}

// The sentence under that table (finding.early_late_reading).
std::string early_late_reading_text(const json& r) {
  if (r.is_null()) return "";
  const std::string where = r["variant"].get<std::string>() + "'s " + r["site"].get<std::string>() + " in layer " +
                            std::to_string(r["layer"].get<int>());
  const std::string ratio = fmt("%.2f", r["std_ratio"].get<double>());
  const std::string change = r["change"].get<std::string>();
  if (change == "keeps")
    return "  No site's std moves by " + percent(kScaleChange) + " or more from early to late; the most, " + where +
           ", by a factor of " + ratio + ".\n";
  return "  The largest change from early to late: the std of " + where + (change == "grows" ? " grows" : " shrinks") +
         " by a factor of " + ratio + ".\n";
}

std::string lr_table_text(const json& f) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "    %-24s %-8s %-12s %-26s %-28s %-12s %s\n", "variant", "lr", "reached", "steps to loss < 0.1",
                "final held-out loss", "near chance", "diverged");
  out += line;
  for (const json& r : f["table"]) {
    const std::string reached = std::to_string(r["reached"].get<int>()) + " of " + std::to_string(r["runs"].get<int>()) +
                                (r["split"].get<bool>() ? " (split)" : "");
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
    out += "  The highest learning rate at which any variant still trained (loss < " + number(kLossThreshold) +
           " in at least " + percent(kTrainableShare) + " of its seeds) was " +
           number(h[f["most_tolerant"][0].get<std::string>()].get<double>()) + ": " +
           (f["most_tolerant"].size() == 1 ? "only " : "") + tolerant + " trained there.\n";
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
      const std::string against = "  " + p["a"].get<std::string>() + " against " + p["b"].get<std::string>() + ": ";
      if (p.contains("wer")) {  // real words: the error rates on every held-out word first
        std::string still;
        for (const json& v : p["still_learning"]) still += (still.empty() ? "" : ", ") + v.get<std::string>();
        out += against + metric_label(p["per"]) + ": " + lead_phrase(p["per"]) + "; " + metric_label(p["wer"]) + ": " +
               lead_phrase(p["wer"]) + "; speed (" + metric_label(p["speed"]) + "): " + lead_phrase(p["speed"]) +
               (still.empty() ? "" : "; still learning at the last step: " + still) + ".\n";
        continue;
      }
      out += against + "speed (" + metric_label(p["speed"]) + "): " + lead_phrase(p["speed"]) + "; token accuracy: " +
             lead_phrase(p["accuracy"]) + ".\n";
    }
  if (f.contains("decomposition") && !f["decomposition"].is_null()) {
    const json said = decomposition_words(f["decomposition"], Lang::en);
    out += "  What W_o is for: " + said["lead"].get<std::string>() + " " + said["answer"].get<std::string>() + "\n";
    for (const json& c : said["controls"])
      out += "    " + c["variant"].get<std::string>() + " (" + c["name"].get<std::string>() + "): its lead over identity " +
             (c["gap"].is_null() ? std::string("-") : c["gap"].get<std::string>()) +
             (c["share"].is_null() ? std::string("") : "; " + c["share"].get<std::string>() + " of the lead") + "\n";
    out += "    (shares: 95% intervals from " + std::to_string(kShareResamples) + " resamples of the seeds)\n";
  }
  if (f.contains("speed_vs_identity")) {
    std::string list;
    for (const auto& [v, outcome] : f["speed_vs_identity"].items())
      if (!outcome.is_null()) list += (list.empty() ? "" : ", ") + v + " " + outcome.get<std::string>();
    out += "  Speed against identity (behind or ahead: " + clear_rule() + "; otherwise similar): " + list + ".\n";
    if (!f["scaled_like_identity"].is_null())
      out += std::string("  The identity-scaled frozen matrices ") +
             (f["scaled_like_identity"].get<bool>() ? "are not clearly slower than identity" : "lag behind identity") + ".\n";
    if (!f["unscaled_lags"].is_null())
      out += std::string("  The unscaled frozen_random ") +
             (f["unscaled_lags"].get<bool>() ? "lags behind identity." : "does not lag clearly behind identity.") + "\n";
    out += singular_values_text(f["singular_values"]);
  }
  if (f.contains("wo") && f["wo"]["seeds"].get<int>() > 0) out += "  " + wo_phrase(f["wo"]) + ".\n";
  if (f.contains("scale") && f["scale"]["seeds"].get<int>() > 0) out += "  " + scale_phrase(f["scale"]) + ".\n";
  if (f.contains("early_late")) out += early_late_text(f["early_late"]) + early_late_reading_text(f["early_late_reading"]);
  return out;
}


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
             (r["scaled_like_identity"].get<bool>() ? "are not clearly slower than identity" : "lag behind identity") +
             (r["unscaled_lags"] == true ? " while the unscaled one lags" : "") + " (clearly: " + clear_rule() + ")";
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
    out += line + diff + effect_cell(m) + "\n";
  }
  return out;
}

}  // namespace

// The CLI's English: the words of words_table.cpp.
std::string verdict_text(Verdict v) { return verdict_words(v, Lang::en); }
std::string reason_text(const json& claim) { return reason_words(claim, Lang::en); }

namespace {

// One claim a line, then its reason and figures.
std::string claims_text(const json& claims) {
  std::string out;
  for (const json& c : claims) {
    const int id = c["id"].get<int>();
    char line[64];
    const std::string verdict = verdict_text(verdict_from_code(c["verdict"].get<std::string>()));
    std::snprintf(line, sizeof line, "  %d  %-31s ", id, verdict.c_str());
    out += line + statement_words(id, Lang::en) + "\n";
    std::string measured = claim_figures(c);
    const std::string where = c["experiment"].is_null() ? "" : " (" + c["experiment"].get<std::string>() + ")";
    const std::string fragile = c["fragile"].get<bool>() ? " [fragile: the seeds split, a rerun may differ]" : "";
    out += "     " + reason_text(c) + where + (measured.empty() ? "" : ": " + measured) + "." + fragile + "\n";
  }
  return out;
}

// The answer first: each claim's plain sentence and verdict, grouped by the article's three
// design philosophies (kClaimGroups), the claims of real words after their group's.
std::string plain_summary(const json& analysis, Lang lang) {
  std::string out = words("summary_title", lang) + "\n " + headline_words(analysis, lang) + "\n";
  // The claim as the article states it, then what the runs found.
  const auto line = [&](const json& c, const char* where) {
    char head[64];
    const int id = c["id"].get<int>();
    std::snprintf(head, sizeof head, "  %d%s ", id, where);
    out += head + words("claim_says", lang, {{"statement", statement_words(id, lang)}}) + "\n      " +
           words("summary_line", lang, {{"verdict", verdict_words(verdict_from_code(c["verdict"].get<std::string>()), lang)},
                                        {"plain", plain_words(c["plain"], lang)}}) + "\n";
  };
  bool words_tested = false;
  for (const json& c : analysis["words_claims"]) words_tested = words_tested || c["reason"] != "experiment_absent";
  for (const ClaimGroup& g : kClaimGroups) {
    out += " " + group_words(g.code, lang) + "\n";
    for (int id : g.claims)
      for (const json& c : analysis["claims"])
        if (c["id"] == id) line(c, " ");
    if (!words_tested) continue;
    for (int id : g.claims)
      for (const json& c : analysis["words_claims"])
        if (c["id"] == id) line(c, "w");
  }
  if (words_tested) out += " " + words("summary_words_note", lang) + "\n";
  return out;
}

}  // namespace

std::string format_analysis(const json& analysis) { return format_analysis(analysis, Lang::en); }

std::string format_analysis(const json& analysis, Lang summary_lang) {
  std::string out = plain_summary(analysis, summary_lang) +
                    "\nEach seed gives every variant the same weights except W_o, and the same data: variants are\n"
                    "compared seed by seed.\n";
  for (const json& e : analysis["experiments"]) {
    out += "\n" + config_line(e) + "\n";
    if (e["producer"] == "pytorch-notebook")
      out += "  Trained in PyTorch by the experiment's notebook (wolab notebook): a second sample, its random\n"
             "  streams not the lab's.\n";
    for (const json& c : e["convergence"]) {
      char line[64];
      std::snprintf(line, sizeof line, "    %-24s ", c["variant"].get<std::string>().c_str());
      out += line + convergence_phrase(c) + "\n";
    }
    out += finding_text(e);
    if (!e["comparisons"].empty())
      out += "  The loss at a step is the mean training loss over the " + std::to_string(e["smooth_window"].get<int>()) +
             " steps ending there; steps to loss < " + number(kLossThreshold) + " read its mean over " +
             std::to_string(e["threshold_window"].get<int>()) + " steps; intervals are 95% over seeds (paired t).\n";
    for (const json& p : e["comparisons"]) out += comparison_table(p);
  }
  out += "\nThe article's claims, checked against these runs\n" + claims_text(analysis["claims"]);
  // The second column, when the input has real words to judge it from.
  const json& words = analysis["words_claims"];
  bool tested = false;
  for (const json& c : words) tested = tested || c["reason"] != "experiment_absent";
  if (tested)
    out += "\nClaims 1–4 on real words (experiment real_words: English pronunciation, CMUdict), under the same\n"
           "rules, on the held-out words: speed is the held-out PER over the run, the final accuracy PER on\n"
           "every held-out word (WER beside it). The article's \"BLEU drops by two points\" is a translation\n"
           "claim, and this is the closest test these runs make of it.\n" +
           claims_text(words);
  // Where both columns decide, whether they agree (the conclusion's words).
  const json& both = analysis["conclusion"]["words"];
  const auto claims = [](const json& ids) {  // "no claim", "claim 1", "claims 1, 2 and 4"
    if (ids.empty()) return std::string("no claim");
    std::string s = ids.size() == 1 ? "claim " : "claims ";
    for (size_t i = 0; i < ids.size(); ++i) s += (i == 0 ? "" : i + 1 == ids.size() ? " and " : ", ") + ids[i].dump();
    return s;
  };
  if (!both["agree"].empty() || !both["differ"].empty())
    out += "Where both decide, the toy tasks and real words agree on " + claims(both["agree"]) + " and differ on " +
           claims(both["differ"]) + ".\n";
  return out;
}

}  // namespace wolab
