#include "lab/loss_threshold.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

namespace wolab {

int threshold_window(int steps) {
  return std::clamp(static_cast<int>(std::lround(kSmoothShare * steps)), 1, kThresholdWindow);
}

std::optional<int> steps_to_loss_threshold(const nlohmann::json& curve, int window) {
  const nlohmann::json& steps = curve["step"];
  const nlohmann::json& loss = curve["loss"];
  double sum = 0;
  size_t first = 0;  // the window's first point: (s - window, s] holds first..i
  for (size_t i = 0; i < steps.size(); ++i) {
    const int s = steps[i].get<int>();
    sum += loss[i].get<double>();
    while (steps[first].get<int>() <= s - window) sum -= loss[first++].get<double>();
    if (s >= window && sum / static_cast<double>(i + 1 - first) < kLossThreshold) return s;
  }
  return std::nullopt;
}

}  // namespace wolab
