// GFLOP/s of the three matmul variants on the training shapes (B·T = 32·17 = 544 rows).
// In a wasm build it times both wolab's SIMD kernels and Eigen's autovectorized path (included
// here directly), natively Eigen alone (which is what wolab uses there).
// Each (shape, implementation) is first warmed up for a while, so that V8 has tiered the code up
// from its baseline compiler, then timed in batches; best and median batch are reported.
// Output: one tab-separated line per (shape, implementation), for scripts/bench_gemm.sh.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "nn/gemm.h"
#include "nn/gemm_eigen.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace {

enum class Variant { nn, nt, tn };
const char* const kVariantNames[] = {"nn", "nt", "tn"};

struct Shape {
  const char* what;  // which product of the training step this is
  Variant v;
  int M, K, N;
};

// d_model 64 / d_ff 256 (the default model) and d_model 256 / d_ff 1024; head is V = 12.
const Shape kShapes[] = {
    {"d64  qkv,W_o fwd", Variant::nt, 544, 64, 64},
    {"d64  fc1 fwd", Variant::nt, 544, 64, 256},
    {"d64  fc2 fwd", Variant::nt, 544, 256, 64},
    {"d64  head fwd", Variant::nt, 544, 64, 12},
    {"d64  qkv,W_o dx", Variant::nn, 544, 64, 64},
    {"d64  fc1 dx", Variant::nn, 544, 256, 64},
    {"d64  fc2 dx", Variant::nn, 544, 64, 256},
    {"d64  qkv,W_o dW", Variant::tn, 64, 544, 64},
    {"d64  fc1 dW", Variant::tn, 256, 544, 64},
    {"d64  fc2 dW", Variant::tn, 64, 544, 256},
    {"d256 qkv,W_o fwd", Variant::nt, 544, 256, 256},
    {"d256 fc1 fwd", Variant::nt, 544, 256, 1024},
    {"d256 fc2 fwd", Variant::nt, 544, 1024, 256},
    {"d256 fc1 dx", Variant::nn, 544, 1024, 256},
    {"d256 fc2 dx", Variant::nn, 544, 256, 1024},
    {"d256 qkv,W_o dW", Variant::tn, 256, 544, 256},
    {"d256 fc1 dW", Variant::tn, 1024, 544, 256},
};

using Gemm = void (*)(float*, const float*, const float*, int, int, int, bool);

Gemm wolab_gemm(Variant v) {
  switch (v) {
    case Variant::nn:
      return wolab::matmul_nn<float>;
    case Variant::nt:
      return wolab::matmul_nt<float>;
    default:
      return wolab::matmul_tn<float>;
  }
}

Gemm eigen_gemm(Variant v) {
  switch (v) {
    case Variant::nn:
      return wolab::eigen_gemm::matmul_nn<float>;
    case Variant::nt:
      return wolab::eigen_gemm::matmul_nt<float>;
    default:
      return wolab::eigen_gemm::matmul_tn<float>;
  }
}

double seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Timing {
  double best, median;  // GFLOP/s
};

// Warm up for `warmup` seconds, then time `batches` batches of calls of about 5 ms each.
Timing time_gemm(Gemm gemm, const Shape& s, float* C, const float* A, const float* B) {
  const double warmup = 0.25, batch = 0.005;
  const int batches = 40;
  const double flop = 2.0 * s.M * s.K * s.N;
  int calls = 0;
  for (double start = seconds(); seconds() - start < warmup; ++calls)
    gemm(C, A, B, s.M, s.K, s.N, false);
  const int per_batch = std::max(1, int(calls * batch / warmup));
  std::vector<double> rates;
  for (int b = 0; b < batches; ++b) {
    const double t0 = seconds();
    for (int i = 0; i < per_batch; ++i) gemm(C, A, B, s.M, s.K, s.N, false);
    rates.push_back(flop * per_batch / (seconds() - t0) / 1e9);
  }
  std::sort(rates.begin(), rates.end());
  return {rates.back(), rates[rates.size() / 2]};
}

#ifdef __wasm_simd128__
// The ceiling of the SIMD kernels (src/nn/gemm_wasm_simd.cpp): the micro-kernel's inner loop
// alone, with none of the blocking, packing, edge tiles or write-back around it. Per k: two
// f32x4 loads of B, five splat loads of A and ten independent mul+add pairs (128-bit SIMD has
// no FMA), over panels of 2.5 KB that stay in L1 and are reused, so nothing waits on memory and
// the loads go to the load ports, not the arithmetic ones. The ten accumulators carry over from
// pass to pass and are returned, so neither clang nor V8 can drop or fold the loop; ten
// accumulators + two B vectors + one A value + one product fit the 15 xmm registers V8
// allocates on x64, as in the kernel, so nothing spills. The depth is a run-time argument, as kc is
// in the kernel: a constant one lets clang unroll the k loop and hoist loads, which then spill.
constexpr int kCeilDepth = 64;  // k steps per pass over the panels
__attribute__((noinline)) float ceiling_loop(const float* Ap, const float* Bp, int depth,
                                             int passes) {
  v128_t acc[5][2];
  for (auto& row : acc)
    for (auto& a : row) a = wasm_f32x4_splat(0.0f);
  for (int p = 0; p < passes; ++p) {
    const float* a = Ap;
    const float* b = Bp;
    for (int k = 0; k < depth; ++k, a += 5, b += 8) {
      const v128_t b0 = wasm_v128_load(b), b1 = wasm_v128_load(b + 4);
      for (int i = 0; i < 5; ++i) {
        const v128_t ai = wasm_v128_load32_splat(a + i);
        acc[i][0] = wasm_f32x4_add(acc[i][0], wasm_f32x4_mul(ai, b0));
        acc[i][1] = wasm_f32x4_add(acc[i][1], wasm_f32x4_mul(ai, b1));
      }
    }
  }
  v128_t sum = wasm_f32x4_splat(0.0f);
  for (auto& row : acc)
    for (auto& a : row) sum = wasm_f32x4_add(sum, a);
  return wasm_f32x4_extract_lane(sum, 0) + wasm_f32x4_extract_lane(sum, 1) +
         wasm_f32x4_extract_lane(sum, 2) + wasm_f32x4_extract_lane(sum, 3);
}

// GFLOP/s of ceiling_loop, warmed up and timed in batches like the products.
Timing time_ceiling() {
  std::vector<float> A(kCeilDepth * 5), B(kCeilDepth * 8);
  for (size_t i = 0; i < A.size(); ++i) A[i] = std::sin(0.37f * float(i));
  for (size_t i = 0; i < B.size(); ++i) B[i] = std::cos(0.91f * float(i));
  const int passes = 1000;
  const double flop = 2.0 * 4 * 10 * kCeilDepth * passes;  // 10 f32x4 mul+add pairs per k
  volatile float sink = 0;  // the result is used: the loop must run
  const double warmup = 0.25, batch = 0.005;
  int calls = 0;
  for (double start = seconds(); seconds() - start < warmup; ++calls)
    sink = sink + ceiling_loop(A.data(), B.data(), kCeilDepth, passes);
  const int per_batch = std::max(1, int(calls * batch / warmup));
  std::vector<double> rates;
  for (int b = 0; b < 40; ++b) {
    const double t0 = seconds();
    for (int i = 0; i < per_batch; ++i) sink = sink + ceiling_loop(A.data(), B.data(), kCeilDepth, passes);
    rates.push_back(flop * per_batch / (seconds() - t0) / 1e9);
  }
  std::sort(rates.begin(), rates.end());
  return {rates.back(), rates[rates.size() / 2]};
}
#endif

}  // namespace

int main(int argc, char** argv) {
  const char* const only = argc > 1 ? argv[1] : "";  // run only shapes whose name contains this
#ifdef __EMSCRIPTEN__
#ifdef __wasm_simd128__
  const bool compare = true;  // wolab's float path is the SIMD kernels: time it against Eigen
  const char *const ours = "wasm_simd", *const eigen = "wasm_eigen";
#else
  const bool compare = false;
  const char *const ours = "", *const eigen = "wasm_scalar_eigen";
#endif
#else
  const bool compare = false;  // natively wolab's float path is Eigen itself
  const char *const ours = "", *const eigen = "native_eigen";
#endif
  std::printf("# what\tvariant\tM\tK\tN\timplementation\tbest_gflops\tmedian_gflops\n");
#ifdef __wasm_simd128__
  const Timing ceiling = time_ceiling();
  std::printf("ceiling\t-\t0\t0\t0\twasm_simd\t%.2f\t%.2f\n", ceiling.best, ceiling.median);
  std::fflush(stdout);
#endif
  for (const Shape& s : kShapes) {
    if (!std::strstr(s.what, only)) continue;
    std::vector<float> A(size_t(s.M) * s.K), B(size_t(s.K) * s.N), C(size_t(s.M) * s.N);
    std::vector<float> reference(C.size());
    for (size_t i = 0; i < A.size(); ++i) A[i] = std::sin(0.37f * float(i));
    for (size_t i = 0; i < B.size(); ++i) B[i] = std::cos(0.91f * float(i));
    auto report = [&](const char* impl, const Timing& t) {
      std::printf("%s\t%s\t%d\t%d\t%d\t%s\t%.2f\t%.2f\n", s.what, kVariantNames[int(s.v)], s.M, s.K,
                  s.N, impl, t.best, t.median);
      std::fflush(stdout);
    };
    report(eigen, time_gemm(eigen_gemm(s.v), s, reference.data(), A.data(), B.data()));
    if (!compare) continue;
    const Timing t = time_gemm(wolab_gemm(s.v), s, C.data(), A.data(), B.data());
    // A fast wrong answer is worth nothing: the timed kernels must agree with Eigen.
    double err = 0, mag = 0;
    for (size_t i = 0; i < C.size(); ++i) {
      err = std::max(err, double(std::abs(C[i] - reference[i])));
      mag = std::max(mag, double(std::abs(reference[i])));
    }
    if (err > 1e-5 * s.K * std::max(mag, 1.0)) {
      std::fprintf(stderr, "%s: SIMD result differs from Eigen by %g\n", s.what, err);
      return 1;
    }
    report(ours, t);
  }
  return 0;
}
