// The results JSON, schema v2 of docs/results.md: the runs of an experiment, their curves,
// evals, probes, W_o snapshots, OV singular values and final metrics, plus a summary per
// (variant, learning rate). The CLI writes it and the page builds and imports it through Embind,
// so one piece of code builds and judges it everywhere. Version 1 files are still read.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lab/config.h"
#include "run/trainer.h"

namespace wolab {

inline constexpr int kResultsVersion = 2;

// One entry of "runs" for this trainer, as far as it has come (the variant, lr and clip are its
// config's). Once finished, the final metrics of a done or stopped run come from the held-out
// eval at its last step (evaluated now if there is none) and greedy_exact(), which is why the
// trainer is not const; a diverged run's from its last finite eval (null if none), with
// greedy_exact null. A running run's "final" is null, and make_results refuses it. stats, wo
// and ov hold what the trainer kept; each series stops before its first non-finite entry.
// Without `wo_data`, each wo entry leaves out its "data" (the matrix, most of a record that
// keeps W_o): for a caller that copies the matrices from Trainer::wo_snapshots() as numbers
// rather than reading them back from decimal text (the page's worker, docs/worker.md).
nlohmann::json run_record(Trainer& trainer, bool wo_data = true);

// The record's loss curve, {"step": [...], "loss": [...]}, of the per-step losses `loss` (step
// i + 1 at index i) up to the first non-finite one: a point per `every` steps, at the last of
// them, holding their mean (the last point of fewer, at the last finite step). every 1: each step's.
nlohmann::json loss_curve(const std::vector<float>& loss, int every);

// What the trainer measured at its latest probe step (0 before the first), in the record's own
// shapes: {"step", "eval": {"loss", "token_acc", "exact"} or null, "stats": [...], "wo": [...],
// "ov": [...]}. Appending each probe step's fragment to run_record() taken at step 0 (eval
// columns, stats, wo and ov arrays) gives the record's series exactly. `wo_data` as for run_record.
nlohmann::json probe_record(const Trainer& trainer, bool wo_data = true);

// The whole results object of `experiment` (one of experiments(), not "all"): format, version,
// created_by, experiment, the fully defaulted config, the runs and a summary per (variant,
// learning rate) in the experiment's order: mean and sample std over its done runs (lab/spread.h:
// std null for one run, both null for none), with the diverged and stopped runs counted. Each
// run keeps only what the experiment keeps: stats, wo and ov are emptied where the experiment
// does not show them, and each wo entry's head norms are recomputed from its data.
// Throws ConfigError("results: ...") if a run is malformed, running, or not one the
// experiment's plan would train (its variant, lr and clip).
// A run that could not train (its worker failed: the page's) is passed as {variant, seed, lr,
// "status": {"state": kFailedState}, error} and listed under "failed" as {variant, seed, lr,
// error}, which the analysis reads (docs/results.md, "Failed runs"); a document without failures
// has no "failed".
nlohmann::json make_results(const ExperimentConfig& cfg, const std::string& experiment,
                            std::vector<nlohmann::json> runs);

// Why an imported text is refused, so that a page can word each case (docs/api.md): it is not
// JSON, it is JSON cut short (it ends before its last value does: a download or copy that
// stopped partway), it is JSON but not a results file, it is a results file of a version this
// build does not read, or it is a results file with something wrong inside.
enum class ResultsFault { not_json, truncated, not_results, version, damaged };
// "not_json", "truncated", "not_results", "version", "damaged"
const char* fault_code(ResultsFault fault);

// What parse_results and results_from_json throw: a ConfigError whose what() names the place
// ("results: runs[2].curve.loss[7]: ..."), and the fault it is.
struct ResultsError : ConfigError {
  ResultsError(ResultsFault f, const std::string& what) : ConfigError(what), fault(f) {}
  ResultsFault fault;
};

// Throws ConfigError("results: <where>...: <what is wrong>") unless `run` is a saved record
// that `experiment` under cfg trains: the checks parse_results makes of each of its runs.
void check_record(const ExperimentConfig& cfg, const std::string& experiment, const nlohmann::json& run,
                  const std::string& where);

// Checks an imported results text (format, version, config, every run: fields, types, array
// lengths, finite numbers) and returns it normalised as version 2: config fully defaulted,
// version 1 runs converted (docs/results.md), summary and the "wo" entries' head norms
// recomputed from the runs. Throws
// ResultsError("results: <what is wrong>").
nlohmann::json parse_results(const std::string& text);
// The same checks on a document already parsed (analyze() of a JSON array of them).
nlohmann::json results_from_json(const nlohmann::json& document);

// The compact JSON text of a record or results object, in one allocation of its exact size:
// dump() grows its string by doubling, holding up to three times the text at its last growth,
// and a record with W_o snapshots is mostly numbers (estimate_bytes counts this text).
std::string json_text(const nlohmann::json& j);

}  // namespace wolab
