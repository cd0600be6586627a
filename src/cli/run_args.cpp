#include "cli/run_args.h"

#include <algorithm>
#include <thread>

#include <nlohmann/json.hpp>

#include "io/cmudict.h"
#include "io/safetensors.h"
#include "lab/experiment.h"
#include "lab/shard.h"

namespace wolab::cli {

using json = nlohmann::json;

RunArgs parse_run_args(const std::vector<std::pair<std::string, std::string>>& flags) {
  RunArgs a;
  a.jobs = std::max(1u, std::thread::hardware_concurrency());
  std::string preset, config_path;
  std::vector<std::pair<std::string, std::string>> overrides;
  for (const auto& [flag, value] : flags) {
    if (flag == "--preset") preset = value;
    else if (flag == "--config") config_path = value;
    else if (flag == "--out") a.out = value;
    else if (flag == "--save-checkpoint") a.checkpoint = value;
    else if (flag == "--save-checkpoints") a.checkpoints = value;
    else if (flag == "--data") a.data = value;
    else if (flag == "--jobs") a.jobs = parse_jobs(value);
    else if (flag == "--shard") a.shard = parse_shard(value);
    else overrides.emplace_back(flag, value);
  }

  ExperimentConfig& cfg = a.cfg;
  if (!preset.empty()) {
    const json all = presets(/*with_native=*/true);
    if (!all.contains(preset)) {
      std::string names;
      for (const std::string& name : preset_names(/*with_native=*/true)) names += (names.empty() ? "" : " or ") + name;
      throw ConfigError("--preset: " + in_quotes(preset) + " is not a preset; use " + names);
    }
    cfg = parse_experiment_config(all[preset].dump());
  }
  if (!preset.empty() && !config_path.empty())
    throw ConfigError("--preset: cannot be combined with --config; give one of them, and flags for the rest");
  if (!config_path.empty()) {
    std::vector<uint8_t> bytes;
    try {
      bytes = read_file_bytes(config_path);
    } catch (const ConfigError& e) {
      throw ConfigError(std::string("--config: ") + e.what() + "; give a readable config JSON file");
    }
    std::vector<std::string> problems;
    cfg = read_config_text(std::string(bytes.begin(), bytes.end()), problems);
    if (!problems.empty()) throw ConfigError(problems.front());
  }
  a.settings_from = !preset.empty() ? "preset " + preset
                    : !config_path.empty() ? "--config " + config_path
                                           : "the defaults (docs/config.md), not one of the page's presets: give --preset quick "
                                             "or --preset article for the page's runs";
  if (!overrides.empty()) a.settings_from += ", with the flags given";
  for (const auto& [flag, value] : overrides) set_from_flag(cfg, flag, value);
  auto problems = validate(cfg);
  if (!problems.empty()) throw ConfigError(problems.front());

  if (a.shard && !a.checkpoint.empty())
    throw ConfigError("--save-checkpoint: cannot be combined with --shard; the plan's last run is in one slice only");
  if (!needs_lexicon(cfg)) {
    if (!a.data.empty())
      throw ConfigError("--data: only the task g2p (and experiment real_words) reads a data file; the task is " +
                        std::string(to_string(cfg.base.task.kind)));
  } else if (a.data.empty()) {
    a.data = WOLAB_LEXICON_TXT;
  }
  return a;
}

std::shared_ptr<const G2pData> load_g2p(const std::string& path) {
  if (path.empty()) return nullptr;
  try {
    return std::make_shared<const G2pData>(split_lexicon(std::make_shared<const Lexicon>(read_cmudict_file(path))));
  } catch (const ConfigError& e) {
    throw ConfigError(std::string("--data: ") + e.what() + "; give the lexicon the build makes (docs/g2p.md)");
  }
}

std::vector<std::string> checkpoint_paths(const ExperimentConfig& cfg, const std::string& dir) {
  std::vector<std::string> paths;
  if (dir.empty()) return paths;
  for (const PlannedRun& r : plan_runs(cfg, {cfg.experiment})) {
    const std::string path = dir + "/" + to_string(r.config.model.wo) + ".seed" + std::to_string(r.config.train.seed) +
                             ".safetensors";
    if (std::find(paths.begin(), paths.end(), path) != paths.end())
      throw ConfigError("--save-checkpoints: the plan trains " + std::string(to_string(r.config.model.wo)) + " with seed " +
                        std::to_string(r.config.train.seed) +
                        " more than once; give one experiment without a learning-rate sweep");
    paths.push_back(path);
  }
  return paths;
}

void require_out(const RunArgs& a, const std::string& why) {
  if (a.out.empty()) throw ConfigError("--out: missing; " + why);
}

std::vector<std::vector<size_t>> slices_of(const std::vector<PlannedRun>& plan, int count, const char* flag) {
  try {
    return shard_plan(plan, count);
  } catch (const ConfigError& e) {
    throw ConfigError(std::string(flag) + ": " + e.what());
  }
}

}  // namespace wolab::cli
