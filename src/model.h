// The decoder-only Transformer: its parameters under PyTorch's names, their gradients, the
// activations a backward pass needs, and forward/backward over a batch. Buffers are allocated
// once for `max_batch` examples, so a training step allocates nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config.h"

namespace wolab {

struct ParamInfo {
  std::string name;            // PyTorch name, e.g. "layers.0.attn.W_o.weight"
  std::vector<int64_t> shape;  // PyTorch shape, e.g. {d, d}
  size_t offset = 0, size = 0; // where it lives in Model::params and Model::grads
  bool trainable = true;       // false only for a frozen W_o (wo_frozen)
};

template <class S>
class Model {
 public:
  Model(const ModelConfig& cfg, int max_batch);

  // PyTorch's default init, each parameter from its own stream (rng.h) so that every W_o
  // variant of one seed starts from the same weights apart from W_o itself.
  void init(uint64_t seed);

  // Returns the mean loss over the targets ≥ 0 (0 when there are none); caches activations.
  S forward(const int* input, const int* target, int B);  // (B,T), (B,T)
  // Gradients of the last forward's loss; overwrites `grads`.
  void backward();

  const ModelConfig& config() const { return cfg_; }
  const std::vector<ParamInfo>& param_info() const { return info_; }
  const ParamInfo* find(const std::string& name) const;
  std::vector<S> params;  // every parameter, concatenated in param_info() order
  std::vector<S> grads;   // same layout; frozen parameters' gradients stay 0
  int64_t trainable_count() const;

  // Activations of the last forward / backward, for metrics and probes.
  int batch() const { return B_; }
  const S* logits() const { return logits_.data(); }        // (B,T,V)
  const S* probs() const { return probs_.data(); }          // (B,T,V)
  const S* concat(int l) const { return L_[l].concat.data(); }    // (B,T,C)
  const S* wo_out(int l) const { return L_[l].wo_out.data(); }    // (B,T,C)
  const S* residual(int l) const { return L_[l].res1.data(); }    // (B,T,C) x + W_o(concat)
  const S* dconcat(int l) const { return L_[l].dconcat.data(); }  // (B,T,C) after backward
  const S* attention(int l) const { return L_[l].att.data(); }    // (B,H,T,T)
  // W_o of layer l, or nullptr in identity mode.
  const S* wo(int l) const;
  const S* wv(int l) const;

 private:
  struct LayerParams {  // offsets into params/grads; npos where a parameter does not exist
    size_t wq, bq, wk, bk, wv, bv, wo, bo, ln1w, ln1b, fc1w, fc1b, fc2w, fc2b, ln2w, ln2b;
  };
  struct LayerActs {
    std::vector<S> ln1, ln1_mean, ln1_rstd;  // (B,T,C), (B,T), (B,T)
    std::vector<S> q, k, v;       // (B,T,C) each
    std::vector<S> att;           // (B,H,T,T)
    std::vector<S> concat;        // (B,T,C)
    std::vector<S> wo_out;        // (B,T,C)
    std::vector<S> res1;          // (B,T,C) x + attn
    std::vector<S> ln2, ln2_mean, ln2_rstd;  // (B,T,C), (B,T), (B,T)
    std::vector<S> h, a;          // (B,T,F) FFN pre-activation and ReLU
    std::vector<S> ffn_out;       // (B,T,C)
    std::vector<S> res2;          // (B,T,C) x1 + ffn
    std::vector<S> dconcat;       // (B,T,C) kept for the per-head gradient probe
  };

  size_t add(const std::string& name, std::vector<int64_t> shape, bool trainable = true);
  void layer_forward(int l, int B);
  void layer_backward(int l, S* dx, int B);  // dx (B,T,C): in = dLoss/d output, out = d input
  const S* layer_input(int l) const;   // (B,T,C)
  const S* layer_output(int l) const;  // (B,T,C)
  void init_linear(size_t w, size_t b, int fan_in, uint64_t seed);

  ModelConfig cfg_;
  int max_batch_, B_ = 0;
  std::vector<ParamInfo> info_;
  size_t tok_emb_, pos_emb_, lnfw_, lnfb_, headw_, headb_;
  std::vector<LayerParams> P_;
  std::vector<LayerActs> L_;
  std::vector<int> input_, target_;        // (B,T)
  std::vector<S> emb_;                     // (B,T,C)
  std::vector<S> lnf_, lnf_mean_, lnf_rstd_;  // (B,T,C), (B,T), (B,T) pre-LN only
  std::vector<S> logits_, probs_, dlogits_;   // (B,T,V)
  std::vector<S> dx_, dtmp_, dtmp2_, dq_, dk_, dv_;  // (B,T,C) backward scratch
  std::vector<S> dh_;                      // (B,T,F) backward scratch
  std::vector<S> att_scratch_;             // (d_k+T,T₈) attention's working memory
};

inline constexpr size_t npos = static_cast<size_t>(-1);

}  // namespace wolab
