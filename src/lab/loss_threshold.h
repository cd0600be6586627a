// Steps to a training loss under kLossThreshold, read one way for the results' summary
// (docs/results.md) and the analysis (docs/claims.md): on the loss's trailing mean over
// kThresholdWindow steps, so that one easy batch (a fresh batch every step makes one step's loss
// noisy) cannot decide it.
#pragma once

#include <optional>

#include <nlohmann/json_fwd.hpp>

namespace wolab {

inline constexpr double kLossThreshold = 0.1;
inline constexpr int kThresholdWindow = 10;

// The first step s >= kThresholdWindow whose mean training loss over the curve's points with
// steps in (s - kThresholdWindow, s] is below kLossThreshold, or nullopt. `curve` is a run
// record's {"step": [...], "loss": [...]} (a point per train.loss_every steps holding their mean).
std::optional<int> steps_to_loss_threshold(const nlohmann::json& curve);

}  // namespace wolab
