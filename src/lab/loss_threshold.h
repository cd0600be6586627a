// Steps to a training loss under kLossThreshold, read one way for the results' summary
// (docs/results.md) and the analysis (docs/claims.md): on the loss's trailing mean over
// threshold_window steps, so that one easy batch (a fresh batch every step makes one step's loss
// noisy) cannot decide it.
#pragma once

#include <optional>

#include <nlohmann/json_fwd.hpp>

namespace wolab {

inline constexpr double kLossThreshold = 0.1;
inline constexpr int kThresholdWindow = 10;
// The share of a run its training loss is smoothed over: the analysis' loss at a step, and the
// threshold's window in a run too short for kThresholdWindow steps.
inline constexpr double kSmoothShare = 0.05;

// The trailing mean's window in a run of `steps` steps: kThresholdWindow, or kSmoothShare of a
// shorter run (at least 1 step): a 25-step run cannot wait 10 steps for its mean to catch up.
int threshold_window(int steps);

// The first step s >= window whose mean training loss over the curve's points with steps in
// (s - window, s] is below kLossThreshold, or nullopt. `curve` is a run record's {"step": [...],
// "loss": [...]} (a point per train.loss_every steps holding their mean).
std::optional<int> steps_to_loss_threshold(const nlohmann::json& curve, int window);

}  // namespace wolab
