// The three matrix products the layers need, on row-major buffers.
// Forward of a Linear is y = x·Wᵀ (matmul_nt); its backward needs dx = dy·W (matmul_nn)
// and dW = dyᵀ·x (matmul_tn). `accumulate` adds into C instead of overwriting it, which is
// how gradients of parameters used at several places (or by several heads) are summed.
// Float goes through WASM SIMD kernels under __wasm_simd128__ and through Eigen elsewhere;
// double (used only by the gradient checks) always goes through Eigen.
#pragma once

#include <algorithm>
#include <cstddef>

namespace wolab {

// C (M,N) = A (M,K) · B (K,N)
template <class S>
void matmul_nn(S* C, const S* A, const S* B, int M, int K, int N, bool accumulate = false);

// C (M,N) = A (M,K) · Bᵀ, where B is (N,K)
template <class S>
void matmul_nt(S* C, const S* A, const S* B, int M, int K, int N, bool accumulate = false);

// C (M,N) = Aᵀ · B, where A is (K,M) and B is (K,N)
template <class S>
void matmul_tn(S* C, const S* A, const S* B, int M, int K, int N, bool accumulate = false);

// The depth of a block that gemm_eigen.h packs, at most: Eigen sizes it to the L1 cache (944
// floats with AVX-512 here), so this cap changes nothing on today's CPUs and bounds the packing
// buffers on every machine.
inline constexpr int kMaxPackedDepth = 1024;

// At most the elements that the products keep allocated after one of shape C (M,N) of depth K:
// gemm_eigen.h's packing buffers, a block of depth min(K, kMaxPackedDepth) across M + N, aligned.
// The same bound on every build (the wasm SIMD kernels' buffers are static), so the memory
// estimate and its messages are the same natively and in the page.
inline size_t matmul_workspace(int M, int K, int N) {
  return static_cast<size_t>(std::min(K, kMaxPackedDepth)) * (static_cast<size_t>(M) + N) + 16;
}

}  // namespace wolab
