// The three matrix products through Eigen maps of row-major buffers. This is the whole
// implementation natively (where -march=native gives Eigen AVX2+FMA) and for double; the wasm
// benchmark also includes it directly to time Eigen's autovectorized path against the SIMD kernels.
#pragma once

#include <Eigen/Core>

namespace wolab {
namespace eigen_gemm {

template <class S>
using RowMat = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class S>
using MapC = Eigen::Map<const RowMat<S>>;
template <class S>
using Map = Eigen::Map<RowMat<S>>;

template <class S, class Product>
void assign(S* C, int M, int N, const Product& product, bool accumulate) {
  Map<S> c(C, M, N);
  if (accumulate)
    c.noalias() += product;
  else
    c.noalias() = product;
}

// C (M,N) = A (M,K) · B (K,N)
template <class S>
void matmul_nn(S* C, const S* A, const S* B, int M, int K, int N, bool accumulate) {
  assign(C, M, N, MapC<S>(A, M, K) * MapC<S>(B, K, N), accumulate);
}

// C (M,N) = A (M,K) · Bᵀ, B (N,K)
template <class S>
void matmul_nt(S* C, const S* A, const S* B, int M, int K, int N, bool accumulate) {
  assign(C, M, N, MapC<S>(A, M, K) * MapC<S>(B, N, K).transpose(), accumulate);
}

// C (M,N) = Aᵀ · B, A (K,M), B (K,N)
template <class S>
void matmul_tn(S* C, const S* A, const S* B, int M, int K, int N, bool accumulate) {
  assign(C, M, N, MapC<S>(A, K, M).transpose() * MapC<S>(B, K, N), accumulate);
}

}  // namespace eigen_gemm
}  // namespace wolab
