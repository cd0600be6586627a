// Paired comparisons: two variants of one experiment, metric by metric, seed by seed
// (docs/claims.md, "Paired comparisons").
#include "analysis/verdicts.h"

#include <cmath>
#include <stdexcept>

namespace wolab::verdicts {

namespace {

// Accuracies first, then speed: steps to the threshold and the smoothed loss at fixed steps.
const MetricInfo kMetrics[] = {
    {"token_acc", true, 0, true},      {"exact", true, 0, true},         {"steps_to_loss_0_1", false, 0, false},
    {"loss_at_25", false, 0.25, false}, {"loss_at_50", false, 0.5, false}, {"loss_at_100", false, 1.0, false},
};
// Real words (g2p) add their error rates on every held-out word (final.heldout_words), and the
// held-out PER over the whole run, their speed (per_area).
const MetricInfo kWordMetrics[] = {{"per", false, 0, true}, {"wer", false, 0, true}, {"per_area", false, 0, false}};
bool is_steps(const MetricInfo& m) { return std::string(m.name) == "steps_to_loss_0_1"; }
bool is_per_area(const MetricInfo& m) { return std::string(m.name) == "per_area"; }
bool is_word_rate(const MetricInfo& m) { return std::string(m.name) == "per" || std::string(m.name) == "wer"; }

// The area under the run's held-out PER curve (eval.per at eval.step, trapezoids) over the steps
// its probes span: its mean held-out PER over the run, lower for a run that learned sooner.
double per_area(const json& record) {
  const json &steps = record["eval"]["step"], &per = record["eval"]["per"];
  const size_t n = std::min(steps.size(), per.size());
  if (n == 1) return per[0].get<double>();
  double area = 0;
  for (size_t i = 1; i < n; ++i)
    area += (steps[i].get<double>() - steps[i - 1].get<double>()) * (per[i].get<double>() + per[i - 1].get<double>()) / 2;
  return area / (steps[n - 1].get<double>() - steps[0].get<double>());
}

// A finished run's value; nullopt only for steps to a threshold the run never reached.
std::optional<double> value_of(const Exp& e, const Run& r, const MetricInfo& m) {
  if (is_steps(m)) return threshold_step(e, r);
  if (m.share > 0) return window_loss(*r.record, step_at(e, m.share), smooth_window(e));
  if (is_per_area(m)) return per_area(*r.record);
  if (is_word_rate(m)) return r.final()["heldout_words"][m.name].get<double>();
  return r.final()[m.name].get<double>();
}

enum class Side { a, b, tie, neither };

Side compare(const MetricInfo& m, std::optional<double> a, std::optional<double> b) {
  if (!a && !b) return Side::neither;
  if (!a) return Side::b;  // only a threshold can be missed, and reaching it wins
  if (!b) return Side::a;
  if (m.points && std::fabs(*a - *b) <= (is_word_rate(m) ? kWordRateTie : kAccuracyTie)) return Side::tie;
  if (m.points || m.higher_better) return (*a > *b) == m.higher_better ? Side::a : Side::b;
  if (std::fabs(*a - *b) <= kRelativeTie * std::min(*a, *b)) return Side::tie;
  return *a < *b ? Side::a : Side::b;
}

// The gap in x's favour over the other: points of accuracy, or the other's extra steps or loss
// relative to x's. A threshold never reached counts as the run's length, so a gap involving one
// is a lower bound.
std::optional<double> gap(const MetricInfo& m, double x, double other) {
  if (m.points) return m.higher_better ? x - other : other - x;
  if (x <= 0) return other <= 0 ? std::optional<double>(0) : std::nullopt;
  return (other - x) / x;
}

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
  const double censored = e.steps;
  for (const auto& s : p.seeds) {
    if (!s.a && !s.b) continue;
    const double a = s.a.value_or(censored), b = s.b.value_or(censored);
    if (m.points) p.effects.push_back(a - b);
    else if (a > 0 && b > 0) p.effects.push_back(std::log(a / b));
  }
  p.effect = paired_effect(p.effects);
  const double half = p.n() / 2.0, needed = kConsistentShare * p.n() - 1e-9;
  // The variant ahead in more than half the seeds leads only if the mean effect favours it too:
  // a majority of small leads against one large loss is no lead.
  const int majority = p.ahead_a > half ? 1 : p.ahead_b > half ? 2 : 0;
  if (majority) {
    p.leader = majority;
    if (p.advantage().n == 0 || p.advantage().mean <= 0) p.leader = 0;
  }
  if (p.leader)
    for (const auto& s : p.seeds) {
      if (!s.a && !s.b) continue;
      const double a = s.a.value_or(censored), b = s.b.value_or(censored);
      if (auto g = p.leader == 1 ? gap(m, a, b) : gap(m, b, a)) p.gaps.push_back(*g);
    }
  p.consistent = p.leader != 0 && p.leader_ahead() >= needed;
  return p;
}

}  // namespace

Pair pair(const Exp& e, const std::string& a, const std::string& b) {
  Pair p;
  p.a = a;
  p.b = b;
  std::vector<std::pair<const Run*, const Run*>> runs;
  bool still_a = false, still_b = false;
  for (uint64_t seed : e.seeds()) {
    const Run *ra = e.find(a, seed), *rb = e.find(b, seed);
    if (!ra || !rb) continue;
    if (ra->done() && rb->done()) {
      runs.emplace_back(ra, rb);
      still_a = still_a || convergence(e, *ra) == Conv::still_learning;
      still_b = still_b || convergence(e, *rb) == Conv::still_learning;
      continue;
    }
    ++p.excluded;
    p.diverged_a += ra->state == State::diverged;
    p.diverged_b += rb->state == State::diverged;
    p.stopped_a += ra->state == State::stopped;
    p.stopped_b += rb->state == State::stopped;
  }
  if (still_a) p.still_learning.push_back(a);
  if (still_b) p.still_learning.push_back(b);
  for (const MetricInfo& m : kMetrics) p.metrics.push_back(compare_metric(e, m, runs));
  if (e.g2p)
    for (const MetricInfo& m : kWordMetrics) p.metrics.push_back(compare_metric(e, m, runs));
  const MetricPair& steps = p.by("steps_to_loss_0_1");
  // On real words the held-out PER over the run measures speed: the training loss keeps falling
  // while a model memorises its training words. Otherwise steps to the threshold do when every
  // seed decided it (at least one run reached it); else some runs were still on their way, and
  // how far each got, its loss at the end, measures speed.
  p.speed = e.g2p ? &p.by("per_area") : steps.n() > 0 && steps.neither == 0 ? &steps : &p.by("loss_at_100");
  const MetricPair& acc = p.by("token_acc");
  p.at_ceiling = acc.n() > 0;
  for (const auto& s : acc.seeds) p.at_ceiling = p.at_ceiling && *s.a >= kCeilingAccuracy && *s.b >= kCeilingAccuracy;
  // Accuracy at the ceiling says nothing, and a run still learning has no final accuracy yet.
  p.final_accuracy = &p.by(accuracy_metric(e));
  p.performance = p.at_ceiling || !p.still_learning.empty() ? p.speed : p.final_accuracy;
  return p;
}

const char* accuracy_metric(const Exp& e) { return e.g2p ? "per" : "token_acc"; }

namespace {

std::string leader_name(const Pair& p, const MetricPair& m) {
  return m.leader == 1 ? p.a : m.leader == 2 ? p.b : "";
}

}  // namespace

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
              {"effect", m.effect.to_json(m.log_ratio())},
              {"advantage", m.advantage().to_json(m.log_ratio())},
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
          {"still_learning", p.still_learning},
          {"speed", p.speed->info->name},
          {"performance", p.performance->info->name},
          {"metrics", metrics}};
}

}  // namespace wolab::verdicts
