// The task g2p's speed on one thread, natively and in wasm under node (the same source, built in
// build/ and build-wasm/): training steps per second, and held-out words per second greedily
// decoded and scored (Trainer::g2p_scores). A figure for scripts/bench.sh, not a test.
//
//   bench_g2p LEXICON '<config json>' SECONDS WARMUP_SECONDS
//
// LEXICON: the compact file the build makes (build/data/cmudict-g2p.txt, docs/g2p.md). Give the
// config train.steps and train.probe_every larger than the run, so that only training steps are
// timed. Training: after WARMUP_SECONDS (at least 3 steps; V8 first runs wasm in its baseline
// tier), steps until SECONDS have passed; each batch is drawn as the trainer draws it and padded
// to its longest word, and "positions" is the mean padded length. Decoding: a fresh trainer of
// the same config (step 0: the same weights natively and in wasm, whatever the training did)
// scores its task.heldout probe words, repeatedly until SECONDS have passed:
// each word is decoded through the cache until it predicts EOS or reaches the length cap, and the
// chunk is also run once teacher forced (the metrics' other half).
//
// Prints one JSON line: {"impl": "native"|"wasm", "steps_per_s", "steps_per_cpu_s", "positions",
// "steps", "words_per_s", "words_per_cpu_s", "words", "per" (the decoded words' phoneme error
// rate, which tells whether native and wasm decoded the same), "seconds"}: rates per second of
// wall time and per second of this process's CPU time (node's under wasm), as bench_train's.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

#include "io/cmudict.h"
#include "lab/config.h"
#include "run/g2p.h"
#include "run/trainer.h"

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// This process's CPU time: under node, node's (V8's threads included), as bench_train.js takes it.
double cpu_seconds() {
#ifdef __EMSCRIPTEN__
  return EM_ASM_DOUBLE({
    const used = process.cpuUsage();
    return (used.user + used.system) / 1e6;
  });
#else
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
#endif
}

// The padded length T of the last batch, whose (batch, T) tokens are in front of last_batch()
// (run/trainer.h): every row, and only a row, starts with [BOS], so the second one is at T.
int positions(const wolab::Trainer& trainer) {
  const std::vector<int>& tokens = trainer.last_batch();
  const auto second = std::find(tokens.begin() + 1, tokens.end(), wolab::kG2pBos);
  if (second == tokens.end()) throw std::runtime_error("give train.batch at least 2 words");
  return static_cast<int>(second - tokens.begin());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s LEXICON CONFIG_JSON SECONDS WARMUP_SECONDS\n", argv[0]);
    return 2;
  }
  try {
    const auto data = std::make_shared<const wolab::G2pData>(
        wolab::split_lexicon(std::make_shared<wolab::Lexicon>(wolab::read_cmudict_file(argv[1]))));
    const wolab::RunConfig cfg = wolab::parse_run_config(argv[2]);
    if (cfg.task.kind != wolab::TaskKind::g2p) throw std::invalid_argument("the config's task is not g2p");
    const double seconds = std::stod(argv[3]), warmup = std::stod(argv[4]);

    wolab::Trainer trainer(cfg, data);
    int warm_steps = 0;
    const Clock::time_point warm = Clock::now();
    while (since(warm) < warmup || warm_steps < 3) warm_steps += static_cast<int>(trainer.step(1).size());
    int steps = 0;
    double padded = 0;  // positions, summed over the timed steps' batches
    const double train_cpu = cpu_seconds();
    const Clock::time_point start = Clock::now();
    while (steps == 0 || since(start) < seconds) {
      if (trainer.step(1).empty()) throw std::runtime_error("the run ended; give train.steps room for the benchmark");
      padded += positions(trainer);
      steps++;
    }
    const double train_s = since(start), train_cpu_s = cpu_seconds() - train_cpu;

    wolab::Trainer fresh(cfg, data);
    int words = 0;
    wolab::G2pScores scores;
    const double decode_cpu = cpu_seconds();
    const Clock::time_point decode = Clock::now();
    while (words == 0 || since(decode) < seconds) {
      scores = fresh.g2p_scores(false);
      words += scores.words;
    }
    const double decode_s = since(decode), decode_cpu_s = cpu_seconds() - decode_cpu;

#ifdef __EMSCRIPTEN__
    const char* impl = "wasm";
#else
    const char* impl = "native";
#endif
    std::printf(
        "{\"impl\": \"%s\", \"steps_per_s\": %.2f, \"steps_per_cpu_s\": %.2f, \"positions\": %.2f, "
        "\"steps\": %d, \"words_per_s\": %.1f, \"words_per_cpu_s\": %.1f, \"words\": %d, \"per\": %.6f, "
        "\"seconds\": %.2f}\n",
        impl, steps / train_s, steps / train_cpu_s, padded / steps, steps, words / decode_s,
        words / decode_cpu_s, words, scores.per, train_s + decode_s);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_g2p: %s\n", e.what());
    return 2;
  }
  return 0;
}
