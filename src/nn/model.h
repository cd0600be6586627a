// The decoder-only Transformer: its parameters under PyTorch's names, their gradients, the
// activations a backward pass needs, forward/backward over a batch and incremental decoding.
// Buffers are allocated once for `max_batch` examples, so a training step allocates nothing.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "config/run_config.h"

namespace wolab {

struct ParamInfo {
  std::string name;            // PyTorch name, e.g. "layers.0.attn.W_o.weight"
  std::vector<int64_t> shape;  // PyTorch shape, e.g. {d, d}
  size_t offset = 0, size = 0; // where it lives in Model::params and Model::grads
  bool trainable = true;       // false only for a frozen W_o (wo_frozen)
};

// The gain of learned's initial W_o, where scalar_gain's starts: entries U(-1/√d, 1/√d)
// (nn.Linear's default) have variance 1/(3d), so E‖W_o x‖² = d · ‖x‖²/(3d) for any x, and the
// RMS ratio ‖W_o x‖/‖x‖ is 1/√3 ≈ 0.577 whatever d (docs/config.md, "The W_o variants").
inline constexpr double kLearnedWoGain = 0.57735026918962576451;  // 1/√3

// What a Model of `cfg` holds for batches of up to `batch` examples, in elements. The model
// allocates exactly this (its buffer table in model.cpp) and estimate_bytes sums it, so the
// memory estimate cannot leave a buffer out, as llm.c's fill_in_activation_sizes serves both
// its allocation and its memory count. uint64_t: a bad config's sizes exceed wasm's size_t.
struct ModelSizes {
  uint64_t params = 0;       // parameters; the gradients are as many again
  uint64_t activations = 0;  // every activation, cache and scratch buffer, decoding's included
  uint64_t tokens = 0;       // ints: the batch's inputs and targets
  uint64_t workspace = 0;    // at most what the matrix products keep between calls (gemm.h)
};
template <class S>
ModelSizes model_sizes(const ModelConfig& cfg, int batch);

template <class S>
class Model {
 public:
  Model(const ModelConfig& cfg, int max_batch);
  // Movable, not copyable: the buffers point into one allocation.
  Model(Model&&) noexcept = default;
  Model& operator=(Model&&) noexcept = default;
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  // PyTorch's default init, each parameter from its own stream (rng.h) so that every W_o
  // variant of one seed starts from the same weights apart from W_o itself; identity_matched's
  // wider FFN has every other variant's units first and its extra ones from streams of their own.
  void init(uint64_t seed);

  // Returns the mean loss over the targets ≥ 0 (0 when there are none); caches activations.
  // T ≤ seq_len positions (seq_len when T < 0): a batch padded only to its longest example.
  // The buffers keep their (max_batch, seq_len) room and are read as (B,T).
  S forward(const int* input, const int* target, int B, int T = -1);  // (B,T), (B,T)
  // forward()'s loss for held-out metrics, doing the last layer's W_o and FFN sublayers and the
  // head only at the n positions whose target is ≥ 0 (a held-out sequence's answer, about half
  // of the toy tasks' positions): logits() then holds those n rows alone, (n,V) in (b,t) order,
  // each forward()'s row: bit for bit where a product's rows do not depend on how many there are
  // (float in wasm, gemm_wasm_simd.cpp), within rounding through Eigen, whose blocking does. The
  // probes' activations are not all kept, so backward() after it throws std::logic_error.
  S forward_scored(const int* input, const int* target, int B, int T = -1);
  // Gradients of the last forward's loss; overwrites `grads`.
  void backward();

  // Incremental decoding: runs position t of B ≤ max_batch sequences, given their tokens at t,
  // over the keys and values that decode() cached for positions 0..t-1 of the same sequences
  // (so t goes 0, 1, 2, ... in turn), and returns the logits at t, (B,V). These are forward's
  // logits at t, since the causal mask keeps later positions out, for 1/T of forward's work.
  // The cache is the forward's own k and v buffers: decoding overwrites the last forward's.
  // predict false: a prompt's position, whose logits nobody reads. Only the keys and values at t
  // are cached: the last layer stops once it has them (no query, attention, W_o or FFN), and no
  // logits are made (nullptr). What later positions read is the same either way.
  const S* decode(const int* tokens, int t, int B, bool predict = true);  // tokens (B)

  const ModelConfig& config() const { return cfg_; }
  const std::vector<ParamInfo>& param_info() const { return info_; }
  const ParamInfo* find(const std::string& name) const;
  std::vector<S> params;  // every parameter, concatenated in param_info() order
  std::vector<S> grads;   // same layout; frozen parameters' gradients stay 0, and so do those
                          // of block_diagonal's W_o between its heads' blocks
  // The parameters that train: the trainable ones' sizes, without block_diagonal's zeros
  // between heads (d² − d²/heads per layer), which never move.
  int64_t trainable_count() const;

  // Activations of the last forward / backward, for metrics and probes.
  int batch() const { return B_; }
  int positions() const { return T_; }  // T of the last forward
  const S* logits() const { return logits_; }        // (B,T,V)
  const S* probs() const { return probs_; }          // (B,T,V)
  const S* concat(int l) const { return L_[l].concat; }    // (B,T,C)
  const S* wo_out(int l) const { return L_[l].wo_out; }    // (B,T,C)
  const S* residual(int l) const { return L_[l].res1; }    // (B,T,C) x + W_o(concat)
  const S* dconcat(int l) const { return L_[l].dconcat; }  // (B,T,C) after backward
  std::vector<S> attention(int l, int b, int h) const;     // (T,T) example b, head h
  // W_o of layer l, or nullptr when there is no matrix (identity, identity_matched, scalar_gain).
  const S* wo(int l) const;
  // scalar_gain's gain of layer l; 1 for every other variant (wo() is the matrix of those with one).
  S wo_gain(int l) const;
  int ffn_width() const { return ffn_; }  // the FFN's hidden width, ffn_width(config())
  const S* wv(int l) const;

 private:
  struct LayerParams {  // offsets into params/grads; npos where a parameter does not exist
    size_t wq, bq, wk, bk, wv, bv, wo, bo, gain, ln1w, ln1b, fc1w, fc1b, fc2w, fc2b, ln2w, ln2b;
  };
  // Each buffer below is a slice of `acts_`, sized by the buffer table (model.cpp).
  struct LayerActs {
    S *ln1, *ln1_mean, *ln1_rstd;  // (B,T,C), (B,T), (B,T)
    S *q, *k, *v;                  // (B,T,C) each; k and v are also decode()'s cache
    S* att;                        // attention_cache_size(B,T,H): (B/4,H,T,T,4)
    S* concat;                     // (B,T,C)
    S* wo_out;                     // (B,T,C)
    S* res1;                       // (B,T,C) x + attn
    S *ln2, *ln2_mean, *ln2_rstd;  // (B,T,C), (B,T), (B,T)
    S *h, *a;                      // (B,T,F) FFN pre-activation and ReLU, F = ffn_width()
    S* res2;                       // (B,T,C) x1 + ffn
    S* dconcat;                    // (B,T,C) kept for the per-head gradient probe
  };
  struct DecodeActs {  // one position of B sequences
    S *x, *ln, *q, *k, *v, *att, *sub;  // (B,C) each: residual stream, LayerNorm out, sublayer out
    S *h, *a;                           // (B,F)
    S *mean, *rstd;                     // (B)
    S* logits;                          // (B,V)
  };

  template <class>
  friend ModelSizes model_sizes(const ModelConfig&, int);
  struct LayoutOnly {};
  // Lays out the parameters and sizes nothing: what model_sizes() needs.
  Model(const ModelConfig& cfg, int max_batch, LayoutOnly);
  // The buffer table: where the model keeps each buffer's address, and its size in elements.
  std::vector<std::pair<S**, uint64_t>> buffer_table();
  ModelSizes sizes();

  size_t add(const std::string& name, std::vector<int64_t> shape, bool trainable = true);
  // The forward that forward() and forward_scored() share up to the last layer's attention.
  void start_forward(const int* input, const int* target, int B, int T);
  void layer_forward(int l, int B);
  void attention_sublayer(int l, int B);  // layer l's attention over all B·T rows: a.concat
  // The rest of layer l on n rows, x (n,C) its input and concat (n,C) its attention's: W_o, the
  // residual, the FFN sublayer and the LayerNorms, into the first n rows of the layer's buffers.
  void output_sublayers(int l, const S* x, const S* concat, int n);
  // Layer l's W_o on n rows: out (n,C) = W_o(concat (n,C)), as the variant has it.
  void wo_forward(int l, S* out, const S* concat, int n);
  S head_loss(const S* last, const int* target, int n);  // (n,C) layer output -> loss
  void layer_backward(int l, S* dx, int B);  // dx (B,T,C): in = dLoss/d output, out = d input
  const S* layer_input(int l) const;   // (B,T,C)
  const S* layer_output(int l) const;  // (B,T,C)
  const ParamInfo& info_at(size_t offset) const;
  // Fills the parameter at `offset`, read as (rows, cols) (a bias as one row), with
  // U(-bound, bound): its first base_rows × base_cols corner from the stream of its name, in the
  // order a parameter of that shape draws it, and the rest (identity_matched's extra FFN units)
  // from the stream "<name>.extra", row-major.
  void draw_uniform(size_t offset, int64_t base_rows, int64_t base_cols, float bound, uint64_t seed);
  // nn.Linear's init, U(±1/√fan_in) for the weight (out, in) at w and the bias (out) at b (npos:
  // none); only the first base_out × base_in of the weight and base_out of the bias are the
  // parameter every variant draws (draw_uniform), all of it when they are not given.
  void init_linear(size_t w, size_t b, int fan_in, uint64_t seed, int64_t base_out = INT64_MAX,
                   int64_t base_in = INT64_MAX);

  ModelConfig cfg_;
  int ffn_;  // the FFN's hidden width, ffn_width(cfg_)
  int max_batch_, B_ = 0, T_ = 0;
  bool backward_ready_ = false;  // the last forward was forward(), not forward_scored()
  std::vector<ParamInfo> info_;
  size_t tok_emb_, pos_emb_, lnfw_, lnfb_, headw_, headb_;
  std::vector<LayerParams> P_;
  std::vector<LayerActs> L_;
  std::vector<int> input_, target_;     // (B,T)
  std::vector<S> acts_;                 // every buffer below and in L_
  S* emb_;                              // (B,T,C)
  S *lnf_, *lnf_mean_, *lnf_rstd_;      // (B,T,C), (B,T), (B,T) pre-LN only
  S *logits_, *probs_, *dlogits_;       // (B,T,V)
  S *dx_, *dtmp_, *dtmp2_, *dq_, *dk_, *dv_;  // (B,T,C) backward scratch; dtmp2_ post-LN only
  S* dh_;                               // (B,T,F) backward scratch
  S* att_scratch_;                      // (d_k+T,T₈) attention's working memory
  DecodeActs dec_;
};

inline constexpr size_t npos = static_cast<size_t>(-1);

}  // namespace wolab
