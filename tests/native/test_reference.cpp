// The model against the PyTorch reference (scripts/make_reference.py), the way llm.c's
// test_gpt2.c checks itself: load the reference's weights and batch, then compare the logits, the
// loss, every gradient by name, and the losses of 10 clipped Adam steps, in float32. The g2p
// fixtures' batch is padded (docs/g2p.md), and is first checked to be the batch the core lays
// out for the same words. block_diagonal's W_o must also end the Adam steps with its entries
// between heads exactly 0, as PyTorch's mask keeps them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "helpers.h"
#include "io/cmudict.h"
#include "io/safetensors.h"
#include "lab/config.h"
#include "nn/adam.h"
#include "nn/model.h"
#include "run/g2p.h"

namespace wolab {
namespace {

float max_abs(const std::vector<float>& v) {
  float m = 0;
  for (float x : v) m = std::max(m, std::abs(x));
  return m;
}

class Reference : public testing::TestWithParam<std::string> {};

TEST_P(Reference, MatchesPyTorch) {
  const std::string path = std::string(WOLAB_FIXTURE_DIR) + "/ref_" + GetParam() + ".safetensors";
  const std::vector<uint8_t> bytes = read_file_bytes(path);
  const SafeTensors ref = read_safetensors(bytes.data(), bytes.size());
  ASSERT_EQ(ref.metadata.at("format"), "wolab-reference");
  const RunConfig cfg = parse_run_config(ref.metadata.at("config"));
  const auto& input = ref.i32.at("input");
  const auto& target = ref.i32.at("target");
  const int B = static_cast<int>(input.shape[0]);
  const int T = static_cast<int>(input.shape[1]);  // g2p: the batch's longest word, < seq_len
  if (cfg.task.kind == TaskKind::g2p) {
    // the same words through the core's layout: the same tokens, pads and targets
    const Lexicon words = parse_cmudict(ref.metadata.at("words"));
    std::vector<int> order(words.words.size());
    for (size_t i = 0; i < order.size(); i++) order[i] = static_cast<int>(i);
    const Batch batch = g2p_batch(words, order, 0, B);
    ASSERT_EQ(batch.seq_len, T);
    EXPECT_EQ(batch.input, input.data);
    EXPECT_EQ(batch.target, target.data);
    ASSERT_LT(T, cfg.model.seq_len);
  }

  Model<float> model(cfg.model, B);
  size_t tensors = 0;
  for (const ParamInfo& p : model.param_info()) {
    const Tensor<float>& w = ref.f32.at(p.name);
    ASSERT_EQ(w.shape, p.shape) << p.name;
    std::copy(w.data.begin(), w.data.end(), model.params.begin() + p.offset);
    tensors++;
  }
  // no reference parameter is missing from our model either
  const size_t ref_params = std::count_if(ref.f32.begin(), ref.f32.end(), [](const auto& kv) {
    return kv.first.rfind("grad.", 0) != 0 && kv.first != "logits" && kv.first != "loss" &&
           kv.first != "adam_losses" && kv.first != "adam_lrs" && kv.first != "schedule_lrs";
  });
  EXPECT_EQ(tensors, ref_params);
  EXPECT_EQ(std::to_string(model.trainable_count()), ref.metadata.at("parameters"));

  const float loss = model.forward(input.data.data(), target.data.data(), B, T);
  EXPECT_NEAR(loss, ref.f32.at("loss").data[0], 1e-5);
  const std::vector<float>& logits = ref.f32.at("logits").data;
  for (size_t i = 0; i < logits.size(); i++) ASSERT_NEAR(model.logits()[i], logits[i], 1e-5) << i;

  model.backward();
  for (const ParamInfo& p : model.param_info()) {
    auto it = ref.f32.find("grad." + p.name);
    ASSERT_EQ(it != ref.f32.end(), p.trainable) << p.name;
    if (!p.trainable) continue;
    const std::vector<float>& g = it->second.data;
    if (p.name.find("W_k.bias") != std::string::npos) {
      // exactly 0 in theory (softmax ignores a shift common to all keys), so both sides hold
      // only rounding noise, with no max-abs to be relative to
      for (size_t i = 0; i < p.size; i++) {
        ASSERT_LT(std::abs(model.grads[p.offset + i]), 1e-6f) << p.name;
        ASSERT_LT(std::abs(g[i]), 1e-6f) << p.name;
      }
      continue;
    }
    const float tol = 1e-4f * std::max(max_abs(g), 1e-6f);
    for (size_t i = 0; i < p.size; i++)
      ASSERT_NEAR(model.grads[p.offset + i], g[i], tol) << p.name << "[" << i << "]";
  }

  // 10 steps on the same batch: forward, backward, clip, Adam
  Adam adam(cfg.train, model.params.size());
  const std::vector<float>& adam_losses = ref.f32.at("adam_losses").data;
  for (size_t step = 0; step < adam_losses.size(); step++) {
    const float l = model.forward(input.data.data(), target.data.data(), B, T);
    EXPECT_NEAR(l, adam_losses[step], 1e-4) << "step " << step;
    model.backward();
    adam.step(model.params, model.grads, model.param_info());
  }
  if (cfg.model.wo == WoMode::block_diagonal) {
    const int C = cfg.model.d_model;
    for (int l = 0; l < cfg.model.layers; l++) {
      const ParamInfo* wo = model.find("layers." + std::to_string(l) + ".attn.W_o.weight");
      for (int i = 0; i < C * C; i++)
        if (between_heads(i, C, cfg.model.heads)) {
          ASSERT_EQ(model.params[wo->offset + i], 0.0f) << wo->name << "[" << i << "]";
          ASSERT_EQ(adam.m[wo->offset + i], 0.0f);
          ASSERT_EQ(adam.v[wo->offset + i], 0.0f);
        }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryModeAndPlacement, Reference,
                         testing::Values("learned_post", "identity_post", "frozen_random_post",
                                         "learned_identity_init_post", "frozen_random_scaled_post",
                                         "frozen_orthogonal_post", "learned_pre", "identity_pre",
                                         "frozen_random_pre", "learned_identity_init_pre",
                                         "frozen_random_scaled_pre", "frozen_orthogonal_pre"));
// The three controls of issue 46: block_diagonal, scalar_gain and identity_matched.
INSTANTIATE_TEST_SUITE_P(Controls, Reference,
                         testing::Values("block_diagonal_post", "scalar_gain_post", "identity_matched_post",
                                         "block_diagonal_pre", "scalar_gain_pre", "identity_matched_pre"));
INSTANTIATE_TEST_SUITE_P(PaddedG2pBatch, Reference, testing::Values("g2p_post", "g2p_pre"));
// Warmup then cosine decay: the 10 Adam steps above under the schedule.
INSTANTIATE_TEST_SUITE_P(LearningRateSchedule, Reference, testing::Values("schedule_post"));

// learning_rate() at every step against PyTorch's LinearLR then CosineAnnealingLR, within 1e-6
// of the rate: the fixture's 10 steps and the same schedule over 300 steps (warmup 40).
TEST(ReferenceSchedule, LearningRatesMatchPyTorchSchedulers) {
  const std::vector<uint8_t> bytes = read_file_bytes(std::string(WOLAB_FIXTURE_DIR) + "/ref_schedule_post.safetensors");
  const SafeTensors ref = read_safetensors(bytes.data(), bytes.size());
  const std::pair<const char*, const char*> cases[] = {{"config", "adam_lrs"}, {"schedule_config", "schedule_lrs"}};
  for (const auto& [config, lrs] : cases) {
    const std::string text = ref.metadata.at(config);  // a run config, or its "train" alone
    const TrainConfig train =
        parse_run_config(std::string(config) == "config" ? text : R"({"train": )" + text + "}").train;
    ASSERT_EQ(train.schedule, LrSchedule::cosine);
    const std::vector<float>& torch_lrs = ref.f32.at(lrs).data;
    ASSERT_EQ(torch_lrs.size(), static_cast<size_t>(train.steps)) << lrs;
    for (int step = 0; step < train.steps; step++)
      ASSERT_NEAR(learning_rate(train, step), torch_lrs[step], 1e-6 * torch_lrs[step]) << lrs << " step " << step;
    // Past the last step the rate stays at the floor.
    EXPECT_EQ(learning_rate(train, train.steps + 5), train.lr_min);
  }
}

}  // namespace
}  // namespace wolab
