// The frozen W_o modes of experiment gain_vs_learning: frozen_orthogonal's matrix is orthogonal
// and reproducible, frozen_random_scaled is exactly √3 × frozen_random, and neither ever trains.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "helpers.h"
#include "io/checkpoint.h"
#include "lab/checkpoints.h"
#include "nn/orthogonal.h"
#include "run/probes.h"
#include "run/trainer.h"

namespace wolab {
namespace {

// max |QᵀQ - I| of the (d,d) row-major matrix q, in double
template <class T>
double orthogonality_error(const std::vector<T>& q, int d) {
  double err = 0;
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d; j++) {
      double dot = 0;  // (QᵀQ)_ij
      for (int k = 0; k < d; k++) dot += double(q[k * d + i]) * double(q[k * d + j]);
      err = std::max(err, std::fabs(dot - (i == j)));
    }
  return err;
}

// max |σ - 1| over the singular values of the (d,d) row-major float matrix q
double largest_singular_value_error(const std::vector<float>& q, int d) {
  double err = 0;
  for (float s : singular_values(q.data(), d)) err = std::max(err, std::fabs(double(s) - 1));
  return err;
}

TEST(Orthogonal, IsOrthogonalForEverySize) {
  for (int d : {1, 2, 3, 5, 8, 17, 64, 65}) {
    Rng rng(100 + d);
    const std::vector<double> q = random_orthogonal(d, rng);
    ASSERT_EQ(q.size(), static_cast<size_t>(d) * d);
    EXPECT_LT(orthogonality_error(q, d), 1e-12) << "d " << d;
    // rounded to float, as the model stores it
    const std::vector<float> f(q.begin(), q.end());
    EXPECT_LT(orthogonality_error(f, d), 1e-6) << "d " << d;
    EXPECT_LT(largest_singular_value_error(f, d), 1e-6) << "d " << d;
  }
}

TEST(Orthogonal, OneByOneIsASign) {
  int plus = 0;
  for (uint64_t seed = 0; seed < 20; seed++) {
    Rng rng(seed);
    const double q = random_orthogonal(1, rng)[0];
    ASSERT_TRUE(q == 1.0 || q == -1.0) << q;
    plus += q == 1.0;
  }
  EXPECT_GT(plus, 0);  // both signs occur: it is Q·sign(R), not a forced +1
  EXPECT_LT(plus, 20);
}

TEST(Orthogonal, ValuesArePinned) {
  // The same bits natively and in wasm (this suite runs in both): plain double loops and sqrt
  Rng rng(7);
  const std::vector<double> expected = {
      -0x1.8d8eda6d3a38p-5,  0x1.a0bcc72ccf9e8p-1,  0x1.2867f1ae8f91cp-1,
      -0x1.bf3356a694f1ap-2, -0x1.13bd5c4c26019p-1, 0x1.70efe221f5656p-1,
      0x1.cbec6372e26p-1,    -0x1.be2ab3d7c4612p-3, 0x1.86c2019fc51ffp-2};
  EXPECT_EQ(random_orthogonal(3, rng), expected);
  // and a size whose loops run vectorized with remainders: FNV-1a over every value's bits
  Rng rng37(7);
  uint64_t hash = 0xCBF29CE484222325ull;
  for (double x : random_orthogonal(37, rng37)) {
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    hash = (hash ^ bits) * 0x100000001B3ull;
  }
  EXPECT_EQ(hash, 13251097441417881217ull);
}

TEST(FrozenOrthogonal, ModelHoldsAnOrthogonalWoPerLayer) {
  for (auto [d, heads] : {std::pair{16, 4}, std::pair{9, 3}}) {
    Trainer t(tiny(WoMode::frozen_orthogonal, 3, d, heads));
    for (int l = 0; l < 2; l++) {
      const std::vector<float> wo = t.wo_init(l);
      EXPECT_LT(orthogonality_error(wo, d), 1e-6) << "d " << d << " layer " << l;
      EXPECT_LT(largest_singular_value_error(wo, d), 1e-6);
    }
    EXPECT_NE(t.wo_init(0), t.wo_init(1)) << "each layer draws its own matrix";
  }
}

TEST(FrozenOrthogonal, DeterministicPerSeedAndDifferentAcrossSeeds) {
  const std::vector<float> a = Trainer(tiny(WoMode::frozen_orthogonal, 3)).wo_init(0);
  EXPECT_EQ(Trainer(tiny(WoMode::frozen_orthogonal, 3)).wo_init(0), a);
  EXPECT_NE(Trainer(tiny(WoMode::frozen_orthogonal, 4)).wo_init(0), a);
  // a stream of its own: not frozen_random's draw reshaped
  EXPECT_NE(Trainer(tiny(WoMode::frozen_random, 3)).wo_init(0), a);
}

TEST(FrozenRandomScaled, IsSqrt3TimesFrozenRandom) {
  for (uint64_t seed : {0, 3, 11}) {
    Trainer scaled(tiny(WoMode::frozen_random_scaled, seed));
    Trainer plain(tiny(WoMode::frozen_random, seed));
    Trainer learned(tiny(WoMode::learned, seed));
    for (int l = 0; l < 2; l++) {
      const std::vector<float> s = scaled.wo_init(l), p = plain.wo_init(l);
      EXPECT_EQ(p, learned.wo_init(l)) << "frozen_random's W_o is learned's initial W_o";
      ASSERT_EQ(s.size(), p.size());
      for (size_t i = 0; i < s.size(); i++)
        ASSERT_EQ(s[i], p[i] * static_cast<float>(std::sqrt(3.0))) << "seed " << seed << " [" << i << "]";
    }
  }
}

TEST(FrozenRandomScaled, SquaredFrobeniusNormIsAboutD) {
  // entries √3·U(-1/√d, 1/√d): E‖W‖²_F = d, with a standard deviation of about 0.9 for any d
  const int d = 64;
  const std::vector<float> w = Trainer(tiny(WoMode::frozen_random_scaled, 5, d, 4)).wo_init(0);
  double sq = 0;
  for (float x : w) sq += static_cast<double>(x) * x;
  EXPECT_NEAR(sq, d, 5.0);
}

class FrozenWoModes : public testing::TestWithParam<WoMode> {};

TEST_P(FrozenWoModes, NeverTrainAndHaveNoBias) {
  Trainer t(tiny(GetParam()));
  const std::vector<float> before0 = t.wo_weights(0), before1 = t.wo_weights(1);
  t.step(30);
  EXPECT_EQ(t.steps_done(), 30);
  EXPECT_EQ(t.wo_weights(0), before0);
  EXPECT_EQ(t.wo_weights(1), before1);
  EXPECT_EQ(t.parameter_count(), Trainer(tiny(WoMode::identity)).parameter_count());
  const std::vector<uint8_t> bytes = save_checkpoint(t);
  const SafeTensors st = read_safetensors(bytes.data(), bytes.size());
  EXPECT_TRUE(st.f32.count("layers.0.attn.W_o.weight"));
  EXPECT_FALSE(st.f32.count("layers.0.attn.W_o.bias"));
}

INSTANTIATE_TEST_SUITE_P(Experiment5, FrozenWoModes,
                         testing::Values(WoMode::frozen_random_scaled, WoMode::frozen_orthogonal),
                         [](const testing::TestParamInfo<WoMode>& info) {
                           return std::string(to_string(info.param));
                         });

}  // namespace
}  // namespace wolab
