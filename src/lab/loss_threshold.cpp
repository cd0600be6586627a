#include "lab/loss_threshold.h"

#include <nlohmann/json.hpp>

namespace wolab {

std::optional<int> steps_to_loss_threshold(const nlohmann::json& curve) {
  const nlohmann::json& steps = curve["step"];
  const nlohmann::json& loss = curve["loss"];
  double sum = 0;
  size_t first = 0;  // the window's first point: (s - kThresholdWindow, s] holds first..i
  for (size_t i = 0; i < steps.size(); ++i) {
    const int s = steps[i].get<int>();
    sum += loss[i].get<double>();
    while (steps[first].get<int>() <= s - kThresholdWindow) sum -= loss[first++].get<double>();
    if (s >= kThresholdWindow && sum / static_cast<double>(i + 1 - first) < kLossThreshold) return s;
  }
  return std::nullopt;
}

}  // namespace wolab
