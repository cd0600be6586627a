// The W_o modes beyond learned and identity. The frozen ones of experiment gain_vs_learning:
// frozen_orthogonal's matrix is orthogonal and reproducible, frozen_random_scaled is exactly √3 ×
// frozen_random, and neither ever trains. The three controls (docs/config.md, "The W_o
// variants"): block_diagonal starts as learned's heads' blocks and its entries between heads stay
// exactly 0 through training; scalar_gain starts at learned's initial gain, 1/√3, which learned's
// W_o measurably has; identity_matched's parameter count is learned's within 1%.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

#include "helpers.h"
#include "io/messages.h"
#include "io/safetensors.h"
#include "lab/checkpoints.h"
#include "lab/config.h"
#include "lab/experiment.h"
#include "nn/model.h"
#include "nn/orthogonal.h"
#include "run/probes.h"
#include "run/tasks.h"
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

// ---- block_diagonal ----

TEST(BlockDiagonal, StartsAsLearnedsBlocksWithZerosBetweenHeads) {
  for (uint64_t seed : {0, 3}) {
    const int C = 16, H = 4;
    const Trainer learned(tiny(WoMode::learned, seed)), block(tiny(WoMode::block_diagonal, seed));
    for (int l = 0; l < 2; l++) {
      const std::vector<float> a = learned.wo_init(l), b = block.wo_init(l);
      for (int i = 0; i < C * C; i++)
        ASSERT_EQ(b[i], between_heads(i, C, H) ? 0.0f : a[i]) << "seed " << seed << " [" << i << "]";
    }
    // the bias is learned's too
    EXPECT_EQ(tensors_of(block).f32.at("layers.1.attn.W_o.bias").data,
              tensors_of(learned).f32.at("layers.1.attn.W_o.bias").data);
  }
}

TEST(BlockDiagonal, EntriesBetweenHeadsStayExactlyZeroThroughTraining) {
  for (int heads : {2, 4}) {
    RunConfig cfg = tiny(WoMode::block_diagonal, 5, 16, heads);
    cfg.train.lr = 0.01f;  // large steps: any leak would show
    cfg.train.clip = 0;
    Trainer t(cfg);
    const std::vector<float> before = t.wo_weights(0);
    t.step(30);
    ASSERT_EQ(describe(t.status()), "done");
    const SafeTensors st = tensors_of(t);
    const int C = 16;
    int moved = 0;
    for (int l = 0; l < 2; l++) {
      const std::string name = "layers." + std::to_string(l) + ".attn.W_o.weight";
      const std::vector<float>& w = st.f32.at(name).data;
      const std::vector<float>& m = st.f32.at("adam.m." + name).data;
      const std::vector<float>& v = st.f32.at("adam.v." + name).data;
      EXPECT_EQ(t.wo_weights(l), w);
      for (int i = 0; i < C * C; i++) {
        if (!between_heads(i, C, heads)) {
          moved += l == 0 && w[i] != before[i];
          continue;
        }
        uint32_t bits[3];  // +0.0f, bit for bit: the weight and both of Adam's moments
        std::memcpy(&bits[0], &w[i], 4);
        std::memcpy(&bits[1], &m[i], 4);
        std::memcpy(&bits[2], &v[i], 4);
        ASSERT_EQ(bits[0] | bits[1] | bits[2], 0u) << name << " [" << i << "], heads " << heads;
      }
    }
    EXPECT_EQ(moved, C * C / heads) << "every entry of the blocks trains";
  }
}

TEST(BlockDiagonal, CountsOnlyTheBlocksAsParameters) {
  const int C = 16, H = 4, layers = 2;
  EXPECT_EQ(Trainer(tiny(WoMode::block_diagonal)).parameter_count(),
            Trainer(tiny(WoMode::learned)).parameter_count() - layers * (C * C - C * C / H));
}

TEST(BlockDiagonal, CheckpointWithEntriesBetweenHeadsIsRefused) {
  Trainer t(tiny(WoMode::block_diagonal));
  t.step(3);
  RunCheckpoint c = t.checkpoint();
  EXPECT_NO_THROW(Trainer::from_checkpoint(t.config(), c));
  for (const std::string name : {"layers.1.attn.W_o.weight", "adam.m.layers.0.attn.W_o.weight"}) {
    RunCheckpoint bad = c;
    bad.tensors.f32.at(name).data[1] = 0.5f;  // (0, 1): heads 0 and 0 with d_k 4: in a block
    EXPECT_NO_THROW(Trainer::from_checkpoint(t.config(), bad)) << name;
    bad.tensors.f32.at(name).data[15] = 0.5f;  // (0, 15): head 0's row, head 3's column
    try {
      Trainer::from_checkpoint(t.config(), bad);
      ADD_FAILURE() << name << " was taken";
    } catch (const ConfigError& e) {
      EXPECT_EQ(std::string(e.what()),
                "checkpoint: tensor " + name + " is not 0 between the heads' blocks, as block_diagonal's W_o is");
    }
  }
}

// ---- scalar_gain ----

TEST(ScalarGain, LearnedsInitialGainIsOneOverSqrt3) {
  EXPECT_DOUBLE_EQ(kLearnedWoGain, 1 / std::sqrt(3.0));
  // ‖W_o x‖ / ‖x‖ as an RMS over random inputs x ~ N(0, I), W_o learned's initial weight (its
  // bias aside), pooled over 4 seeds and both layers at each width: within 2% of 1/√3. (One
  // matrix's own gain spreads by about 0.45/d around it, 1.4% at d 32; pooled, with 500 inputs
  // each, under 0.6%.)
  for (int d : {32, 64, 128}) {
    double in = 0, out = 0;
    for (uint64_t seed : {0, 1, 2, 3}) {
      const Trainer t(tiny(WoMode::learned, seed, d, 4));
      Rng rng(17 + seed);
      for (int l = 0; l < 2; l++) {
        const std::vector<float> w = t.wo_init(l);
        std::vector<double> x(d);
        for (int n = 0; n < 500; n++) {
          for (double& v : x) v = rng.normal();
          for (int r = 0; r < d; r++) {
            double y = 0;
            for (int c = 0; c < d; c++) y += double(w[r * d + c]) * x[c];
            out += y * y;
            in += x[r] * x[r];
          }
        }
      }
    }
    const double gain = std::sqrt(out / in);
    std::printf("  d_model %3d: learned's initial W_o has gain %.4f (1/sqrt(3) = %.4f)\n", d, gain, kLearnedWoGain);
    EXPECT_NEAR(gain, kLearnedWoGain, 0.02 * kLearnedWoGain) << "d " << d;
  }
}

TEST(ScalarGain, OneLearnedScalarPerLayerAndNoMatrix) {
  Trainer t(tiny(WoMode::scalar_gain));
  const int C = 16, layers = 2;
  const SafeTensors st = tensors_of(t);
  for (int l = 0; l < layers; l++) {
    const std::string p = "layers." + std::to_string(l) + ".attn.W_o.";
    ASSERT_TRUE(st.f32.count(p + "gain"));
    EXPECT_EQ(st.f32.at(p + "gain").shape, std::vector<int64_t>{1});
    EXPECT_EQ(st.f32.at(p + "gain").data[0], static_cast<float>(kLearnedWoGain));
    EXPECT_FALSE(st.f32.count(p + "weight"));
    EXPECT_FALSE(st.f32.count(p + "bias")) << "no bias, like identity";
    // W_o as a matrix: the gain times the identity
    const std::vector<float> w = t.wo_init(l);
    for (int i = 0; i < C * C; i++) ASSERT_EQ(w[i], i % (C + 1) == 0 ? static_cast<float>(kLearnedWoGain) : 0.0f);
  }
  EXPECT_EQ(t.parameter_count(), Trainer(tiny(WoMode::identity)).parameter_count() + layers);
  // the gain trains, and W_o stays a multiple of the identity
  t.step(30);
  for (int l = 0; l < layers; l++) {
    const std::vector<float> w = t.wo_weights(l);
    EXPECT_NE(w[0], static_cast<float>(kLearnedWoGain)) << "layer " << l;
    for (int i = 0; i < C * C; i++) ASSERT_EQ(w[i], i % (C + 1) == 0 ? w[0] : 0.0f);
  }
}

TEST(ScalarGain, OvSingularValuesAreTheGainTimesWvs) {
  Trainer gain(tiny(WoMode::scalar_gain)), identity(tiny(WoMode::identity));
  const float g = static_cast<float>(kLearnedWoGain);
  for (int h = 0; h < 4; h++) {
    const std::vector<float> a = gain.ov_singular_values(1, h), b = identity.ov_singular_values(1, h);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); i++) EXPECT_NEAR(a[i], g * b[i], 1e-5f * b[0]);
  }
}

// ---- identity_matched ----

// Trainable parameters of a model of `m` (derived) in mode `wo`.
int64_t parameters(ModelConfig m, WoMode wo) {
  m.wo = wo;
  return Model<float>(m, 1).trainable_count();
}

// identity_matched against learned: within 1% for every preset's models (the toy tasks' and
// real words'), and for real words at d_model 32, 64 and 128 (d_ff 4·d_model, 4 heads, 2 layers).
TEST(IdentityMatched, ParameterCountIsLearnedsWithinOnePercent) {
  std::vector<std::pair<std::string, ModelConfig>> models;
  const nlohmann::json all = presets(/*with_native=*/true);
  for (const auto& [name, preset] : all.items()) {
    const ExperimentConfig cfg = parse_experiment_config(preset.dump());
    models.push_back({name, run_config(*find_experiment("remove_wo"), cfg).model});
    models.push_back({name + " real_words", run_config(*find_experiment("real_words"), cfg).model});
  }
  for (int d : {32, 64, 128}) {
    RunConfig c;
    c.task.kind = TaskKind::g2p;
    c.model.d_model = d;
    c.model.d_ff = 4 * d;
    derive(c);
    models.push_back({"real words d_model " + std::to_string(d), c.model});
  }
  for (const auto& [what, m] : models) {
    const int64_t learned = parameters(m, WoMode::learned), matched = parameters(m, WoMode::identity_matched);
    ModelConfig wide = m;
    wide.wo = WoMode::identity_matched;
    std::printf("  %-32s d_model %4d, layers %d: d_ff %4d -> %4d; learned %8lld, identity_matched %8lld (%+.3f%%)\n",
                what.c_str(), m.d_model, m.layers, m.d_ff, ffn_width(wide), static_cast<long long>(learned),
                static_cast<long long>(matched), 100.0 * double(matched - learned) / double(learned));
    EXPECT_LT(std::abs(double(matched - learned)), 0.01 * double(learned)) << what;
    // within half a unit of the FFN per layer, in fact
    EXPECT_LE(std::abs(matched - learned), m.layers * (2 * m.d_model + 1) / 2) << what;
    EXPECT_GT(ffn_width(wide), m.d_ff) << what;
  }
}

TEST(IdentityMatched, WidthIsTheNearestUnitCount) {
  // d(d+1)/(2d+1) units: d/2 for even d (16: 272/33 = 8.2), (d+1)/2 for odd d (3: 12/7 = 1.7)
  for (auto [d, extra] : {std::pair{1, 1}, {3, 2}, {8, 4}, {16, 8}, {64, 32}, {255, 128}, {256, 128}}) {
    ModelConfig m;
    m.d_model = d;
    m.d_ff = 100;
    m.wo = WoMode::identity_matched;
    EXPECT_EQ(ffn_width(m), 100 + extra) << "d " << d;
    m.wo = WoMode::identity;
    EXPECT_EQ(ffn_width(m), 100) << "only identity_matched widens";
  }
}

TEST(IdentityMatched, NoWoAndAWiderFfnWhoseFirstUnitsAreEveryVariants) {
  const Trainer learned(tiny(WoMode::learned)), matched(tiny(WoMode::identity_matched));
  const SafeTensors a = tensors_of(learned), b = tensors_of(matched);
  const int C = 16, F = 32, wide = 40;  // 32 + 16·17/33 rounded
  for (int l = 0; l < 2; l++) {
    const std::string p = "layers." + std::to_string(l) + ".";
    EXPECT_FALSE(b.f32.count(p + "attn.W_o.weight"));
    EXPECT_FALSE(b.f32.count(p + "attn.W_o.bias"));
    const Tensor<float>&fc1 = b.f32.at(p + "ffn.fc1.weight"), &fc2 = b.f32.at(p + "ffn.fc2.weight");
    ASSERT_EQ(fc1.shape, (std::vector<int64_t>{wide, C}));
    ASSERT_EQ(fc2.shape, (std::vector<int64_t>{C, wide}));
    // fc1's first F rows, fc1's bias's first F, fc2's first F columns and fc2's bias: learned's
    const std::vector<float>&fc1_l = a.f32.at(p + "ffn.fc1.weight").data, &fc2_l = a.f32.at(p + "ffn.fc2.weight").data;
    EXPECT_TRUE(std::equal(fc1_l.begin(), fc1_l.end(), fc1.data.begin()));
    const std::vector<float>& b1 = b.f32.at(p + "ffn.fc1.bias").data;
    const std::vector<float>& b1_l = a.f32.at(p + "ffn.fc1.bias").data;
    EXPECT_TRUE(std::equal(b1_l.begin(), b1_l.end(), b1.begin()));
    EXPECT_EQ(b.f32.at(p + "ffn.fc2.bias").data, a.f32.at(p + "ffn.fc2.bias").data);
    float extra_max = 0;
    for (int r = 0; r < C; r++)
      for (int c = 0; c < wide; c++) {
        const float v = fc2.data[r * wide + c];
        if (c < F) ASSERT_EQ(v, fc2_l[r * F + c]) << p << " fc2 (" << r << ", " << c << ")";
        else extra_max = std::max(extra_max, std::abs(v));
      }
    // the extra units are drawn like the others: fc2's within d_ff's bound 1/√32, not zeros
    EXPECT_GT(extra_max, 0.1f);
    EXPECT_LT(extra_max, 1 / std::sqrt(float(F)));
  }
  // as many parameters as learned, within the half unit per layer of rounding
  EXPECT_LE(std::abs(matched.parameter_count() - learned.parameter_count()), 2 * (2 * C + 1) / 2);
  // W_o is the identity, and its output the concat
  for (int l = 0; l < 2; l++) {
    const std::vector<float> w = matched.wo_init(l);
    for (int i = 0; i < C * C; i++) ASSERT_EQ(w[i], i % (C + 1) == 0 ? 1.0f : 0.0f);
  }
}

}  // namespace
}  // namespace wolab
