// The three matrix products the layers need, on row-major buffers.
// Forward of a Linear is y = x·Wᵀ (matmul_nt); its backward needs dx = dy·W (matmul_nn)
// and dW = dyᵀ·x (matmul_tn). `accumulate` adds into C instead of overwriting it, which is
// how gradients of parameters used at several places (or by several heads) are summed.
// Float goes through WASM SIMD kernels under __wasm_simd128__ and through Eigen elsewhere;
// double (used only by the gradient checks) always goes through Eigen.
#pragma once

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

// Elements of S that the products keep allocated after one of shape C (M,N) of depth K (the
// packing buffers of gemm_eigen.h; none for the wasm SIMD kernels, whose buffers are static).
// For the memory estimate.
template <class S>
size_t matmul_workspace(int M, int K, int N);

}  // namespace wolab
