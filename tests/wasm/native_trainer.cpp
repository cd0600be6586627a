// The native side of parity.test.js: trains one config with the native core and writes the
// checkpoint at step 0 and after `steps` steps, which the wasm module's checkpoints must match
// (bit for bit at step 0; losses within tolerance after training).
//
//   wolab_native_trainer '<config json>' <steps> <step0.safetensors> <stepN.safetensors>
//
// Exit status: 0 written, 2 bad arguments or config (one line on stderr).
#include <cstdio>
#include <exception>
#include <string>

#include "io/safetensors.h"
#include "lab/checkpoints.h"
#include "lab/config.h"
#include "run/trainer.h"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s CONFIG_JSON STEPS STEP0_OUT STEPN_OUT\n", argv[0]);
    return 2;
  }
  try {
    wolab::Trainer trainer(wolab::parse_run_config(argv[1]));
    const int steps = std::stoi(argv[2]);
    wolab::write_file_atomic(argv[3], wolab::save_checkpoint(trainer));
    trainer.step(steps);
    wolab::write_file_atomic(argv[4], wolab::save_checkpoint(trainer));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wolab_native_trainer: %s\n", e.what());
    return 2;
  }
  return 0;
}
