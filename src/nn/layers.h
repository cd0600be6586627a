// The layers of the Transformer, each as a forward pass and, beside it in its .cpp, the backward
// pass. Arguments are outputs, then inputs, then sizes (llm.c's convention); every buffer is
// row-major with its shape in a comment. Backward passes ACCUMULATE (+=) into every gradient
// they write, so a buffer reached by two paths (a residual stream, a shared input) just sums;
// the caller zeroes gradients once before the backward pass. Templated on the scalar type:
// float for training, double for the finite-difference gradient checks.
#pragma once

#include <cstdint>

namespace wolab {

// embedding.cpp: out = tok_emb[input] + pos_emb[position]
template <class S>
void embedding_forward(S* out,                                      // (B,T,C)
                       const int* input,                            // (B,T)
                       const S* tok_emb, const S* pos_emb,          // (V,C), (T,C)
                       int B, int T, int C);
template <class S>
void embedding_backward(S* dtok_emb, S* dpos_emb,                   // (V,C), (T,C)
                        const S* dout, const int* input,            // (B,T,C), (B,T)
                        int B, int T, int C);

// linear.cpp: out = inp·Wᵀ + b, W in PyTorch layout (OC,C); b may be null
template <class S>
void linear_forward(S* out,                                         // (N,OC)
                    const S* inp, const S* W, const S* b,           // (N,C), (OC,C), (OC)
                    int N, int C, int OC);
// dW and db may be null (a frozen or bias-free Linear)
template <class S>
void linear_backward(S* dinp, S* dW, S* db,                         // (N,C), (OC,C), (OC)
                     const S* dout, const S* inp, const S* W,       // (N,OC), (N,C), (OC,C)
                     int N, int C, int OC);

// block_diagonal.cpp: a (C,C) Linear whose weight W is block-diagonal, H blocks of d_k = C/H
// on the diagonal (block h maps head h's columns to the same columns) and exact zeros between
// them: block_diagonal's W_o. The forward is linear_forward's, the zeros adding nothing. The
// backward is linear_backward's with dW between the blocks left 0, so that no update (Adam's
// moments included) ever moves those zeros.
template <class S>
void block_diagonal_forward(S* out,                                 // (N,C)
                            const S* inp, const S* W, const S* b,   // (N,C), (C,C), (C)
                            int N, int C);
template <class S>
void block_diagonal_backward(S* dinp, S* dW, S* db,                 // (N,C), (C,C), (C)
                             const S* dout, const S* inp, const S* W,  // (N,C), (N,C), (C,C)
                             int N, int C, int H);
// W's entries between the heads' blocks set to 0 (learned's draw becomes block_diagonal's W_o)
template <class S>
void zero_between_heads(S* W,                                       // (C,C)
                        int C, int H);

// scale.cpp: out = g·inp, one scalar g for every element (scalar_gain's W_o: no matrix, no bias)
template <class S>
void scale_forward(S* out,                                          // (n)
                   const S* inp, const S* g,                        // (n), (1)
                   int n);
template <class S>
void scale_backward(S* dinp, S* dg,                                 // (n), (1)
                    const S* dout, const S* inp, const S* g,        // (n), (n), (1)
                    int n);

// attention.cpp: causal scaled dot-product attention of H heads over q, k, v already projected;
// head h owns columns h·C/H .. (h+1)·C/H - 1, and `out` is the heads' outputs side by side
// (the concat that W_o then mixes). `att` caches the softmax probabilities for the backward,
// kAttentionLanes examples side by side: attention_cache_size(B, T, H) elements, as
// (⌈B/lanes⌉,H,T,T,lanes); attention_map reads one (example, head). `scratch` is working memory,
// so that neither pass allocates: attention_scratch_size(T, C, H) elements, (5·T·d_k + T·T)·lanes
// with d_k = C/H.
constexpr int kAttentionLanes = 4;
int attention_scratch_size(int T, int C, int H);
uint64_t attention_cache_size(int B, int T, int H);
template <class S>
void attention_map(S* out,                                          // (T,T)
                   const S* att,                                    // attention_cache_size
                   int b, int h, int T, int H);
template <class S>
void attention_forward(S* out, S* att,                              // (B,T,C), cache above
                       S* scratch,                                  // attention_scratch_size
                       const S* q, const S* k, const S* v,          // (B,T,C) each
                       int B, int T, int C, int H);
// One query position t of each of B sequences over the keys and values of positions 0..t in
// (B,T,C) caches: attention_forward's row t, with the same sums in the same order, for
// incremental decoding. `scratch` holds T elements.
template <class S>
void attention_forward_at(S* out, S* scratch,                      // (B,C), (T)
                          const S* q,                               // (B,C)
                          const S* k, const S* v,                   // (B,T,C) each, rows ≤ t set
                          int t, int B, int T, int C, int H);
template <class S>
void attention_backward(S* dq, S* dk, S* dv,                        // (B,T,C) each
                        S* scratch,                                 // attention_scratch_size
                        const S* dout, const S* att,                // (B,T,C), cache above
                        const S* q, const S* k, const S* v,         // (B,T,C) each
                        int B, int T, int C, int H);

// layernorm.cpp: PyTorch's LayerNorm (eps 1e-5, biased variance); mean and rstd are cached
template <class S>
void layernorm_forward(S* out, S* mean, S* rstd,                    // (N,C), (N), (N)
                       const S* inp, const S* w, const S* b,        // (N,C), (C), (C)
                       int N, int C);
template <class S>
void layernorm_backward(S* dinp, S* dw, S* db,                      // (N,C), (C), (C)
                        const S* dout, const S* inp, const S* w,    // (N,C), (N,C), (C)
                        const S* mean, const S* rstd,               // (N), (N)
                        int N, int C);

// ffn.cpp: out = fc2(relu(fc1(inp))); the pre-activation h and a = relu(h) are cached
template <class S>
void ffn_forward(S* out, S* h, S* a,                                // (N,C), (N,F), (N,F)
                 const S* inp,                                      // (N,C)
                 const S* W1, const S* b1, const S* W2, const S* b2,  // (F,C), (F), (C,F), (C)
                 int N, int C, int F);
// dh is scratch for the gradient at the pre-activation
template <class S>
void ffn_backward(S* dinp, S* dW1, S* db1, S* dW2, S* db2, S* dh,  // (N,C), .., (N,F)
                  const S* dout, const S* inp, const S* h, const S* a,  // (N,C), (N,C), (N,F) ×2
                  const S* W1, const S* W2,                         // (F,C), (C,F)
                  int N, int C, int F);

// loss.cpp: softmax cross-entropy averaged over the positions whose target is ≥ 0;
// returns the loss and caches the probabilities
template <class S>
S crossentropy_forward(S* probs,                                    // (N,V)
                       const S* logits, const int* targets,         // (N,V), (N)
                       int N, int V);
template <class S>
void crossentropy_backward(S* dlogits,                              // (N,V)
                           const S* probs, const int* targets,      // (N,V), (N)
                           int N, int V);

}  // namespace wolab
