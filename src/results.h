// The results JSON, schema v1 of spec.md: runs of an experiment, their curves, evals, probes,
// W_o snapshots and final metrics, plus a summary per variant. The CLI writes it and the page
// builds and imports it through Embind, so one piece of code builds and judges it everywhere.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config.h"
#include "trainer.h"

namespace wolab {

// One entry of "runs" for a finished trainer (throws std::logic_error while it is running).
// Final metrics come from the held-out eval at the last step (evaluated now if there is none)
// and greedy_exact(), which is why the trainer is not const. For a diverged run they come from
// its last finite eval (null if none) and greedy_exact is null. W_o snapshots are kept only
// when keep_wo (experiment wo_heatmap); non-finite values are never written.
nlohmann::json run_record(Trainer& trainer, WoMode variant, bool keep_wo);

// The whole results object of `experiment` (one of the four): format, version, created_by,
// experiment, the fully defaulted config, the runs and a summary per variant (mean and sample
// std over its runs that did not diverge; null where none did). Throws ConfigError("results:
// ...") if a run is malformed.
nlohmann::json make_results(const ExperimentConfig& cfg, const std::string& experiment,
                            std::vector<nlohmann::json> runs);

// Checks an imported results text (format, version, config, every run: fields, types, array
// lengths, finite numbers) and returns it normalised: config fully defaulted, summary
// recomputed from the runs. Throws ConfigError("results: <what is wrong>").
nlohmann::json parse_results(const std::string& text);

}  // namespace wolab
