// Claim 9's facts: how evenly the gradient reaching the heads is shared among them, with W_o
// and without (docs/claims.md).
#include "analysis/verdicts.h"

#include <cmath>

namespace wolab::verdicts {

namespace {

// The coefficient of variation across the heads of the gradient norm at the concat (population
// sd / mean: the heads are the whole set, not a sample), mean over the run's probes and layers;
// with first_only, over the layers of its first probe alone.
std::optional<double> head_grad_cv(const Run& r, bool first_only) {
  std::vector<double> cvs;
  std::optional<int> first;
  for (const json& p : (*r.record)["stats"])
    if (!first || p["step"].get<int>() < *first) first = p["step"].get<int>();
  for (const json& p : (*r.record)["stats"]) {
    if (first_only && p["step"].get<int>() != *first) continue;
    const std::optional<Spread> s = spread_of(p["head_grad_norm"].get<std::vector<double>>());
    if (s && s->mean > 0) cvs.push_back(s->population_sd / s->mean);
  }
  return cvs.empty() ? std::nullopt : std::optional<double>(mean(cvs));
}

// Two CVs differ when apart by more than kRelativeTie of the smaller (a tie as for steps and
// losses).
bool differ(double a, double b) { return std::fabs(a - b) > kRelativeTie * std::min(a, b); }

}  // namespace

ValveFacts valve_facts(const Exp& e) {
  ValveFacts s;
  if (e.heads < 2) return s;  // one head shares nothing
  for (uint64_t seed : e.seeds()) {
    const Run *l = e.find("learned", seed), *i = e.find("identity", seed);
    if (!l || !i || !l->done() || !i->done()) continue;
    auto cl = head_grad_cv(*l, false), ci = head_grad_cv(*i, false);
    auto fl = head_grad_cv(*l, true), fi = head_grad_cv(*i, true);
    if (!cl || !ci) continue;
    ++s.seeds;
    s.cv_learned.push_back(*cl);
    s.cv_identity.push_back(*ci);
    s.cv_learned_first.push_back(*fl);
    s.cv_identity_first.push_back(*fi);
    ++s.reshapes.n;
    ++s.balances.n;
    // Balancing is reshaping towards a lower spread, so a seed that balances also reshapes. Each
    // part that held at the first probe already held as W_o was initialised, not as it learned.
    const bool differs = differ(*cl, *ci), differed = differ(*fl, *fi);
    s.reshapes.holds += differs;
    s.reshapes.held_at_init += differs && differed;
    const bool balances = differs && *cl < *ci, balanced = differed && *fl < *fi;
    s.balances.holds += balances;
    s.balances.held_at_init += balances && balanced;
  }
  return s;
}

}  // namespace wolab::verdicts
