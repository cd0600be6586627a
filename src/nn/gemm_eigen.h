// The three matrix products through Eigen's GEMM on row-major buffers. This is the whole
// implementation natively (where -march=native gives Eigen AVX2+FMA or AVX-512) and for double;
// the wasm benchmark also includes it directly to time Eigen's autovectorized path against the
// SIMD kernels.
//
// Eigen's product expressions allocate their packing buffers in every call (on the heap once
// they pass 128 KB, as most training shapes do), so these call Eigen's blocked GEMM one level
// down, with a blocking whose buffers persist: a training step then allocates nothing.
#pragma once

#include <algorithm>
#include <vector>

#include "nn/eigen.h"
#include "nn/gemm.h"

namespace wolab {
namespace eigen_gemm {

using Eigen::Index;

// Eigen's cache blocking of a product (kc, mc, nc as its own product expressions choose them)
// over packing buffers kept per thread and grown to the largest product seen. It extends
// Eigen's internal level3_blocking, as Eigen's own gemm_blocking_space does (Eigen 3.4).
template <class S>
class PersistentBlocking : public Eigen::internal::level3_blocking<S, S> {
 public:
  // For Eigen's column-major product of (rows, depth)·(depth, cols).
  PersistentBlocking(Index rows, Index cols, Index depth) {
    Index kc = depth, mc = rows, nc = cols;
    Eigen::internal::computeProductBlockingSizes<S, S, 1>(kc, mc, nc);
    kc = std::min<Index>(kc, kMaxPackedDepth);  // so that matmul_workspace bounds the buffers
    this->m_kc = kc;
    this->m_mc = mc;
    this->m_nc = nc;
    // The packed B block starts on a boundary of Eigen's widest aligned load.
    constexpr Index align = std::max<Index>(1, EIGEN_MAX_ALIGN_BYTES / sizeof(S));
    const Index size_a = (kc * mc + align - 1) / align * align;
    const size_t size = static_cast<size_t>(size_a + kc * nc);
    thread_local std::vector<S, Eigen::aligned_allocator<S>> buffer;  // (size_a + size_b)
    if (buffer.size() < size) {
      buffer = {};  // freed first, then sized exactly: never two buffers, never a doubling
      buffer.resize(size);
    }
    this->m_blockA = buffer.data();
    this->m_blockB = buffer.data() + size_a;
  }
};

// C (M,N) (+)= op(A)·op(B) with op(A) (M,K) and op(B) (K,N) as Eigen sees them: storage order
// and leading dimension of each operand's buffer.
template <class S, int AOrder, int BOrder>
void gemm(S* C, const S* A, Index lda, const S* B, Index ldb, int M, int K, int N,
          bool accumulate) {
  if (!accumulate) std::fill(C, C + Index(M) * N, S(0));
  if (M == 0 || N == 0 || K == 0) return;  // (Eigen's blocking assumes a product)
  // A row-major C is computed as the column-major Cᵀ = op(B)ᵀ·op(A)ᵀ: (N,K)·(K,M).
  PersistentBlocking<S> blocking(N, M, K);
  Eigen::internal::general_matrix_matrix_product<Index, S, AOrder, false, S, BOrder, false,
                                                 Eigen::RowMajor, 1>::run(M, N, K, A, lda, B, ldb,
                                                                          C, 1, N, S(1), blocking);
}

// C (M,N) = A (M,K) · B (K,N)
template <class S>
void matmul_nn(S* C, const S* A, const S* B, int M, int K, int N, bool accumulate) {
  gemm<S, Eigen::RowMajor, Eigen::RowMajor>(C, A, K, B, N, M, K, N, accumulate);
}

// C (M,N) = A (M,K) · Bᵀ, B (N,K): Bᵀ is B's buffer read column-major
template <class S>
void matmul_nt(S* C, const S* A, const S* B, int M, int K, int N, bool accumulate) {
  gemm<S, Eigen::RowMajor, Eigen::ColMajor>(C, A, K, B, K, M, K, N, accumulate);
}

// C (M,N) = Aᵀ · B, A (K,M), B (K,N): Aᵀ is A's buffer read column-major
template <class S>
void matmul_tn(S* C, const S* A, const S* B, int M, int K, int N, bool accumulate) {
  gemm<S, Eigen::ColMajor, Eigen::RowMajor>(C, A, M, B, N, M, K, N, accumulate);
}

}  // namespace eigen_gemm
}  // namespace wolab
