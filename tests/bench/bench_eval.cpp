// Cost of the end-of-run evaluation (the held-out eval and greedy decoding that a run's record
// takes at its last step) in training steps of the same config, native, one thread; and, apart,
// the singular values of every layer's W_o that the record adds. A figure for docs/performance.md,
// not a test.
//
//   bench_eval ['<config json>']   (default: the Article size, d_model 256, 2 layers, copy)
//
// Prints one JSON line: {"step_ms": S, "evaluate_ms": E, "greedy_ms": G, "cost_in_steps": N,
// "wo_sv_ms": W}.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <vector>

#include "lab/config.h"
#include "run/probes.h"
#include "run/trainer.h"

namespace {

using Clock = std::chrono::steady_clock;

// Median milliseconds of `repeats` calls of f.
template <class F>
double median_ms(int repeats, F f) {
  std::vector<double> ms;
  for (int i = 0; i < repeats; i++) {
    const Clock::time_point start = Clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const char* article = R"({"model": {"d_model": 256, "heads": 4, "layers": 2, "d_ff": 1024},
      "task": {"name": "copy", "alphabet": 10, "length": 8},
      "train": {"steps": 100000, "probe_every": 100000, "batch": 32}})";
  if (argc > 2) {
    std::fprintf(stderr, "usage: %s [CONFIG_JSON]\n", argv[0]);
    return 2;
  }
  try {
    wolab::Trainer trainer(wolab::parse_run_config(argc == 2 ? argv[1] : article));
    trainer.step(20);  // warm-up, and weights that are no longer the initial ones
    const double step = median_ms(9, [&] { trainer.step(5); }) / 5;
    const double evaluate = median_ms(5, [&] { trainer.evaluate(); });
    const double greedy = median_ms(5, [&] { trainer.greedy_exact(); });
    const wolab::ModelConfig& m = trainer.config().model;
    const double wo_sv = median_ms(3, [&] {
      for (int l = 0; l < m.layers; l++) wolab::singular_values(trainer.wo_weights(l).data(), m.d_model);
    });
    std::printf(
        "{\"step_ms\": %.2f, \"evaluate_ms\": %.2f, \"greedy_ms\": %.2f, \"cost_in_steps\": %.1f, "
        "\"wo_sv_ms\": %.2f}\n",
        step, evaluate, greedy, (evaluate + greedy) / step, wo_sv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_eval: %s\n", e.what());
    return 2;
  }
  return 0;
}
