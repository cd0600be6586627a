// Claim 9's facts: how evenly the gradient reaching the heads is shared among them, with W_o
// and without (docs/claims.md).
#include "analysis/verdicts.h"

#include <cmath>

namespace wolab::verdicts {

namespace {

// The coefficient of variation across the heads of the gradient norm at the concat (population
// sd / mean: the heads are the whole set, not a sample), mean over the run's probes and layers.
std::optional<double> head_grad_cv(const Run& r) {
  std::vector<double> cvs;
  for (const json& p : (*r.record)["stats"]) {
    const std::optional<Spread> s = spread_of(p["head_grad_norm"].get<std::vector<double>>());
    if (s && s->mean > 0) cvs.push_back(s->population_sd / s->mean);
  }
  return cvs.empty() ? std::nullopt : std::optional<double>(mean(cvs));
}

}  // namespace

ValveFacts valve_facts(const Exp& e) {
  ValveFacts s;
  if (e.heads < 2) return s;  // one head shares nothing
  for (uint64_t seed : e.seeds()) {
    const Run *l = e.find("learned", seed), *i = e.find("identity", seed);
    if (!l || !i || !l->done() || !i->done()) continue;
    auto cl = head_grad_cv(*l), ci = head_grad_cv(*i);
    if (!cl || !ci) continue;
    ++s.seeds;
    s.cv_learned.push_back(*cl);
    s.cv_identity.push_back(*ci);
    ++s.reshapes.n;
    ++s.balances.n;
    // A tie as for steps and losses: within kRelativeTie of the smaller. Balancing is reshaping
    // towards a lower spread, so a seed that balances also reshapes.
    const bool differs = std::fabs(*cl - *ci) > kRelativeTie * std::min(*cl, *ci);
    s.reshapes.holds += differs;
    s.balances.holds += differs && *cl < *ci;
  }
  return s;
}

}  // namespace wolab::verdicts
