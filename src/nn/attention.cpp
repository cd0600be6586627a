// Attention works one (example, head) at a time on T×d_k blocks (17×16 by default): too small
// for a GEMM call to pay off, so every product here is a small blocked loop, `weighted_rows`,
// whose accumulators the compiler keeps in vector registers (AVX natively, SIMD128 in wasm).
// The causal mask makes the products triangular: probabilities and score gradients are zero
// above the diagonal, which lets a block of rows run over the longest row's range.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "nn/layers.h"

namespace wolab {
namespace {

constexpr int kRows = 4;  // output rows per block: independent sums the CPU overlaps
constexpr int kCols = 8;  // output columns per block: one or two vector registers

// Transposed keys, values and the score matrices have rows of T padded to whole blocks of
// columns; the padding is zero or never read.
int padded(int T) { return (T + kCols - 1) / kCols * kCols; }

// out[r·os + k] (+)= Σ_{t0 ≤ t < t1} a[r·ar + t·at] · Y[t·ys + k] for r < R, k < W, summed in
// the order of t. The W columns of a row are one GCC/clang vector value, so the R·W sums are
// R registers and each step of t is one load of Y and R multiply-adds; with plain arrays, GCC
// vectorized the loop over t instead, loading the weights lane by lane.
template <int R, int W, class S>
void weighted_rows_block(S* out, int os, bool accumulate, const S* a, int ar, int at, const S* Y,
                         int ys, int t0, int t1) {
  typedef S Lanes __attribute__((vector_size(W * sizeof(S))));  // W values of S
  Lanes acc[R] = {};
  for (int t = t0; t < t1; t++) {
    Lanes y;
    std::memcpy(&y, Y + t * ys, sizeof y);  // (an unaligned load)
    for (int r = 0; r < R; r++) acc[r] += a[r * ar + t * at] * y;
  }
  for (int r = 0; r < R; r++) {
    if (accumulate) {
      Lanes prev;
      std::memcpy(&prev, out + r * os, sizeof prev);
      acc[r] = prev + acc[r];
    }
    std::memcpy(out + r * os, &acc[r], sizeof acc[r]);
  }
}

// Columns [0, W) of out for `rows` ≤ kRows rows.
template <int W, class S>
void weighted_rows_cols(S* out, int os, bool accumulate, const S* a, int ar, int at, const S* Y,
                        int ys, int rows, int t0, int t1) {
  if (rows == kRows) {
    weighted_rows_block<kRows, W>(out, os, accumulate, a, ar, at, Y, ys, t0, t1);
    return;
  }
  for (int r = 0; r < rows; r++)
    weighted_rows_block<1, W>(out + r * os, os, accumulate, a + r * ar, ar, at, Y, ys, t0, t1);
}

// The same for `rows` ≤ kRows rows and `cols` columns: rows of Y weighted by the rows of a.
// Columns go kCols at a time, then 4, 2 and 1 (a head of width 2 or 4 is one narrow vector);
// each sum runs over t in the same order whatever its block, so the results are those of a
// scalar loop.
template <class S>
void weighted_rows(S* out, int os, bool accumulate, const S* a, int ar, int at, const S* Y, int ys,
                   int rows, int cols, int t0, int t1) {
  int k = 0;
  for (; k + kCols <= cols; k += kCols)
    weighted_rows_cols<kCols>(out + k, os, accumulate, a, ar, at, Y + k, ys, rows, t0, t1);
  if (k + 4 <= cols) {
    weighted_rows_cols<4>(out + k, os, accumulate, a, ar, at, Y + k, ys, rows, t0, t1);
    k += 4;
  }
  if (k + 2 <= cols) {
    weighted_rows_cols<2>(out + k, os, accumulate, a, ar, at, Y + k, ys, rows, t0, t1);
    k += 2;
  }
  if (k < cols) weighted_rows_cols<1>(out + k, os, accumulate, a, ar, at, Y + k, ys, rows, t0, t1);
}

// dst (hs,Tp) = the (T,hs) block of one head whose row t starts at src + t·C, transposed and
// zero-padded to Tp columns.
template <class S>
void transpose_head(S* dst, const S* src, int T, int C, int hs) {
  const int Tp = padded(T);
  for (int c = 0; c < hs; c++) {
    for (int t = 0; t < T; t++) dst[c * Tp + t] = src[t * C + c];
    for (int t = T; t < Tp; t++) dst[c * Tp + t] = 0;
  }
}

}  // namespace

int attention_scratch_size(int T, int C, int H) { return (C / H + T) * padded(T); }

template <class S>
void attention_forward(S* out, S* att, S* scratch, const S* q, const S* k, const S* v, int B,
                       int T, int C, int H) {
  const int hs = C / H, Tp = padded(T);  // head size d_k; padded row length
  const S scale = S(1) / std::sqrt(S(hs));
  S* kt = scratch;            // (hs,Tp) this head's keys, transposed
  S* s = scratch + hs * Tp;   // (T,Tp) scores q_i·k_j
  for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++) {
      const int head = b * T * C + h * hs;  // row t of this head's q, k, v is at head + t·C
      S* P = att + (b * H + h) * T * T;      // (T,T) probabilities, zero above the diagonal
      transpose_head(kt, k + head, T, C, hs);
      for (int i0 = 0; i0 < T; i0 += kRows) {  // queries i0.. see keys up to the block's last
        const int rows = std::min(kRows, T - i0), n = i0 + rows;
        weighted_rows(s + i0 * Tp, Tp, false, q + head + i0 * C, C, 1, kt, Tp, rows, padded(n), 0,
                      hs);
      }
      for (int i = 0; i < T; i++) {  // causal softmax of query i over keys 0..i
        S* p = P + i * T;
        S maxval = -INFINITY;
        for (int j = 0; j <= i; j++) {
          p[j] = s[i * Tp + j] * scale;
          maxval = p[j] > maxval ? p[j] : maxval;
        }
        S sum = 0;
        for (int j = 0; j <= i; j++) sum += (p[j] = std::exp(p[j] - maxval));
        for (int j = 0; j <= i; j++) p[j] /= sum;
        for (int j = i + 1; j < T; j++) p[j] = 0;
      }
      for (int i0 = 0; i0 < T; i0 += kRows) {  // out_i = Σ_j p_ij v_j
        const int rows = std::min(kRows, T - i0), n = i0 + rows;
        weighted_rows(out + head + i0 * C, C, false, P + i0 * T, T, 1, v + head, C, rows, hs, 0, n);
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
  const int hs = C / H, Tp = padded(T);
  const S scale = S(1) / std::sqrt(S(hs));
  S* vt = scratch;            // (hs,Tp) this head's values, transposed
  S* ds = scratch + hs * Tp;  // (T,Tp) gradient at the scores, zero above the diagonal
  for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++) {
      const int head = b * T * C + h * hs;
      const S* P = att + (b * H + h) * T * T;  // (T,T)
      transpose_head(vt, v + head, T, C, hs);
      for (int i0 = 0; i0 < T; i0 += kRows) {  // dLoss/dp_ij = dout_i·v_j
        const int rows = std::min(kRows, T - i0), n = i0 + rows;
        weighted_rows(ds + i0 * Tp, Tp, false, dout + head + i0 * C, C, 1, vt, Tp, rows,
                      padded(n), 0, hs);
      }
      for (int i = 0; i < T; i++) {  // softmax backward: ds_ij = p_ij (dp_ij - Σ_j' p_ij' dp_ij')
        const S* p = P + i * T;
        S* dsi = ds + i * Tp;
        S pdp = 0;
        for (int j = 0; j <= i; j++) pdp += p[j] * dsi[j];
        for (int j = 0; j <= i; j++) dsi[j] = p[j] * (dsi[j] - pdp) * scale;
        for (int j = i + 1; j < T; j++) dsi[j] = 0;
      }
      for (int i0 = 0; i0 < T; i0 += kRows) {  // dq_i += Σ_j ds_ij k_j
        const int rows = std::min(kRows, T - i0), n = i0 + rows;
        weighted_rows(dq + head + i0 * C, C, true, ds + i0 * Tp, Tp, 1, k + head, C, rows, hs, 0,
                      n);
      }
      for (int j0 = 0; j0 < T; j0 += kRows) {  // keys j0.. are seen by queries from j0 on
        const int rows = std::min(kRows, T - j0);
        // dk_j += Σ_i ds_ij q_i and dv_j += Σ_i p_ij dout_i: columns of ds and P as weights
        weighted_rows(dk + head + j0 * C, C, true, ds + j0, 1, Tp, q + head, C, rows, hs, j0, T);
        weighted_rows(dv + head + j0 * C, C, true, P + j0, 1, T, dout + head, C, rows, hs, j0, T);
      }
    }
}

#define WOLAB_INSTANTIATE(S)                                                                    \
  template void attention_forward<S>(S*, S*, S*, const S*, const S*, const S*, int, int, int,   \
                                     int);                                                      \
  template void attention_forward_at<S>(S*, S*, const S*, const S*, const S*, int, int, int, int, \
                                        int);                                                   \
  template void attention_backward<S>(S*, S*, S*, S*, const S*, const S*, const S*, const S*,   \
                                      const S*, int, int, int, int);
WOLAB_INSTANTIATE(float)
WOLAB_INSTANTIATE(double)

}  // namespace wolab
