// A training step allocates nothing: the model sizes every buffer when it is made, Eigen's
// packing buffers persist between products (gemm_eigen.h) and the loss history is reserved for
// the whole run. Probe steps may allocate (their records grow), other steps may not.
//
// Allocations are counted by interposing glibc's malloc family, which operator new, Eigen and
// libc itself all reach, so the count misses nothing; hence the test runs natively on glibc, and
// not under sanitizers, which interpose malloc themselves.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "config.h"
#include "trainer.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define WOLAB_SANITIZED
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define WOLAB_SANITIZED
#endif
#endif
#if defined(__GLIBC__) && !defined(WOLAB_SANITIZED)
#define WOLAB_COUNT_ALLOCATIONS
#endif

#ifdef WOLAB_COUNT_ALLOCATIONS
namespace {
bool counting = false;
long allocations = 0;  // while counting
}  // namespace

// The program's malloc family takes precedence over libc's (glibc supports replacing malloc);
// each counts, then forwards to glibc's own allocator, so free() stays glibc's.
extern "C" {
void* __libc_malloc(size_t size);
void* __libc_calloc(size_t count, size_t size);
void* __libc_realloc(void* ptr, size_t size);
void* __libc_memalign(size_t alignment, size_t size);

void* malloc(size_t size) noexcept {
  allocations += counting;
  return __libc_malloc(size);
}
void* calloc(size_t count, size_t size) noexcept {
  allocations += counting;
  return __libc_calloc(count, size);
}
void* realloc(void* ptr, size_t size) noexcept {
  allocations += counting;
  return __libc_realloc(ptr, size);
}
void* memalign(size_t alignment, size_t size) noexcept {
  allocations += counting;
  return __libc_memalign(alignment, size);
}
void* aligned_alloc(size_t alignment, size_t size) noexcept {
  allocations += counting;
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, size_t alignment, size_t size) noexcept {
  allocations += counting;
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* p = __libc_memalign(alignment, size);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}
}  // extern "C"
#endif

namespace wolab {
namespace {

#ifdef WOLAB_COUNT_ALLOCATIONS
// Allocations made while running f.
template <class F>
long allocations_in(F f) {
  allocations = 0;
  counting = true;
  f();
  counting = false;
  return allocations;
}
#endif

struct Case {
  const char* name;
  const char* config;  // probe_every beyond the steps run: no probe step among them
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class TrainingStep : public testing::TestWithParam<Case> {};

TEST_P(TrainingStep, AllocatesNothing) {
#ifndef WOLAB_COUNT_ALLOCATIONS
  GTEST_SKIP() << "allocations are counted through glibc's malloc: native unsanitized builds only";
#else
  Trainer trainer(parse_run_config(GetParam().config));
  trainer.step(1);  // meets every product shape, to which Eigen's packing buffers grow
  std::vector<float> losses;
  const long n = allocations_in([&] { losses = trainer.step(10); });
  ASSERT_EQ(losses.size(), 10u);
  EXPECT_EQ(n, 1) << "step(10) may allocate only the vector of losses it returns";
#endif
}

INSTANTIATE_TEST_SUITE_P(
    Configs, TrainingStep,
    testing::Values(
        Case{"default", R"({"train": {"probe_every": 100}})"},
        Case{"pre_ln_frozen_sort",
             R"({"model": {"ln": "pre", "wo": "frozen_random"}, "task": {"name": "sort"},
                 "train": {"probe_every": 100}})"},
        Case{"identity_odd_sizes",
             R"({"model": {"wo": "identity", "d_model": 40, "heads": 8, "d_ff": 72},
                 "task": {"length": 5}, "train": {"batch": 7, "probe_every": 100}})"}),
    [](const testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

// The counter sees what it should: a probe step appends its records, and allocates.
TEST(Allocation, ProbeStepsAreCounted) {
#ifndef WOLAB_COUNT_ALLOCATIONS
  GTEST_SKIP() << "allocations are counted through glibc's malloc: native unsanitized builds only";
#else
  Trainer trainer(parse_run_config(R"({"train": {"probe_every": 2}})"));
  trainer.step(1);
  EXPECT_GT(allocations_in([&] { trainer.step(1); }), 1);
#endif
}

}  // namespace
}  // namespace wolab
