// `wolab run`'s command line, read as cli/run_args.cpp reads it: flag_pairs splits argv, each setting
// flag goes through set_from_flag, the counts (--jobs, --shard K/N, plan's --shards) through
// their parsers, then validate(). The input is the arguments after `run`,
// separated by NUL bytes. A config the flags produce must also be accepted as JSON, unchanged.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/args.h"
#include "fuzz_check.h"
#include "lab/config.h"

using namespace wolab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args(1);
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == '\0')
      args.emplace_back();
    else
      args.back() += static_cast<char>(data[i]);
  }
  if (size == 0) args.clear();
  ExperimentConfig cfg;
  try {
    for (const auto& [flag, value] : flag_pairs(args)) {
      // The CLI's own flags (cmd_run.cpp's kRunFlags, and plan's --shards), not settings: files and
      // the preset are names; the counts are read as cli/run_args.cpp reads them, within their ranges.
      if (flag == "--preset" || flag == "--config" || flag == "--out" || flag == "--save-checkpoint") continue;
      if (flag == "--jobs") {
        const int n = parse_jobs(value);
        fuzz_check(n >= 1 && n <= kMaxJobs, "--jobs out of range", value);
      } else if (flag == "--shard") {
        const ShardSpec s = parse_shard(value);
        fuzz_check(s.index >= 1 && s.index <= s.count && s.count <= kMaxShards, "--shard out of range", value);
        fuzz_check(parse_shard(std::to_string(s.index) + "/" + std::to_string(s.count)).index == s.index,
                   "--shard does not read back", value);
      } else if (flag == "--shards") {
        const int n = parse_shards(value);
        fuzz_check(n >= 1 && n <= kMaxShards, "--shards out of range", value);
      } else {
        set_from_flag(cfg, flag, value);
      }
      // The command `wolab plan --shards` prints for this argument is one shell word.
      const std::string quoted = shell_quote(value);
      fuzz_check(quoted == value || (quoted.front() == '\'' && quoted.back() == '\''), "shell_quote", value);
    }
  } catch (const ConfigError& e) {
    expect_one_line(e.what());
    return 0;
  }
  const std::vector<std::string> problems = validate(cfg);
  for (const std::string& p : problems) expect_one_line(p);
  if (!problems.empty()) return 0;
  const nlohmann::json j = config_json(cfg);
  try {
    fuzz_check(config_json(parse_experiment_config(j.dump())) == j, "flags and JSON read differently", j.dump());
  } catch (const ConfigError& e) {
    fuzz_check(false, "JSON refuses a config the flags accepted", std::string(e.what()) + "\n" + j.dump());
  }
  return 0;
}
