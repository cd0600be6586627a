// `wolab half-model`: a model file (run --save-checkpoints) with its weights in float16, half the
// bytes, for shipping models with the page (scripts/record-converged.sh checks that the smaller
// file pronounces every held-out word as the original does before it keeps it).
#include "cli/commands.h"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/outputs.h"
#include "io/messages.h"
#include "io/safetensors.h"

namespace wolab::cli {

int half_model_command(const std::vector<std::string>& args) {
  if (asks_help(args)) {
    std::cout << kUsage << "\nwolab half-model MODEL --out FILE: writes the model file MODEL (a checkpoint without\n"
                 "Adam's moments, from wolab run --save-checkpoints) as FILE with every weight rounded to\n"
                 "the nearest float16; wolab, the page and Trainer.fromCheckpoint read it as they read MODEL.\n";
    return 0;
  }
  if (args.size() != 3 || args[1] != "--out")
    throw ConfigError("half-model: give a model file and --out FILE, e.g. wolab half-model learned.seed0.safetensors "
                      "--out learned.seed0.f16.safetensors");
  const std::vector<uint8_t> bytes = read_file_bytes(args[0]);
  std::vector<uint8_t> half;
  try {
    half = half_model(bytes);
  } catch (const ConfigError& e) {
    throw ConfigError(escape_controls(args[0]) + ": " + e.what());
  }
  check_writable("--out", args[2]);
  write_all({args[2]}, [&](size_t) { return std::string(half.begin(), half.end()); });
  std::printf("wrote %s: %zu bytes (from %zu)\n", args[2].c_str(), half.size(), bytes.size());
  return 0;
}

}  // namespace wolab::cli
