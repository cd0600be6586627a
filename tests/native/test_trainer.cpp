// A run as a whole: reproducible, W_o modes behave as their names say, checkpoints continue
// exactly, divergence is caught, and the seeded data and init are pinned.
#include <gtest/gtest.h>

#include <cmath>

#include "helpers.h"
#include "io/safetensors.h"
#include "lab/checkpoints.h"
#include "nn/rng.h"
#include "run/tasks.h"
#include "run/trainer.h"

namespace wolab {
namespace {

TEST(Rng, FirstValuesArePinned) {
  // any change here changes every seeded init and batch: it must be deliberate
  Rng rng(42);
  EXPECT_EQ(rng.next_u64(), 13679457532755275413ull);
  EXPECT_EQ(rng.next_u64(), 2949826092126892291ull);
  Rng u(7);
  EXPECT_EQ(u.uniform(), 0x1.8f2f84p-2f);
  Rng n(7);  // through portable_log: the same bits under glibc and musl
  EXPECT_EQ(n.normal(), -0x1.55f252p-5f);
  EXPECT_EQ(n.normal(), 0x1.c0c22ep-1f);
}

TEST(Tasks, SequencesFollowTheTask) {
  for (TaskKind kind : {TaskKind::copy, TaskKind::reverse, TaskKind::sort}) {
    TaskConfig task;
    task.kind = kind;
    task.alphabet = 7;
    task.length = 5;
    Rng rng(1);
    Batch b = alloc_batch(task, 4);
    fill_batch(b, task, rng);
    const int T = 11, L = 5;
    for (int e = 0; e < 4; e++) {
      const int* in = &b.input[e * T];
      const int* tg = &b.target[e * T];
      EXPECT_EQ(in[0], bos_token(task));
      EXPECT_EQ(in[L + 1], sep_token(task));
      std::vector<int> x(in + 1, in + 1 + L), y(tg + L + 1, tg + T);
      for (int t = 0; t <= L; t++) EXPECT_EQ(tg[t], -1);
      if (kind == TaskKind::reverse) std::reverse(x.begin(), x.end());
      if (kind == TaskKind::sort) std::sort(x.begin(), x.end());
      EXPECT_EQ(x, y);
      for (int t = L + 1; t + 1 < T; t++) EXPECT_EQ(in[t + 1], tg[t]);  // teacher forcing
    }
  }
}

TEST(Trainer, SameConfigAndSeedGiveBitIdenticalRuns) {
  Trainer a(tiny()), b(tiny());
  EXPECT_EQ(a.step(30), b.step(30));
  EXPECT_EQ(save_checkpoint(a), save_checkpoint(b));
  Trainer other = [] {
    RunConfig c = tiny();
    c.train.seed = 4;
    return Trainer(c);
  }();
  EXPECT_NE(a.losses(), other.step(30));
}

TEST(Trainer, VariantsOfOneSeedDifferOnlyInWo) {
  const SafeTensors learned = tensors_of(Trainer(tiny(WoMode::learned)));
  for (WoMode wo : {WoMode::identity, WoMode::frozen_random, WoMode::learned_identity_init,
                    WoMode::frozen_random_scaled, WoMode::frozen_orthogonal}) {
    const SafeTensors other = tensors_of(Trainer(tiny(wo)));
    for (const auto& [name, t] : other.f32) {
      if (name.find("W_o") != std::string::npos || name.rfind("adam.", 0) == 0) continue;
      if (name == "history.loss") continue;
      EXPECT_EQ(t.data, learned.f32.at(name).data) << to_string(wo) << " " << name;
    }
  }
}

TEST(Trainer, FrozenRandomWoNeverChanges) {
  Trainer t(tiny(WoMode::frozen_random));
  const std::vector<float> before = t.wo_weights(0);
  t.step(30);
  EXPECT_EQ(t.wo_weights(0), before);
  EXPECT_EQ(t.wo_weights(1), t.wo_init(1));
  EXPECT_EQ(describe(t.status()), "done");
}

TEST(Trainer, IdentityHasNoWoParameters) {
  Trainer id(tiny(WoMode::identity)), learned(tiny(WoMode::learned));
  const int C = 16, layers = 2;
  EXPECT_EQ(learned.parameter_count() - id.parameter_count(), layers * (C * C + C));
  const std::vector<float> wo = id.wo_weights(0);
  for (int r = 0; r < C; r++)
    for (int c = 0; c < C; c++) EXPECT_EQ(wo[r * C + c], r == c ? 1.0f : 0.0f);
  id.step(10);
  const ProbeRecord& p = id.probes().back();  // W_o(concat) is the concat itself
  EXPECT_EQ(p.layers[0].concat.mean, p.layers[0].wo_out.mean);
  EXPECT_EQ(p.layers[0].concat.std, p.layers[0].wo_out.std);
  EXPECT_EQ(p.layers[0].head_grad_norm.size(), 4u);
}

TEST(Trainer, LearnedIdentityInitStartsAtIdentity) {
  Trainer t(tiny(WoMode::learned_identity_init));
  EXPECT_EQ(t.wo_weights(0), Trainer(tiny(WoMode::identity)).wo_weights(0));
  t.step(5);
  EXPECT_NE(t.wo_weights(0), t.wo_init(0));  // and it trains
}

TEST(Trainer, ProbesAndEvalsHappenAtProbeSteps) {
  Trainer t(tiny());
  t.keep_wo_snapshots(true);
  EXPECT_EQ(t.next_probe_step(), 10);
  t.step(3);
  EXPECT_EQ(t.next_probe_step(), 10);
  t.step(7);
  EXPECT_EQ(t.next_probe_step(), 20);
  const std::vector<float> losses = t.step(100);  // never past train.steps
  EXPECT_EQ(losses.size(), 20u);
  EXPECT_TRUE(t.finished());
  EXPECT_EQ(t.next_probe_step(), 30);
  ASSERT_EQ(t.evals().size(), 3u);
  EXPECT_EQ(t.evals()[2].step, 30);
  ASSERT_EQ(t.probes().size(), 3u);
  EXPECT_EQ(t.probes()[0].step, 10);
  EXPECT_EQ(t.wo_snapshots().size(), 2u * 4);  // 2 layers × steps 0, 10, 20, 30
  EXPECT_EQ(t.wo_snapshots().front().data, t.wo_init(0));
  EXPECT_EQ(t.wo_snapshots().back().data, t.wo_weights(1));
  for (const EvalResult& e : t.evals()) {
    EXPECT_GE(e.token_acc, 0.0f);
    EXPECT_LE(e.token_acc, 1.0f);
    EXPECT_LE(e.exact, e.token_acc);
  }
  EXPECT_EQ(t.head_block_norms(0).size(), 4u);
  EXPECT_EQ(t.ov_singular_values(1, 3).size(), 4u);
  const std::vector<float> att = t.attention(0, 2, 5);
  ASSERT_EQ(att.size(), 9u * 9u);
  for (int i = 0; i < 9; i++) {
    float row = 0;
    for (int j = 0; j < 9; j++) row += att[i * 9 + j];
    EXPECT_NEAR(row, 1.0f, 1e-5f);
  }
  EXPECT_THROW(t.attention(0, 4, 0), std::out_of_range);
  EXPECT_THROW(t.wo_weights(2), std::out_of_range);
}

TEST(Trainer, WoSnapshotsStayWithinTheMemoryLimit) {
  RunConfig c = tiny();
  c.model.d_model = 1024;
  c.model.heads = 4;
  c.model.layers = 1;
  c.model.d_ff = 64;
  c.train.batch = 1;
  c.train.steps = 1000;
  c.train.probe_every = 1;
  Trainer t(c);  // fits without snapshots ...
  EXPECT_THROW(t.keep_wo_snapshots(true), ConfigError);  // ... but not with 1001 of them
  EXPECT_TRUE(t.wo_snapshots().empty());
}

TEST(Trainer, LearnsToCopy) {
  RunConfig c = tiny();
  c.train.steps = 300;
  c.train.batch = 32;
  c.train.probe_every = 300;
  Trainer t(c);
  t.step(300);
  EXPECT_GT(t.evals().back().token_acc, 0.95f);
  EXPECT_GT(t.greedy_exact(), 0.8f);
}

TEST(Trainer, CheckpointContinuesExactly) {
  Trainer a(tiny());
  a.step(12);
  Trainer b = load_checkpoint(save_checkpoint(a));
  EXPECT_EQ(b.steps_done(), 12);
  EXPECT_EQ(b.losses(), a.losses());
  EXPECT_EQ(a.step(18), b.step(18));
  EXPECT_EQ(describe(b.status()), "done");
}

// A cosine schedule continues where it was: a trainer resumed from a checkpoint at step 12
// trains on with the rates of steps 13.., as the run it was saved from does.
TEST(Trainer, CheckpointContinuesTheSchedule) {
  RunConfig c = tiny();
  c.train.schedule = LrSchedule::cosine;
  c.train.warmup = 5;
  c.train.lr = 0.01f;
  c.train.lr_min = 0.0001f;
  Trainer a(c);
  a.step(12);
  Trainer b = load_checkpoint(save_checkpoint(a));
  EXPECT_EQ(a.step(18), b.step(18));
  // And the schedule is not the constant rate's run.
  Trainer constant(tiny());
  EXPECT_NE(Trainer(c).step(12), constant.step(12));
}

// A model file in float16 (half_model): every weight the nearest float16 of the float32 file's,
// read back widened exactly, history kept in float32; a checkpoint with Adam's moments is refused.
TEST(Trainer, HalfModelFilesHoldTheNearestFloat16OfEveryWeight) {
  Trainer a(tiny());
  a.step(10);
  const std::vector<uint8_t> model = save_checkpoint(a, /*optimizer=*/false), half = half_model(model);
  EXPECT_LT(half.size(), model.size() * 6 / 10);
  const SafeTensors f32 = read_safetensors(model.data(), model.size()), f16 = read_safetensors(half.data(), half.size());
  EXPECT_EQ(f16.f32.size(), 1u);  // history.loss
  EXPECT_EQ(f16.f32.at("history.loss").data, f32.f32.at("history.loss").data);
  Trainer b = load_checkpoint(half);
  const std::vector<uint8_t> widened = save_checkpoint(b, /*optimizer=*/false);
  const SafeTensors back = read_safetensors(widened.data(), widened.size());
  for (const auto& [name, t] : f32.f32) {
    if (name == "history.loss") continue;
    const Tensor<float>& w = back.f32.at(name);
    for (size_t i = 0; i < t.data.size(); ++i) ASSERT_EQ(w.data[i], float_from_half(half_from_float(t.data[i]))) << name;
  }
  EXPECT_THROW(half_model(save_checkpoint(a)), ConfigError);
}

TEST(Trainer, CorruptCheckpointsAreRefused) {
  const std::vector<uint8_t> good = save_checkpoint(Trainer(tiny()));
  std::vector<uint8_t> cut(good.begin(), good.begin() + good.size() / 2);
  EXPECT_THROW(load_checkpoint(cut), ConfigError);
  SafeTensors st = read_safetensors(good.data(), good.size());
  st.f32.erase("head.bias");
  EXPECT_THROW(load_checkpoint(write_safetensors(st)), ConfigError);
  st = read_safetensors(good.data(), good.size());
  st.metadata["config"] = "{\"model\": {\"heads\": 5}}";
  EXPECT_THROW(load_checkpoint(write_safetensors(st)), ConfigError);
}

// A status the checkpoint's step cannot have (running at the last step would train past it)
// and negative second moments (the next update would be NaN) are refused, not trained on.
TEST(Trainer, CheckpointsThatCouldNotHaveBeenSavedAreRefused) {
  auto saved_after = [](int steps) {
    Trainer t(tiny());
    t.step(steps);
    const std::vector<uint8_t> bytes = save_checkpoint(t);
    return read_safetensors(bytes.data(), bytes.size());
  };
  auto load = [](SafeTensors st, const std::string& status) {
    st.metadata["status"] = status;
    return load_checkpoint(write_safetensors(st));
  };
  const SafeTensors mid = saved_after(12), last = saved_after(tiny().train.steps);
  for (const char* fits : {"running", "stopped at step 12", "diverged at step 13", "diverged at step 12"})
    EXPECT_NO_THROW(load(mid, fits)) << fits;
  for (const char* misfit : {"done", "stopped at step 11", "diverged at step 14", "diverged at step 11"})
    EXPECT_THROW(load(mid, misfit), ConfigError) << misfit;
  EXPECT_NO_THROW(load(last, "done"));
  for (const char* misfit : {"running", "stopped at step 30", "diverged at step 31"})
    EXPECT_THROW(load(last, misfit), ConfigError) << misfit;

  SafeTensors negative = mid;
  negative.f32.at("adam.v.head.bias").data[0] = -1e-8f;
  EXPECT_THROW(load(negative, "running"), ConfigError);
}

TEST(Trainer, DivergenceStopsTheRunWithItsStep) {
  // weights this large overflow to inf in the embedding sum, so the very next loss is NaN
  const std::vector<uint8_t> bytes = save_checkpoint(Trainer(tiny()));
  SafeTensors st = read_safetensors(bytes.data(), bytes.size());
  for (float& x : st.f32.at("tok_emb.weight").data) x = 3e38f;
  for (float& x : st.f32.at("pos_emb.weight").data) x = 3e38f;
  Trainer t = load_checkpoint(write_safetensors(st));
  EXPECT_TRUE(t.step(5).empty());
  EXPECT_EQ(describe(t.status()), "diverged at step 1");
  EXPECT_TRUE(t.finished());
  EXPECT_TRUE(t.step(5).empty());
  for (float l : t.losses()) EXPECT_TRUE(std::isfinite(l));
}

}  // namespace
}  // namespace wolab
