// Single-precision GEMM for WebAssembly SIMD (128-bit, no FMA: each step is a mul and an add).
//
// Shape of the computation (GotoBLAS/BLIS style, sized for the small training matrices):
//   for each NC-wide column block of C, for each KC-deep slice of K:
//     pack B's (KC,NC) block into NR-wide panels, k-major        -> b_pack
//     for each MC-tall row block: pack A's (MC,KC) block into MR-tall panels, k-major -> a_pack
//       for each (MR,NR) tile: micro-kernel over the KC slice
// Packing turns all three variants (A or Aᵀ, B or Bᵀ) into one micro-kernel whose loads are
// contiguous from two pointers; reading A through four strided row pointers instead was slower
// in V8. Packed panels are zero-padded to MR/NR, so a tile cut by C's edge runs the
// kernel of its valid rows (and of 4 columns when no more are valid) into a small tile buffer,
// and only the valid part is written out.
//
// The micro-tile is 5x8: ten f32x4 accumulators + two B vectors + one broadcast A value + one
// product = 14 of the 15 xmm registers V8 allocates on x64: in V8, 5x8 beats 4x8, and 6x8, 8x8
// and 4x16 spill. The kernel stays a separate function with a plain k loop: inlined into the
// blocking loops, or unrolled (clang then hoists the loads of several iterations), it runs out of
// registers too.
//
// The ceiling the products are measured against is this k loop alone on panels in L1
// (tests/bench/bench_gemm.cpp, scripts/bench_gemm.sh; its figures in docs/performance.md). The
// head's thin C (N = 12: one full panel and a half one, which runs the 4-column kernel) stays
// furthest below it: for so thin a C, packing A costs as much as the products.
#ifdef __wasm_simd128__

#include "nn/gemm_wasm_simd.h"

#include <wasm_simd128.h>

#include <algorithm>

namespace wolab {
namespace {

constexpr int MR = 5;    // rows of a micro-tile
constexpr int NR = 8;    // columns of a micro-tile (two f32x4)
constexpr int KC = 256;  // depth of a packed slice: a B panel (KC,NR) is 8 KB and stays in L1
constexpr int MC = 120;  // rows of a packed A block (a multiple of MR): (MC,KC) is 120 KB, in L2
constexpr int NC = 256;  // columns of a packed B block: (KC,NC) is 256 KB, in L2

// Static so that a training step never allocates; one gemm runs at a time (no wasm threads).
alignas(16) float a_pack[MC * KC];  // (MC/MR panels, KC, MR)
alignas(16) float b_pack[KC * NC];  // (NC/NR panels, KC, NR)

// Rows r0..r3 (4 values each) -> columns: out[c] = (r0[c], r1[c], r2[c], r3[c]).
inline void transpose4(v128_t& r0, v128_t& r1, v128_t& r2, v128_t& r3) {
  v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5);
  v128_t t1 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);
  v128_t t2 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);
  v128_t t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
  r0 = wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5);
  r1 = wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7);
  r2 = wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5);
  r3 = wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7);
}

// Packs the (rows,kc) block of a matrix X whose element (r,k) is at X[r*rs + k*ks] into panels
// of P rows: dst[(r/P)*kc*P + k*P + r%P], zero-padded to whole panels. Either rs or ks is 1:
// rs == 1 means X's columns are contiguous (copy 4 rows at a time), ks == 1 means its rows are
// (transpose 4x4 blocks). Rows past the last multiple of 4 in a panel go one by one.
template <int P>
void pack(float* dst, const float* X, int rs, int ks, int rows, int kc) {
  constexpr int V = P / 4 * 4;  // rows of a panel moved as vectors
  for (int r0 = 0; r0 < rows; r0 += P, dst += kc * P) {
    const int pr = std::min(P, rows - r0);
    const float* x = X + r0 * rs;
    int k = 0;
    if (pr == P && rs == 1) {
      for (; k < kc; ++k) {
        for (int r = 0; r < V; r += 4)
          wasm_v128_store(dst + k * P + r, wasm_v128_load(x + k * ks + r));
        for (int r = V; r < P; ++r) dst[k * P + r] = x[k * ks + r];
      }
    } else if (pr == P && ks == 1) {
      for (; k + 4 <= kc; k += 4) {
        for (int r = 0; r < V; r += 4) {
          const float* xr = x + r * rs + k;
          v128_t c0 = wasm_v128_load(xr), c1 = wasm_v128_load(xr + rs);
          v128_t c2 = wasm_v128_load(xr + 2 * rs), c3 = wasm_v128_load(xr + 3 * rs);
          transpose4(c0, c1, c2, c3);
          wasm_v128_store(dst + (k + 0) * P + r, c0);
          wasm_v128_store(dst + (k + 1) * P + r, c1);
          wasm_v128_store(dst + (k + 2) * P + r, c2);
          wasm_v128_store(dst + (k + 3) * P + r, c3);
        }
        for (int r = V; r < P; ++r)
          for (int kk = 0; kk < 4; ++kk) dst[(k + kk) * P + r] = x[r * rs + k + kk];
      }
    }
    for (; k < kc; ++k)  // leftover depth, and panels cut by the matrix edge
      for (int r = 0; r < P; ++r) dst[k * P + r] = r < pr ? x[r * rs + k * ks] : 0.0f;
  }
}

// The first R rows of C (MR,4·NV) (+)= Ap (kc,MR panel) · the first 4·NV columns of Bp (kc,NR
// panel). The loops over the tile are unrolled by the compiler, so acc lives in R*NV registers.
// NV = NR/4 is the full tile; NV = 1 serves a last panel with at most 4 valid columns (N = 12,
// the vocabulary, is one full panel and such a half), which then costs half a full tile instead
// of a whole one. R < MR serves a last panel of fewer rows (M = 16, a d_model-16 layer's
// weight gradient, is three full panels and a row). Every element of C sees the same operations
// in the same order either way, so results do not depend on which runs.
template <int NV, int R = MR>
__attribute__((noinline)) void kernel(float* C, int ldc, const float* Ap, const float* Bp, int kc,
                                      bool accumulate) {
  v128_t acc[R][NV];
  for (auto& row : acc)
    for (auto& a : row) a = wasm_f32x4_splat(0.0f);
  for (int k = 0; k < kc; ++k, Ap += MR, Bp += NR) {
    v128_t b[NV];
    for (int v = 0; v < NV; ++v) b[v] = wasm_v128_load(Bp + 4 * v);
    for (int i = 0; i < R; ++i) {
      const v128_t a = wasm_v128_load32_splat(Ap + i);
      for (int v = 0; v < NV; ++v) acc[i][v] = wasm_f32x4_add(acc[i][v], wasm_f32x4_mul(a, b[v]));
    }
  }
  for (int i = 0; i < R; ++i, C += ldc)
    for (int v = 0; v < NV; ++v) {
      const v128_t prev = accumulate ? wasm_v128_load(C + 4 * v) : wasm_f32x4_splat(0.0f);
      wasm_v128_store(C + 4 * v, wasm_f32x4_add(prev, acc[i][v]));
    }
}

// The first `rows` rows of a tile into `tile` (MR,NR), with kernel<NV, rows>.
template <int NV>
void kernel_rows(float* tile, const float* Ap, const float* Bp, int kc, int rows) {
  static_assert(MR == 5, "one case per row count");
  switch (rows) {
    case 1: return kernel<NV, 1>(tile, NR, Ap, Bp, kc, false);
    case 2: return kernel<NV, 2>(tile, NR, Ap, Bp, kc, false);
    case 3: return kernel<NV, 3>(tile, NR, Ap, Bp, kc, false);
    case 4: return kernel<NV, 4>(tile, NR, Ap, Bp, kc, false);
    default: return kernel<NV>(tile, NR, Ap, Bp, kc, false);
  }
}

// A tile cut by C's edge: compute its valid rows aside (only their first 4 columns when no more
// are valid), write back the valid corner. A full-height tile of exactly 4 columns goes to C
// directly.
void edge_tile(float* C, int ldc, const float* Ap, const float* Bp, int kc, int rows, int cols,
               bool accumulate) {
  if (rows == MR && cols == 4) return kernel<1>(C, ldc, Ap, Bp, kc, accumulate);
  alignas(16) float tile[MR * NR];  // (MR,NR)
  if (cols <= 4)
    kernel_rows<1>(tile, Ap, Bp, kc, rows);
  else
    kernel_rows<NR / 4>(tile, Ap, Bp, kc, rows);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      C[i * ldc + j] = (accumulate ? C[i * ldc + j] : 0.0f) + tile[i * NR + j];
}

}  // namespace

void sgemm_wasm_simd(float* C, const float* A, const float* B, int M, int K, int N, bool a_trans,
                     bool b_trans, bool accumulate) {
  if (K == 0 && !accumulate) std::fill(C, C + M * N, 0.0f);
  // Element (i,k) of op(A) is at A[i*a_rs + k*a_ks];
  // element (j,k) of op(B)ᵀ is at B[j*b_rs + k*b_ks].
  const int a_rs = a_trans ? 1 : K, a_ks = a_trans ? M : 1;
  const int b_rs = b_trans ? K : 1, b_ks = b_trans ? 1 : N;
  for (int jc = 0; jc < N; jc += NC) {
    const int nc = std::min(NC, N - jc);
    for (int pc = 0; pc < K; pc += KC) {
      const int kc = std::min(KC, K - pc);
      const bool acc = accumulate || pc > 0;
      pack<NR>(b_pack, B + jc * b_rs + pc * b_ks, b_rs, b_ks, nc, kc);
      for (int ic = 0; ic < M; ic += MC) {
        const int mc = std::min(MC, M - ic);
        pack<MR>(a_pack, A + ic * a_rs + pc * a_ks, a_rs, a_ks, mc, kc);
        for (int jr = 0; jr < nc; jr += NR) {
          const float* bp = b_pack + jr * kc;
          for (int ir = 0; ir < mc; ir += MR) {
            float* c = C + (ic + ir) * N + jc + jr;
            const float* ap = a_pack + ir * kc;
            if (ir + MR <= mc && jr + NR <= nc)
              kernel<NR / 4>(c, N, ap, bp, kc, acc);
            else
              edge_tile(c, N, ap, bp, kc, std::min(MR, mc - ir), std::min(NR, nc - jr), acc);
          }
        }
      }
    }
  }
}

}  // namespace wolab

#endif  // __wasm_simd128__
