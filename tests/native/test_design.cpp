// The experiment's design, as docs/findings.md states it, and the probes checked against identities
// computed here independently (in double). Each test fails if the claim it guards breaks:
// variants of one seed seeing different data or different weights, a held-out set that
// depends on the seed or overlaps the training stream, probes measuring the wrong thing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "helpers.h"
#include "io/safetensors.h"
#include "lab/checkpoints.h"
#include "lab/results.h"
#include "nn/eigenvalues.h"
#include "nn/layers.h"
#include "nn/model.h"
#include "run/tasks.h"
#include "run/trainer.h"

namespace wolab {
namespace {

// tiny()'s model on the default task: 20 steps, probed every 5.
RunConfig small(WoMode wo, uint64_t seed = 3) {
  RunConfig c = tiny(wo, seed);
  c.task = RunConfig().task;
  c.train.steps = 20;
  c.train.probe_every = 5;
  return c;
}

// Every W_o mode the settings table offers, so a mode added later is held to the same design.
std::vector<WoMode> every_variant() {
  std::vector<WoMode> modes;
  for (const SettingInfo& s : settings()) {
    if (s.path != "model.wo") continue;
    std::istringstream names(s.allowed);  // "learned|identity|..."
    for (std::string name; std::getline(names, name, '|');) modes.push_back(*wo_mode_from_string(name));
  }
  return modes;
}

bool is_wo(const std::string& name) { return name.find("attn.W_o.") != std::string::npos; }

// The first shape[0] rows and shape[1] columns of t (a bias: its first shape[0]), row-major: a
// wider FFN's (identity_matched's) part that every other variant has too.
std::vector<float> corner(const Tensor<float>& t, const std::vector<int64_t>& shape) {
  const int64_t rows = shape.size() == 2 ? shape[0] : 1, cols = shape.back();
  const int64_t t_rows = t.shape.size() == 2 ? t.shape[0] : 1, t_cols = t.shape.back();
  std::vector<float> out;
  for (int64_t r = 0; r < std::min(rows, t_rows); r++)
    for (int64_t c = 0; c < std::min(cols, t_cols); c++) out.push_back(t.data[r * t_cols + c]);
  return out;
}

// ---- Same data, same weights ----

TEST(Design, VariantsOfOneSeedDrawTheSameBatchesStepForStep) {
  const std::vector<WoMode> variants = every_variant();
  ASSERT_GE(variants.size(), 4u);
  for (uint64_t seed : {0u, 5u}) {
    std::vector<Trainer> runs;
    for (WoMode wo : variants) {
      RunConfig c = small(wo, seed);
      c.train.probe_every = c.train.steps;  // the batches are the point, not the evals
      runs.emplace_back(c);
    }
    for (int step = 1; step <= 20; step++) {
      for (Trainer& t : runs) ASSERT_EQ(t.step(1).size(), 1u);
      for (size_t i = 1; i < runs.size(); i++)
        ASSERT_EQ(runs[i].last_batch(), runs[0].last_batch())
            << to_string(variants[i]) << ", seed " << seed << ", step " << step;
    }
  }
  // and the comparison is not vacuous: another seed draws other batches
  Trainer a(small(WoMode::learned, 0)), b(small(WoMode::learned, 5));
  a.step(1);
  b.step(1);
  EXPECT_NE(a.last_batch(), b.last_batch());
}

TEST(Design, VariantsOfOneSeedShareEveryInitialWeightButWo) {
  const SafeTensors learned = tensors_of(Trainer(small(WoMode::learned)));
  std::set<std::string> learned_names;
  for (const auto& [name, t] : learned.f32)
    if (!is_wo(name) && name.rfind("adam.", 0) != 0 && name.rfind("init.", 0) != 0 &&
        name != "history.loss")
      learned_names.insert(name);
  ASSERT_GT(learned_names.size(), 10u);
  for (WoMode wo : every_variant()) {
    const SafeTensors other = tensors_of(Trainer(small(wo)));
    for (const std::string& name : learned_names) {
      auto it = other.f32.find(name);
      ASSERT_NE(it, other.f32.end()) << to_string(wo) << " has no " << name;
      const Tensor<float>& mine = learned.f32.at(name);
      // identity_matched's FFN is wider: every variant's units first, its extra ones after them
      if (wo == WoMode::identity_matched && name.find(".ffn.") != std::string::npos && it->second.shape != mine.shape)
        EXPECT_EQ(corner(it->second, mine.shape), mine.data) << name;
      else
        EXPECT_EQ(it->second.data, mine.data) << to_string(wo) << " " << name;
    }
  }
  const SafeTensors other_seed = tensors_of(Trainer(small(WoMode::learned, 4)));
  EXPECT_NE(other_seed.f32.at("layers.0.attn.W_q.weight").data,
            learned.f32.at("layers.0.attn.W_q.weight").data);
}

TEST(Design, FrozenRandomWoIsTheLearnedVariantsInitialWo) {
  for (uint64_t seed : {0u, 3u}) {
    Trainer learned(small(WoMode::learned, seed)), frozen(small(WoMode::frozen_random, seed));
    for (int l = 0; l < 2; l++) EXPECT_EQ(frozen.wo_init(l), learned.wo_init(l)) << "layer " << l;
    EXPECT_NE(learned.wo_init(0), learned.wo_init(1));  // each layer its own draw
  }
}

TEST(Design, IdentityVariantsStartAtTheIdentity) {
  const int C = 16;
  std::vector<float> eye(C * C, 0.0f);
  for (int i = 0; i < C; i++) eye[i * C + i] = 1.0f;
  for (WoMode wo : {WoMode::identity, WoMode::learned_identity_init}) {
    Trainer t(small(wo));
    for (int l = 0; l < 2; l++) EXPECT_EQ(t.wo_init(l), eye) << to_string(wo);
  }
  const SafeTensors st = tensors_of(Trainer(small(WoMode::learned_identity_init)));
  EXPECT_EQ(st.f32.at("layers.1.attn.W_o.bias").data, std::vector<float>(C, 0.0f));
}

// ---- The held-out set ----

TEST(Design, HeldOutSetIsTheSameForEverySeedAndVariant) {
  const RunConfig first = small(WoMode::learned, 0);
  const std::vector<int> heldout = Trainer(first).heldout_inputs();
  ASSERT_EQ(heldout.size(), 512u * first.model.seq_len);
  for (uint64_t seed : {0u, 1u, 7u, 1234567u})
    for (WoMode wo : every_variant())
      EXPECT_EQ(Trainer(small(wo, seed)).heldout_inputs(), heldout) << to_string(wo) << seed;
}

// task.heldout takes the first N of the same stream, so a preset that evaluates on fewer
// sequences measures on a subset of the default set, not on other examples.
TEST(Design, SmallerHeldOutSetIsAPrefixOfTheDefault) {
  RunConfig cfg = small(WoMode::learned, 0);
  const std::vector<int> full = Trainer(cfg).heldout_inputs();
  cfg.task.heldout = 128;
  const std::vector<int> part = Trainer(cfg).heldout_inputs();
  ASSERT_EQ(part.size(), 128u * cfg.model.seq_len);
  EXPECT_TRUE(std::equal(part.begin(), part.end(), full.begin()));
}

// The rule: the held-out set comes from its own stream, keyed by (task, alphabet, length) and
// never by the run's seed, so no training batch is built from it; a training sequence equals a
// held-out one only by chance, about held-out × draws / alphabet^length times. The task cannot
// exclude them when that space is small (alphabet 2, length 3 has 8 sequences); at the default
// alphabet 10, length 8 (10^8 sequences) 512 held-out against the 3 × 100 × 32 training draws
// below expect 0.05 collisions, and the check finds none. A held-out set taken from a training
// stream shares hundreds.
TEST(Design, HeldOutSetIsDisjointFromTheTrainingStream) {
  const int L = 8, T = 2 * L + 1;
  auto sequences_of = [&](const std::vector<int>& inputs) {  // the x part of each
    std::vector<std::vector<int>> xs;
    for (size_t start = 0; start < inputs.size(); start += T)
      xs.emplace_back(inputs.begin() + start + 1, inputs.begin() + start + 1 + L);
    return xs;
  };
  for (uint64_t seed : {0u, 1u, 2u}) {
    RunConfig c = small(WoMode::learned, seed);
    c.model.layers = 1;
    c.train.batch = 32;
    c.train.steps = 100;
    c.train.probe_every = 100;
    ASSERT_EQ(c.task.length, L);
    ASSERT_EQ(c.task.alphabet, 10);
    Trainer t(c);
    std::vector<std::vector<int>> held = sequences_of(t.heldout_inputs());
    const std::set<std::vector<int>> heldout(held.begin(), held.end());
    int shared = 0, drawn = 0;
    while (!t.finished()) {
      t.step(1);
      for (const std::vector<int>& x : sequences_of(t.last_batch())) {
        shared += heldout.count(x);
        drawn++;
      }
    }
    EXPECT_EQ(drawn, 100 * 32);
    EXPECT_EQ(shared, 0) << "seed " << seed;
  }
}

// ---- Checkpoints ----

// What a checkpoint keeps (docs/results.md, "Checkpoints"): weights, Adam's state, the data
// stream and the loss history, so training continues exactly; not the evals and probes taken
// before it was saved, so a reloaded run's record has evals and stats from its reload on.
TEST(Design, ReloadedCheckpointKeepsLossesButNotEarlierEvalsOrProbes) {
  Trainer a(small(WoMode::learned));
  a.step(12);  // evals and probes at steps 5 and 10
  ASSERT_EQ(a.evals().size(), 2u);
  Trainer b = load_checkpoint(save_checkpoint(a));
  EXPECT_EQ(b.losses(), a.losses());
  EXPECT_TRUE(b.evals().empty());
  EXPECT_TRUE(b.probes().empty());
  a.step(8);
  b.step(8);
  ASSERT_EQ(b.evals().size(), 2u);  // steps 15 and 20
  for (size_t i = 0; i < 2; i++) {
    EXPECT_EQ(b.evals()[i].step, a.evals()[i + 2].step);
    EXPECT_EQ(b.evals()[i].loss, a.evals()[i + 2].loss);
  }
  EXPECT_EQ(b.probes().front().step, 15);
}

// The record names its variant from the trainer's own config, so no caller can mislabel a run,
// and a reloaded run keeps the variant its checkpoint's config names.
TEST(Design, RecordsNameTheVariantOfTheTrainersConfig) {
  for (WoMode wo : every_variant()) {
    RunConfig c = small(wo);
    c.model.layers = 1;
    Trainer t(c);
    t.step(1);  // still running: its record skips the final (greedy) evaluation
    const nlohmann::json record = run_record(t);
    EXPECT_EQ(record["variant"], to_string(t.config().model.wo));
    EXPECT_EQ(record["variant"], to_string(wo));
    Trainer reloaded = load_checkpoint(save_checkpoint(t));
    EXPECT_EQ(run_record(reloaded)["variant"], to_string(wo));
  }
}

// ---- The probes, against identities ----

// A (rows,cols) row-major matrix in double, read as m(r, c).
struct Mat {
  int rows, cols;
  std::vector<double> data;
  double operator()(int r, int c) const { return data[static_cast<size_t>(r) * cols + c]; }
};

Mat matrix(const std::vector<float>& data, int rows, int cols) {
  return {rows, cols, std::vector<double>(data.begin(), data.end())};
}

Mat wv_of(const Trainer& t, int layer) {
  const int C = t.config().model.d_model;
  return matrix(tensors_of(t).f32.at("layers." + std::to_string(layer) + ".attn.W_v.weight").data, C, C);
}

TEST(Probes, OvSumOfSquaredSingularValuesIsTheCircuitsFrobeniusNorm) {
  for (WoMode wo : {WoMode::learned, WoMode::frozen_random, WoMode::learned_identity_init}) {
    Trainer t(small(wo));
    t.step(10);  // off the init, so W_o and W_v have no structure a wrong slice could share
    const int C = 16, H = 4, hs = C / H;
    for (int l = 0; l < 2; l++) {
      const Mat W_o = matrix(t.wo_weights(l), C, C), W_v = wv_of(t, l);
      for (int h = 0; h < H; h++) {
        double circuit = 0;  // ‖W_o[:, h cols] · W_v[h rows, :]‖²_F, by loops
        for (int r = 0; r < C; r++)
          for (int c = 0; c < C; c++) {
            double x = 0;
            for (int k = 0; k < hs; k++) x += W_o(r, h * hs + k) * W_v(h * hs + k, c);
            circuit += x * x;
          }
        double sigma2 = 0;
        for (float s : t.ov_singular_values(l, h)) sigma2 += double(s) * s;
        EXPECT_NEAR(sigma2, circuit, 1e-5 * circuit) << to_string(wo) << " layer " << l << " head " << h;
      }
    }
  }
}

TEST(Probes, WithIdentityTheOvSingularValuesAreThoseOfWv) {
  Trainer t(small(WoMode::identity));
  t.step(10);
  const int C = 16, H = 4, hs = C / H;
  for (int l = 0; l < 2; l++) {
    const Mat W_v = wv_of(t, l);
    for (int h = 0; h < H; h++) {
      // W_v[h rows, :] (hs,C)'s singular values: the square roots of the eigenvalues of its
      // Gram matrix W_v[h rows, :]·W_v[h rows, :]ᵀ (hs,hs)
      std::vector<double> gram(hs * hs);
      for (int i = 0; i < hs; i++)
        for (int j = 0; j < hs; j++)
          for (int c = 0; c < C; c++) gram[i * hs + j] += W_v(h * hs + i, c) * W_v(h * hs + j, c);
      std::vector<double> expected = symmetric_eigenvalues(gram, hs);
      for (double& e : expected) e = std::sqrt(std::max(e, 0.0));
      const std::vector<float> got = t.ov_singular_values(l, h);
      ASSERT_EQ(got.size(), static_cast<size_t>(hs));
      for (int i = 0; i < hs; i++)
        EXPECT_NEAR(got[i], expected[i], 1e-5 * expected[0]) << "layer " << l << " head " << h;
    }
  }
}

// The targets of input tokens [BOS] x [SEP] y (without y's last token), by the task's rule.
std::vector<int> targets_of(const std::vector<int>& input, const TaskConfig& task) {
  const int L = task.length, T = 2 * L + 1;
  std::vector<int> target(input.size(), -1);
  for (size_t start = 0; start < input.size(); start += T) {
    std::vector<int> y(input.begin() + start + 1, input.begin() + start + 1 + L);
    if (task.kind == TaskKind::reverse) std::reverse(y.begin(), y.end());
    if (task.kind == TaskKind::sort) std::sort(y.begin(), y.end());
    for (int i = 0; i < L; i++) target[start + L + 1 + i] = y[i];  // position L+1+i predicts y_i
  }
  return target;
}

// A model of scalar S holding `trainer`'s current weights.
template <class S>
Model<S> copy_of(const Trainer& trainer) {
  const SafeTensors st = tensors_of(trainer);
  Model<S> m(trainer.config().model, trainer.config().train.batch);
  for (const ParamInfo& p : m.param_info()) {
    const std::vector<float>& w = st.f32.at(p.name).data;
    std::copy(w.begin(), w.end(), m.params.begin() + p.offset);
  }
  return m;
}

// A probe step's stats and a model with the weights that step saw: the probe at the last step
// measures that step's forward and backward, before the update.
struct ProbeStep {
  Trainer trainer;
  Model<double> model;
  std::vector<int> input, target;  // (B,T) the probe step's batch
};

ProbeStep probe_step(const RunConfig& cfg) {
  Trainer t(cfg);
  t.step(cfg.train.steps - 1);
  Model<double> m = copy_of<double>(t);
  t.step(1);
  std::vector<int> input = t.last_batch(), target = targets_of(input, cfg.task);
  return {std::move(t), std::move(m), std::move(input), std::move(target)};
}

RunConfig probed(WoMode wo, LnPlace ln, int layers) {
  RunConfig c = small(wo);
  c.model.ln = ln;
  c.model.layers = layers;
  c.train.steps = 6;  // probes at 3 and at 6
  c.train.probe_every = 3;
  derive(c);
  return c;
}

std::vector<double> param(const Model<double>& m, const std::string& name) {
  const ParamInfo* p = m.find(name);
  return {m.params.begin() + p->offset, m.params.begin() + p->offset + p->size};
}

void expect_stats(const SiteStats& got, const std::vector<double>& x, const char* site) {
  double sum = 0, sq = 0;
  for (double v : x) sum += v;
  const double mean = sum / x.size();
  for (double v : x) sq += (v - mean) * (v - mean);
  const double std = std::sqrt(sq / x.size());
  EXPECT_NEAR(got.mean, mean, 1e-5 + 1e-4 * std::abs(mean)) << site;
  EXPECT_NEAR(got.std, std, 1e-4 * std) << site;
}

// Layer 0's stats from its cached concat and from its input x (the embeddings), computed here:
// W_o(concat) = concat·W_oᵀ + b_o (the concat itself in identity mode), residual x + W_o(concat).
TEST(Probes, ResidualStatsAreThoseOfTheInputPlusWoOfTheConcat) {
  for (LnPlace ln : {LnPlace::post, LnPlace::pre})
    for (WoMode wo : {WoMode::learned, WoMode::identity, WoMode::frozen_random}) {
      SCOPED_TRACE(std::string(to_string(wo)) + ", " + to_string(ln) + "-LN");
      const RunConfig cfg = probed(wo, ln, 2);
      ProbeStep p = probe_step(cfg);
      const int B = cfg.train.batch, T = cfg.model.seq_len, C = cfg.model.d_model, N = B * T;
      p.model.forward(p.input.data(), p.target.data(), B);
      const std::vector<double> tok = param(p.model, "tok_emb.weight"), pos = param(p.model, "pos_emb.weight");
      const double* concat = p.model.concat(0);
      std::vector<double> x(N * C), wo_out(N * C), residual(N * C), concat_v(concat, concat + N * C);
      for (int n = 0; n < N; n++)
        for (int c = 0; c < C; c++) x[n * C + c] = tok[p.input[n] * C + c] + pos[(n % T) * C + c];
      if (wo == WoMode::identity) {
        wo_out = concat_v;
      } else {
        const std::vector<double> W = param(p.model, "layers.0.attn.W_o.weight");
        const bool bias = p.model.find("layers.0.attn.W_o.bias") != nullptr;
        const std::vector<double> b = bias ? param(p.model, "layers.0.attn.W_o.bias") : std::vector<double>(C, 0.0);
        for (int n = 0; n < N; n++)
          for (int o = 0; o < C; o++) {
            double s = b[o];
            for (int i = 0; i < C; i++) s += W[o * C + i] * concat[n * C + i];
            wo_out[n * C + o] = s;
          }
      }
      for (int i = 0; i < N * C; i++) residual[i] = x[i] + wo_out[i];
      ASSERT_EQ(p.trainer.probes().back().step, cfg.train.steps);
      const LayerStats& got = p.trainer.probes().back().layers[0];
      expect_stats(got.concat, concat_v, "concat");
      expect_stats(got.wo_out, wo_out, "wo_out");
      expect_stats(got.residual, residual, "residual");
    }
}

// The loss of a one-layer post-LN model as a function of its concat (B,T,C), written out from
// the layers: W_o, the residual with the embeddings, LN, FFN, residual, LN, head, cross-entropy.
double loss_from_concat(const Model<double>& m, const std::vector<double>& concat,
                        const std::vector<int>& input, const std::vector<int>& target) {
  const ModelConfig& c = m.config();
  const int T = c.seq_len, C = c.d_model, F = c.d_ff, V = c.vocab, N = static_cast<int>(input.size()),
            B = N / T;
  auto w = [&](const std::string& name) { return m.params.data() + m.find(name)->offset; };
  std::vector<double> x(N * C), wo_out(N * C), res(N * C), ln1(N * C), ffn(N * C), h(N * F), a(N * F),
      ln2(N * C), mean(N), rstd(N), logits(N * V), probs(N * V);
  embedding_forward(x.data(), input.data(), w("tok_emb.weight"), w("pos_emb.weight"), B, T, C);
  if (m.find("layers.0.attn.W_o.weight"))
    linear_forward(wo_out.data(), concat.data(), w("layers.0.attn.W_o.weight"),
                   w("layers.0.attn.W_o.bias"), N, C, C);
  else
    wo_out = concat;
  for (int i = 0; i < N * C; i++) res[i] = x[i] + wo_out[i];
  layernorm_forward(ln1.data(), mean.data(), rstd.data(), res.data(), w("layers.0.ln1.weight"),
                    w("layers.0.ln1.bias"), N, C);
  ffn_forward(ffn.data(), h.data(), a.data(), ln1.data(), w("layers.0.ffn.fc1.weight"),
              w("layers.0.ffn.fc1.bias"), w("layers.0.ffn.fc2.weight"), w("layers.0.ffn.fc2.bias"), N, C, F);
  for (int i = 0; i < N * C; i++) res[i] = ln1[i] + ffn[i];
  layernorm_forward(ln2.data(), mean.data(), rstd.data(), res.data(), w("layers.0.ln2.weight"),
                    w("layers.0.ln2.bias"), N, C);
  linear_forward(logits.data(), ln2.data(), w("head.weight"), w("head.bias"), N, C, V);
  return crossentropy_forward(probs.data(), logits.data(), target.data(), N, V);
}

// ‖dLoss/d concat[..., head cols]‖ is the derivative of the loss along the unit direction of
// that gradient: a central difference along it must give the probe's number.
TEST(Probes, HeadGradientNormsMatchFiniteDifferences) {
  for (WoMode wo : {WoMode::learned, WoMode::identity}) {
    SCOPED_TRACE(to_string(wo));
    const RunConfig cfg = probed(wo, LnPlace::post, 1);
    ProbeStep p = probe_step(cfg);
    const int B = cfg.train.batch, C = cfg.model.d_model, H = cfg.model.heads, hs = C / H,
              N = B * cfg.model.seq_len;
    const double loss = p.model.forward(p.input.data(), p.target.data(), B);
    p.model.backward();
    const std::vector<double> concat(p.model.concat(0), p.model.concat(0) + N * C);
    ASSERT_NEAR(loss_from_concat(p.model, concat, p.input, p.target), loss, 1e-12);
    const std::vector<float>& got = p.trainer.probes().back().layers[0].head_grad_norm;
    ASSERT_EQ(got.size(), static_cast<size_t>(H));
    for (int h = 0; h < H; h++) {
      std::vector<double> u(N * C, 0.0);  // dLoss/dconcat on head h's columns, then normalised
      double norm = 0;
      for (int n = 0; n < N; n++)
        for (int c = h * hs; c < (h + 1) * hs; c++) {
          u[n * C + c] = p.model.dconcat(0)[n * C + c];
          norm += u[n * C + c] * u[n * C + c];
        }
      norm = std::sqrt(norm);
      ASSERT_GT(norm, 0.0);
      const double eps = 1e-5;
      std::vector<double> up = concat, down = concat;
      for (int i = 0; i < N * C; i++) {
        up[i] += eps * u[i] / norm;
        down[i] -= eps * u[i] / norm;
      }
      const double slope = (loss_from_concat(p.model, up, p.input, p.target) -
                            loss_from_concat(p.model, down, p.input, p.target)) / (2 * eps);
      EXPECT_NEAR(slope, norm, 1e-6 * norm) << "head " << h;
      EXPECT_NEAR(got[h], slope, 1e-3 * slope) << "head " << h;
    }
  }
}

}  // namespace
}  // namespace wolab
