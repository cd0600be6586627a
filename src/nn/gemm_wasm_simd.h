// Single-precision GEMM on wasm_simd128.h kernels (compiled only under __wasm_simd128__).
#pragma once

namespace wolab {

// C (M,N) = op(A) · op(B), row-major. A is (M,K), or (K,M) when a_trans; B is (K,N), or (N,K)
// when b_trans. `accumulate` adds into C instead of overwriting it. Not reentrant: it packs into
// static scratch (no allocation per call; wasm has no threads, each Worker its own instance).
void sgemm_wasm_simd(float* C, const float* A, const float* B, int M, int K, int N, bool a_trans,
                     bool b_trans, bool accumulate);

}  // namespace wolab
