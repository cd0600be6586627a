// What W_o is for: learned's lead over identity, decomposed by the controls of experiments
// wo_purpose and words_purpose (docs/claims.md, "What W_o is for"): per control, its own paired
// gap to identity as a share of learned's, with a 95% interval over seeds.
#include "analysis/verdicts.h"

#include <algorithm>
#include <random>

namespace wolab::verdicts {

namespace {

// The measure read: on real words the final PER on every held-out word (points); on the toy tasks
// the steps to loss < 0.1 (claim 1's, its smoothed mean) when every finished run reached it, so
// that runs trained until their loss underflows still compare, else the training loss at the
// end (its smoothed window); both as a log ratio.
const char* measure_of(const Exp& e) {
  if (e.g2p) return "per";
  for (const Run& r : e.runs)
    if (r.done() && !threshold_step(e, r)) return "loss_at_100";
  return "steps_to_loss_0_1";
}

// Per seed, identity's value against `variant`'s, in the variant's favour: identity's PER minus
// the variant's, or ln(identity's loss / the variant's). Seeds where either has no value are left
// out (std::nullopt).
std::vector<std::optional<double>> favours(const Exp& e, const std::string& variant, const std::vector<uint64_t>& seeds) {
  const Pair p = pair(e, "identity", variant);
  const MetricPair& m = p.by(measure_of(e));
  std::vector<std::optional<double>> out;
  for (uint64_t seed : seeds) {
    std::optional<double> x;
    for (const MetricPair::Seed& s : m.seeds)
      if (s.seed == seed && s.a && s.b && (m.info->points || (*s.a > 0 && *s.b > 0)))
        x = m.info->points ? *s.a - *s.b : std::log(*s.a / *s.b);
    out.push_back(x);
  }
  return out;
}

// The ratio of the means, mean(gap) / mean(lead), and its 95% percentile interval from
// kShareResamples resamples of the seeds with replacement (a ratio of two paired means has no t
// interval). The generator is std::mt19937 seeded with kShareBootstrapSeed, its draws taken
// modulo n: the same resamples on every platform. A resample whose lead is not positive has no
// ratio; with more than 5% of them so, no interval.
json share_of(const std::vector<double>& gap, const std::vector<double>& lead) {
  const size_t n = lead.size();
  const auto mean = [](const std::vector<double>& xs, const std::vector<size_t>& at) {
    double s = 0;
    for (size_t i : at) s += xs[i];
    return s / at.size();
  };
  std::vector<size_t> all(n);
  for (size_t i = 0; i < n; ++i) all[i] = i;
  const double share = mean(gap, all) / mean(lead, all);
  std::mt19937 rng(kShareBootstrapSeed);
  std::vector<double> ratios;
  std::vector<size_t> at(n);
  for (int b = 0; b < kShareResamples; ++b) {
    for (size_t& i : at) i = rng() % n;
    const double l = mean(lead, at);
    if (l > 0) ratios.push_back(mean(gap, at) / l);
  }
  json out = {{"mean", share}, {"lo", nullptr}, {"hi", nullptr}, {"resamples", kShareResamples},
              {"without_lead", kShareResamples - static_cast<int>(ratios.size())}};
  if (n < 2 || ratios.size() < 0.95 * kShareResamples) return out;
  std::sort(ratios.begin(), ratios.end());
  const auto at_quantile = [&](double q) { return ratios[static_cast<size_t>(q * (ratios.size() - 1) + 0.5)]; };
  out["lo"] = at_quantile(0.025);
  out["hi"] = at_quantile(0.975);
  return out;
}

// "most" when the share's interval lies at or above kRecoversMost, "little" when at or below it,
// "unsure" when it spans it; null without an interval.
json reading_of(const json& share) {
  if (share["lo"].is_null()) return nullptr;
  if (share["lo"].get<double>() >= kRecoversMost) return "most";
  if (share["hi"].get<double>() <= kRecoversMost) return "little";
  return "unsure";
}

}  // namespace

json decomposition(const Exp& e) {
  if (!e.has("learned") || !e.has("identity")) return nullptr;
  // The seeds where learned, identity and every control finished.
  std::vector<std::string> controls;
  for (const std::string& v : e.variants)
    if (v != "learned" && v != "identity") controls.push_back(v);
  std::vector<uint64_t> seeds = e.seeds();
  const auto lead_by_seed = favours(e, "learned", seeds);
  std::vector<std::vector<std::optional<double>>> by_control;
  for (const std::string& c : controls) by_control.push_back(favours(e, c, seeds));
  std::vector<double> lead;
  std::vector<std::vector<double>> gaps(controls.size());
  for (size_t s = 0; s < seeds.size(); ++s) {
    bool all = lead_by_seed[s].has_value();
    for (const auto& g : by_control) all = all && g[s].has_value();
    if (!all) continue;
    lead.push_back(*lead_by_seed[s]);
    for (size_t c = 0; c < controls.size(); ++c) gaps[c].push_back(*by_control[c][s]);
  }
  const bool log_ratio = !e.g2p;
  const Effect lead_effect = paired_effect(lead);
  // Learned's lead is decomposed only where it is real: its interval wholly above zero.
  const bool decided = lead_effect.lo && *lead_effect.lo > 0;
  json rows = json::array();
  for (size_t c = 0; c < controls.size(); ++c) {
    json share = decided ? share_of(gaps[c], lead) : json(nullptr);
    rows.push_back({{"variant", controls[c]},
                    {"effect", paired_effect(gaps[c]).to_json(log_ratio)},
                    {"share", share},
                    {"reading", share.is_null() ? json(nullptr) : reading_of(share)}});
  }
  // The question the decomposition answers first: does mixing the heads matter?
  std::string code = "lead_too_small";
  if (decided) {
    const auto mixing = std::find_if(rows.begin(), rows.end(), [](const json& r) { return r["variant"] == "block_diagonal"; });
    const json reading = mixing == rows.end() ? json(nullptr) : (*mixing)["reading"];
    code = reading == "most" ? "mixing_adds_little" : reading == "little" ? "mixing_matters" : "mixing_unsure";
  }
  return {{"measure", measure_of(e)},
          {"n", lead.size()},
          {"lead", lead_effect.to_json(log_ratio)},
          {"decided", decided},
          {"controls", rows},
          {"code", code}};
}

}  // namespace wolab::verdicts
