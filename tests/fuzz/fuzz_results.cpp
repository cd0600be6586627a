// Results JSON as `wolab report` and the page import it: parse_results, then the analysis of
// what it accepted (analyze, and analyze_text as the page calls it). An accepted file comes
// back normalised, normalising that again changes nothing, and the analysis and its text are
// made without a crash (a ConfigError is allowed). The same text is also read as a shard file
// of `wolab merge` (merge_shards), which refuses it with one line or merges it.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/analysis.h"
#include "fuzz_check.h"
#include "lab/config.h"
#include "lab/results.h"
#include "lab/shard.h"

using namespace wolab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {  // the same text as a shard file that `wolab merge` reads (a plan of one slice)
    merge_shards({{"shard.json", text}});
  } catch (const ConfigError& e) {
    expect_one_line(e.what());
  }
  nlohmann::json results;
  try {
    results = parse_results(text);
  } catch (const ConfigError& e) {
    expect_one_line(e.what());
    return 0;
  }
  const std::string normalised = results.dump();
  try {
    fuzz_check(parse_results(normalised) == results, "parse_results is not idempotent", normalised);
  } catch (const ConfigError& e) {
    fuzz_check(false, "parse_results refuses its own output", std::string(e.what()) + "\n" + normalised);
  }
  try {
    format_analysis(analyze({results}));
  } catch (const ConfigError& e) {
    expect_one_line(e.what());
  }
  try {
    analyze_text("[" + text + "]");  // the page's entry point
  } catch (const ConfigError& e) {
    expect_one_line(e.what());
  }
  return 0;
}
