// The memory estimate bounds what a run really allocates: for configs across every setting,
// with and without W_o snapshots, estimate_bytes is at least the peak bytes the malloc hook
// (alloc_hook.h) counts over a whole run (training, its record's JSON text, a checkpoint and a
// trainer made again from it), and not far above it. Natively on glibc and in wasm on dlmalloc.
#include <gtest/gtest.h>

#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "alloc_hook.h"
#include "lab/checkpoints.h"
#include "lab/config.h"
#include "lab/results.h"
#include "run/memory_estimate.h"
#include "run/trainer.h"

namespace wolab {
namespace {

constexpr int64_t kMiB = int64_t(1) << 20;

// Peak bytes of one run, phase after phase as the CLI and the page go through them.
int64_t peak_of_run(const RunConfig& cfg, bool snapshots) {
  alloc_hook::start();
  {
    std::vector<uint8_t> bytes;
    {
      Trainer t(cfg);
      t.keep_wo_snapshots(snapshots);
      while (!t.finished()) t.step(50);
      {
        const std::string text = json_text(run_record(t));  // what the page's record() returns
        EXPECT_GT(text.size(), 100u);
      }
      bytes = save_checkpoint(t);
    }
    const Trainer back = load_checkpoint(bytes);
    EXPECT_EQ(back.steps_done(), cfg.train.steps);
  }
  return alloc_hook::stop().peak;
}

struct MemoryCase {
  const char* name;
  const char* config;
  bool snapshots;  // keeps W_o snapshots, as experiment wo_heatmap does
  // Natively only: too slow for the wasm suite under node, where tests/wasm/memory.test.js checks
  // the estimate of runs this large against the heap they grow.
  bool native_only = false;
};

void PrintTo(const MemoryCase& c, std::ostream* os) { *os << c.name; }

class MemoryEstimate : public testing::TestWithParam<MemoryCase> {};

TEST_P(MemoryEstimate, BoundsThePeakOfARun) {
  if (!alloc_hook::available()) GTEST_SKIP() << "no malloc hook under sanitizers";
#if defined(__EMSCRIPTEN__)
  if (GetParam().native_only) GTEST_SKIP() << "slow under node; tests/wasm/memory.test.js covers it";
#endif
  const RunConfig cfg = parse_run_config(GetParam().config);
  const int64_t estimate = static_cast<int64_t>(estimate_bytes(cfg, GetParam().snapshots));
  const int64_t peak = peak_of_run(cfg, GetParam().snapshots);
  std::printf("[ memory ] %-22s estimate %8.2f MiB  allocated %8.2f MiB  ratio %.2f\n",
              GetParam().name, double(estimate) / kMiB, double(peak) / kMiB,
              double(estimate) / double(peak));
  EXPECT_GE(estimate, peak);
  EXPECT_LE(estimate, peak * 3 / 2 + 4 * kMiB);
}

// Every setting away from its default at least once, each kind with and without snapshots.
INSTANTIATE_TEST_SUITE_P(
    Configs, MemoryEstimate,
    testing::Values(
        MemoryCase{"default", R"({"train": {"steps": 60, "probe_every": 20}})", false},
        MemoryCase{"default_snapshots", R"({"train": {"steps": 60, "probe_every": 20}})", true},
        MemoryCase{"article", R"({"model": {"d_model": 256, "d_ff": 1024}, "train": {"steps": 4, "probe_every": 2}})", false, true},
        MemoryCase{"width_128_snapshots", R"({"model": {"d_model": 128, "d_ff": 512}, "train": {"steps": 4, "probe_every": 2}})", true},
        MemoryCase{"wide_one_layer", R"({"model": {"d_model": 512, "heads": 8, "layers": 1, "d_ff": 512},
             "task": {"length": 4}, "train": {"batch": 4, "steps": 2}})", false, true},
        MemoryCase{"widest", R"({"model": {"d_model": 1024, "heads": 16, "layers": 1, "d_ff": 64},
             "task": {"length": 2}, "train": {"batch": 2, "steps": 1}})", false, true},
        MemoryCase{"one_head", R"({"model": {"heads": 1}, "train": {"steps": 20, "probe_every": 10}})", false},
        MemoryCase{"64_heads", R"({"model": {"heads": 64}, "train": {"steps": 20, "probe_every": 10}})", true},
        MemoryCase{"12_layers", R"({"model": {"d_model": 32, "layers": 12, "d_ff": 64},
             "train": {"steps": 10, "probe_every": 5}})", true},
        MemoryCase{"d_ff_1", R"({"model": {"d_ff": 1}, "train": {"steps": 20}})", false},
        MemoryCase{"d_ff_4096", R"({"model": {"d_model": 32, "layers": 1, "d_ff": 4096},
             "train": {"steps": 10}})", false},
        MemoryCase{"batch_1", R"({"train": {"batch": 1, "steps": 20, "probe_every": 5}})", false},
        MemoryCase{"batch_1024", R"({"model": {"d_model": 16, "layers": 1, "d_ff": 32},
             "task": {"length": 4}, "train": {"batch": 1024, "steps": 3}})", false},
        MemoryCase{"length_1", R"({"task": {"length": 1}, "train": {"steps": 20}})", false},
        MemoryCase{"length_64", R"({"model": {"heads": 8}, "task": {"length": 64},
             "train": {"batch": 8, "steps": 3}})", false, true},
        MemoryCase{"alphabet_2", R"({"task": {"alphabet": 2}, "train": {"steps": 20}})", false},
        MemoryCase{"alphabet_64_sort", R"({"task": {"name": "sort", "alphabet": 64}, "train": {"steps": 20}})", true},
        MemoryCase{"pre_ln", R"({"model": {"ln": "pre"}, "train": {"steps": 20, "probe_every": 5}})", false},
        MemoryCase{"pre_ln_snapshots", R"({"model": {"ln": "pre", "d_model": 128}, "train": {"steps": 20, "probe_every": 5}})", true},
        MemoryCase{"identity_reverse", R"({"model": {"wo": "identity"}, "task": {"name": "reverse"},
             "train": {"steps": 20}})", false},
        MemoryCase{"frozen_orthogonal", R"({"model": {"wo": "frozen_orthogonal", "d_model": 128},
             "train": {"steps": 10}})", true},
        // identity_matched's wider FFN (d_ff 4096 + 64 units at d_model 128) and scalar_gain's
        // W_o of one number
        MemoryCase{"identity_matched", R"({"model": {"wo": "identity_matched", "d_model": 128, "layers": 1, "d_ff": 4096},
             "train": {"steps": 10}})", false},
        MemoryCase{"scalar_gain", R"({"model": {"wo": "scalar_gain"}, "train": {"steps": 20, "probe_every": 5}})", true},
        MemoryCase{"many_probes", R"({"model": {"d_model": 8, "heads": 2, "layers": 1, "d_ff": 8},
             "task": {"length": 2}, "train": {"batch": 2, "steps": 1000, "probe_every": 1}})", false},
        MemoryCase{"many_snapshots", R"({"model": {"d_model": 32, "layers": 1, "d_ff": 32},
             "task": {"length": 2}, "train": {"batch": 2, "steps": 300, "probe_every": 1}})", true},
        MemoryCase{"large_heatmap", R"({"model": {"d_model": 64, "heads": 1, "layers": 1, "d_ff": 16},
             "task": {"length": 2}, "train": {"batch": 2, "steps": 600, "probe_every": 1}})", true, true}),
    [](const testing::TestParamInfo<MemoryCase>& info) { return std::string(info.param.name); });

// The two configs of the report that passed the old check and allocated 700-900 MiB.
TEST(MemoryEstimate, RefusesWhatWouldNotFit) {
  for (const char* text :
       {R"({"model": {"d_model": 1024, "d_ff": 4096, "layers": 1}, "task": {"length": 64},
            "train": {"batch": 30}})",
        R"({"model": {"d_model": 1024, "layers": 1, "heads": 1, "d_ff": 1}, "train": {"batch": 1024}})"}) {
    const std::vector<std::string> problems = config_problems(text);
    ASSERT_EQ(problems.size(), 1u) << text;
    EXPECT_EQ(problems[0].rfind("model.d_model: this run needs about ", 0), 0u) << problems[0];
    EXPECT_NE(problems[0].find(" MiB, over the 512 MiB limit"), std::string::npos) << problems[0];
  }
}

}  // namespace
}  // namespace wolab
