#include "model.h"

#include <algorithm>
#include <cmath>

#include "layers.h"
#include "orthogonal.h"
#include "rng.h"

namespace wolab {
namespace {

template <class S>
void zero(std::vector<S>& v, size_t n) {
  std::fill(v.begin(), v.begin() + n, S(0));
}

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
Model<S>::Model(const ModelConfig& cfg, int max_batch) : cfg_(cfg), max_batch_(max_batch) {
  const int64_t C = cfg.d_model, F = cfg.d_ff, V = cfg.vocab, T = cfg.seq_len;
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
    lp.wo = lp.bo = npos;
    if (wo_frozen(cfg.wo)) {
      lp.wo = add(p + "attn.W_o.weight", {C, C}, /*trainable=*/false);
    } else if (cfg.wo != WoMode::identity) {
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
  params.assign(info_.back().offset + info_.back().size, S(0));
  grads.assign(params.size(), S(0));

  const size_t BT = static_cast<size_t>(max_batch) * T, H = cfg.heads;
  L_.resize(cfg.layers);
  for (LayerActs& a : L_) {
    for (auto* v : {&a.ln1, &a.q, &a.k, &a.v, &a.concat, &a.wo_out, &a.res1, &a.ln2, &a.ffn_out,
                    &a.res2, &a.dconcat})
      v->resize(BT * C);
    for (auto* v : {&a.ln1_mean, &a.ln1_rstd, &a.ln2_mean, &a.ln2_rstd}) v->resize(BT);
    a.att.resize(BT * H * T);
    a.h.resize(BT * F);
    a.a.resize(BT * F);
  }
  input_.resize(BT);
  target_.resize(BT);
  for (auto* v : {&emb_, &lnf_, &dx_, &dtmp_, &dtmp2_, &dq_, &dk_, &dv_}) v->resize(BT * C);
  lnf_mean_.resize(BT);
  lnf_rstd_.resize(BT);
  for (auto* v : {&logits_, &probs_, &dlogits_}) v->resize(BT * V);
  dh_.resize(BT * F);
  att_scratch_.resize(attention_scratch_size(cfg.seq_len, cfg.d_model, cfg.heads));
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
  return n;
}

template <class S>
const S* Model<S>::wo(int l) const {
  return P_[l].wo == npos ? nullptr : params.data() + P_[l].wo;
}

template <class S>
const S* Model<S>::wv(int l) const {
  return params.data() + P_[l].wv;
}

template <class S>
void Model<S>::init_linear(size_t w, size_t b, int fan_in, uint64_t seed) {
  const float bound = 1.0f / std::sqrt(static_cast<float>(fan_in));
  for (size_t off : {w, b}) {
    if (off == npos) continue;
    const ParamInfo& p = *std::find_if(info_.begin(), info_.end(),
                                       [&](const ParamInfo& q) { return q.offset == off; });
    Rng rng(stream_seed(seed, p.name));
    for (size_t i = 0; i < p.size; i++) params[off + i] = rng.uniform(-bound, bound);
  }
}

template <class S>
void Model<S>::init(uint64_t seed) {
  const int C = cfg_.d_model;
  for (size_t off : {tok_emb_, pos_emb_}) {
    const ParamInfo& p = *std::find_if(info_.begin(), info_.end(),
                                       [&](const ParamInfo& q) { return q.offset == off; });
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
    } else if (lp.wo != npos) {
      init_linear(lp.wo, lp.bo, C, seed);  // frozen_random's W_o is learned's initial W_o
      if (cfg_.wo == WoMode::frozen_random_scaled)
        for (int i = 0; i < C * C; i++) params[lp.wo + i] *= static_cast<S>(std::sqrt(3.0));
    }
    init_linear(lp.fc1w, lp.fc1b, C, seed);
    init_linear(lp.fc2w, lp.fc2b, cfg_.d_ff, seed);
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
  return l == 0 ? emb_.data() : layer_output(l - 1);
}

template <class S>
const S* Model<S>::layer_output(int l) const {
  return cfg_.ln == LnPlace::post ? L_[l].ln2.data() : L_[l].res2.data();
}

template <class S>
void Model<S>::layer_forward(int l, int B) {
  const int T = cfg_.seq_len, C = cfg_.d_model, F = cfg_.d_ff, H = cfg_.heads, N = B * T;
  const bool post = cfg_.ln == LnPlace::post;
  const LayerParams& p = P_[l];
  LayerActs& a = L_[l];
  const S* w = params.data();
  const S* x = layer_input(l);  // (N,C)

  // attention sublayer: post-LN reads x, pre-LN reads ln1(x)
  const S* att_in = x;
  if (!post) {
    layernorm_forward(a.ln1.data(), a.ln1_mean.data(), a.ln1_rstd.data(), x, w + p.ln1w,
                      w + p.ln1b, N, C);
    att_in = a.ln1.data();
  }
  linear_forward(a.q.data(), att_in, w + p.wq, w + p.bq, N, C, C);
  linear_forward(a.k.data(), att_in, w + p.wk, w + p.bk, N, C, C);
  linear_forward(a.v.data(), att_in, w + p.wv, w + p.bv, N, C, C);
  attention_forward(a.concat.data(), a.att.data(), att_scratch_.data(), a.q.data(), a.k.data(),
                    a.v.data(), B, T, C, H);
  if (p.wo == npos)
    std::copy_n(a.concat.data(), N * C, a.wo_out.data());
  else
    linear_forward(a.wo_out.data(), a.concat.data(), w + p.wo, p.bo == npos ? nullptr : w + p.bo,
                   N, C, C);
  add_into(a.res1.data(), x, a.wo_out.data(), N * C);

  // FFN sublayer on x1: post-LN x1 = ln1(res1) feeds the FFN; pre-LN x1 = res1 feeds ln2(x1)
  const S* x1 = a.res1.data();
  const S* ffn_in;
  if (post) {
    layernorm_forward(a.ln1.data(), a.ln1_mean.data(), a.ln1_rstd.data(), a.res1.data(),
                      w + p.ln1w, w + p.ln1b, N, C);
    x1 = ffn_in = a.ln1.data();
  } else {
    layernorm_forward(a.ln2.data(), a.ln2_mean.data(), a.ln2_rstd.data(), x1, w + p.ln2w,
                      w + p.ln2b, N, C);
    ffn_in = a.ln2.data();
  }
  ffn_forward(a.ffn_out.data(), a.h.data(), a.a.data(), ffn_in, w + p.fc1w, w + p.fc1b,
              w + p.fc2w, w + p.fc2b, N, C, F);
  add_into(a.res2.data(), x1, a.ffn_out.data(), N * C);
  if (post)
    layernorm_forward(a.ln2.data(), a.ln2_mean.data(), a.ln2_rstd.data(), a.res2.data(),
                      w + p.ln2w, w + p.ln2b, N, C);
}

template <class S>
S Model<S>::forward(const int* input, const int* target, int B) {
  const int T = cfg_.seq_len, C = cfg_.d_model, V = cfg_.vocab, N = B * T;
  B_ = B;
  std::copy_n(input, N, input_.data());
  std::copy_n(target, N, target_.data());
  const S* w = params.data();
  embedding_forward(emb_.data(), input_.data(), w + tok_emb_, w + pos_emb_, B, T, C);
  for (int l = 0; l < cfg_.layers; l++) layer_forward(l, B);
  const S* head_in = layer_output(cfg_.layers - 1);
  if (lnfw_ != npos) {
    layernorm_forward(lnf_.data(), lnf_mean_.data(), lnf_rstd_.data(), head_in, w + lnfw_,
                      w + lnfb_, N, C);
    head_in = lnf_.data();
  }
  linear_forward(logits_.data(), head_in, w + headw_, w + headb_, N, C, V);
  return crossentropy_forward(probs_.data(), logits_.data(), target_.data(), N, V);
}

template <class S>
void Model<S>::layer_backward(int l, S* dx, int B) {
  const int T = cfg_.seq_len, C = cfg_.d_model, F = cfg_.d_ff, H = cfg_.heads, N = B * T;
  const bool post = cfg_.ln == LnPlace::post;
  const LayerParams& p = P_[l];
  LayerActs& a = L_[l];
  const S* w = params.data();
  S* g = grads.data();
  const S* x = layer_input(l);

  // FFN sublayer; afterwards dx holds dLoss/d res1
  if (post) {
    zero(dtmp_, N * C);  // dres2
    layernorm_backward(dtmp_.data(), g + p.ln2w, g + p.ln2b, dx, a.res2.data(), w + p.ln2w,
                       a.ln2_mean.data(), a.ln2_rstd.data(), N, C);
    std::copy_n(dtmp_.data(), N * C, dtmp2_.data());  // dx1: the residual path ...
    ffn_backward(dtmp2_.data(), g + p.fc1w, g + p.fc1b, g + p.fc2w, g + p.fc2b, dh_.data(),
                 dtmp_.data(), a.ln1.data(), a.h.data(), a.a.data(), w + p.fc1w, w + p.fc2w,
                 N, C, F);  // ... plus the FFN path
    std::fill_n(dx, N * C, S(0));
    layernorm_backward(dx, g + p.ln1w, g + p.ln1b, dtmp2_.data(), a.res1.data(), w + p.ln1w,
                       a.ln1_mean.data(), a.ln1_rstd.data(), N, C);
  } else {
    zero(dtmp_, N * C);  // d ln2(res1)
    ffn_backward(dtmp_.data(), g + p.fc1w, g + p.fc1b, g + p.fc2w, g + p.fc2b, dh_.data(), dx,
                 a.ln2.data(), a.h.data(), a.a.data(), w + p.fc1w, w + p.fc2w, N, C, F);
    layernorm_backward(dx, g + p.ln2w, g + p.ln2b, dtmp_.data(), a.res1.data(), w + p.ln2w,
                       a.ln2_mean.data(), a.ln2_rstd.data(), N, C);
  }

  // attention sublayer: dx (= dres1) flows on through the residual and into W_o
  S* dconcat = a.dconcat.data();
  if (p.wo == npos) {
    std::copy_n(dx, N * C, dconcat);
  } else {
    std::fill_n(dconcat, N * C, S(0));
    S* dwo = wo_frozen(cfg_.wo) ? nullptr : g + p.wo;
    S* dbo = p.bo == npos ? nullptr : g + p.bo;
    linear_backward(dconcat, dwo, dbo, dx, a.concat.data(), w + p.wo, N, C, C);
  }
  zero(dq_, N * C);
  zero(dk_, N * C);
  zero(dv_, N * C);
  attention_backward(dq_.data(), dk_.data(), dv_.data(), att_scratch_.data(), dconcat,
                     a.att.data(), a.q.data(), a.k.data(), a.v.data(), B, T, C, H);
  const S* att_in = post ? x : a.ln1.data();
  S* datt_in = dx;  // post-LN: the projections read x itself
  if (!post) {
    zero(dtmp_, N * C);
    datt_in = dtmp_.data();
  }
  linear_backward(datt_in, g + p.wq, g + p.bq, dq_.data(), att_in, w + p.wq, N, C, C);
  linear_backward(datt_in, g + p.wk, g + p.bk, dk_.data(), att_in, w + p.wk, N, C, C);
  linear_backward(datt_in, g + p.wv, g + p.bv, dv_.data(), att_in, w + p.wv, N, C, C);
  if (!post)
    layernorm_backward(dx, g + p.ln1w, g + p.ln1b, dtmp_.data(), x, w + p.ln1w,
                       a.ln1_mean.data(), a.ln1_rstd.data(), N, C);
}

template <class S>
void Model<S>::backward() {
  const int B = B_, T = cfg_.seq_len, C = cfg_.d_model, V = cfg_.vocab, N = B * T;
  const S* w = params.data();
  S* g = grads.data();
  std::fill(grads.begin(), grads.end(), S(0));
  zero(dlogits_, N * V);
  crossentropy_backward(dlogits_.data(), probs_.data(), target_.data(), N, V);
  const S* last = layer_output(cfg_.layers - 1);
  zero(dx_, N * C);
  if (lnfw_ == npos) {
    linear_backward(dx_.data(), g + headw_, g + headb_, dlogits_.data(), last, w + headw_, N, C, V);
  } else {
    zero(dtmp_, N * C);
    linear_backward(dtmp_.data(), g + headw_, g + headb_, dlogits_.data(), lnf_.data(),
                    w + headw_, N, C, V);
    layernorm_backward(dx_.data(), g + lnfw_, g + lnfb_, dtmp_.data(), last, w + lnfw_,
                       lnf_mean_.data(), lnf_rstd_.data(), N, C);
  }
  for (int l = cfg_.layers - 1; l >= 0; l--) layer_backward(l, dx_.data(), B);
  embedding_backward(g + tok_emb_, g + pos_emb_, dx_.data(), input_.data(), B, T, C);
}

template class Model<float>;
template class Model<double>;

}  // namespace wolab
