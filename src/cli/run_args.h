// The flags of `wolab run`, which `wolab plan` reads too (it prints run commands): parsed and
// validated into a plan before anything trains.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/args.h"
#include "lab/config.h"
#include "lab/plan.h"
#include "run/g2p.h"

namespace wolab::cli {

// What the flags of `wolab run` (and of `wolab plan`, which prints run commands) ask for.
struct RunArgs {
  ExperimentConfig cfg;  // validated
  std::string out, checkpoint;
  std::string checkpoints;  // --save-checkpoints: the folder of every run's model
  std::string data;  // the lexicon file of a g2p plan (--data, else the build's); empty for other tasks
  int jobs = 1;
  std::optional<ShardSpec> shard;
  // Where the settings come from, for a line before the runs: "preset quick", "--config FILE", or
  // the defaults (docs/config.md), which are none of the page's presets.
  std::string settings_from;
};

// Throws ConfigError naming the first bad flag or setting.
RunArgs parse_run_args(const std::vector<std::pair<std::string, std::string>>& flags);

// The lexicon at `path` and its split, read once and shared by all the runs of a g2p plan; null
// for an empty path (other tasks). A missing, truncated or corrupt file is one line naming --data.
std::shared_ptr<const G2pData> load_g2p(const std::string& path);

// --save-checkpoints DIR: the file of each run of the plan, in plan order, DIR/<variant>.seed<N>.safetensors;
// none without DIR. A plan with two runs of one variant and seed (a learning-rate sweep, or
// experiments on different tasks) is refused, since their names would clash.
std::vector<std::string> checkpoint_paths(const ExperimentConfig& cfg, const std::string& dir);

// --out is required here, for the reason `why` gives (with an example).
void require_out(const RunArgs& a, const std::string& why);

// The slices of the plan, or "--shard: ..." naming the flag when it has fewer runs than slices.
std::vector<std::vector<size_t>> slices_of(const std::vector<PlannedRun>& plan, int count, const char* flag);

}  // namespace wolab::cli
