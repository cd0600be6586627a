// Config JSON, as `wolab run --config` and the page's form and Trainer give it. config_problems
// (the page's check) and parse_experiment_config (the CLI's and the Trainer's) must agree, and
// an accepted config must survive config_json and back unchanged. It only parses and validates:
// a valid config may legitimately train for hours.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz_check.h"
#include "lab/config.h"

using namespace wolab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string> problems = config_problems(text);
  for (const std::string& p : problems) expect_one_line(p);
  try {
    const ExperimentConfig cfg = parse_experiment_config(text);
    fuzz_check(problems.empty(), "parse_experiment_config accepted a config with problems");
    const nlohmann::json j = config_json(cfg);
    fuzz_check(config_json(parse_experiment_config(j.dump())) == j, "config_json does not read back", j.dump());
  } catch (const ConfigError& e) {
    fuzz_check(!problems.empty() && problems.front() == e.what(),
               "parse_experiment_config and config_problems disagree", e.what());
  }
  return 0;
}
