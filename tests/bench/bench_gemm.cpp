// GFLOP/s of the three matmul variants on the training shapes (B·T = 32·17 = 544 rows), and on
// the task g2p's (B·T = 32·24 = 768 rows, a uniform batch's mean padded length; V = 68).
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
    // g2p (docs/g2p.md): words padded to the batch's longest, and the head's 68 tokens.
    {"g2p d64  qkv,W_o fwd", Variant::nt, 768, 64, 64},
    {"g2p d64  fc1 fwd", Variant::nt, 768, 64, 256},
    {"g2p d64  head fwd", Variant::nt, 768, 64, 68},
    {"g2p d64  head dx", Variant::nn, 768, 68, 64},
    {"g2p d64  head dW", Variant::tn, 68, 768, 64},
    {"g2p d256 head fwd", Variant::nt, 768, 256, 68},
    {"g2p d256 head dW", Variant::tn, 68, 768, 256},
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
// The ceiling of the SIMD kernels (src/nn/gemm_wasm_simd.cpp): the micro-kernel's loop alone,
// with none of the blocking, packing or edge tiles around it. Per k: two f32x4 loads of B, five
// splat loads of A and ten independent mul+add pairs (128-bit SIMD has no FMA), over panels of
// 13 KB that stay in L1 and are reused, so nothing waits on memory and the loads go to the load
// ports, not the arithmetic ones; ten accumulators + two B vectors + one A value + one product
// fit the 15 xmm registers V8 allocates on x64, so nothing spills. The accumulators are added
// into `out` (read after the timing), so neither clang nor V8 can drop the loop. One k loop per
// call, the depth a run-time argument, as in the kernel: with an outer repeat loop inside the
// function V8 ran it slower (register moves around the inner loop), and a constant depth
// lets clang unroll and hoist loads, which then spill.
constexpr int kCeilDepth = 256;  // k steps per call: the kernel's KC
__attribute__((noinline)) void ceiling_loop(float* out, const float* Ap, const float* Bp,
                                            int depth) {
  v128_t acc[5][2];
  for (auto& row : acc)
    for (auto& a : row) a = wasm_f32x4_splat(0.0f);
  for (int k = 0; k < depth; ++k, Ap += 5, Bp += 8) {
    const v128_t b0 = wasm_v128_load(Bp), b1 = wasm_v128_load(Bp + 4);
    for (int i = 0; i < 5; ++i) {
      const v128_t ai = wasm_v128_load32_splat(Ap + i);
      acc[i][0] = wasm_f32x4_add(acc[i][0], wasm_f32x4_mul(ai, b0));
      acc[i][1] = wasm_f32x4_add(acc[i][1], wasm_f32x4_mul(ai, b1));
    }
  }
  for (int i = 0; i < 5; ++i)
    for (int v = 0; v < 2; ++v)
      wasm_v128_store(out + 8 * i + 4 * v,
                      wasm_f32x4_add(wasm_v128_load(out + 8 * i + 4 * v), acc[i][v]));
}

// GFLOP/s of ceiling_loop, warmed up and timed in batches like the products.
Timing time_ceiling() {
  std::vector<float> A(kCeilDepth * 5), B(kCeilDepth * 8), out(5 * 8);
  for (size_t i = 0; i < A.size(); ++i) A[i] = std::sin(0.37f * float(i));
  for (size_t i = 0; i < B.size(); ++i) B[i] = std::cos(0.91f * float(i));
  volatile int depth = kCeilDepth;  // opaque to clang: no constant to unroll by
  const int calls_per_rep = 100;
  const double flop = 2.0 * 4 * 10 * kCeilDepth * calls_per_rep;  // 10 f32x4 mul+add pairs per k
  auto rep = [&] {
    for (int c = 0; c < calls_per_rep; ++c) ceiling_loop(out.data(), A.data(), B.data(), depth);
  };
  const double warmup = 0.25, batch = 0.005;
  int reps = 0;
  for (double start = seconds(); seconds() - start < warmup; ++reps) rep();
  const int per_batch = std::max(1, int(reps * batch / warmup));
  std::vector<double> rates;
  for (int b = 0; b < 40; ++b) {
    const double t0 = seconds();
    for (int i = 0; i < per_batch; ++i) rep();
    rates.push_back(flop * per_batch / (seconds() - t0) / 1e9);
  }
  volatile float sink = out[0];  // the result is used
  (void)sink;
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
#ifdef __wasm_simd128__
    // The ceiling right after each product, so that a row and its ceiling share the machine's
    // load of the moment (other work on the cores varies over a run).
    report("wasm_simd_ceiling", time_ceiling());
#endif
  }
  return 0;
}
