// matmul_nn / matmul_nt / matmul_tn against a naive triple loop, for float and double, with and
// without accumulation, on shapes that hit every edge of the SIMD kernels' tiling (5x8 tiles,
// their 4-column and 1-to-4-row remainders, 256-deep K slices, 120-row and 256-column blocks). In
// the wasm build the float cases test the wasm_simd128 kernels, bit for bit against the ordered
// sum too; natively they test the Eigen path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "nn/gemm.h"

namespace {

enum class Variant { nn, nt, tn };

struct Shape {
  int M, K, N;
};

const Shape kShapes[] = {
    {1, 1, 1},     {3, 5, 7},       {17, 33, 9},  {4, 8, 8},     {5, 9, 9},
    {1, 300, 1},   {2, 1, 13},      {7, 0, 5},    {544, 64, 64}, {544, 256, 64},
    {64, 544, 64}, {130, 257, 263}, {129, 3, 17}, {33, 513, 31}, {8, 16, 300},
    {544, 64, 12},  // the head's N: a last panel of 4 columns, the SIMD kernels' half-width tile
};

// Deterministic values in [-1, 1) (the test must not depend on a library's RNG).
template <class S>
std::vector<S> random_values(size_t n, uint32_t seed) {
  std::vector<S> v(n);
  uint32_t s = seed * 2654435761u + 1;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = S(int32_t(s >> 8) - (1 << 23)) / S(1 << 23);
  }
  return v;
}

template <class S>
void run(Variant v, S* C, const S* A, const S* B, const Shape& s, bool acc) {
  switch (v) {
    case Variant::nn:
      return wolab::matmul_nn(C, A, B, s.M, s.K, s.N, acc);
    case Variant::nt:
      return wolab::matmul_nt(C, A, B, s.M, s.K, s.N, acc);
    case Variant::tn:
      return wolab::matmul_tn(C, A, B, s.M, s.K, s.N, acc);
  }
}

// Checks every element of C against a double-precision triple loop. The tolerance is the
// classic bound for a K-term dot product, (K+2)·u·(Σ|a·b| + |c0|), so it scales with the
// magnitude of the terms yet stays far below the size of one wrong or missing term.
template <class S>
void check(Variant v, const Shape& s, bool acc) {
  const double u = std::numeric_limits<S>::epsilon() / 2;
  // One extra leading element so the buffers are not 16-byte aligned, as slices of a larger
  // activation buffer need not be.
  std::vector<S> a = random_values<S>(1 + size_t(s.M) * s.K, 1);
  std::vector<S> b = random_values<S>(1 + size_t(s.K) * s.N, 2);
  std::vector<S> c0 =
      acc ? random_values<S>(1 + size_t(s.M) * s.N, 3)
          : std::vector<S>(1 + size_t(s.M) * s.N, std::numeric_limits<S>::quiet_NaN());
  c0[0] = std::numeric_limits<S>::quiet_NaN();
  std::vector<S> c = c0;
  const S* A = a.data() + 1;
  const S* B = b.data() + 1;
  run(v, c.data() + 1, A, B, s, acc);
  // Element (i,k) of the left factor and (k,j) of the right one, per variant's layout.
  auto left = [&](int i, int k) { return v == Variant::tn ? A[k * s.M + i] : A[i * s.K + k]; };
  auto right = [&](int k, int j) { return v == Variant::nt ? B[j * s.K + k] : B[k * s.N + j]; };
  int bad = 0;
  for (int i = 0; i < s.M; ++i)
    for (int j = 0; j < s.N; ++j) {
      const double start = acc ? double(c0[1 + i * s.N + j]) : 0.0;
      double ref = start, mag = std::abs(start);
      for (int k = 0; k < s.K; ++k) {
        ref += double(left(i, k)) * double(right(k, j));
        mag += std::abs(double(left(i, k)) * double(right(k, j)));
      }
      const double got = c[1 + i * s.N + j];
      const double tol = (s.K + 2) * u * mag + std::numeric_limits<S>::min();
      if (!(std::abs(got - ref) <= tol) && bad++ < 5)
        ADD_FAILURE() << "C(" << i << "," << j << ") = " << got << ", expected " << ref
                      << " (tolerance " << tol << ")";
    }
  EXPECT_EQ(bad, 0) << "wrong elements";
  EXPECT_TRUE(std::isnan(c[0])) << "wrote before C";
#ifdef __wasm_simd128__
  // The SIMD kernels sum each element in float over k in order, one 256-deep slice at a time,
  // each slice's sum added to C: the same bits whichever tile computes it (a full one or one
  // cut by an edge, 8 or 4 columns, 1 to 5 rows). Training results rest on this.
  if constexpr (std::is_same_v<S, float>) {
    int differ = 0;
    for (int i = 0; i < s.M; ++i)
      for (int j = 0; j < s.N; ++j) {
        float r = acc ? c0[1 + i * s.N + j] : 0.0f;
        for (int k0 = 0; k0 < s.K; k0 += 256) {
          float sum = 0;
          for (int k = k0; k < std::min(s.K, k0 + 256); ++k) sum += left(i, k) * right(k, j);
          r = r + sum;
        }
        const float got = c[1 + i * s.N + j];
        if (std::memcmp(&got, &r, sizeof r) != 0 && differ++ < 5)
          ADD_FAILURE() << "C(" << i << "," << j << ") = " << got << ", the ordered sum " << r;
      }
    EXPECT_EQ(differ, 0) << "elements not those of the ordered sum";
  }
#endif
}

template <class S>
void check_all(Variant v) {
  for (const Shape& s : kShapes)
    for (bool acc : {false, true}) {
      SCOPED_TRACE(testing::Message()
                   << s.M << "x" << s.K << "x" << s.N << (acc ? " accumulate" : " overwrite"));
      check<S>(v, s, acc);
    }
}

// Unsanitized (scripts/test.sh leaves tests so named out of the sanitized suite): natively these
// check Eigen's products, slow under ASan, while its wrappers run there in every training test.
TEST(Gemm, NnFloatUnsanitized) { check_all<float>(Variant::nn); }
TEST(Gemm, NtFloatUnsanitized) { check_all<float>(Variant::nt); }
TEST(Gemm, TnFloatUnsanitized) { check_all<float>(Variant::tn); }
TEST(Gemm, NnDoubleUnsanitized) { check_all<double>(Variant::nn); }
TEST(Gemm, NtDoubleUnsanitized) { check_all<double>(Variant::nt); }
TEST(Gemm, TnDoubleUnsanitized) { check_all<double>(Variant::tn); }

// The elements right after C must survive too: edge tiles write only their valid corner.
TEST(Gemm, LeavesMemoryAfterCUntouched) {
  const Shape s{5, 7, 11};
  std::vector<float> a = random_values<float>(s.M * s.K, 4), b = random_values<float>(s.K * s.N, 5);
  std::vector<float> c(s.M * s.N + 16, -7.0f);
  wolab::matmul_nn(c.data(), a.data(), b.data(), s.M, s.K, s.N);
  for (size_t i = s.M * s.N; i < c.size(); ++i) EXPECT_EQ(c[i], -7.0f) << "index " << i;
}

}  // namespace
