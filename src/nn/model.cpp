#include "nn/model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "nn/gemm.h"
#include "nn/layers.h"
#include "nn/orthogonal.h"
#include "nn/rng.h"

namespace wolab {
namespace {

template <class S>
void zero(S* v, size_t n) {
  std::fill_n(v, n, S(0));
}

// Buffers start on 64-byte boundaries (16 floats), as separate allocations would.
uint64_t padded(uint64_t n) { return (n + 15) / 16 * 16; }

template <class S>
void add_into(S* out, const S* a, const S* b, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = a[i] + b[i];
}

}  // namespace

template <class S>
size_t Model<S>::add(const std::string& name, std::vector<int64_t> shape, bool trainable) {
  ParamInfo p;
  p.name = name;
  p.size = 1;
  for (int64_t d : shape) p.size *= static_cast<size_t>(d);
  p.shape = std::move(shape);
  p.offset = info_.empty() ? 0 : info_.back().offset + info_.back().size;
  p.trainable = trainable;
  info_.push_back(p);
  return p.offset;
}

template <class S>
Model<S>::Model(const ModelConfig& cfg, int max_batch, LayoutOnly)
    : cfg_(cfg), ffn_(wolab::ffn_width(cfg)), max_batch_(max_batch) {
  const int64_t C = cfg.d_model, F = ffn_, V = cfg.vocab, T = cfg.seq_len;
  tok_emb_ = add("tok_emb.weight", {V, C});
  pos_emb_ = add("pos_emb.weight", {T, C});
  for (int l = 0; l < cfg.layers; l++) {
    const std::string p = "layers." + std::to_string(l) + ".";
    LayerParams lp;
    lp.wq = add(p + "attn.W_q.weight", {C, C});
    lp.bq = add(p + "attn.W_q.bias", {C});
    lp.wk = add(p + "attn.W_k.weight", {C, C});
    lp.bk = add(p + "attn.W_k.bias", {C});
    lp.wv = add(p + "attn.W_v.weight", {C, C});
    lp.bv = add(p + "attn.W_v.bias", {C});
    lp.wo = lp.bo = lp.gain = npos;
    if (wo_frozen(cfg.wo)) {
      lp.wo = add(p + "attn.W_o.weight", {C, C}, /*trainable=*/false);
    } else if (cfg.wo == WoMode::scalar_gain) {
      lp.gain = add(p + "attn.W_o.gain", {1});
    } else if (!wo_absent(cfg.wo)) {
      lp.wo = add(p + "attn.W_o.weight", {C, C});
      lp.bo = add(p + "attn.W_o.bias", {C});
    }
    lp.ln1w = add(p + "ln1.weight", {C});
    lp.ln1b = add(p + "ln1.bias", {C});
    lp.fc1w = add(p + "ffn.fc1.weight", {F, C});
    lp.fc1b = add(p + "ffn.fc1.bias", {F});
    lp.fc2w = add(p + "ffn.fc2.weight", {C, F});
    lp.fc2b = add(p + "ffn.fc2.bias", {C});
    lp.ln2w = add(p + "ln2.weight", {C});
    lp.ln2b = add(p + "ln2.bias", {C});
    P_.push_back(lp);
  }
  lnfw_ = lnfb_ = npos;
  if (cfg.ln == LnPlace::pre) {
    lnfw_ = add("ln_f.weight", {C});
    lnfb_ = add("ln_f.bias", {C});
  }
  headw_ = add("head.weight", {V, C});
  headb_ = add("head.bias", {V});
  L_.resize(cfg.layers);
}

// The buffer table: every activation, cache and scratch buffer with its size in elements for
// max_batch examples. The constructor points each at its slice of acts_ (llm.c's
// malloc_and_point_activations), and sizes() sums them (its fill_in_activation_sizes).
template <class S>
std::vector<std::pair<S**, uint64_t>> Model<S>::buffer_table() {
  const uint64_t B = max_batch_, T = cfg_.seq_len, C = cfg_.d_model, F = ffn_,
                 V = cfg_.vocab, H = cfg_.heads, BT = B * T;
  const bool pre = cfg_.ln == LnPlace::pre;
  std::vector<std::pair<S**, uint64_t>> table;
  auto put = [&table](std::initializer_list<S**> slots, uint64_t n) {
    for (S** slot : slots) table.push_back({slot, n});
  };
  for (LayerActs& a : L_) {
    put({&a.ln1, &a.q, &a.k, &a.v, &a.concat, &a.wo_out, &a.res1, &a.ln2, &a.res2, &a.dconcat},
        BT * C);
    put({&a.ln1_mean, &a.ln1_rstd, &a.ln2_mean, &a.ln2_rstd}, BT);
    put({&a.att}, attention_cache_size(B, T, H));
    put({&a.h, &a.a}, BT * F);
  }
  put({&emb_, &dx_, &dtmp_, &dq_, &dk_, &dv_}, BT * C);
  put({&dtmp2_}, pre ? 0 : BT * C);
  put({&lnf_}, pre ? BT * C : 0);
  put({&lnf_mean_, &lnf_rstd_}, pre ? BT : 0);
  put({&logits_, &probs_, &dlogits_}, BT * V);
  put({&dh_}, BT * F);
  put({&att_scratch_}, attention_scratch_size(cfg_.seq_len, cfg_.d_model, cfg_.heads));
  DecodeActs& d = dec_;
  put({&d.x, &d.ln, &d.q, &d.k, &d.v, &d.att, &d.sub}, B * C);
  put({&d.h, &d.a}, B * F);
  put({&d.mean, &d.rstd}, B);
  put({&d.logits}, B * V);
  return table;
}

template <class S>
ModelSizes Model<S>::sizes() {
  ModelSizes s;
  s.params = info_.back().offset + info_.back().size;
  s.tokens = 2 * static_cast<uint64_t>(max_batch_) * cfg_.seq_len;  // input_, target_
  for (const auto& entry : buffer_table()) s.activations += padded(entry.second);
  // Every Linear's products (forward; backward's dx and dW) at training's rows and decoding's
  const int C = cfg_.d_model, F = ffn_, V = cfg_.vocab;
  const int shapes[][2] = {{C, C}, {C, F}, {F, C}, {C, V}};  // (in, out)
  for (int rows : {max_batch_ * cfg_.seq_len, max_batch_})
    for (const auto& [in, out] : shapes)
      s.workspace = std::max({s.workspace, uint64_t(matmul_workspace(rows, in, out)),
                              uint64_t(matmul_workspace(rows, out, in)),
                              uint64_t(matmul_workspace(out, rows, in))});
  return s;
}

template <class S>
ModelSizes model_sizes(const ModelConfig& cfg, int batch) {
  return Model<S>(cfg, batch, typename Model<S>::LayoutOnly{}).sizes();
}

template <class S>
Model<S>::Model(const ModelConfig& cfg, int max_batch)
    : Model(cfg, max_batch, LayoutOnly{}) {
  const ModelSizes s = sizes();
  params.assign(s.params, S(0));
  grads.assign(s.params, S(0));
  input_.resize(s.tokens / 2);
  target_.resize(s.tokens / 2);
  acts_.assign(s.activations, S(0));
  S* next = acts_.data();
  for (const auto& [slot, n] : buffer_table()) {
    *slot = next;
    next += padded(n);
  }
}

template <class S>
const ParamInfo* Model<S>::find(const std::string& name) const {
  for (const ParamInfo& p : info_)
    if (p.name == name) return &p;
  return nullptr;
}

template <class S>
int64_t Model<S>::trainable_count() const {
  int64_t n = 0;
  for (const ParamInfo& p : info_) n += p.trainable ? static_cast<int64_t>(p.size) : 0;
  if (cfg_.wo == WoMode::block_diagonal) {
    const int64_t C = cfg_.d_model;
    n -= cfg_.layers * (C * C - C * (C / cfg_.heads));
  }
  return n;
}

template <class S>
const S* Model<S>::wo(int l) const {
  return P_[l].wo == npos ? nullptr : params.data() + P_[l].wo;
}

template <class S>
S Model<S>::wo_gain(int l) const {
  return P_[l].gain == npos ? S(1) : params[P_[l].gain];
}

template <class S>
const S* Model<S>::wv(int l) const {
  return params.data() + P_[l].wv;
}

template <class S>
std::vector<S> Model<S>::attention(int l, int b, int h) const {
  std::vector<S> out(static_cast<size_t>(T_) * T_);
  attention_map(out.data(), L_[l].att, b, h, T_, cfg_.heads);
  return out;
}

template <class S>
const ParamInfo& Model<S>::info_at(size_t offset) const {
  return *std::find_if(info_.begin(), info_.end(), [&](const ParamInfo& q) { return q.offset == offset; });
}

template <class S>
void Model<S>::draw_uniform(size_t offset, int64_t base_rows, int64_t base_cols, float bound, uint64_t seed) {
  const ParamInfo& p = info_at(offset);
  const int64_t rows = p.shape.size() == 2 ? p.shape[0] : 1, cols = p.shape.back();
  Rng base(stream_seed(seed, p.name)), extra(stream_seed(seed, p.name + ".extra"));
  S* out = params.data() + offset;
  for (int64_t r = 0; r < rows; r++)
    for (int64_t c = 0; c < cols; c++)
      out[r * cols + c] = (r < base_rows && c < base_cols ? base : extra).uniform(-bound, bound);
}

template <class S>
void Model<S>::init_linear(size_t w, size_t b, int fan_in, uint64_t seed, int64_t base_out, int64_t base_in) {
  const float bound = 1.0f / std::sqrt(static_cast<float>(fan_in));
  draw_uniform(w, base_out, base_in, bound, seed);
  if (b != npos) draw_uniform(b, 1, base_out, bound, seed);
}

template <class S>
void Model<S>::init(uint64_t seed) {
  const int C = cfg_.d_model, F = cfg_.d_ff;
  for (size_t off : {tok_emb_, pos_emb_}) {
    const ParamInfo& p = info_at(off);
    Rng rng(stream_seed(seed, p.name));
    for (size_t i = 0; i < p.size; i++) params[off + i] = rng.normal();
  }
  for (const LayerParams& lp : P_) {
    init_linear(lp.wq, lp.bq, C, seed);
    init_linear(lp.wk, lp.bk, C, seed);
    init_linear(lp.wv, lp.bv, C, seed);
    if (cfg_.wo == WoMode::learned_identity_init) {
      for (int i = 0; i < C * C; i++) params[lp.wo + i] = (i % (C + 1) == 0) ? S(1) : S(0);
      std::fill_n(params.begin() + lp.bo, C, S(0));
    } else if (cfg_.wo == WoMode::frozen_orthogonal) {
      // A stream of its own, named apart from W_o's (whose draw frozen_random uses)
      const std::string name = "layers." + std::to_string(&lp - P_.data()) + ".attn.W_o.orthogonal";
      Rng rng(stream_seed(seed, name));
      const std::vector<double> q = random_orthogonal(C, rng);
      std::copy(q.begin(), q.end(), params.begin() + lp.wo);
    } else if (lp.gain != npos) {
      params[lp.gain] = static_cast<S>(kLearnedWoGain);
    } else if (lp.wo != npos) {
      // frozen_random's W_o is learned's initial W_o, and block_diagonal's its heads' blocks
      init_linear(lp.wo, lp.bo, C, seed);
      if (cfg_.wo == WoMode::frozen_random_scaled)
        for (int i = 0; i < C * C; i++) params[lp.wo + i] *= static_cast<S>(std::sqrt(3.0));
      if (cfg_.wo == WoMode::block_diagonal) zero_between_heads(params.data() + lp.wo, C, cfg_.heads);
    }
    // (ffn_,C) and (C,ffn_): every variant's d_ff units first, identity_matched's extra ones
    // after them; fc2 keeps d_ff's bound, so that each extra unit is drawn like the others
    init_linear(lp.fc1w, lp.fc1b, C, seed, F, C);
    init_linear(lp.fc2w, lp.fc2b, F, seed, C, F);
    for (size_t w : {lp.ln1w, lp.ln2w}) std::fill_n(params.begin() + w, C, S(1));
    for (size_t b : {lp.ln1b, lp.ln2b}) std::fill_n(params.begin() + b, C, S(0));
  }
  if (lnfw_ != npos) {
    std::fill_n(params.begin() + lnfw_, C, S(1));
    std::fill_n(params.begin() + lnfb_, C, S(0));
  }
  init_linear(headw_, headb_, C, seed);
}

template <class S>
const S* Model<S>::layer_input(int l) const {
  return l == 0 ? emb_ : layer_output(l - 1);
}

template <class S>
const S* Model<S>::layer_output(int l) const {
  return cfg_.ln == LnPlace::post ? L_[l].ln2 : L_[l].res2;
}

template <class S>
void Model<S>::layer_forward(int l, int B) {
  attention_sublayer(l, B);
  output_sublayers(l, layer_input(l), L_[l].concat, B * T_);
}

template <class S>
void Model<S>::attention_sublayer(int l, int B) {
  const int T = T_, C = cfg_.d_model, H = cfg_.heads, N = B * T;
  const LayerParams& p = P_[l];
  LayerActs& a = L_[l];
  const S* w = params.data();
  const S* x = layer_input(l);  // (N,C)
  // post-LN reads x, pre-LN reads ln1(x)
  const S* att_in = x;
  if (cfg_.ln == LnPlace::pre) {
    layernorm_forward(a.ln1, a.ln1_mean, a.ln1_rstd, x, w + p.ln1w, w + p.ln1b, N, C);
    att_in = a.ln1;
  }
  linear_forward(a.q, att_in, w + p.wq, w + p.bq, N, C, C);
  linear_forward(a.k, att_in, w + p.wk, w + p.bk, N, C, C);
  linear_forward(a.v, att_in, w + p.wv, w + p.bv, N, C, C);
  attention_forward(a.concat, a.att, att_scratch_, a.q, a.k, a.v, B, T, C, H);
}

template <class S>
void Model<S>::output_sublayers(int l, const S* x, const S* concat, int n) {
  const int C = cfg_.d_model, F = ffn_;
  const bool post = cfg_.ln == LnPlace::post;
  const LayerParams& p = P_[l];
  LayerActs& a = L_[l];
  const S* w = params.data();
  wo_forward(l, a.wo_out, concat, n);
  add_into(a.res1, x, a.wo_out, n * C);

  // FFN sublayer on x1: post-LN x1 = ln1(res1) feeds the FFN; pre-LN x1 = res1 feeds ln2(x1)
  const S* x1 = a.res1;
  const S* ffn_in;
  if (post) {
    layernorm_forward(a.ln1, a.ln1_mean, a.ln1_rstd, a.res1, w + p.ln1w, w + p.ln1b, n, C);
    x1 = ffn_in = a.ln1;
  } else {
    layernorm_forward(a.ln2, a.ln2_mean, a.ln2_rstd, x1, w + p.ln2w, w + p.ln2b, n, C);
    ffn_in = a.ln2;
  }
  ffn_forward(a.res2, a.h, a.a, ffn_in, w + p.fc1w, w + p.fc1b, w + p.fc2w, w + p.fc2b, n, C, F);
  add_into(a.res2, x1, a.res2, n * C);  // x1 + ffn(x1), in place
  if (post) layernorm_forward(a.ln2, a.ln2_mean, a.ln2_rstd, a.res2, w + p.ln2w, w + p.ln2b, n, C);
}

template <class S>
void Model<S>::wo_forward(int l, S* out, const S* concat, int n) {
  const int C = cfg_.d_model;
  const LayerParams& p = P_[l];
  const S* w = params.data();
  const S* bias = p.bo == npos ? nullptr : w + p.bo;
  if (p.gain != npos)
    scale_forward(out, concat, w + p.gain, n * C);
  else if (p.wo == npos)
    std::copy_n(concat, n * C, out);
  else if (cfg_.wo == WoMode::block_diagonal)
    block_diagonal_forward(out, concat, w + p.wo, bias, n, C);
  else
    linear_forward(out, concat, w + p.wo, bias, n, C, C);
}

template <class S>
void Model<S>::start_forward(const int* input, const int* target, int B, int T) {
  if (T < 0) T = cfg_.seq_len;
  if (T < 1 || T > cfg_.seq_len)
    throw std::invalid_argument("Model::forward: " + std::to_string(T) + " positions; 1.." +
                                std::to_string(cfg_.seq_len) + " allowed");
  const int N = B * T;
  B_ = B;
  T_ = T;
  std::copy_n(input, N, input_.data());
  std::copy_n(target, N, target_.data());
  embedding_forward(emb_, input_.data(), params.data() + tok_emb_, params.data() + pos_emb_, B, T, cfg_.d_model);
  for (int l = 0; l + 1 < cfg_.layers; l++) layer_forward(l, B);
  attention_sublayer(cfg_.layers - 1, B);
}

template <class S>
S Model<S>::head_loss(const S* last, const int* target, int n) {
  const S* w = params.data();
  const int C = cfg_.d_model, V = cfg_.vocab;
  if (lnfw_ != npos) {
    layernorm_forward(lnf_, lnf_mean_, lnf_rstd_, last, w + lnfw_, w + lnfb_, n, C);
    last = lnf_;
  }
  linear_forward(logits_, last, w + headw_, w + headb_, n, C, V);
  return crossentropy_forward(probs_, logits_, target, n, V);
}

template <class S>
S Model<S>::forward(const int* input, const int* target, int B, int T) {
  start_forward(input, target, B, T);
  const int l = cfg_.layers - 1;
  output_sublayers(l, layer_input(l), L_[l].concat, B * T_);
  backward_ready_ = true;
  return head_loss(layer_output(l), target_.data(), B * T_);
}

template <class S>
S Model<S>::forward_scored(const int* input, const int* target, int B, int T) {
  start_forward(input, target, B, T);
  backward_ready_ = false;
  const int l = cfg_.layers - 1, C = cfg_.d_model;
  LayerActs& a = L_[l];
  const S* concat = a.concat;
  // The scored rows' attention output (into q) and input x (into k), packed in (b,t) order, and
  // their targets at the front of target_: no later row is overwritten before it is read.
  const S* x = layer_input(l);
  int n = 0;
  for (int i = 0; i < B * T_; i++) {
    if (target_[i] < 0) continue;
    std::copy_n(concat + static_cast<size_t>(i) * C, C, a.q + static_cast<size_t>(n) * C);
    std::copy_n(x + static_cast<size_t>(i) * C, C, a.k + static_cast<size_t>(n) * C);
    target_[n++] = target_[i];
  }
  if (n == 0) return S(0);
  output_sublayers(l, a.k, a.q, n);
  return head_loss(layer_output(l), target_.data(), n);
}

template <class S>
void Model<S>::layer_backward(int l, S* dx, int B) {
  const int T = T_, C = cfg_.d_model, F = ffn_, H = cfg_.heads, N = B * T;
  const bool post = cfg_.ln == LnPlace::post;
  const LayerParams& p = P_[l];
  LayerActs& a = L_[l];
  const S* w = params.data();
  S* g = grads.data();
  const S* x = layer_input(l);

  // FFN sublayer; afterwards dx holds dLoss/d res1
  if (post) {
    zero(dtmp_, N * C);  // dres2
    layernorm_backward(dtmp_, g + p.ln2w, g + p.ln2b, dx, a.res2, w + p.ln2w, a.ln2_mean,
                       a.ln2_rstd, N, C);
    std::copy_n(dtmp_, N * C, dtmp2_);  // dx1: the residual path ...
    ffn_backward(dtmp2_, g + p.fc1w, g + p.fc1b, g + p.fc2w, g + p.fc2b, dh_, dtmp_, a.ln1, a.h,
                 a.a, w + p.fc1w, w + p.fc2w, N, C, F);  // ... plus the FFN path
    std::fill_n(dx, N * C, S(0));
    layernorm_backward(dx, g + p.ln1w, g + p.ln1b, dtmp2_, a.res1, w + p.ln1w, a.ln1_mean,
                       a.ln1_rstd, N, C);
  } else {
    zero(dtmp_, N * C);  // d ln2(res1)
    ffn_backward(dtmp_, g + p.fc1w, g + p.fc1b, g + p.fc2w, g + p.fc2b, dh_, dx, a.ln2, a.h, a.a,
                 w + p.fc1w, w + p.fc2w, N, C, F);
    layernorm_backward(dx, g + p.ln2w, g + p.ln2b, dtmp_, a.res1, w + p.ln2w, a.ln2_mean,
                       a.ln2_rstd, N, C);
  }

  // attention sublayer: dx (= dres1) flows on through the residual and into W_o
  S* dconcat = a.dconcat;
  if (p.gain != npos) {
    zero(dconcat, N * C);
    scale_backward(dconcat, g + p.gain, dx, a.concat, w + p.gain, N * C);
  } else if (p.wo == npos) {
    std::copy_n(dx, N * C, dconcat);
  } else {
    zero(dconcat, N * C);
    S* dwo = wo_frozen(cfg_.wo) ? nullptr : g + p.wo;
    S* dbo = p.bo == npos ? nullptr : g + p.bo;
    if (cfg_.wo == WoMode::block_diagonal)
      block_diagonal_backward(dconcat, dwo, dbo, dx, a.concat, w + p.wo, N, C, H);
    else
      linear_backward(dconcat, dwo, dbo, dx, a.concat, w + p.wo, N, C, C);
  }
  zero(dq_, N * C);
  zero(dk_, N * C);
  zero(dv_, N * C);
  attention_backward(dq_, dk_, dv_, att_scratch_, dconcat, a.att, a.q, a.k, a.v, B, T, C, H);
  const S* att_in = post ? x : a.ln1;
  S* datt_in = dx;  // post-LN: the projections read x itself
  if (!post) {
    zero(dtmp_, N * C);
    datt_in = dtmp_;
  }
  linear_backward(datt_in, g + p.wq, g + p.bq, dq_, att_in, w + p.wq, N, C, C);
  linear_backward(datt_in, g + p.wk, g + p.bk, dk_, att_in, w + p.wk, N, C, C);
  linear_backward(datt_in, g + p.wv, g + p.bv, dv_, att_in, w + p.wv, N, C, C);
  if (!post)
    layernorm_backward(dx, g + p.ln1w, g + p.ln1b, dtmp_, x, w + p.ln1w, a.ln1_mean, a.ln1_rstd,
                       N, C);
}

template <class S>
void Model<S>::backward() {
  if (!backward_ready_) throw std::logic_error("Model::backward: the last forward was forward_scored()");
  const int B = B_, T = T_, C = cfg_.d_model, V = cfg_.vocab, N = B * T;
  const S* w = params.data();
  S* g = grads.data();
  std::fill(grads.begin(), grads.end(), S(0));
  zero(dlogits_, N * V);
  crossentropy_backward(dlogits_, probs_, target_.data(), N, V);
  const S* last = layer_output(cfg_.layers - 1);
  zero(dx_, N * C);
  if (lnfw_ == npos) {
    linear_backward(dx_, g + headw_, g + headb_, dlogits_, last, w + headw_, N, C, V);
  } else {
    zero(dtmp_, N * C);
    linear_backward(dtmp_, g + headw_, g + headb_, dlogits_, lnf_, w + headw_, N, C, V);
    layernorm_backward(dx_, g + lnfw_, g + lnfb_, dtmp_, last, w + lnfw_, lnf_mean_, lnf_rstd_,
                       N, C);
  }
  for (int l = cfg_.layers - 1; l >= 0; l--) layer_backward(l, dx_, B);
  embedding_backward(g + tok_emb_, g + pos_emb_, dx_, input_.data(), B, T, C);
}

// The layer_forward steps for one position t of B sequences, on (B,·) rows; each layer's k and v
// at t go to its (B,T,C) cache, and attention reads positions 0..t from it.
template <class S>
const S* Model<S>::decode(const int* tokens, int t, int B, bool predict) {
  const int T = cfg_.seq_len, C = cfg_.d_model, F = ffn_, H = cfg_.heads, V = cfg_.vocab;
  const bool post = cfg_.ln == LnPlace::post;
  const S* w = params.data();
  DecodeActs& d = dec_;
  embedding_forward(d.x, tokens, w + tok_emb_, w + pos_emb_ + t * C, B, 1, C);
  for (int l = 0; l < cfg_.layers; l++) {
    const LayerParams& p = P_[l];
    LayerActs& a = L_[l];
    const S* att_in = d.x;
    if (!post) {
      layernorm_forward(d.ln, d.mean, d.rstd, d.x, w + p.ln1w, w + p.ln1b, B, C);
      att_in = d.ln;
    }
    linear_forward(d.k, att_in, w + p.wk, w + p.bk, B, C, C);
    linear_forward(d.v, att_in, w + p.wv, w + p.bv, B, C, C);
    for (int b = 0; b < B; b++) {
      std::copy_n(d.k + b * C, C, a.k + (b * T + t) * C);
      std::copy_n(d.v + b * C, C, a.v + (b * T + t) * C);
    }
    if (!predict && l == cfg_.layers - 1) return nullptr;
    linear_forward(d.q, att_in, w + p.wq, w + p.bq, B, C, C);
    attention_forward_at(d.att, att_scratch_, d.q, a.k, a.v, t, B, T, C, H);
    wo_forward(l, d.sub, d.att, B);
    add_into(d.sub, d.x, d.sub, B * C);  // res1
    if (post) {  // x1 = ln1(res1) into x; ffn(x1) into sub; ln2(x1 + ffn) into x
      layernorm_forward(d.x, d.mean, d.rstd, d.sub, w + p.ln1w, w + p.ln1b, B, C);
      ffn_forward(d.sub, d.h, d.a, d.x, w + p.fc1w, w + p.fc1b, w + p.fc2w, w + p.fc2b, B, C, F);
      add_into(d.sub, d.x, d.sub, B * C);
      layernorm_forward(d.x, d.mean, d.rstd, d.sub, w + p.ln2w, w + p.ln2b, B, C);
    } else {  // x1 = res1 in sub; ffn(ln2(x1)) into x; x1 + ffn into x
      layernorm_forward(d.ln, d.mean, d.rstd, d.sub, w + p.ln2w, w + p.ln2b, B, C);
      ffn_forward(d.x, d.h, d.a, d.ln, w + p.fc1w, w + p.fc1b, w + p.fc2w, w + p.fc2b, B, C, F);
      add_into(d.x, d.sub, d.x, B * C);
    }
  }
  const S* head_in = d.x;
  if (lnfw_ != npos) {
    layernorm_forward(d.ln, d.mean, d.rstd, d.x, w + lnfw_, w + lnfb_, B, C);
    head_in = d.ln;
  }
  linear_forward(d.logits, head_in, w + headw_, w + headb_, B, C, V);
  return d.logits;
}

template class Model<float>;
template class Model<double>;
template ModelSizes model_sizes<float>(const ModelConfig&, int);
template ModelSizes model_sizes<double>(const ModelConfig&, int);

}  // namespace wolab
