// Training steps per second of one config with the native core on one thread, timed the way
// bench_train.js times the wasm module: a warm-up, then chunks of about 50 ms (as the page
// steps) until `seconds` have passed. A figure for scripts/bench.sh, not a test.
//
//   bench_train '<config json>' [seconds]
//
// Prints one JSON line: {"impl": "native", "steps_per_s": S, "steps_per_cpu_s": C, "steps": N,
// "seconds": T}: S per second of wall time, C per second of this process's CPU time, which other
// load on the machine's cores disturbs far less (scripts/bench.sh shows C).
// Give the config train.steps and train.probe_every larger than the run, so that only training
// steps are timed (no held-out evals), as PyTorch's bench_torch.py does.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

#include "lab/config.h"
#include "run/trainer.h"

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }  // this process's

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: %s CONFIG_JSON [SECONDS]\n", argv[0]);
    return 2;
  }
  try {
    wolab::Trainer trainer(wolab::parse_run_config(argv[1]));
    const double seconds = argc == 3 ? std::stod(argv[2]) : 5.0;

    // Warm-up: at least 1 s and 3 steps; it also sizes the chunks.
    int warm_steps = 0;
    const Clock::time_point warm = Clock::now();
    while (since(warm) < 1.0 || warm_steps < 3) warm_steps += static_cast<int>(trainer.step(1).size());
    const int chunk = std::max(1, static_cast<int>(0.05 / (since(warm) / warm_steps)));

    int steps = 0;
    const double cpu = cpu_seconds();
    const Clock::time_point start = Clock::now();
    while (since(start) < seconds) {
      const size_t done = trainer.step(chunk).size();
      if (done == 0) throw std::runtime_error("the run ended; give train.steps room for the benchmark");
      steps += static_cast<int>(done);
    }
    const double elapsed = since(start), cpu_elapsed = cpu_seconds() - cpu;
    std::printf("{\"impl\": \"native\", \"steps_per_s\": %.2f, \"steps_per_cpu_s\": %.2f, \"steps\": %d, "
                "\"seconds\": %.2f}\n", steps / elapsed, steps / cpu_elapsed, steps, elapsed);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_train: %s\n", e.what());
    return 2;
  }
  return 0;
}
