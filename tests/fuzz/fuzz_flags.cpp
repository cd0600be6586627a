// `wolab run`'s command line, read as main.cpp reads it: flag_pairs splits argv, each setting
// flag goes through set_from_flag, then validate(). The input is the arguments after `run`,
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
      // main.cpp's own flags (kRunFlags), not settings: files, the preset and the job count
      if (flag == "--preset" || flag == "--config" || flag == "--out" || flag == "--save-checkpoint" ||
          flag == "--jobs")
        continue;
      set_from_flag(cfg, flag, value);
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
