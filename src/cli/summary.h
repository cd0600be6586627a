// The summary table `wolab run` prints on stdout for each experiment's results.
#pragma once

#include <nlohmann/json.hpp>

namespace wolab::cli {

// A row per variant (and learning rate, where the experiment sweeps it): the means and spread
// of its done runs, then a line for each run that did not finish.
void print_summary(const nlohmann::json& results);

}  // namespace wolab::cli
