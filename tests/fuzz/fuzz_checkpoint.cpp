// safetensors checkpoints as `wolab eval` and the page load them: read_safetensors, then
// load_checkpoint (lab/checkpoints.h), then the held-out metrics `wolab eval` prints. A loaded trainer
// has a step left to train unless it is finished, and saves a checkpoint that loads and saves
// back to the same bytes. The trainer is built only
// for small configs (at most kHarnessBytes by estimate_bytes), so the fuzzer spends its time
// in the parsers, not in allocating and evaluating models; larger configs are still parsed
// and validated up to that point.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "io/safetensors.h"
#include "lab/checkpoints.h"
#include "lab/config.h"
#include "run/memory_estimate.h"
#include "run/trainer.h"

using namespace wolab;

namespace {
constexpr uint64_t kHarnessBytes = uint64_t(1) << 20;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const SafeTensors st = read_safetensors(data, size);
    auto config = st.metadata.find("config");
    if (config != st.metadata.end() && estimate_bytes(parse_run_config(config->second)) > kHarnessBytes)
      return 0;
    const std::vector<uint8_t> bytes(data, data + size);
    Trainer trainer = load_checkpoint(bytes);
    fuzz_check(trainer.finished() || trainer.steps_done() < trainer.config().train.steps,
               "a running checkpoint with no step left to train");
    const std::vector<uint8_t> saved = save_checkpoint(trainer);
    fuzz_check(save_checkpoint(load_checkpoint(saved)) == saved,
               "a loaded checkpoint does not save back to the same bytes");
    trainer.evaluate();
    trainer.greedy_exact();
  } catch (const ConfigError& e) {
    expect_one_line(e.what());
  }
  return 0;
}
