// Reading results objects once, and the numbers every section uses (docs/claims.md).
#include "analysis/verdicts.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "lab/config.h"
#include "lab/experiment.h"
#include "io/messages.h"

namespace wolab::verdicts {

[[noreturn]] void bad(const std::string& what) { throw ConfigError("analysis: " + what); }

const json& member_or_null(const json& obj, const char* key) {
  static const json null_json;
  if (!obj.is_object()) return null_json;
  const auto it = obj.find(key);
  return it == obj.end() ? null_json : *it;
}

namespace {

// The final metrics the paired comparisons read (null where a run diverged), and a g2p run's words.
bool has_final(const json& final, bool g2p) {
  for (const char* key : {"loss", "token_acc", "exact"})
    if (!final.contains(key)) return false;
  return !g2p || final.contains("heldout_words");
}

bool has_all(const json& obj, std::initializer_list<const char*> keys) {
  if (!obj.is_object()) return false;
  for (const char* key : keys)
    if (!obj.contains(key)) return false;
  return true;
}

// Each probe's activation statistics (scale.cpp, head_grads.cpp) and W_o snapshot's figures
// (wo_structure.cpp, which a snapshot carries whether or not its matrix is in the record).
bool has_entries_read(const json& stats, const json& wo) {
  for (const json& p : stats) {
    if (!has_all(p, {"step", "layer", "concat", "wo_out", "residual", "head_grad_norm"})) return false;
    for (const char* site : {"concat", "wo_out", "residual"})
      if (!has_all(p[site], {"mean", "std"})) return false;
  }
  for (const json& w : wo)
    if (!has_all(w, {"step", "layer", "head_norms", "dominant_rows", "diagonal_energy", "change_from_init"})) return false;
  return true;
}

// The members of a run that the analysis reads without looking first: present, of their type
// (their values are parse_results' to check, lab/results.h); wo_sv is read only where present.
bool has_members_read(const json& run, bool g2p) {
  const auto is = [&](const char* key, bool (json::*type)() const noexcept) {
    return (member_or_null(run, key).*type)();
  };
  const auto series = [&](const char* key) {
    const json& s = member_or_null(run, key);
    return member_or_null(s, "step").is_array() && member_or_null(s, "loss").is_array();
  };
  return is("variant", &json::is_string) && is("seed", &json::is_number_integer) &&
         is("lr", &json::is_number) && run.contains("status") && is("final", &json::is_object) &&
         series("curve") && series("eval") && member_or_null(member_or_null(run, "eval"), "token_acc").is_array() &&
         is("stats", &json::is_array) && is("wo", &json::is_array) && has_final(run["final"], g2p) &&
         has_entries_read(run["stats"], run["wo"]);
}

}  // namespace

Exp read_experiment(const json& results, size_t index) {
  const std::string where = "results[" + std::to_string(index) + "]";
  if (!member_or_null(results, "runs").is_array() || !member_or_null(results, "config").is_object() ||
      !member_or_null(results, "experiment").is_string())
    bad(where + ": expected a results object as parse_results returns it");
  Exp e;
  e.results = &results;
  e.name = results["experiment"].get<std::string>();
  // The settings its runs trained with: real_words' model and length are its own, on g2p.
  std::vector<std::string> problems;
  const ExperimentConfig cfg = read_config(results["config"], problems);
  const ExperimentInfo* info = find_experiment(e.name);
  const RunConfig run = info ? run_config(*info, cfg) : cfg.base;
  e.run_config = config_json(run);
  e.steps = run.train.steps;
  e.d_model = run.model.d_model;
  e.heads = run.model.heads;
  e.g2p = run.task.kind == TaskKind::g2p;
  if (info)
    for (WoMode v : info->variants) e.variants.push_back(to_string(v));
  for (size_t i = 0; i < results["runs"].size(); ++i)
    if (!has_members_read(results["runs"][i], e.g2p))
      bad(where + ".runs[" + std::to_string(i) + "]: expected a run as parse_results returns it (variant, seed, "
                  "lr, status, final, curve, eval, stats, wo)");
  e.planned = e.variants;
  e.seeds_planned = cfg.seeds;
  for (const json& f : member_or_null(results, "failed").is_array() ? results["failed"] : json::array()) {
    if (!member_or_null(f, "variant").is_string() || !member_or_null(f, "error").is_string())
      bad(where + ": a failed run is not one parse_results writes");
    if (e.failed.empty()) e.first_failure = f["error"].get<std::string>();
    e.failed.push_back(f["variant"].get<std::string>());
  }
  for (const json& r : results["runs"]) {
    Run run;
    run.variant = r["variant"].get<std::string>();
    run.seed = r["seed"].get<uint64_t>();
    run.lr = r["lr"].get<double>();
    const auto status = status_from_json(r["status"]);
    if (!status) bad(where + ": a run's status is not one parse_results writes");
    run.state = status->state;
    run.record = &r;
    if (!e.has(run.variant)) e.variants.push_back(run.variant);
    if (std::find(e.lrs.begin(), e.lrs.end(), run.lr) == e.lrs.end()) e.lrs.push_back(run.lr);
    e.runs.push_back(run);
  }
  std::sort(e.lrs.begin(), e.lrs.end());
  // Variants of the experiment that have no run in this file are not compared.
  std::vector<std::string> present;
  for (const std::string& v : e.variants)
    for (const Run& r : e.runs)
      if (r.variant == v) {
        present.push_back(v);
        break;
      }
  e.variants = present;
  return e;
}

json spread(const std::vector<double>& xs) {
  const std::optional<Spread> s = spread_of(xs);
  if (!s) return nullptr;
  return {{"n", s->n}, {"mean", s->mean}, {"min", s->min}, {"max", s->max}, {"sd", optional_number(s->sd)}};
}

json optional_number(std::optional<double> x) { return x ? json(*x) : json(nullptr); }

// Mean training loss over the curve's steps in (last - window, last].
std::optional<double> window_loss(const json& run, int last, int window) {
  const json& steps = run["curve"]["step"];
  const json& loss = run["curve"]["loss"];
  double sum = 0;
  int n = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    const int s = steps[i].get<int>();
    if (s > last - window && s <= last) {
      sum += loss[i].get<double>();
      ++n;
    }
  }
  return n ? std::optional<double>(sum / n) : std::nullopt;
}

std::optional<double> threshold_step(const Exp& e, const Run& r) {
  const std::optional<int> s = steps_to_loss_threshold((*r.record)["curve"], threshold_window(e.steps));
  return s ? std::optional<double>(*s) : std::nullopt;
}

int step_at(const Exp& e, double share) { return std::max(1, static_cast<int>(std::lround(share * e.steps))); }
int smooth_window(const Exp& e) { return step_at(e, kSmoothShare); }

}  // namespace wolab::verdicts
