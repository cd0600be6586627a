// The verdicts: results documents read, compared per seed, and judged claim by claim, in the
// sections of docs/claims.md. The CLI's English for them is report_text.cpp.
#include "analysis/analysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>

#include "io/json_input.h"
#include "lab/config.h"
#include "lab/experiment.h"
#include "lab/results.h"
#include "lab/status.h"

namespace wolab {

using json = nlohmann::json;

namespace {

// ---- Reading the results ----

using State = RunStatus::State;

struct Run {
  std::string variant;
  uint64_t seed = 0;
  double lr = 0;
  State state = State::done;
  const json* record = nullptr;

  bool done() const { return state == State::done; }
  const json& final() const { return (*record)["final"]; }
  std::optional<double> steps_to_threshold() const {
    const json& s = final()["steps_to_loss_0_1"];
    return s.is_number() ? std::optional<double>(s.get<double>()) : std::nullopt;
  }
};

// One results object, read once.
struct Exp {
  const json* results = nullptr;
  std::string name;
  int steps = 0, d_model = 0, heads = 0;
  std::vector<std::string> variants;  // the experiment's order
  std::vector<Run> runs;
  std::vector<double> lrs;  // distinct, ascending

  // The first run of (variant, seed), or nullptr.
  const Run* find(const std::string& variant, uint64_t seed) const {
    for (const Run& r : runs)
      if (r.variant == variant && r.seed == seed) return &r;
    return nullptr;
  }
  std::vector<uint64_t> seeds() const {
    std::vector<uint64_t> out;
    for (const Run& r : runs)
      if (std::find(out.begin(), out.end(), r.seed) == out.end()) out.push_back(r.seed);
    return out;
  }
  bool has(const std::string& variant) const {
    return std::find(variants.begin(), variants.end(), variant) != variants.end();
  }
};

[[noreturn]] void bad(const std::string& what) { throw ConfigError("analysis: " + what); }

Exp read_experiment(const json& results, size_t index) {
  const std::string where = "results[" + std::to_string(index) + "]";
  if (!results.is_object() || !results.contains("runs") || !results.contains("config") ||
      !results["experiment"].is_string())
    bad(where + ": expected a results object as parse_results returns it");
  Exp e;
  e.results = &results;
  e.name = results["experiment"].get<std::string>();
  const json& c = results["config"];
  e.steps = c["train"]["steps"].get<int>();
  e.d_model = c["model"]["d_model"].get<int>();
  e.heads = c["model"]["heads"].get<int>();
  if (const ExperimentInfo* info = find_experiment(e.name))
    for (WoMode v : info->variants) e.variants.push_back(to_string(v));
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

// ---- Numbers ----

double mean(const std::vector<double>& xs) {
  double s = 0;
  for (double x : xs) s += x;
  return xs.empty() ? 0 : s / xs.size();
}

// {n, mean, min, max, sd}: sd is the sample standard deviation, null for a single value; the
// whole spread is null when there is no value.
json spread(const std::vector<double>& xs) {
  if (xs.empty()) return nullptr;
  const double m = mean(xs);
  double ss = 0;
  for (double x : xs) ss += (x - m) * (x - m);
  return {{"n", xs.size()},
          {"mean", m},
          {"min", *std::min_element(xs.begin(), xs.end())},
          {"max", *std::max_element(xs.begin(), xs.end())},
          {"sd", xs.size() > 1 ? json(std::sqrt(ss / (xs.size() - 1))) : json(nullptr)}};
}

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

// ---- Metrics compared per seed ----

struct MetricInfo {
  const char* name;
  bool higher_better;
  double share;  // loss at this share of the run; 0 for the others
};

// Accuracies first, then speed: steps to the threshold and the smoothed loss at fixed steps.
const MetricInfo kMetrics[] = {
    {"token_acc", true, 0},   {"exact", true, 0},         {"steps_to_loss_0_1", false, 0},
    {"loss_at_25", false, 0.25}, {"loss_at_50", false, 0.5}, {"loss_at_100", false, 1.0},
};
bool is_steps(const MetricInfo& m) { return std::string(m.name) == "steps_to_loss_0_1"; }

// A finished run's value; nullopt only for steps to a threshold the run never reached.
std::optional<double> value_of(const Exp& e, const Run& r, const MetricInfo& m) {
  if (is_steps(m)) return r.steps_to_threshold();
  if (m.share > 0) return window_loss(*r.record, step_at(e, m.share), smooth_window(e));
  return r.final()[m.name].get<double>();
}

enum class Side { a, b, tie, neither };

Side compare(const MetricInfo& m, std::optional<double> a, std::optional<double> b) {
  if (!a && !b) return Side::neither;
  if (!a) return Side::b;  // only a threshold can be missed, and reaching it wins
  if (!b) return Side::a;
  if (m.higher_better) {
    if (std::fabs(*a - *b) <= kAccuracyTie) return Side::tie;
    return *a > *b ? Side::a : Side::b;
  }
  if (std::fabs(*a - *b) <= kRelativeTie * std::min(*a, *b)) return Side::tie;
  return *a < *b ? Side::a : Side::b;
}

// The gap in x's favour over the other: points of accuracy, or the other's extra steps or loss
// relative to x's. A threshold never reached counts as the run's length, so a gap involving one
// is a lower bound.
std::optional<double> gap(const MetricInfo& m, double x, double other) {
  if (m.higher_better) return x - other;
  if (x <= 0) return other <= 0 ? std::optional<double>(0) : std::nullopt;
  return (other - x) / x;
}

struct MetricPair {
  const MetricInfo* info = nullptr;
  struct Seed {
    uint64_t seed;
    std::optional<double> a, b;
  };
  std::vector<Seed> seeds;
  int ahead_a = 0, ahead_b = 0, ties = 0, neither = 0, reached_a = 0, reached_b = 0;
  std::vector<double> diffs;  // a - b, where both have a value
  int leader = 0;             // 0: none, 1: a, 2: b (ahead in more than half the seeds)
  bool consistent = false;    // the leader is ahead in at least kConsistentShare of them
  std::vector<double> gaps;   // per seed, in the leader's favour

  int n() const { return static_cast<int>(seeds.size()); }
  int leader_ahead() const { return leader == 1 ? ahead_a : leader == 2 ? ahead_b : 0; }
  double mean_gap() const { return mean(gaps); }
  bool clear() const {
    return consistent && !gaps.empty() && mean_gap() >= (info->higher_better ? kClearAccuracyGap : kClearSpeedGap);
  }
};

MetricPair compare_metric(const Exp& e, const MetricInfo& m, const std::vector<std::pair<const Run*, const Run*>>& runs) {
  MetricPair p;
  p.info = &m;
  for (const auto& [ra, rb] : runs) {
    auto a = value_of(e, *ra, m), b = value_of(e, *rb, m);
    p.seeds.push_back({ra->seed, a, b});
    p.reached_a += a.has_value();
    p.reached_b += b.has_value();
    switch (compare(m, a, b)) {
      case Side::a: ++p.ahead_a; break;
      case Side::b: ++p.ahead_b; break;
      case Side::tie: ++p.ties; break;
      case Side::neither: ++p.neither; break;
    }
    if (a && b) p.diffs.push_back(*a - *b);
  }
  const double half = p.n() / 2.0, needed = kConsistentShare * p.n() - 1e-9;
  p.leader = p.ahead_a > half ? 1 : p.ahead_b > half ? 2 : 0;
  p.consistent = p.leader != 0 && p.leader_ahead() >= needed;
  if (p.leader) {
    const double censored = e.steps;
    for (const auto& s : p.seeds) {
      if (!s.a && !s.b) continue;
      const double a = s.a.value_or(censored), b = s.b.value_or(censored);
      if (auto g = p.leader == 1 ? gap(m, a, b) : gap(m, b, a)) p.gaps.push_back(*g);
    }
  }
  return p;
}

// Two variants of one experiment, paired by seed.
struct Pair {
  std::string a, b;
  int excluded = 0;  // seeds where a run of the pair diverged or was stopped
  int diverged_a = 0, diverged_b = 0, stopped_a = 0, stopped_b = 0;
  bool at_ceiling = false;  // both at kCeilingAccuracy in every paired seed
  std::vector<MetricPair> metrics;
  const MetricPair* speed = nullptr;        // steps to the threshold, or the loss at the end (see pair())
  const MetricPair* performance = nullptr;  // token accuracy, or speed when both are at the ceiling

  int n() const { return metrics.empty() ? 0 : metrics.front().n(); }
  const MetricPair& by(const std::string& name) const {
    for (const MetricPair& m : metrics)
      if (name == m.info->name) return m;
    throw std::logic_error("analysis: no metric " + name);
  }
};

Pair pair(const Exp& e, const std::string& a, const std::string& b) {
  Pair p;
  p.a = a;
  p.b = b;
  std::vector<std::pair<const Run*, const Run*>> runs;
  for (uint64_t seed : e.seeds()) {
    const Run *ra = e.find(a, seed), *rb = e.find(b, seed);
    if (!ra || !rb) continue;
    if (ra->done() && rb->done()) {
      runs.emplace_back(ra, rb);
      continue;
    }
    ++p.excluded;
    p.diverged_a += ra->state == State::diverged;
    p.diverged_b += rb->state == State::diverged;
    p.stopped_a += ra->state == State::stopped;
    p.stopped_b += rb->state == State::stopped;
  }
  for (const MetricInfo& m : kMetrics) p.metrics.push_back(compare_metric(e, m, runs));
  const MetricPair& steps = p.by("steps_to_loss_0_1");
  // Steps to the threshold measure speed when every seed decided it (at least one run reached
  // it); otherwise some runs were still on their way, and how far each got, its loss at the
  // end, measures speed.
  p.speed = steps.n() > 0 && steps.neither == 0 ? &steps : &p.by("loss_at_100");
  const MetricPair& acc = p.by("token_acc");
  p.at_ceiling = acc.n() > 0;
  for (const auto& s : acc.seeds) p.at_ceiling = p.at_ceiling && *s.a >= kCeilingAccuracy && *s.b >= kCeilingAccuracy;
  p.performance = p.at_ceiling ? p.speed : &acc;
  return p;
}

std::string leader_name(const Pair& p, const MetricPair& m) {
  return m.leader == 1 ? p.a : m.leader == 2 ? p.b : "";
}

json optional_number(std::optional<double> x) { return x ? json(*x) : json(nullptr); }

json metric_json(const Exp& e, const Pair& p, const MetricPair& m) {
  json values = json::array();
  for (const auto& s : m.seeds) values.push_back({{"seed", s.seed}, {"a", optional_number(s.a)}, {"b", optional_number(s.b)}});
  json out = {{"metric", m.info->name},
              {"a", p.a},
              {"b", p.b},
              {"n", m.n()},
              {"ahead_a", m.ahead_a},
              {"ahead_b", m.ahead_b},
              {"ties", m.ties},
              {"neither", m.neither},
              {"leader", m.leader ? json(leader_name(p, m)) : json(nullptr)},
              {"consistent", m.consistent},
              {"clear", m.clear()},
              {"diff", spread(m.diffs)},
              {"gap", spread(m.gaps)},
              {"values", values}};
  if (is_steps(*m.info)) {
    out["reached_a"] = m.reached_a;
    out["reached_b"] = m.reached_b;
  }
  if (m.info->share > 0) out["step"] = step_at(e, m.info->share);
  return out;
}

json pair_json(const Exp& e, const Pair& p) {
  json metrics = json::array();
  for (const MetricPair& m : p.metrics) metrics.push_back(metric_json(e, p, m));
  return {{"a", p.a},
          {"b", p.b},
          {"n", p.n()},
          {"excluded", p.excluded},
          {"diverged", {{"a", p.diverged_a}, {"b", p.diverged_b}}},
          {"stopped", {{"a", p.stopped_a}, {"b", p.stopped_b}}},
          {"at_ceiling", p.at_ceiling},
          {"speed", p.speed->info->name},
          {"performance", p.performance->info->name},
          {"metrics", metrics}};
}

// ---- Convergence ----

enum class Conv { converged, still_learning, stalled };

// At the ceiling: converged. Else still learning if the tail of the run still improved (loss or
// held-out accuracy); else converged if it reached the loss threshold, stalled if not.
Conv convergence(const Exp& e, const Run& r) {
  if (r.final()["token_acc"].get<double>() >= kCeilingAccuracy) return Conv::converged;
  const int tail = step_at(e, kTailShare);
  auto last = window_loss(*r.record, e.steps, tail), before = window_loss(*r.record, e.steps - tail, tail);
  bool improving = last && before && *before > 0 && (*before - *last) / *before > kStillFalling;
  const json& ev = (*r.record)["eval"];
  std::optional<double> acc_before;
  for (size_t i = 0; i < ev["step"].size(); ++i)
    if (ev["step"][i].get<int>() <= e.steps - tail) acc_before = ev["token_acc"][i].get<double>();
  if (acc_before && r.final()["token_acc"].get<double>() - *acc_before > kAccuracyTie) improving = true;
  if (improving) return Conv::still_learning;
  return r.steps_to_threshold() ? Conv::converged : Conv::stalled;
}

struct VariantConvergence {
  int runs = 0, done = 0, converged = 0, still_learning = 0, stalled = 0, diverged = 0, stopped = 0;
  std::string state() const {
    if (done == 0) return "none_finished";
    if (still_learning > 0) return "still_learning";
    if (converged == done) return "converged";
    return converged == 0 ? "stalled" : "mixed";
  }
  json to_json(const std::string& variant) const {
    return {{"variant", variant}, {"runs", runs}, {"done", done}, {"converged", converged},
            {"still_learning", still_learning}, {"stalled", stalled}, {"diverged", diverged},
            {"stopped", stopped}, {"state", state()}};
  }
};

VariantConvergence convergence_of(const Exp& e, const std::string& variant, std::optional<double> lr = std::nullopt) {
  VariantConvergence c;
  for (const Run& r : e.runs) {
    if (r.variant != variant || (lr && r.lr != *lr)) continue;
    ++c.runs;
    if (r.state == State::diverged) ++c.diverged;
    if (r.state == State::stopped) ++c.stopped;
    if (!r.done()) continue;
    ++c.done;
    switch (convergence(e, r)) {
      case Conv::converged: ++c.converged; break;
      case Conv::still_learning: ++c.still_learning; break;
      case Conv::stalled: ++c.stalled; break;
    }
  }
  return c;
}

json still_learning(const Exp& e, const std::vector<std::string>& variants) {
  json out = json::array();
  for (const std::string& v : variants)
    if (convergence_of(e, v).still_learning > 0) out.push_back(v);
  return out;
}

// ---- Claim 5: the learned W_o's structure (wo_heatmap's snapshots) ----

struct Matrix {
  int d = 0;
  const json* data = nullptr;  // (d*d) row-major (out, in)
  double at(int i, int j) const { return (*data)[i * d + j].get<double>(); }
};

// Share of rows with |w_ii| >= sum over j != i of |w_ij|: the textbook diagonal dominance.
double dominant_rows(const Matrix& w) {
  int rows = 0;
  for (int i = 0; i < w.d; ++i) {
    double off = 0;
    for (int j = 0; j < w.d; ++j)
      if (j != i) off += std::fabs(w.at(i, j));
    rows += std::fabs(w.at(i, i)) >= off;
  }
  return double(rows) / w.d;
}

// The diagonal's share of the squared Frobenius norm, times d: 1 for a matrix with no
// preference for its diagonal (whose share is 1/d), d for a diagonal one.
double diagonal_energy(const Matrix& w) {
  double diag = 0, all = 0;
  for (int i = 0; i < w.d; ++i)
    for (int j = 0; j < w.d; ++j) {
      all += w.at(i, j) * w.at(i, j);
      if (i == j) diag += w.at(i, i) * w.at(i, i);
    }
  return all > 0 ? diag / all * w.d : 0;
}

// Largest over smallest Frobenius norm of the heads' column blocks W_o[:, head].
double head_imbalance(const Matrix& w, int heads) {
  const int dk = w.d / heads;
  double lo = HUGE_VAL, hi = 0;
  for (int h = 0; h < heads; ++h) {
    double ss = 0;
    for (int i = 0; i < w.d; ++i)
      for (int j = h * dk; j < (h + 1) * dk; ++j) ss += w.at(i, j) * w.at(i, j);
    lo = std::min(lo, std::sqrt(ss));
    hi = std::max(hi, std::sqrt(ss));
  }
  return lo > 0 ? hi / lo : HUGE_VAL;
}

// ||W - W0|| / ||W0|| (Frobenius).
double change_from_init(const Matrix& w, const Matrix& w0) {
  double diff = 0, base = 0;
  for (int i = 0; i < w.d; ++i)
    for (int j = 0; j < w.d; ++j) {
      diff += (w.at(i, j) - w0.at(i, j)) * (w.at(i, j) - w0.at(i, j));
      base += w0.at(i, j) * w0.at(i, j);
    }
  return base > 0 ? std::sqrt(diff / base) : 0;
}

struct Part {
  int holds = 0, n = 0;
  bool consistent() const { return n > 0 && holds >= kConsistentShare * n - 1e-9; }
  json to_json() const { return {{"holds", holds}, {"n", n}, {"consistent", consistent()}}; }
};

struct WoStructure {
  int seeds = 0;
  std::vector<double> dominant, energy, imbalance_init, imbalance_final, change;
  Part not_dominant, imbalanced;
  json to_json() const {
    return {{"seeds", seeds},
            {"dominant_rows", spread(dominant)},
            {"diagonal_energy", spread(energy)},
            {"head_imbalance_init", spread(imbalance_init)},
            {"head_imbalance_final", spread(imbalance_final)},
            {"change_from_init", spread(change)},
            {"not_dominant", not_dominant.to_json()},
            {"imbalanced", imbalanced.to_json()}};
  }
};

// Per seed, the learned W_o at step 0 and at its last snapshot, averaged over layers.
WoStructure wo_structure(const Exp& e) {
  WoStructure s;
  for (const Run& r : e.runs) {
    if (r.variant != "learned" || !r.done()) continue;
    std::map<int, std::pair<const json*, const json*>> layers;  // layer -> (step 0, last)
    int last_step = 0;
    for (const json& w : (*r.record)["wo"]) {
      const int layer = w["layer"].get<int>(), step = w["step"].get<int>();
      if (step == 0) layers[layer].first = &w["data"];
      if (step > 0 && step >= last_step) last_step = step;
    }
    for (const json& w : (*r.record)["wo"])
      if (w["step"].get<int>() == last_step && last_step > 0) layers[w["layer"].get<int>()].second = &w["data"];
    std::vector<double> dom, en, im0, im1, ch;
    for (const auto& [layer, pair] : layers) {
      if (!pair.first || !pair.second) continue;
      Matrix w0{e.d_model, pair.first}, w{e.d_model, pair.second};
      dom.push_back(dominant_rows(w));
      en.push_back(diagonal_energy(w));
      im0.push_back(head_imbalance(w0, e.heads));
      im1.push_back(head_imbalance(w, e.heads));
      ch.push_back(change_from_init(w, w0));
    }
    if (dom.empty()) continue;
    ++s.seeds;
    s.dominant.push_back(mean(dom));
    s.energy.push_back(mean(en));
    s.imbalance_init.push_back(mean(im0));
    s.imbalance_final.push_back(mean(im1));
    s.change.push_back(mean(ch));
    ++s.not_dominant.n;
    ++s.imbalanced.n;
    s.not_dominant.holds += s.dominant.back() < kDominantRowsShare;
    s.imbalanced.holds += s.imbalance_final.back() >= kHeadImbalance && s.imbalance_final.back() > s.imbalance_init.back();
  }
  return s;
}

// ---- Claim 6: the scale around W_o (activation statistics) ----

struct ScaleFacts {
  int seeds = 0;
  std::vector<double> ratio_first, ratio_last, cv_learned, cv_identity;
  Part adapts, steadier;
  json to_json() const {
    return {{"seeds", seeds},
            {"scale_ratio_first", spread(ratio_first)},
            {"scale_ratio_last", spread(ratio_last)},
            {"residual_cv_learned", spread(cv_learned)},
            {"residual_cv_identity", spread(cv_identity)},
            {"adapts", adapts.to_json()},
            {"steadier", steadier.to_json()}};
  }
};

// Per layer, the probes in step order.
std::map<int, std::vector<const json*>> probes_by_layer(const Run& r) {
  std::map<int, std::vector<const json*>> out;
  for (const json& p : (*r.record)["stats"]) out[p["layer"].get<int>()].push_back(&p);
  for (auto& [layer, list] : out)
    std::sort(list.begin(), list.end(), [](const json* x, const json* y) { return (*x)["step"] < (*y)["step"]; });
  return out;
}

// Coefficient of variation over the probes of the residual sum's std (population sd / mean):
// how much the scale of x + W_o(concat) moves during training. Mean over layers.
std::optional<double> residual_cv(const Run& r) {
  std::vector<double> per_layer;
  for (const auto& [layer, probes] : probes_by_layer(r)) {
    if (probes.size() < 2) continue;
    std::vector<double> stds;
    for (const json* p : probes) stds.push_back((*p)["residual"]["std"].get<double>());
    const double m = mean(stds);
    double ss = 0;
    for (double x : stds) ss += (x - m) * (x - m);
    if (m > 0) per_layer.push_back(std::sqrt(ss / stds.size()) / m);
  }
  return per_layer.empty() ? std::nullopt : std::optional<double>(mean(per_layer));
}

// std(W_o(concat)) / std(concat) at the first and the last probe, mean over layers.
std::optional<std::pair<double, double>> scale_ratios(const Run& r) {
  std::vector<double> first, last;
  for (const auto& [layer, probes] : probes_by_layer(r)) {
    if (probes.size() < 2) continue;
    auto ratio = [](const json* p) {
      const double c = (*p)["concat"]["std"].get<double>();
      return c > 0 ? std::optional<double>((*p)["wo_out"]["std"].get<double>() / c) : std::nullopt;
    };
    auto f = ratio(probes.front()), l = ratio(probes.back());
    if (!f || !l) continue;
    first.push_back(*f);
    last.push_back(*l);
  }
  if (first.empty()) return std::nullopt;
  return std::make_pair(mean(first), mean(last));
}

ScaleFacts scale_facts(const Exp& e) {
  ScaleFacts s;
  for (uint64_t seed : e.seeds()) {
    const Run *l = e.find("learned", seed), *i = e.find("identity", seed);
    if (!l || !i || !l->done() || !i->done()) continue;
    auto ratios = scale_ratios(*l);
    auto cl = residual_cv(*l), ci = residual_cv(*i);
    if (!ratios || !cl || !ci) continue;
    ++s.seeds;
    s.ratio_first.push_back(ratios->first);
    s.ratio_last.push_back(ratios->second);
    s.cv_learned.push_back(*cl);
    s.cv_identity.push_back(*ci);
    ++s.adapts.n;
    ++s.steadier.n;
    s.adapts.holds += ratios->first > 0 && std::fabs(ratios->second / ratios->first - 1) >= kScaleChange;
    s.steadier.holds += *cl < *ci * (1 - kRelativeTie);
  }
  return s;
}

// ---- lr_stability: per (variant, learning rate) ----

struct LrRow {
  std::string variant;
  double lr = 0;
  int runs = 0, reached = 0, diverged = 0, stopped = 0, still_learning = 0;
  std::vector<double> steps, final_loss;
  bool trainable() const { return runs > 0 && reached >= kTrainableShare * runs - 1e-9; }
  // Does not train the variant, but would if the runs still learning at the last step reached
  // the threshold: longer runs might.
  bool undecided() const { return !trainable() && reached + still_learning >= kTrainableShare * runs - 1e-9; }
};

std::vector<LrRow> lr_table(const Exp& e) {
  std::vector<LrRow> rows;
  for (const std::string& v : e.variants)
    for (double lr : e.lrs) {
      LrRow row;
      row.variant = v;
      row.lr = lr;
      for (const Run& r : e.runs) {
        if (r.variant != v || r.lr != lr) continue;
        ++row.runs;
        row.diverged += r.state == State::diverged;
        row.stopped += r.state == State::stopped;
        if (!r.done()) continue;
        if (auto s = r.steps_to_threshold()) {
          ++row.reached;
          row.steps.push_back(*s);
        }
        row.final_loss.push_back(r.final()["loss"].get<double>());
        row.still_learning += convergence(e, r) == Conv::still_learning;
      }
      if (row.runs) rows.push_back(row);
    }
  return rows;
}

// The highest learning rate that trains the variant, if any does.
std::optional<double> highest_trainable(const std::vector<LrRow>& rows, const std::string& variant) {
  std::optional<double> best;
  for (const LrRow& r : rows)
    if (r.variant == variant && r.trainable()) best = r.lr;
  return best;
}

// The next rate above the variant's highest trainable one (its lowest rate when none trains),
// when that rate is undecided.
std::optional<LrRow> undecided_next(const std::vector<LrRow>& rows, const std::string& variant,
                                    std::optional<double> highest) {
  const LrRow* next = nullptr;
  for (const LrRow& r : rows)
    if (r.variant == variant && (!highest || r.lr > *highest) && (!next || r.lr < next->lr)) next = &r;
  if (next && next->undecided()) return *next;
  return std::nullopt;
}

int diverged_runs(const std::vector<LrRow>& rows, const std::string& variant) {
  int n = 0;
  for (const LrRow& r : rows) n += r.variant == variant ? r.diverged : 0;
  return n;
}

json lr_finding(const Exp& e) {
  const std::vector<LrRow> rows = lr_table(e);
  json table = json::array(), highest = json::object();
  for (const LrRow& r : rows)
    table.push_back({{"variant", r.variant}, {"lr", r.lr}, {"runs", r.runs}, {"reached", r.reached},
                     {"steps_to_loss_0_1", spread(r.steps)}, {"final_loss", spread(r.final_loss)},
                     {"diverged", r.diverged}, {"stopped", r.stopped}, {"still_learning", r.still_learning},
                     {"trainable", r.trainable()}});
  std::optional<double> top;
  for (const std::string& v : e.variants) {
    auto h = highest_trainable(rows, v);
    highest[v] = optional_number(h);
    if (h && (!top || *h > *top)) top = h;
  }
  json tolerant = json::array();
  for (const std::string& v : e.variants)
    if (top && highest[v] == *top) tolerant.push_back(v);
  // Does removing W_o need a smaller rate? "smaller", "same" or "larger" than learned's highest
  // trainable rate; null when either variant is absent or neither trains at any rate.
  json identity_vs_learned = nullptr;
  if (e.has("identity") && e.has("learned")) {
    auto i = highest_trainable(rows, "identity"), l = highest_trainable(rows, "learned");
    if (i || l) identity_vs_learned = !i ? "smaller" : !l ? "larger" : *i < *l ? "smaller" : *i > *l ? "larger" : "same";
  }
  return {{"table", table}, {"highest_trainable_lr", highest}, {"most_tolerant", tolerant},
          {"identity_vs_learned", identity_vs_learned}};
}

// ---- Findings: the comparisons each experiment's verdict speaks about ----

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
          {"still_learning", still_learning(e, {p.a, p.b})}};
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
  if (e.name == "activation_stats") out["scale"] = scale_facts(e).to_json();
  return out;
}

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

json claim(int id, const char* verdict, const char* reason, const Exp* e, json figures = json::object()) {
  return {{"id", id}, {"verdict", verdict}, {"reason", reason},
          {"experiment", e ? json(e->name) : json(nullptr)}, {"figures", std::move(figures)}};
}

json not_tested(int id, const char* reason, const Exp* e = nullptr) { return claim(id, "not_tested", reason, e); }

json pair_figures(const Exp& e, const Pair& p, const MetricPair& m) {
  return {{"comparison", metric_json(e, p, m)}, {"still_learning", still_learning(e, {p.a, p.b})}};
}

const std::vector<std::string> kLearnedVsIdentity = {"remove_wo", "freeze_wo", "gain_vs_learning", "activation_stats"};
const std::vector<std::string> kFrozenRandom = {"freeze_wo", "gain_vs_learning"};

// 1. Without W_o the loss falls clearly slower: learned against identity on speed.
json claim_slower(const std::vector<Exp>& exps) {
  const Exp* e = source(exps, kLearnedVsIdentity, {"learned", "identity"});
  if (!e) return not_tested(1, "experiment_absent");
  Pair p = pair(*e, "learned", "identity");
  if (p.n() == 0) return not_tested(1, "no_pairs", e);
  const MetricPair& m = *p.speed;
  json f = pair_figures(*e, p, m);
  if (m.leader != 1) return claim(1, "not_supported", "not_slower", e, f);
  if (!m.consistent) return claim(1, "partly_supported", "slower_some_seeds", e, f);
  if (m.mean_gap() < kClearSpeedGap) return claim(1, "partly_supported", "slower_small_gap", e, f);
  return claim(1, "supported", "clearly_slower", e, f);
}

// 2. Without W_o final accuracy drops by 5-15%: learned against identity on token accuracy.
json claim_drop(const std::vector<Exp>& exps) {
  const Exp* e = source(exps, kLearnedVsIdentity, {"learned", "identity"});
  if (!e) return not_tested(2, "experiment_absent");
  Pair p = pair(*e, "learned", "identity");
  if (p.n() == 0) return not_tested(2, "no_pairs", e);
  const MetricPair& m = p.by("token_acc");
  json f = pair_figures(*e, p, m);
  if (p.at_ceiling) return claim(2, "not_supported", "both_at_ceiling", e, f);
  if (m.leader != 1) return claim(2, "not_supported", "no_drop", e, f);
  if (!m.consistent) return claim(2, "partly_supported", "drop_some_seeds", e, f);
  if (m.mean_gap() < kClaimedDropLow) return claim(2, "partly_supported", "drop_smaller", e, f);
  if (m.mean_gap() > kClaimedDropHigh) return claim(2, "partly_supported", "drop_larger", e, f);
  return claim(2, "supported", "drop_in_range", e, f);
}

// 3. A frozen random W_o does better than none: frozen_random against identity on performance.
json claim_frozen_better(const std::vector<Exp>& exps) {
  const Exp* e = source(exps, kFrozenRandom, {"frozen_random", "identity"});
  if (!e) return not_tested(3, "experiment_absent");
  Pair p = pair(*e, "frozen_random", "identity");
  if (p.n() == 0) return not_tested(3, "no_pairs", e);
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
  if (m.leader == 1) return claim(3, m.consistent ? "supported" : "partly_supported",
                                  m.consistent ? "frozen_better" : "frozen_better_some_seeds", e, f);
  return claim(3, "not_supported", m.leader == 2 ? "identity_better" : "no_difference", e, f);
}

// 4. ...but far worse than a learned W_o: learned against frozen_random on performance.
json claim_far_worse(const std::vector<Exp>& exps) {
  const Exp* e = source(exps, kFrozenRandom, {"learned", "frozen_random"});
  if (!e) return not_tested(4, "experiment_absent");
  Pair p = pair(*e, "learned", "frozen_random");
  if (p.n() == 0) return not_tested(4, "no_pairs", e);
  const MetricPair& m = *p.performance;
  json f = pair_figures(*e, p, m);
  if (m.leader != 1) return claim(4, "not_supported", "not_worse", e, f);
  if (!m.consistent) return claim(4, "partly_supported", "worse_some_seeds", e, f);
  const double far = m.info->higher_better ? kFarAccuracyGap : kFarSpeedGap;
  if (m.mean_gap() < far) return claim(4, "partly_supported", "worse_not_far", e, f);
  return claim(4, "supported", "far_worse", e, f);
}

const char* by_parts(bool first, bool second) {
  return first && second ? "supported" : first || second ? "partly_supported" : "not_supported";
}

// 5. The learned W_o is neither diagonal-dominant nor uniform; some heads' blocks weigh more.
json claim_structure(const std::vector<Exp>& exps) {
  const Exp* e = source(exps, {"wo_heatmap"}, {"learned"});
  if (!e) return not_tested(5, "experiment_absent");
  WoStructure s = wo_structure(*e);
  if (s.seeds == 0) return not_tested(5, "no_snapshots", e);
  const bool a = s.not_dominant.consistent(), b = s.imbalanced.consistent();
  const char* reason = a && b ? "both_hold" : a ? "not_dominant_only" : b ? "imbalance_only" : "neither_holds";
  return claim(5, by_parts(a, b), reason, e, s.to_json());
}

// 6. W_o regulates the attention output's scale, so the residual sum is steadier.
json claim_scale(const std::vector<Exp>& exps) {
  const Exp* e = source(exps, {"activation_stats", "remove_wo", "freeze_wo"}, {"learned", "identity"});
  if (!e) return not_tested(6, "experiment_absent");
  ScaleFacts s = scale_facts(*e);
  if (s.seeds == 0) return not_tested(6, "no_stats", e);
  const bool a = s.adapts.consistent(), b = s.steadier.consistent();
  const char* reason = a && b ? "both_hold" : a ? "adapts_only" : b ? "steadier_only" : "neither_holds";
  return claim(6, by_parts(a, b), reason, e, s.to_json());
}

// 7. Without W_o training is unstable and may need a much smaller learning rate.
json claim_stability(const std::vector<Exp>& exps) {
  const Exp* e = nullptr;
  for (const Exp& x : exps)
    if (!e && x.name == "lr_stability" && x.has("learned") && x.has("identity")) e = &x;
  if (!e) return not_tested(7, "experiment_absent");
  const std::vector<LrRow> rows = lr_table(*e);
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
  if (!l && !i) return claim(7, "not_tested", "none_trained", e, f);
  const bool smaller = !i || *i < *l;  // (l is set whenever i is not)
  if (smaller && (!i || *l / *i >= kMuchSmallerLr - 1e-9)) return claim(7, "supported", "much_smaller_lr", e, f);
  if (smaller) return claim(7, "partly_supported", "smaller_lr", e, f);
  if (di > dl) return claim(7, "partly_supported", "diverges_more", e, f);
  return claim(7, "not_supported", "not_needed", e, f);
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

json analyze(const std::vector<json>& results) {
  std::vector<Exp> exps;
  for (size_t i = 0; i < results.size(); ++i) exps.push_back(read_experiment(results[i], i));

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
                           {"finding", finding(e)}});
  }

  json claims = {claim_slower(exps),    claim_drop(exps),  claim_frozen_better(exps), claim_far_worse(exps),
                 claim_structure(exps), claim_scale(exps), claim_stability(exps)};
  return {{"format", "wolab-analysis"},
          {"version", 1},
          {"thresholds", thresholds_json()},
          {"experiments", experiments},
          {"claims", claims}};
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
