// The task g2p (run/g2p.h): a batch padded to its longest word gives the loss and gradients of
// its words one at a time, and pads change nothing; edit distance and the closest-pronunciation
// score on hand-checked cases; a g2p run trains, scores the held-out words greedily and stays
// within its memory estimate; the settings know the task.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "alloc_hook.h"
#include "helpers.h"
#include "io/cmudict.h"
#include "lab/checkpoints.h"
#include "lab/config.h"
#include "nn/model.h"
#include "run/g2p.h"
#include "run/memory_estimate.h"
#include "run/trainer.h"

namespace wolab {
namespace {

const char kWords[] =
    "AB  EY1 B IY1\n"
    "CAT  K AE1 T\n"
    "STRENGTH  S T R EH1 NG K TH\n"
    "OX  AA1 K S\n";

int answer_tokens(const Batch& b) {
  return static_cast<int>(std::count_if(b.target.begin(), b.target.end(), [](int t) { return t >= 0; }));
}

// The loss of a padded batch is the mean over its answer tokens, so it is the token-weighted
// mean of its words' losses, and so are its gradients; in post-LN and pre-LN.
TEST(G2pPadding, PaddedBatchEqualsItsWordsOneAtATime) {
  const Lexicon lex = parse_cmudict(kWords);
  const std::vector<int> order = {2, 0, 1, 3};  // the longest first, so the others are padded
  for (LnPlace ln : {LnPlace::post, LnPlace::pre}) {
    RunConfig c = g2p_config();
    c.model.ln = ln;
    Model<double> m(c.model, 4);
    m.init(11);
    const Batch batch = g2p_batch(lex, order, 0, 4);
    ASSERT_EQ(batch.seq_len, 1 + 8 + 1 + 7);
    const double loss = m.forward(batch.input.data(), batch.target.data(), 4, batch.seq_len);
    m.backward();
    const std::vector<double> grads = m.grads;
    std::vector<double> logits(m.logits(), m.logits() + 4 * batch.seq_len * c.model.vocab);

    double sum = 0;
    std::vector<double> sum_grads(grads.size(), 0.0);
    int tokens = 0;
    for (int b = 0; b < 4; b++) {
      const Batch one = g2p_batch(lex, order, b, 1);  // no pad: its own length
      const int n = answer_tokens(one);
      sum += n * m.forward(one.input.data(), one.target.data(), 1, one.seq_len);
      m.backward();
      for (size_t i = 0; i < grads.size(); i++) sum_grads[i] += n * m.grads[i];
      tokens += n;
      // a real position's logits do not depend on the pads after it
      for (int i = 0; i < one.seq_len * c.model.vocab; i++)
        ASSERT_NEAR(m.logits()[i], logits[b * batch.seq_len * c.model.vocab + i], 1e-12);
    }
    EXPECT_EQ(tokens, answer_tokens(batch));
    EXPECT_NEAR(loss, sum / tokens, 1e-12);
    for (size_t i = 0; i < grads.size(); i++) ASSERT_NEAR(grads[i], sum_grads[i] / tokens, 1e-12) << i;
  }
}

TEST(G2pPadding, PadTokensChangeNothing) {
  const Lexicon lex = parse_cmudict(kWords);
  RunConfig c = g2p_config();
  Model<float> m(c.model, 4);
  m.init(2);
  Batch batch = g2p_batch(lex, {0, 1, 2, 3}, 0, 4);
  const float loss = m.forward(batch.input.data(), batch.target.data(), 4, batch.seq_len);
  m.backward();
  const std::vector<float> grads = m.grads;
  int pads = 0;
  for (size_t i = 0; i + 1 < batch.input.size(); i++)
    if (batch.target[i] < 0 && batch.input[i] == kG2pEos) {
      batch.input[i] = kLetterToken + 7;  // any token
      pads++;
    }
  ASSERT_GT(pads, 0);
  EXPECT_EQ(m.forward(batch.input.data(), batch.target.data(), 4, batch.seq_len), loss);
  m.backward();
  EXPECT_EQ(m.grads, grads);
}

TEST(G2pScore, EditDistanceHandCases) {
  using P = std::vector<uint8_t>;
  EXPECT_EQ(edit_distance({}, {}), 0);
  EXPECT_EQ(edit_distance({}, {1, 2}), 2);
  EXPECT_EQ(edit_distance({1, 2, 3}, {1, 2, 3}), 0);
  EXPECT_EQ(edit_distance({1, 2, 3}, {1, 3}), 1);        // a deletion
  EXPECT_EQ(edit_distance({1, 3}, {1, 2, 3}), 1);        // an insertion
  EXPECT_EQ(edit_distance({1, 2, 3}, {1, 4, 3}), 1);     // a substitution
  EXPECT_EQ(edit_distance({1, 2, 3}, {3, 2, 1}), 2);
  EXPECT_EQ(edit_distance(P{kNotPhoneme}, {1}), 1);
  // kitten -> sitting: the textbook 3
  EXPECT_EQ(edit_distance({10, 8, 19, 19, 4, 13}, {18, 8, 19, 19, 8, 13, 6}), 3);
}

TEST(G2pScore, ClosestListedPronunciation) {
  LexiconWord w{"abbe", {{1, 6, 17}, {1, 6, 12}, {1, 6}}};
  EXPECT_EQ(score_pronunciation({1, 6, 12}, w).edits, 0);
  EXPECT_EQ(score_pronunciation({1, 6, 12}, w).reference, 3);
  EXPECT_EQ(score_pronunciation({1, 6}, w).reference, 2);  // exact on the third
  const PronunciationScore s = score_pronunciation({1, 6, 5}, w);  // 1 from the first two: the first
  EXPECT_EQ(s.edits, 1);
  EXPECT_EQ(s.reference, 3);
  EXPECT_EQ(score_pronunciation({}, w).edits, 2);
}

TEST(G2pConfig, TheTaskDerivesItsSizesFromTheData) {
  const RunConfig c = parse_run_config(R"({"task": {"name": "g2p"}})");
  EXPECT_EQ(c.task.kind, TaskKind::g2p);
  EXPECT_EQ(c.model.vocab, 26 + kPhonemeCount + 3);
  EXPECT_EQ(c.model.seq_len, 1 + kMaxLetters + 1 + kMaxPhonemes);
  try {
    Trainer t(c);
    FAIL() << "a g2p run without the lexicon";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "task.name: g2p needs the CMUdict lexicon (docs/g2p.md), which was not loaded");
  }
}

// Unsanitized: it reads the published dictionary (helpers.h, expect_unsanitized_tag).
TEST(G2pTrainer, TrainsAndScoresTheHeldOutWordsUnsanitized) {
  Trainer t(g2p_config(), published_data());
  const std::vector<float> losses = t.step(30);
  ASSERT_EQ(losses.size(), 30u);
  for (float l : losses) ASSERT_TRUE(std::isfinite(l));
  EXPECT_LT(losses.back(), losses.front());
  ASSERT_EQ(t.g2p_evals().size(), 3u);
  for (const G2pScores& s : t.g2p_evals()) {
    EXPECT_EQ(s.words, 40);
    EXPECT_GE(s.per, 0.0f);
    EXPECT_GE(s.wer, 0.0f);
    EXPECT_LE(s.wer, 1.0f);
    EXPECT_GT(s.token_acc, 0.0f);
    EXPECT_TRUE(std::isfinite(s.loss));
  }
  // the teacher-forced figures agree with the run's own evals on the same subset
  EXPECT_NEAR(t.g2p_evals().back().token_acc, t.evals().back().token_acc, 1e-6);
  EXPECT_NEAR(t.g2p_evals().back().loss, t.evals().back().loss, 1e-5);
  EXPECT_FLOAT_EQ(t.greedy_exact(), 1.0f - t.g2p_evals().back().wer);
  const G2pScores all = t.g2p_scores(true);
  EXPECT_EQ(all.words, static_cast<int>(published_data()->heldout.size()));
  EXPECT_GT(all.per, 0.0f);  // 30 steps of a tiny model are far from right
  // a checkpoint reloads with the data and continues
  const Trainer back = load_checkpoint(save_checkpoint(t), published_data());
  EXPECT_EQ(back.steps_done(), 30);
}

TEST(G2pTrainer, SameSeedSameRun) {
  Trainer a(g2p_config(), small_lexicon()), b(g2p_config(), small_lexicon());
  EXPECT_EQ(a.step(12), b.step(12));
  EXPECT_EQ(a.last_batch(), b.last_batch());
}

// Unsanitized: it reads the published dictionary (and has no malloc hook under the sanitizers).
TEST(G2pMemory, EstimateBoundsTheRunUnsanitized) {
  if (!alloc_hook::available()) GTEST_SKIP() << "no malloc hook under sanitizers";
  const auto data = published_data();
  const RunConfig c = g2p_config();
  alloc_hook::start();
  {
    Trainer t(c, data);
    while (!t.finished()) t.step(50);
    t.g2p_scores(true);
  }
  const int64_t peak = alloc_hook::stop().peak;
  EXPECT_GE(static_cast<int64_t>(estimate_bytes(c)), peak);
}

}  // namespace
}  // namespace wolab
