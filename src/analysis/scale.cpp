// Claims 6's and 8's facts: the scale around W_o, from the activation statistics, and
// experiment 4's early-versus-late table (docs/claims.md).
#include "analysis/verdicts.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "config/run_config.h"

namespace wolab::verdicts {

namespace {

// Per layer, the probes in step order.
std::map<int, std::vector<const json*>> probes_by_layer(const Run& r) {
  std::map<int, std::vector<const json*>> out;
  for (const json& p : (*r.record)["stats"]) out[p["layer"].get<int>()].push_back(&p);
  for (auto& [layer, list] : out)
    std::sort(list.begin(), list.end(), [](const json* x, const json* y) { return (*x)["step"] < (*y)["step"]; });
  return out;
}

// Coefficient of variation over the probes of the residual sum's std (population sd / mean):
// how much the scale of x + W_o(concat) moves during training. Mean over layers. Not a spread
// over seeds: the probes are the whole series of one run, described rather than sampled, so
// the population sd (lab/spread.h).
std::optional<double> residual_cv(const Run& r) {
  std::vector<double> per_layer;
  for (const auto& [layer, probes] : probes_by_layer(r)) {
    if (probes.size() < 2) continue;
    std::vector<double> stds;
    for (const json* p : probes) stds.push_back((*p)["residual"]["std"].get<double>());
    const Spread s = *spread_of(stds);
    if (s.mean > 0) per_layer.push_back(s.population_sd / s.mean);
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

// At the first probe, mean over layers: std(W_o(concat)) / std(concat), and the attention
// output's share of the residual sum, std(W_o(concat)) / std(x + W_o(concat)); and that step.
struct FirstProbe {
  double ratio = 0, share = 0;
  int step = 0;
};
std::optional<FirstProbe> first_probe(const Run& r) {
  std::vector<double> ratios, shares;
  int step = 0;
  for (const auto& [layer, probes] : probes_by_layer(r)) {
    const json& p = *probes.front();
    const double c = p["concat"]["std"].get<double>(), res = p["residual"]["std"].get<double>();
    if (c <= 0 || res <= 0) continue;
    ratios.push_back(p["wo_out"]["std"].get<double>() / c);
    shares.push_back(p["wo_out"]["std"].get<double>() / res);
    step = p["step"].get<int>();
  }
  if (ratios.empty()) return std::nullopt;
  return FirstProbe{mean(ratios), mean(shares), step};
}

// The root mean square of the run's W_o singular values at step 0 (wo_sv), mean over layers: the
// factor by which its step-0 W_o scales an input with no preferred direction, what
// std(W_o(concat)) / std(concat) would read at step 0. nullopt without wo_sv.
std::optional<double> init_gain(const Run& r) {
  const json& sv = member_or_null(*r.record, "wo_sv");
  if (!sv.is_array() || sv.empty()) return std::nullopt;
  std::vector<double> per_layer;
  for (const json& layer : sv) {
    double sum = 0;
    for (const json& x : layer) sum += x.get<double>() * x.get<double>();
    if (!layer.empty()) per_layer.push_back(std::sqrt(sum / static_cast<double>(layer.size())));
  }
  return per_layer.empty() ? std::nullopt : std::optional<double>(mean(per_layer));
}

}  // namespace

EarlyFacts early_facts(const Exp& e) {
  EarlyFacts s;
  for (uint64_t seed : e.seeds()) {
    const Run *l = e.find("learned", seed), *i = e.find("identity", seed);
    if (!l || !i || !l->done() || !i->done()) continue;
    auto fl = first_probe(*l), fi = first_probe(*i);
    if (!fl || !fi) continue;
    s.step = s.seeds == 0 ? fl->step : std::min(s.step, fl->step);
    ++s.seeds;
    s.ratio.push_back(fl->ratio);
    s.share_learned.push_back(fl->share);
    s.share_identity.push_back(fi->share);
    ++s.small.n;
    ++s.protects.n;
    const bool small = fl->ratio < 1 - kScaleChange;
    s.small.holds += small;
    // Small as initialised: the step-0 W_o already scales its input below 1 - kScaleChange
    // (PyTorch's default init gives about 0.58).
    if (auto g = init_gain(*l)) {
      s.ratio_init.push_back(*g);
      s.small.held_at_init += small && *g < 1 - kScaleChange;
    }
    s.protects.holds += fl->share < fi->share * (1 - kRelativeTie);
  }
  return s;
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

json early_late(const Exp& e) {
  json rows = json::array();
  for (const std::string& v : e.variants) {
    std::vector<const json*> stats;  // per run of the variant, its "stats"
    int early = 0, late = -1;
    std::set<int> layers;
    for (const Run& r : e.runs) {
      if (r.variant != v) continue;
      stats.push_back(&(*r.record)["stats"]);
      for (const json& p : *stats.back()) {
        const int step = p["step"].get<int>();
        early = late < 0 ? step : std::min(early, step);
        late = std::max(late, step);
        layers.insert(p["layer"].get<int>());
      }
    }
    if (late < 0) continue;
    for (int layer : layers)
      for (const char* site : {"concat", "wo_out", "residual"}) {
        // The mean over the variant's runs that have a probe of the layer at that step.
        auto at = [&](int step, const char* field) {
          std::vector<double> xs;
          for (const json* list : stats)
            for (const json& p : *list)
              if (p["step"] == step && p["layer"] == layer) xs.push_back(p[site][field].get<double>());
          return xs.empty() ? json(nullptr) : json(mean(xs));
        };
        const json early_std = at(early, "std"), late_std = at(late, "std");
        // late / early of the std: how far training moved the site's scale. A mean, crossing
        // zero, has no such ratio.
        const json ratio = early_std.is_number() && late_std.is_number() && early_std.get<double>() > 0
                               ? json(late_std.get<double>() / early_std.get<double>())
                               : json(nullptr);
        json row = {{"variant", v}, {"layer", layer}, {"site", site}, {"early_step", early}, {"late_step", late},
                    {"early_mean", at(early, "mean")}, {"early_std", early_std},
                    {"late_mean", at(late, "mean")}, {"late_std", late_std}, {"std_ratio", ratio}};
        // Without W_o its output is the concat itself: the row repeats the concat's.
        const auto mode = wo_mode_from_string(v);
        if (std::string(site) == "wo_out" && mode && wo_absent(*mode)) row["same_as"] = "concat";
        rows.push_back(row);
      }
  }
  return rows;
}

json early_late_reading(const json& rows) {
  const json* most = nullptr;
  double most_change = 0;
  for (const json& r : rows) {
    if (r.contains("same_as") || !r["std_ratio"].is_number()) continue;
    const double change = std::fabs(std::log(r["std_ratio"].get<double>()));
    if (!most || change > most_change) most = &r, most_change = change;
  }
  if (!most) return nullptr;
  const double ratio = (*most)["std_ratio"].get<double>();
  return {{"variant", (*most)["variant"]}, {"layer", (*most)["layer"]}, {"site", (*most)["site"]},
          {"std_ratio", ratio},
          {"change", ratio > 1 + kScaleChange ? "grows" : ratio < 1 - kScaleChange ? "shrinks" : "keeps"}};
}

}  // namespace wolab::verdicts
