// A training step allocates nothing: the model sizes every buffer when it is made, Eigen's
// packing buffers persist between products (nn/gemm_eigen.h) and the loss history is reserved for
// the whole run. Probe steps may allocate (their records grow), other steps may not.
//
// Allocations are counted by the malloc hook of alloc_hook.h.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "alloc_hook.h"
#include "lab/config.h"
#include "run/trainer.h"

namespace wolab {
namespace {

// Allocations made while running f.
template <class F>
long allocations_in(F f) {
  alloc_hook::start();
  f();
  return alloc_hook::stop().allocations;
}

struct StepCase {
  const char* name;
  const char* config;  // probe_every beyond the steps run: no probe step among them
};

void PrintTo(const StepCase& c, std::ostream* os) { *os << c.name; }

class TrainingStep : public testing::TestWithParam<StepCase> {};

TEST_P(TrainingStep, AllocatesNothing) {
  if (!alloc_hook::available()) GTEST_SKIP() << "no malloc hook under sanitizers";
  Trainer trainer(parse_run_config(GetParam().config));
  trainer.step(1);  // meets every product shape, to which Eigen's packing buffers grow
  std::vector<float> losses;
  const long n = allocations_in([&] { losses = trainer.step(10); });
  ASSERT_EQ(losses.size(), 10u);
  EXPECT_EQ(n, 1) << "step(10) may allocate only the vector of losses it returns";
}

INSTANTIATE_TEST_SUITE_P(
    Configs, TrainingStep,
    testing::Values(
        StepCase{"default", R"({"train": {"probe_every": 100}})"},
        StepCase{"pre_ln_frozen_sort",
             R"({"model": {"ln": "pre", "wo": "frozen_random"}, "task": {"name": "sort"},
                 "train": {"probe_every": 100}})"},
        StepCase{"identity_odd_sizes",
             R"({"model": {"wo": "identity", "d_model": 40, "heads": 8, "d_ff": 72},
                 "task": {"length": 5}, "train": {"batch": 7, "probe_every": 100}})"}),
    [](const testing::TestParamInfo<StepCase>& info) { return std::string(info.param.name); });

// The counter sees what it should: a probe step appends its records, and allocates.
TEST(Allocation, ProbeStepsAreCounted) {
  if (!alloc_hook::available()) GTEST_SKIP() << "no malloc hook under sanitizers";
  Trainer trainer(parse_run_config(R"({"train": {"probe_every": 2}})"));
  trainer.step(1);
  EXPECT_GT(allocations_in([&] { trainer.step(1); }), 1);
}

}  // namespace
}  // namespace wolab
