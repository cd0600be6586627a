// Whether each run converged, is still learning or stalled (docs/claims.md, "Convergence").
#include "analysis/verdicts.h"

namespace wolab::verdicts {

namespace {

// A g2p run, judged on its held-out words: still learning while the mean PER of its probes in the
// run's last tenth is lower than in the tenth before by more than kPerStillFalling (a tenth with no
// probe: the last probe before the tail stands for it); else stalled if the last tenth's never
// fell that much below the first probe's, converged if it did. Means, since one probe's PER moves
// by about as much as the margin from one probe to the next even at the schedule's last rates.
Conv g2p_convergence(const Exp& e, const Run& r) {
  const json& per = (*r.record)["eval"]["per"];
  const json& steps = (*r.record)["eval"]["step"];
  if (per.empty()) return Conv::stalled;
  const int tail = step_at(e, kTailShare);
  double last_sum = 0, before_sum = 0;
  int last_n = 0, before_n = 0;
  std::optional<double> before_tail;  // the last probe at or before the tail
  for (size_t i = 0; i < per.size() && i < steps.size(); ++i) {
    const int s = steps[i].get<int>();
    const double v = per[i].get<double>();
    if (s > e.steps - tail) {
      last_sum += v;
      ++last_n;
    } else {
      before_tail = v;
      if (s > e.steps - 2 * tail) {
        before_sum += v;
        ++before_n;
      }
    }
  }
  const double last = last_n ? last_sum / last_n : per.back().get<double>();
  const std::optional<double> before = before_n ? std::optional<double>(before_sum / before_n) : before_tail;
  if (before && *before - last > kPerStillFalling) return Conv::still_learning;
  return per.front().get<double>() - last > kPerStillFalling ? Conv::converged : Conv::stalled;
}

}  // namespace

// Real words: g2p_convergence. Else at the ceiling: converged. Else still learning if the tail of the run still improved (loss or
// held-out accuracy); else converged if it reached the loss threshold, stalled if not.
Conv convergence(const Exp& e, const Run& r) {
  if (e.g2p) return g2p_convergence(e, r);
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
  return threshold_step(e, r) ? Conv::converged : Conv::stalled;
}

VariantConvergence convergence_of(const Exp& e, const std::string& variant, std::optional<double> lr) {
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

}  // namespace wolab::verdicts
