// Attention works one head at a time on T×d_k blocks (Quick's 13×2, Article's 17×64): too small
// for a GEMM call to pay off, and a head of width 2 would fill half a vector register at best. So
// it runs kAttentionLanes examples of the batch side by side: every value below is a vector
// holding the same element of each of those examples (one SIMD128 register of floats in wasm),
// gathered from the (B,T,C) inputs and scattered back. Each product is then a small blocked loop,
// `lane_rows`, whose accumulators the compiler keeps in vector registers. Every sum runs in the
// same order as a scalar loop over one example would, so a lane's results do not depend on its
// neighbours. The causal mask makes the products triangular: probabilities and score gradients
// are zero above the diagonal, which lets a block of rows run over the longest row's range.
#include <algorithm>
#include <cmath>
#include <utility>

#include "nn/lanes.h"

namespace wolab {
namespace {

constexpr int kLanes = kAttentionLanes;
constexpr int kRows = 4;  // output rows per block: independent sums the CPU overlaps
constexpr int kCols = 2;  // output columns per block: kRows·kCols accumulators in registers

// src[l·stride] in lane l < lanes, zero in the lanes past them.
template <class S, size_t... L>
LaneVec<S> load_lanes(const S* src, int stride, int lanes, std::index_sequence<L...>) {
  return LaneVec<S>{(static_cast<int>(L) < lanes ? src[L * stride] : S(0))...};
}

// dst[l·stride] (+)= lane l of x for l < lanes.
template <class S, size_t... L>
void store_lanes(S* dst, int stride, int lanes, bool accumulate, LaneVec<S> x,
                 std::index_sequence<L...>) {
  ((static_cast<int>(L) < lanes
        ? void(dst[L * stride] = accumulate ? dst[L * stride] + x[L] : x[L])
        : void()),
   ...);
}

// out[r·os + k] = Σ_{t0 ≤ t < t1} a[r·ar + t·at] · Y[t·ys + k·yk] for r < R, k < W, lane by lane,
// summed from zero in the order of t.
template <int R, int W, class S>
void lane_block(LaneVec<S>* out, int os, const LaneVec<S>* a, int ar, int at, const LaneVec<S>* Y,
                int ys, int yk, int t0, int t1) {
  LaneVec<S> acc[R][W] = {};
  for (int t = t0; t < t1; t++) {
    LaneVec<S> y[W];
    for (int k = 0; k < W; k++) y[k] = Y[t * ys + k * yk];
    for (int r = 0; r < R; r++) {
      const LaneVec<S> w = a[r * ar + t * at];
      for (int k = 0; k < W; k++) acc[r][k] += w * y[k];
    }
  }
  for (int r = 0; r < R; r++)
    for (int k = 0; k < W; k++) out[r * os + k] = acc[r][k];
}

// Columns [0, W) of out for `rows` ≤ kRows rows.
template <int W, class S>
void lane_rows_cols(LaneVec<S>* out, int os, const LaneVec<S>* a, int ar, int at,
                    const LaneVec<S>* Y, int ys, int yk, int rows, int t0, int t1) {
  if (rows == kRows) {
    lane_block<kRows, W, S>(out, os, a, ar, at, Y, ys, yk, t0, t1);
    return;
  }
  for (int r = 0; r < rows; r++)
    lane_block<1, W, S>(out + r * os, os, a + r * ar, ar, at, Y, ys, yk, t0, t1);
}

// The same for `rows` ≤ kRows rows and `cols` columns: rows of Y weighted by the rows of a. One
// function, not inlined at each of its six calls: V8 then optimises far less code (a third less
// of train_step's body in wasm), and it runs no slower.
template <class S>
__attribute__((noinline)) void lane_rows(LaneVec<S>* out, int os, const LaneVec<S>* a, int ar,
                                         int at, const LaneVec<S>* Y, int ys, int yk, int rows,
                                         int cols, int t0, int t1) {
  int k = 0;
  for (; k + kCols <= cols; k += kCols)
    lane_rows_cols<kCols, S>(out + k, os, a, ar, at, Y + k * yk, ys, yk, rows, t0, t1);
  for (; k < cols; k++)
    lane_rows_cols<1, S>(out + k, os, a, ar, at, Y + k * yk, ys, yk, rows, t0, t1);
}

// dst (T,hs) = one head's block in `lanes` examples, lane l's row t starting at
// src + l·T·C + t·C; the lanes past them are zero.
template <class S>
void gather(LaneVec<S>* dst, const S* src, int lanes, int T, int C, int hs) {
  for (int t = 0; t < T; t++)
    for (int c = 0; c < hs; c++)
      dst[t * hs + c] = load_lanes<S>(src + t * C + c, T * C, lanes, LaneIndex{});
}

// The reverse: the block of lane l goes to (accumulate: is added to) example l's block at dst.
template <class S>
void scatter(S* dst, bool accumulate, const LaneVec<S>* src, int lanes, int T, int C, int hs) {
  for (int t = 0; t < T; t++)
    for (int c = 0; c < hs; c++)
      store_lanes<S>(dst + t * C + c, T * C, lanes, accumulate, src[t * hs + c], LaneIndex{});
}

}  // namespace

int attention_scratch_size(int T, int C, int H) { return kLanes * (5 * (C / H) * T + T * T); }

uint64_t attention_cache_size(int B, int T, int H) {
  return static_cast<uint64_t>((B + kLanes - 1) / kLanes) * kLanes * H * T * T;
}

template <class S>
void attention_map(S* out, const S* att, int b, int h, int T, int H) {
  const S* P = att + (static_cast<int64_t>(b / kLanes) * H + h) * T * T * kLanes + b % kLanes;
  for (int e = 0; e < T * T; e++) out[e] = P[e * kLanes];
}

template <class S>
void attention_forward(S* out, S* att, S* scratch, const S* q, const S* k, const S* v, int B,
                       int T, int C, int H) {
  typedef LaneVec<S> V;
  const int hs = C / H;  // head size d_k
  const S scale = S(1) / std::sqrt(S(hs));
  V* Q = reinterpret_cast<V*>(scratch);  // (T,hs) this head's queries, keys and values,
  V* K = Q + T * hs;                     // kLanes examples side by side
  V* Vh = K + T * hs;
  V* O = Vh + T * hs;  // (T,hs) their outputs
  V* s = O + T * hs;   // (T,T) scores q_i·k_j
  for (int b0 = 0; b0 < B; b0 += kLanes) {
    const int lanes = std::min(kLanes, B - b0);
    for (int h = 0; h < H; h++) {
      const int head = b0 * T * C + h * hs;  // row t of this head's q, k, v is at head + t·C
      // (T,T) probabilities, zero above the diagonal
      V* P = reinterpret_cast<V*>(att) + (b0 / kLanes * H + h) * T * T;
      gather(Q, q + head, lanes, T, C, hs);
      gather(K, k + head, lanes, T, C, hs);
      gather(Vh, v + head, lanes, T, C, hs);
      for (int i0 = 0; i0 < T; i0 += kRows) {  // queries i0.. see keys up to the block's last
        const int rows = std::min(kRows, T - i0), n = i0 + rows;
        lane_rows<S>(s + i0 * T, T, Q + i0 * hs, hs, 1, K, 1, hs, rows, n, 0, hs);
      }
      for (int i = 0; i < T; i++) {  // causal softmax of query i over keys 0..i
        V* p = P + i * T;
        V maxval = V{} - INFINITY;
        for (int j = 0; j <= i; j++) {
          p[j] = s[i * T + j] * scale;
          maxval = p[j] > maxval ? p[j] : maxval;
        }
        V sum = {};
        for (int j = 0; j <= i; j++) sum += (p[j] = exp_lanes<S>(p[j] - maxval));
        for (int j = 0; j <= i; j++) p[j] /= sum;
        for (int j = i + 1; j < T; j++) p[j] = V{};
      }
      for (int i0 = 0; i0 < T; i0 += kRows) {  // out_i = Σ_j p_ij v_j
        const int rows = std::min(kRows, T - i0), n = i0 + rows;
        lane_rows<S>(O + i0 * hs, hs, P + i0 * T, T, 1, Vh, hs, 1, rows, hs, 0, n);
      }
      scatter(out + head, false, O, lanes, T, C, hs);
    }
  }
}

template <class S>
void attention_forward_at(S* out, S* scratch, const S* q, const S* k, const S* v, int t, int B,
                          int T, int C, int H) {
  const int hs = C / H;
  const S scale = S(1) / std::sqrt(S(hs));
  S* p = scratch;  // (t+1) probabilities of this query
  for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++) {
      const S* qh = q + b * C + h * hs;
      const S* kh = k + b * T * C + h * hs;  // row j of this head's keys is at kh + j·C
      const S* vh = v + b * T * C + h * hs;
      S maxval = -INFINITY;
      for (int j = 0; j <= t; j++) {
        S s = 0;
        for (int c = 0; c < hs; c++) s += qh[c] * kh[j * C + c];
        p[j] = s * scale;
        maxval = p[j] > maxval ? p[j] : maxval;
      }
      S sum = 0;
      for (int j = 0; j <= t; j++) sum += (p[j] = std::exp(p[j] - maxval));
      for (int j = 0; j <= t; j++) p[j] /= sum;
      S* o = out + b * C + h * hs;
      std::fill_n(o, hs, S(0));
      for (int j = 0; j <= t; j++)
        for (int c = 0; c < hs; c++) o[c] += p[j] * vh[j * C + c];
    }
}

template <class S>
void attention_backward(S* dq, S* dk, S* dv, S* scratch, const S* dout, const S* att, const S* q,
                        const S* k, const S* v, int B, int T, int C, int H) {
  typedef LaneVec<S> V;
  const int hs = C / H;
  const S scale = S(1) / std::sqrt(S(hs));
  V* Q = reinterpret_cast<V*>(scratch);  // (T,hs) this head's queries, keys, values and output
  V* K = Q + T * hs;                     // gradients, kLanes examples side by side
  V* Vh = K + T * hs;
  V* dO = Vh + T * hs;
  V* G = dO + T * hs;  // (T,hs) one gradient of this head, before it is scattered
  V* ds = G + T * hs;  // (T,T) gradient at the scores, zero above the diagonal
  for (int b0 = 0; b0 < B; b0 += kLanes) {
    const int lanes = std::min(kLanes, B - b0);
    for (int h = 0; h < H; h++) {
      const int head = b0 * T * C + h * hs;
      const V* P = reinterpret_cast<const V*>(att) + (b0 / kLanes * H + h) * T * T;  // (T,T)
      gather(Q, q + head, lanes, T, C, hs);
      gather(K, k + head, lanes, T, C, hs);
      gather(Vh, v + head, lanes, T, C, hs);
      gather(dO, dout + head, lanes, T, C, hs);
      for (int i0 = 0; i0 < T; i0 += kRows) {  // dLoss/dp_ij = dout_i·v_j
        const int rows = std::min(kRows, T - i0), n = i0 + rows;
        lane_rows<S>(ds + i0 * T, T, dO + i0 * hs, hs, 1, Vh, 1, hs, rows, n, 0, hs);
      }
      for (int i = 0; i < T; i++) {  // softmax backward: ds_ij = p_ij (dp_ij - Σ_j' p_ij' dp_ij')
        const V* p = P + i * T;
        V* dsi = ds + i * T;
        V pdp = {};
        for (int j = 0; j <= i; j++) pdp += p[j] * dsi[j];
        for (int j = 0; j <= i; j++) dsi[j] = p[j] * (dsi[j] - pdp) * scale;
        for (int j = i + 1; j < T; j++) dsi[j] = V{};
      }
      for (int i0 = 0; i0 < T; i0 += kRows) {  // dq_i += Σ_j ds_ij k_j
        const int rows = std::min(kRows, T - i0), n = i0 + rows;
        lane_rows<S>(G + i0 * hs, hs, ds + i0 * T, T, 1, K, hs, 1, rows, hs, 0, n);
      }
      scatter(dq + head, true, G, lanes, T, C, hs);
      // Keys j0.. are seen by queries from j0 on: dk_j += Σ_i ds_ij q_i and dv_j += Σ_i p_ij
      // dout_i, with columns of ds and P as the weights.
      for (int j0 = 0; j0 < T; j0 += kRows)
        lane_rows<S>(G + j0 * hs, hs, ds + j0, 1, T, Q, hs, 1, std::min(kRows, T - j0), hs, j0, T);
      scatter(dk + head, true, G, lanes, T, C, hs);
      for (int j0 = 0; j0 < T; j0 += kRows)
        lane_rows<S>(G + j0 * hs, hs, P + j0, 1, T, dO, hs, 1, std::min(kRows, T - j0), hs, j0, T);
      scatter(dv + head, true, G, lanes, T, C, hs);
    }
  }
}

#define WOLAB_INSTANTIATE(S)                                                                    \
  template void attention_map<S>(S*, const S*, int, int, int, int);                             \
  template void attention_forward<S>(S*, S*, S*, const S*, const S*, const S*, int, int, int,   \
                                     int);                                                      \
  template void attention_forward_at<S>(S*, S*, const S*, const S*, const S*, int, int, int, int, \
                                        int);                                                   \
  template void attention_backward<S>(S*, S*, S*, S*, const S*, const S*, const S*, const S*,   \
                                      const S*, int, int, int, int);
WOLAB_INSTANTIATE(float)
WOLAB_INSTANTIATE(double)

}  // namespace wolab
