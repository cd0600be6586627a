#include "lab/spread.h"

#include <algorithm>
#include <cmath>

namespace wolab {

double mean(const std::vector<double>& xs) {
  double s = 0;
  for (double x : xs) s += x;
  return xs.empty() ? 0 : s / xs.size();
}

std::optional<Spread> spread_of(const std::vector<double>& xs) {
  if (xs.empty()) return std::nullopt;
  Spread s;
  s.n = xs.size();
  s.mean = mean(xs);
  s.min = *std::min_element(xs.begin(), xs.end());
  s.max = *std::max_element(xs.begin(), xs.end());
  double ss = 0;  // squared deviations from the mean
  for (double x : xs) ss += (x - s.mean) * (x - s.mean);
  if (s.n > 1) s.sd = std::sqrt(ss / (s.n - 1));
  s.population_sd = std::sqrt(ss / s.n);
  return s;
}

}  // namespace wolab
