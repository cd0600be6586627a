// exp_lanes (src/nn/lanes.h) against std::exp, bit for bit: in the wasm build it tests the
// vector copy of musl's expf that attention's softmax uses; natively, std::exp lane by lane.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "nn/lanes.h"

namespace {

using wolab::kAttentionLanes;
using wolab::LaneVec;

uint32_t bits(float x) {
  uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

float from_bits(uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// Each run of kAttentionLanes inputs as one vector; the first input whose lane differs from
// std::exp's, or none.
void expect_exp_lanes_match(const std::vector<float>& xs) {
  for (size_t i = 0; i + kAttentionLanes <= xs.size(); i += kAttentionLanes) {
    LaneVec<float> v;
    for (int l = 0; l < kAttentionLanes; l++) v[l] = xs[i + l];
    const LaneVec<float> got = wolab::exp_lanes<float>(v);
    for (int l = 0; l < kAttentionLanes; l++) {
      const float x = xs[i + l], want = std::exp(x);
      ASSERT_EQ(bits(got[l]), bits(want)) << "exp(" << x << ") (bits " << std::hex << bits(x)
                                          << "): " << got[l] << " against " << want;
    }
  }
}

TEST(Lanes, ExpOfEveryKindOfFloatIsStdExp) {
  const float inf = std::numeric_limits<float>::infinity();
  // The edges of expf's cases (|x| ≥ 88 takes expf itself; overflow above 88.72, zero below
  // -103.97), zeros, infinities, NaN, subnormals, and each next to ordinary lanes.
  std::vector<float> xs = {0.0f,     -0.0f,          1.0f,        -1.0f,        88.0f,
                           -88.0f,   87.99999f,      -87.99999f,  0x1.62e42ep6f, 0x1.62e430p6f,
                           -0x1.9fe368p6f, -0x1.9fe36ap6f, -104.0f, -150.0f,   inf,
                           -inf,     std::nanf(""),  1e-45f,      -1e-45f,      1e-38f,
                           -0.5f,    -2.0f,          -10.0f,      -20.0f,       3.0e38f,
                           -3.0e38f, 0.693147f,      -0.693147f,  1e-7f,        -1e-7f,
                           -87.5f,   -0.25f};
  // Every 65,537th bit pattern: every sign, exponent and many mantissas.
  for (uint64_t u = 0; u < (uint64_t(1) << 32); u += 65537) xs.push_back(from_bits(uint32_t(u)));
  // Dense where softmax lives, x = score - max ≤ 0: 400,000 consecutive floats below each of
  // 0, -1, -8 and -60.
  for (float start : {-0.0f, -1.0f, -8.0f, -60.0f})
    for (uint32_t k = 0; k < 400000; k++) xs.push_back(from_bits(bits(start) + k));
  while (xs.size() % kAttentionLanes) xs.push_back(-1.0f);
  expect_exp_lanes_match(xs);
}

}  // namespace
