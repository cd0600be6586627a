// Dispatcher: float products go to the WASM SIMD kernels when compiled with -msimd128 (Eigen
// has no wasm packet math, only autovectorization), everything else to Eigen.
#include "nn/gemm.h"

#include <type_traits>

#include "nn/gemm_eigen.h"
#include "nn/gemm_wasm_simd.h"

namespace wolab {
namespace {

#ifdef __wasm_simd128__
constexpr bool kWasmSimd = true;
#else
constexpr bool kWasmSimd = false;
#endif
template <class S>
constexpr bool use_simd = kWasmSimd&& std::is_same_v<S, float>;

}  // namespace

template <class S>
void matmul_nn(S* C, const S* A, const S* B, int M, int K, int N, bool accumulate) {
  if constexpr (use_simd<S>)
    sgemm_wasm_simd(C, A, B, M, K, N, false, false, accumulate);
  else
    eigen_gemm::matmul_nn(C, A, B, M, K, N, accumulate);
}

template <class S>
void matmul_nt(S* C, const S* A, const S* B, int M, int K, int N, bool accumulate) {
  if constexpr (use_simd<S>)
    sgemm_wasm_simd(C, A, B, M, K, N, false, true, accumulate);
  else
    eigen_gemm::matmul_nt(C, A, B, M, K, N, accumulate);
}

template <class S>
void matmul_tn(S* C, const S* A, const S* B, int M, int K, int N, bool accumulate) {
  if constexpr (use_simd<S>)
    sgemm_wasm_simd(C, A, B, M, K, N, true, false, accumulate);
  else
    eigen_gemm::matmul_tn(C, A, B, M, K, N, accumulate);
}

template void matmul_nn<float>(float*, const float*, const float*, int, int, int, bool);
template void matmul_nt<float>(float*, const float*, const float*, int, int, int, bool);
template void matmul_tn<float>(float*, const float*, const float*, int, int, int, bool);
template void matmul_nn<double>(double*, const double*, const double*, int, int, int, bool);
template void matmul_nt<double>(double*, const double*, const double*, int, int, int, bool);
template void matmul_tn<double>(double*, const double*, const double*, int, int, int, bool);

}  // namespace wolab
