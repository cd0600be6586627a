// One training run: a model, its Adam state, its data stream and everything it measured.
// The CLI runs many of these (lab/plan.h); the page runs one per Web Worker.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/run_config.h"
#include "config/run_status.h"
#include "io/run_checkpoint.h"
#include "run/g2p.h"

namespace wolab {

struct EvalResult {
  int step = 0;
  float loss = 0;       // held-out loss on the answer positions
  float token_acc = 0;  // share of answer tokens right (teacher forced)
  float exact = 0;      // share of sequences with every answer token right (teacher forced)
};

struct SiteStats {
  float mean = 0, std = 0;
};

// The three sites of the article's experiment 4, for one layer at one probe step, measured on
// that step's training batch, plus the gradient norm reaching each head's slice of the concat.
struct LayerStats {
  SiteStats concat;    // concatenated head outputs (B,T,d)
  SiteStats wo_out;    // W_o(concat) (B,T,d); equals concat in identity mode
  SiteStats residual;  // x + W_o(concat), before LayerNorm in post-LN
  std::vector<float> head_grad_norm;  // (heads) ‖dLoss/d concat[..., head cols]‖₂
};

struct ProbeRecord {
  int step = 0;
  std::vector<LayerStats> layers;  // (layers)
};

struct WoSnapshot {
  int step = 0;
  int layer = 0;
  int rows = 0, cols = 0;
  std::vector<float> data;  // (rows, cols) row-major, PyTorch layout (out, in)
};

// Singular values of one head's OV circuit, taken with the W_o snapshots.
struct OvSnapshot {
  int step = 0;
  int layer = 0;
  int head = 0;
  std::vector<float> values;  // (d_k) largest first
};

class Trainer {
 public:
  // Initialises weights from cfg.train.seed. `cfg` is valid: lab/ checks every config before a
  // trainer is made of it (parse_run_config, validate and the plan, lab/config.h), and a trainer
  // does not check it again. The task g2p trains on `g2p` (the lexicon and its split, shared by
  // every run that reads them), which the toy tasks ignore; a g2p run without it is a ConfigError.
  explicit Trainer(const RunConfig& cfg, std::shared_ptr<const G2pData> g2p = nullptr);
  ~Trainer();
  Trainer(Trainer&&) noexcept;
  Trainer& operator=(Trainer&&) noexcept;

  const RunConfig& config() const;
  // The lexicon and split a g2p run trains on (shared with whoever made it); null for the toy tasks.
  const std::shared_ptr<const G2pData>& g2p_data() const;
  // Runs up to n steps (never past config().train.steps, none once finished) and returns the
  // loss of each step run. Probes, W_o snapshots and held-out evals happen at every
  // probe_every-th step and at the last step. A non-finite training loss, or a non-finite
  // held-out loss after a probe step's update, ends the run as diverged at that step.
  std::vector<float> step(int n);
  int steps_done() const;
  // The next step that probes (see step()): the next multiple of probe_every, or the last
  // step; steps_done() once finished. A chunk of steps that ends there gets its probe.
  int next_probe_step() const;
  bool finished() const;  // all steps run, stopped or diverged
  const RunStatus& status() const;
  // Ends a running run where it is (status stopped at steps_done()); a finished run is left as
  // it is. Its record (lab/results.h) is then computed from what it has.
  void stop();

  EvalResult evaluate();   // on the fixed held-out set, teacher forced
  float greedy_exact();    // held-out exact match generating answers autoregressively; g2p: 1 - WER
  // g2p only (else ConfigError): greedy pronunciations, stopping at EOS, scored against the
  // closest listed pronunciation, and the teacher-forced metrics, on the probe subset
  // (task.heldout held-out words) or on all held-out words.
  G2pScores g2p_scores(bool all);
  const std::vector<G2pScores>& g2p_evals() const;  // at every probe step, on the probe subset
  // g2p only (else ConfigError): each word (1 to kMaxLetters letters a-z, else
  // std::invalid_argument; run/pronounce.h checks a user's) decoded greedily, as g2p_scores
  // decodes the held-out words.
  std::vector<G2pGuess> g2p_decode(const std::vector<std::string>& words);

  const std::vector<float>& losses() const;  // (steps_done) training loss of each step
  const std::vector<EvalResult>& evals() const;
  // Activation stats at every probe step: kept unless turned off (the plan keeps them only
  // for experiments that show them, lab/experiment.h); turning them off drops those taken.
  void keep_stats(bool keep);
  const std::vector<ProbeRecord>& probes() const;
  // W_o of every layer, and the singular values of every head's OV circuit, at step 0 and every
  // probe step, kept only when asked for (the plan's keep_wo), since they grow with the run:
  // layers·(d² + d)·(steps/probe_every + 1) floats. Asked for after step 0 (a reloaded run),
  // step 0's W_o comes from wo_init and its OV values are missing. Throws ConfigError when
  // keeping them would take the run over kMaxRunBytes.
  void keep_wo_snapshots(bool keep);
  const std::vector<WoSnapshot>& wo_snapshots() const;
  const std::vector<OvSnapshot>& ov_snapshots() const;  // (snapshots · layers · heads)
  int64_t parameter_count() const;  // the parameters that train (Model::trainable_count)
  // The data the run sees, so that tests can check every variant of a seed sees the same.
  // (batch, seq_len) last step's input tokens; g2p: (batch, T) in front, T its longest example
  const std::vector<int>& last_batch() const;
  const std::vector<int>& heldout_inputs() const;  // (task.heldout, seq_len) the held-out input tokens

  // Inspection. Without a W_o (identity, identity_matched) it is the identity matrix, and
  // scalar_gain's is its gain times it.
  std::vector<float> wo_weights(int layer) const;        // (d, d)
  std::vector<float> wo_init(int layer) const;           // (d, d) at step 0
  std::vector<float> head_block_norms(int layer) const;  // (heads) ‖W_o[:, head cols]‖_F
  std::vector<float> ov_singular_values(int layer, int head) const;  // (d_k) of W_o[:,h]·W_v[h,:]
  std::vector<float> attention(int layer, int head, int example);    // (T, T) held-out example
  // Every layer's and head's attention over one sequence (T ≤ the model's positions tokens,
  // each < vocab, else std::invalid_argument): (layers, heads, T, T), row t being position t's
  // weights over positions 0..t, as decoding the sequence computes them.
  std::vector<float> attention_maps(const std::vector<int>& tokens);

  // The run's tensors and where it stands, so that a trainer made from them continues exactly as
  // this one would; its config and version are lab/checkpoints.h's to add, which writes the
  // file. Without `optimizer`, no Adam moments (a model file).
  RunCheckpoint checkpoint(bool optimizer = true) const;
  // A trainer of `cfg` (valid, as for the constructor: lab/checkpoints.h parses it from c.config)
  // continuing from `c`. Throws ConfigError when a tensor is missing, of another shape than
  // cfg's, not finite, or when c's step or status does not fit cfg (io/run_checkpoint.h).
  static Trainer from_checkpoint(const RunConfig& cfg, const RunCheckpoint& c,
                                 std::shared_ptr<const G2pData> g2p = nullptr);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  explicit Trainer(std::unique_ptr<Impl> impl);
};

}  // namespace wolab
