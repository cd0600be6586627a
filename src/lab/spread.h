// The mean and spread of a metric over seeds, computed one way for the results' summary
// (docs/results.md) and the analysis' figures (docs/claims.md), so the two never disagree on
// what one seed, or none, shows.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace wolab {

// The arithmetic mean; 0 for no value (callers that may have none check first, or use spread_of).
double mean(const std::vector<double>& xs);

struct Spread {
  size_t n = 0;
  double mean = 0, min = 0, max = 0;
  // The sample standard deviation (n - 1): the seeds run are a sample of the seeds one could
  // run, and the sd estimates how far another seed would land. None for one value: one seed has
  // no spread to show, and 0 would claim a second seed would land on the same value.
  std::optional<double> sd;
  // The population standard deviation (n), for values that are the whole series they describe
  // (every probe of one run: how much it moved), not a sample of seeds. Never the spread over
  // seeds.
  double population_sd = 0;
};

// nullopt for no value.
std::optional<Spread> spread_of(const std::vector<double>& xs);

}  // namespace wolab
