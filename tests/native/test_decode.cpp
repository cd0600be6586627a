// The cheaper forwards of held-out metrics against the full forward pass they replace, in
// post-LN and pre-LN and every W_o mode: incremental decoding (Model::decode, over the model's
// cache of keys and values), the same logits at every position and on partly trained models the
// same greedy answers as rerunning forward() for every generated token; and forward_scored, the
// same loss and logits at the positions with a target.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "io/safetensors.h"
#include "lab/checkpoints.h"
#include "lab/config.h"
#include "nn/model.h"
#include "run/tasks.h"
#include "run/trainer.h"

namespace wolab {
namespace {

const WoMode kModes[] = {WoMode::learned,       WoMode::identity,
                         WoMode::frozen_random, WoMode::learned_identity_init,
                         WoMode::frozen_random_scaled, WoMode::frozen_orthogonal,
                         WoMode::block_diagonal, WoMode::scalar_gain,
                         WoMode::identity_matched};

struct DecodeCase {
  WoMode wo;
  LnPlace ln;
};

void PrintTo(const DecodeCase& c, std::ostream* os) { *os << to_string(c.wo) << "_" << to_string(c.ln); }

std::vector<DecodeCase> all_cases() {
  std::vector<DecodeCase> out;
  for (WoMode wo : kModes)
    for (LnPlace ln : {LnPlace::post, LnPlace::pre}) out.push_back({wo, ln});
  return out;
}

std::string case_name(const testing::TestParamInfo<DecodeCase>& info) {
  return std::string(to_string(info.param.wo)) + "_" + to_string(info.param.ln);
}

// Small enough to train in a moment, trained far enough that its greedy answers are neither all
// right nor all wrong; batch 24 leaves a short last chunk of the 512 held-out sequences.
RunConfig small(const DecodeCase& c, int steps) {
  RunConfig r;
  r.model.d_model = 32;
  r.model.heads = 4;
  r.model.layers = 2;
  r.model.d_ff = 64;
  r.model.wo = c.wo;
  r.model.ln = c.ln;
  r.task.kind = TaskKind::reverse;
  r.task.alphabet = 6;
  r.task.length = 5;
  r.train.steps = steps;
  r.train.batch = 24;
  r.train.probe_every = steps;
  r.train.lr = 3e-3f;
  r.train.seed = 7;
  derive(r);
  return r;
}

// A model of scalar S holding `trainer`'s current weights.
template <class S>
Model<S> model_of(const Trainer& trainer) {
  const std::vector<uint8_t> bytes = save_checkpoint(trainer);
  const SafeTensors st = read_safetensors(bytes.data(), bytes.size());
  Model<S> m(trainer.config().model, trainer.config().train.batch);
  for (const ParamInfo& p : m.param_info()) {
    const std::vector<float>& w = st.f32.at(p.name).data;
    std::copy(w.begin(), w.end(), m.params.begin() + p.offset);
  }
  return m;
}

// Greedy decoding as it was done before the cache: the whole sequence through forward() once
// per generated token, each prediction written into the next position of the input.
template <class S>
int slow_greedy_right(Model<S>& m, const TaskConfig& task, int batch) {
  const Batch heldout = heldout_set(task, task.heldout);
  const int T = m.config().seq_len, V = m.config().vocab, first = first_answer_position(task);
  std::vector<int> input(static_cast<size_t>(batch) * T), none(input.size(), -1);
  int exact = 0;
  for (int start = 0; start < heldout.size; start += batch) {
    const int B = std::min(batch, heldout.size - start);
    std::copy_n(heldout.input.data() + start * T, B * T, input.data());
    std::vector<bool> right(B, true);
    for (int t = first; t < T; t++) {
      m.forward(input.data(), none.data(), B);
      for (int b = 0; b < B; b++) {
        const S* z = m.logits() + (b * T + t) * V;
        const int token = static_cast<int>(std::max_element(z, z + V) - z);
        right[b] = right[b] && token == heldout.target[(start + b) * T + t];
        if (t + 1 < T) input[b * T + t + 1] = token;
      }
    }
    exact += static_cast<int>(std::count(right.begin(), right.end(), true));
  }
  return exact;
}

class Decode : public testing::TestWithParam<DecodeCase> {};

// Teacher forced, position by position: decode's logits at t are forward's at t.
template <class S>
void expect_decode_matches_forward(const Trainer& trainer, double tolerance) {
  Model<S> m = model_of<S>(trainer);
  const RunConfig& cfg = trainer.config();
  const int B = cfg.train.batch, T = cfg.model.seq_len, V = cfg.model.vocab;
  const Batch heldout = heldout_set(cfg.task, cfg.task.heldout);
  std::vector<int> none(static_cast<size_t>(B) * T, -1);
  m.forward(heldout.input.data(), none.data(), B);
  const std::vector<S> full(m.logits(), m.logits() + B * T * V);  // (B,T,V)
  std::vector<int> tokens(B);
  double worst = 0;
  for (int t = 0; t < T; t++) {
    for (int b = 0; b < B; b++) tokens[b] = heldout.input[b * T + t];
    const S* z = m.decode(tokens.data(), t, B);  // (B,V)
    for (int b = 0; b < B; b++)
      for (int v = 0; v < V; v++)
        worst = std::max(worst, std::abs(double(z[b * V + v]) - full[(b * T + t) * V + v]));
  }
  EXPECT_LE(worst, tolerance);
}

TEST_P(Decode, LogitsMatchForwardAtEveryPosition) {
  Trainer trainer(small(GetParam(), 30));
  trainer.step(30);
  expect_decode_matches_forward<double>(trainer, 1e-12);
  expect_decode_matches_forward<float>(trainer, 1e-5);
}

// A prompt decoded without predictions (predict false) caches the same keys and values: from
// the first predicted position on, the logits are those of decoding every position, bit for bit.
template <class S>
void expect_prompt_decode_matches(const Trainer& trainer) {
  Model<S> m = model_of<S>(trainer);
  const RunConfig& cfg = trainer.config();
  const int B = cfg.train.batch, T = cfg.model.seq_len, V = cfg.model.vocab, prompt = T / 2;
  const Batch heldout = heldout_set(cfg.task, cfg.task.heldout);
  std::vector<int> tokens(B);
  auto feed = [&](int t) {
    for (int b = 0; b < B; b++) tokens[b] = heldout.input[b * T + t];
  };
  std::vector<S> every;  // (T,B,V) decoding every position with its logits
  for (int t = 0; t < T; t++) {
    feed(t);
    const S* z = m.decode(tokens.data(), t, B);
    every.insert(every.end(), z, z + B * V);
  }
  for (int t = 0; t < T; t++) {
    feed(t);
    const S* z = m.decode(tokens.data(), t, B, t >= prompt);
    if (t < prompt) {
      EXPECT_EQ(z, nullptr) << "position " << t;
      continue;
    }
    for (int e = 0; e < B * V; e++)
      ASSERT_EQ(z[e], every[static_cast<size_t>(t) * B * V + e])
          << "position " << t << ", logit " << e;
  }
}

TEST_P(Decode, PromptPositionsCacheTheSameKeysAndValues) {
  Trainer trainer(small(GetParam(), 30));
  trainer.step(30);
  expect_prompt_decode_matches<double>(trainer);
  expect_prompt_decode_matches<float>(trainer);
}

TEST_P(Decode, GreedyAnswersMatchTheFullForwardDecoding) {
  const RunConfig cfg = small(GetParam(), 30);
  Trainer trainer(cfg);
  trainer.step(cfg.train.steps);
  Model<float> m = model_of<float>(trainer);
  const int slow = slow_greedy_right(m, cfg.task, cfg.train.batch);
  const int heldout = heldout_set(cfg.task, cfg.task.heldout).size;
  EXPECT_EQ(std::lround(trainer.greedy_exact() * heldout), slow);
  // Partly trained, so that a wrong answer anywhere would change the count.
  EXPECT_GT(slow, 0);
  EXPECT_LT(slow, heldout);
}

// forward_scored at 1 and 2 layers, on a full chunk and a short one (B < the model's batch),
// with a target at every answer position and none elsewhere: the loss and each scored row's
// logits are forward()'s, bit for bit where each row's products do not depend on how many rows
// there are (float in wasm: gemm_wasm_simd.cpp), else within rounding (Eigen's blocking
// depends on the row count). backward() after it is refused.
template <class S>
void expect_scored_matches_forward(const Trainer& trainer, double tolerance) {
  const RunConfig& cfg = trainer.config();
  Model<S> m = model_of<S>(trainer);
  const int T = cfg.model.seq_len, V = cfg.model.vocab;
  const Batch heldout = heldout_set(cfg.task, cfg.task.heldout);
  for (const int B : {cfg.train.batch, 5}) {
    const S full_loss = m.forward(heldout.input.data(), heldout.target.data(), B);
    const std::vector<S> full(m.logits(), m.logits() + B * T * V);  // (B,T,V)
    const S loss = m.forward_scored(heldout.input.data(), heldout.target.data(), B);
    EXPECT_LE(std::abs(double(loss) - full_loss), tolerance);
    int n = 0;  // scored rows
    double worst = 0;
    for (int i = 0; i < B * T; i++) {
      if (heldout.target[i] < 0) continue;
      for (int v = 0; v < V; v++) worst = std::max(worst, std::abs(double(m.logits()[n * V + v]) - full[i * V + v]));
      n++;
    }
    EXPECT_LE(worst, tolerance);
    EXPECT_EQ(n, B * cfg.task.length);
    EXPECT_THROW(m.backward(), std::logic_error);
  }
}

TEST_P(Decode, ScoredForwardMatchesForward) {
#ifdef __wasm_simd128__
  const double float_tolerance = 0;
#else
  const double float_tolerance = 1e-5;
#endif
  for (const int layers : {1, 2}) {
    RunConfig cfg = small(GetParam(), 30);
    cfg.model.layers = layers;
    Trainer trainer(cfg);
    trainer.step(30);
    expect_scored_matches_forward<double>(trainer, 1e-12);
    expect_scored_matches_forward<float>(trainer, float_tolerance);
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, Decode, testing::ValuesIn(all_cases()), case_name);

}  // namespace
}  // namespace wolab
