// Reading results objects once, and the numbers every section uses (docs/claims.md).
#include "analysis/verdicts.h"

#include <algorithm>
#include <cmath>

#include "lab/config.h"
#include "lab/experiment.h"
#include "io/messages.h"

namespace wolab::verdicts {

[[noreturn]] void bad(const std::string& what) { throw ConfigError("analysis: " + what); }

Exp read_experiment(const json& results, size_t index) {
  const std::string where = "results[" + std::to_string(index) + "]";
  if (!results.is_object() || !results.contains("runs") || !results.contains("config") ||
      !results["experiment"].is_string())
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
  e.planned = e.variants;
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

int step_at(const Exp& e, double share) { return std::max(1, static_cast<int>(std::lround(share * e.steps))); }
int smooth_window(const Exp& e) { return step_at(e, kSmoothShare); }

}  // namespace wolab::verdicts
