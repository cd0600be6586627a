// Shard files: one slice of an experiment plan trained on its own (`wolab run --shard K/N`),
// and their merge into the results files the whole plan trained at once writes (`wolab merge`,
// docs/sweeps.md). A shard file names its plan (the fully defaulted config and a digest of
// the plan) and its slice, so that merge can refuse slices of different plans or versions, a
// slice missing or given twice, and a file that is not whole.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lab/config.h"

namespace wolab {

inline constexpr int kShardVersion = 1;

// Slice `index` (1-based) of `count`, as shard_plan (lab/plan.h) cuts plan_runs(cfg,
// {cfg.experiment}), with `records` the run_record of each of its runs in plan order:
// {"format": "wolab-shard", "version": 1, "created_by": "wolab 0.1.0",
//  "plan": {"digest": "<16 hex digits>", "runs": 12, "config": {...}},
//  "slice": {"index": 2, "count": 3, "runs": [plan indices]}, "records": [...]}.
// Throws ConfigError if cfg is invalid, the slice is not one of the plan's, or the records
// are not its runs.
nlohmann::json shard_file(const ExperimentConfig& cfg, int index, int count, std::vector<nlohmann::json> records);

// A shard file's name (for messages) and its text.
struct ShardText {
  std::string name;
  std::string text;
};

struct Merged {
  ExperimentConfig config;             // the plan's; config.experiment may be "all"
  std::vector<nlohmann::json> results;  // one results JSON per experiment, as run_experiment returns
};

// Joins the shard files of one plan, every slice once, into the results of the whole plan:
// identical to what run_experiment returns for the plan's config. Throws ConfigError with one
// line "merge: <name>: <what>" naming the file at fault: not a shard file, corrupt, another
// version of wolab or of the format, a slice of another plan than the first file's, a slice
// given twice; or "merge: slice K/N missing ..." naming the slices no file holds.
Merged merge_shards(const std::vector<ShardText>& files);

}  // namespace wolab
