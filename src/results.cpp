#include "results.h"

#include <cmath>
#include <stdexcept>

#include "experiment.h"

namespace wolab {

using json = nlohmann::json;

namespace {

constexpr char kFormat[] = "wolab-results";
constexpr int kSchemaVersion = 1;

// ---- Building ----

// A float as JSON, or null when it is not finite (JSON has no NaN; a reader must see the gap).
json number(float x) { return std::isfinite(x) ? json(decimal_float(x)) : json(nullptr); }

bool finite(const EvalResult& e) {
  return std::isfinite(e.loss) && std::isfinite(e.token_acc) && std::isfinite(e.exact);
}

bool finite(const SiteStats& s) { return std::isfinite(s.mean) && std::isfinite(s.std); }

bool finite(const std::vector<float>& xs) {
  for (float x : xs)
    if (!std::isfinite(x)) return false;
  return true;
}

bool finite(const ProbeRecord& p) {
  for (const LayerStats& l : p.layers)
    if (!finite(l.concat) || !finite(l.wo_out) || !finite(l.residual) || !finite(l.head_grad_norm))
      return false;
  return true;
}

json site(const SiteStats& s) { return {{"mean", number(s.mean)}, {"std", number(s.std)}}; }

json numbers(const std::vector<float>& xs) {
  json a = json::array();
  for (float x : xs) a.push_back(number(x));
  return a;
}

json mean_std(const std::vector<double>& xs) {
  if (xs.empty()) return {{"mean", nullptr}, {"std", nullptr}};
  double sum = 0;
  for (double x : xs) sum += x;
  double mean = sum / xs.size(), ss = 0;
  for (double x : xs) ss += (x - mean) * (x - mean);
  double std = xs.size() > 1 ? std::sqrt(ss / (xs.size() - 1)) : 0.0;
  return {{"mean", mean}, {"std", std}};
}

bool is_diverged(const json& run) { return run["status"].get<std::string>() != "done"; }

// Per variant, in the experiment's order: runs that diverged are counted, not averaged.
json summarize(const ExperimentInfo& exp, const std::vector<json>& runs) {
  json summary = json::array();
  for (WoMode v : exp.variants) {
    std::vector<const json*> group;
    for (const json& r : runs)
      if (r["variant"] == to_string(v)) group.push_back(&r);
    if (group.empty()) continue;
    std::vector<double> token_acc, exact, greedy, loss, steps;
    int diverged = 0;
    for (const json* r : group) {
      if (is_diverged(*r)) {
        ++diverged;
        continue;
      }
      const json& f = (*r)["final"];
      token_acc.push_back(f["token_acc"].get<double>());
      exact.push_back(f["exact"].get<double>());
      greedy.push_back(f["greedy_exact"].get<double>());
      loss.push_back(f["loss"].get<double>());
      if (!f["steps_to_loss_0_1"].is_null()) steps.push_back(f["steps_to_loss_0_1"].get<double>());
    }
    json reached = mean_std(steps);
    reached["reached"] = steps.size();
    summary.push_back({{"variant", to_string(v)},
                       {"n", group.size()},
                       {"token_acc", mean_std(token_acc)},
                       {"exact", mean_std(exact)},
                       {"greedy_exact", mean_std(greedy)},
                       {"loss", mean_std(loss)},
                       {"steps_to_loss_0_1", reached},
                       {"parameters", (*group.front())["parameters"]},
                       {"diverged", diverged}});
  }
  return summary;
}

// ---- Checking: every failure names the place, e.g. "results: runs[2].curve.loss[7]: ..." ----

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw ConfigError("results: " + where + ": " + what);
}

const json& field(const json& obj, const std::string& where, const char* key) {
  if (!obj.is_object()) bad(where.empty() ? "file" : where, "expected an object");
  auto it = obj.find(key);
  if (it == obj.end()) bad(where.empty() ? key : where + "." + key, "missing");
  return *it;
}

std::string format_number(double x) {
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  return std::floor(x) == x && std::fabs(x) < 1e15 ? std::to_string(static_cast<int64_t>(x)) : json(x).dump();
}

double check_number(const json& v, const std::string& where, double lo = -HUGE_VAL, double hi = HUGE_VAL) {
  if (!v.is_number()) bad(where, "expected a number");
  double x = v.get<double>();
  if (!std::isfinite(x)) bad(where, "not a finite number");
  if (x < lo || x > hi) bad(where, format_number(x) + " is out of range " + format_number(lo) + ".." + format_number(hi));
  return x;
}

int64_t check_integer(const json& v, const std::string& where, double lo, double hi) {
  double x = check_number(v, where, lo, hi);
  if (std::floor(x) != x) bad(where, "expected an integer");
  return static_cast<int64_t>(x);
}

const json& check_array(const json& v, const std::string& where) {
  if (!v.is_array()) bad(where, "expected an array");
  return v;
}

std::vector<double> check_numbers(const json& v, const std::string& where, size_t size, double lo = -HUGE_VAL,
                                  double hi = HUGE_VAL) {
  check_array(v, where);
  if (v.size() != size)
    bad(where, "has " + std::to_string(v.size()) + " entries, expected " + std::to_string(size));
  std::vector<double> xs;
  for (size_t i = 0; i < v.size(); ++i) xs.push_back(check_number(v[i], where + "[" + std::to_string(i) + "]", lo, hi));
  return xs;
}

void check_steps(const std::vector<double>& steps, const std::string& where, double first) {
  for (size_t i = 0; i < steps.size(); ++i) {
    std::string w = where + "[" + std::to_string(i) + "]";
    if (std::floor(steps[i]) != steps[i]) bad(w, "expected an integer");
    if (steps[i] < first || (i > 0 && steps[i] <= steps[i - 1])) bad(w, "steps must increase");
  }
}

void check_site(const json& run, const std::string& where) {
  check_number(field(run, where, "mean"), where + ".mean");
  check_number(field(run, where, "std"), where + ".std", 0);
}

void check_run(const json& run, const std::string& w, const RunConfig& cfg, const ExperimentInfo& exp) {
  const double steps = cfg.train.steps, layers = cfg.model.layers;
  const size_t d = static_cast<size_t>(cfg.model.d_model), heads = static_cast<size_t>(cfg.model.heads);
  if (!run.is_object()) bad(w, "expected an object");

  const json& variant = field(run, w, "variant");
  bool known = false;
  for (WoMode v : exp.variants) known = known || variant == to_string(v);
  if (!known) bad(w + ".variant", variant.dump() + " is not a variant of " + exp.name);
  check_integer(field(run, w, "seed"), w + ".seed", 0, 9007199254740992.0 + 100);
  check_integer(field(run, w, "parameters"), w + ".parameters", 1, 1e12);

  const json& status = field(run, w, "status");
  if (!status.is_string()) bad(w + ".status", "expected a string");
  const std::string s = status.get<std::string>();
  const std::string prefix = "diverged at step ";
  bool diverged = s.compare(0, prefix.size(), prefix) == 0 && s.size() > prefix.size() &&
                  s.find_first_not_of("0123456789", prefix.size()) == std::string::npos;
  if (s != "done" && !diverged) bad(w + ".status", "expected \"done\" or \"diverged at step N\"");

  std::string c = w + ".curve";
  const json& curve = field(run, w, "curve");
  auto curve_steps = check_numbers(field(curve, c, "step"), c + ".step", field(curve, c, "step").size(), 1, steps);
  check_steps(curve_steps, c + ".step", 1);
  check_numbers(field(curve, c, "loss"), c + ".loss", curve_steps.size());

  std::string e = w + ".eval";
  const json& ev = field(run, w, "eval");
  auto eval_steps = check_numbers(field(ev, e, "step"), e + ".step", field(ev, e, "step").size(), 0, steps);
  check_steps(eval_steps, e + ".step", 0);
  check_numbers(field(ev, e, "loss"), e + ".loss", eval_steps.size(), 0);
  check_numbers(field(ev, e, "token_acc"), e + ".token_acc", eval_steps.size(), 0, 1);
  check_numbers(field(ev, e, "exact"), e + ".exact", eval_steps.size(), 0, 1);

  const json& stats = check_array(field(run, w, "stats"), w + ".stats");
  for (size_t i = 0; i < stats.size(); ++i) {
    std::string p = w + ".stats[" + std::to_string(i) + "]";
    check_integer(field(stats[i], p, "step"), p + ".step", 0, steps);
    check_integer(field(stats[i], p, "layer"), p + ".layer", 0, layers - 1);
    for (const char* site : {"concat", "wo_out", "residual"})
      check_site(field(stats[i], p, site), p + "." + site);
    check_numbers(field(stats[i], p, "head_grad_norm"), p + ".head_grad_norm", heads, 0);
  }

  const json& wo = check_array(field(run, w, "wo"), w + ".wo");
  for (size_t i = 0; i < wo.size(); ++i) {
    std::string p = w + ".wo[" + std::to_string(i) + "]";
    check_integer(field(wo[i], p, "step"), p + ".step", 0, steps);
    check_integer(field(wo[i], p, "layer"), p + ".layer", 0, layers - 1);
    check_integer(field(wo[i], p, "rows"), p + ".rows", d, d);
    check_integer(field(wo[i], p, "cols"), p + ".cols", d, d);
    check_numbers(field(wo[i], p, "data"), p + ".data", d * d);
  }

  std::string f = w + ".final";
  const json& fin = field(run, w, "final");
  const std::pair<const char*, double> metrics[] = {{"loss", HUGE_VAL}, {"token_acc", 1}, {"exact", 1}, {"greedy_exact", 1}};
  for (const auto& [name, hi] : metrics) {
    const json& v = field(fin, f, name);
    if (!(diverged && v.is_null())) check_number(v, f + "." + name, 0, hi);
  }
  const json& reached = field(fin, f, "steps_to_loss_0_1");
  if (!reached.is_null()) check_integer(reached, f + ".steps_to_loss_0_1", 1, steps);
}

const ExperimentInfo& experiment_info(const std::string& name, const std::string& where) {
  const ExperimentInfo* exp = find_experiment(name);
  if (!exp) {
    std::vector<std::string> names;
    for (const auto& x : experiments()) names.push_back(x.name);
    std::string list;
    for (size_t i = 0; i < names.size(); ++i) list += (i ? ", " : "") + names[i];
    bad(where, "unknown experiment " + json(name).dump() + "; expected one of " + list);
  }
  return *exp;
}

json build(const ExperimentConfig& cfg, const std::string& experiment, std::vector<json> runs,
           const std::string& created_by) {
  const ExperimentInfo& exp = experiment_info(experiment, "experiment");
  auto problems = validate(cfg);
  if (!problems.empty()) throw ConfigError("results: config." + problems.front());
  for (size_t i = 0; i < runs.size(); ++i) check_run(runs[i], "runs[" + std::to_string(i) + "]", cfg.base, exp);
  ExperimentConfig named = cfg;
  named.experiment = experiment;  // under "all", each results object names its own experiment
  json summary = summarize(exp, runs);
  return {{"format", kFormat},
          {"version", kSchemaVersion},
          {"created_by", created_by},
          {"experiment", experiment},
          {"config", config_json(named)},
          {"runs", std::move(runs)},
          {"summary", std::move(summary)}};
}

}  // namespace

json run_record(Trainer& trainer, WoMode variant, bool keep_wo) {
  if (!trainer.finished()) throw std::logic_error("run_record: the run has not finished");
  const bool diverged = trainer.status() != "done";

  json steps = json::array(), losses = json::array(), reached = nullptr;
  const std::vector<float>& loss = trainer.losses();
  for (size_t i = 0; i < loss.size() && std::isfinite(loss[i]); ++i) {
    steps.push_back(i + 1);
    losses.push_back(decimal_float(loss[i]));
    if (reached.is_null() && loss[i] < 0.1f) reached = i + 1;
  }

  json fin = {{"loss", nullptr}, {"token_acc", nullptr}, {"exact", nullptr}, {"greedy_exact", nullptr},
              {"steps_to_loss_0_1", reached}};
  auto set_final = [&fin](const EvalResult& e) {
    fin["loss"] = number(e.loss);
    fin["token_acc"] = number(e.token_acc);
    fin["exact"] = number(e.exact);
  };
  if (!diverged) {
    const auto& evals = trainer.evals();
    set_final(!evals.empty() && evals.back().step == trainer.steps_done() ? evals.back() : trainer.evaluate());
    fin["greedy_exact"] = number(trainer.greedy_exact());
  } else {
    for (const EvalResult& e : trainer.evals())
      if (finite(e)) set_final(e);
  }

  json ev = {{"step", json::array()}, {"loss", json::array()}, {"token_acc", json::array()}, {"exact", json::array()}};
  for (const EvalResult& e : trainer.evals()) {
    if (!finite(e)) break;  // a diverged run's record stops before its bad values
    ev["step"].push_back(e.step);
    ev["loss"].push_back(number(e.loss));
    ev["token_acc"].push_back(number(e.token_acc));
    ev["exact"].push_back(number(e.exact));
  }

  json stats = json::array();
  for (const ProbeRecord& p : trainer.probes()) {
    if (!finite(p)) break;
    for (size_t layer = 0; layer < p.layers.size(); ++layer) {
      const LayerStats& l = p.layers[layer];
      stats.push_back({{"step", p.step},
                       {"layer", layer},
                       {"concat", site(l.concat)},
                       {"wo_out", site(l.wo_out)},
                       {"residual", site(l.residual)},
                       {"head_grad_norm", numbers(l.head_grad_norm)}});
    }
  }

  json wo = json::array();
  if (keep_wo) {
    for (const WoSnapshot& s : trainer.wo_snapshots()) {
      if (!finite(s.data)) break;
      wo.push_back({{"step", s.step}, {"layer", s.layer}, {"rows", s.rows}, {"cols", s.cols}, {"data", numbers(s.data)}});
    }
  }

  return {{"variant", to_string(variant)},
          {"seed", trainer.config().train.seed},
          {"parameters", trainer.parameter_count()},
          {"curve", {{"step", steps}, {"loss", losses}}},
          {"eval", ev},
          {"stats", stats},
          {"wo", wo},
          {"final", fin},
          {"status", trainer.status()}};
}

json make_results(const ExperimentConfig& cfg, const std::string& experiment, std::vector<json> runs) {
  return build(cfg, experiment, std::move(runs), std::string("wolab ") + kVersion);
}

json parse_results(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for a number like 1e999
    std::string what = e.what();
    auto pos = what.find("] ");
    throw ConfigError("results: not valid JSON (" + what.substr(pos == std::string::npos ? 0 : pos + 2) +
                      "); choose a results file written by wolab or the page");
  }
  if (!j.is_object() || !j.contains("format") || j["format"] != kFormat)
    throw ConfigError("results: not a W_o Lab results file (no \"format\": \"wolab-results\")");
  const json& version = field(j, "", "version");
  if (version != kSchemaVersion)
    bad("version", version.dump() + " is not supported; this build reads version " + std::to_string(kSchemaVersion));
  const json& created_by = field(j, "", "created_by");
  if (!created_by.is_string()) bad("created_by", "expected a string");
  const json& experiment = field(j, "", "experiment");
  if (!experiment.is_string()) bad("experiment", "expected a string");

  const json& config = field(j, "", "config");
  if (!config.is_object()) bad("config", "expected an object");
  std::vector<std::string> problems;
  ExperimentConfig cfg = read_config(config, problems);
  if (!problems.empty()) throw ConfigError("results: config." + problems.front());

  const json& runs = check_array(field(j, "", "runs"), "runs");
  check_array(field(j, "", "summary"), "summary");  // recomputed from the runs below
  return build(cfg, experiment.get<std::string>(), runs.get<std::vector<json>>(), created_by.get<std::string>());
}

}  // namespace wolab
