// Vectors of kAttentionLanes values, for attention's examples side by side (attention.cpp), and
// e^x lane by lane with each lane exactly std::exp's value (attention's and the loss's softmax).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>
#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

#include "nn/layers.h"

namespace wolab {

// kAttentionLanes values of S, aligned as S is (the buffers are arrays of S), as immintrin.h's
// __m128_u. A template deducing its type from a LaneVec<S>* would get the vector's own alignment
// instead, so code names LaneVec<S> and takes S.
template <class S>
struct LaneTypes {
  typedef S aligned_type __attribute__((vector_size(kAttentionLanes * sizeof(S))));
  typedef aligned_type type __attribute__((aligned(sizeof(S))));
};
template <class S>
using LaneVec = typename LaneTypes<S>::type;

// Lanes are named by constants (std::index_sequence): a lane picked by a variable index goes
// through memory in wasm, where a store of lanes and a load of the vector stall.
using LaneIndex = std::make_index_sequence<kAttentionLanes>;

template <class S, size_t... L>
LaneVec<S> exp_each(LaneVec<S> x, std::index_sequence<L...>) {
  return LaneVec<S>{std::exp(x[L])...};
}

// e^x lane by lane: std::exp of each lane, bit for bit.
template <class S>
LaneVec<S> exp_lanes(LaneVec<S> x) {
  return exp_each<S>(x, LaneIndex{});
}

#ifdef __wasm_simd128__
// In wasm, std::exp of a float is musl's expf (src/math/expf.c, from Arm's optimized-routines:
// e^x = 2^(k/32) · 2^(r/32), the first from a 32-entry table, the second a cubic, all in double).
// This is that function four lanes at a time, operation for operation and with its constants, so
// each lane rounds exactly as expf does; when a lane is near overflow or underflow (|x| ≥ 88,
// NaN), the four take expf itself. Natively std::exp stays: glibc's expf may fuse the multiply-adds.
namespace expf_data {
constexpr uint64_t kTable[32] = {
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
    0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
    0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
    0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
    0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
    0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
    0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
};  // tab[i] = bits of 2^(i/32) - (i << 47)
constexpr double kShift = 0x1.8p+52, kInvLn2N = 0x1.71547652b82fep+0 * 32;
constexpr double kC0 = 0x1.c6af84b912394p-5 / 32 / 32 / 32, kC1 = 0x1.ebfce50fac4f3p-3 / 32 / 32,
                 kC2 = 0x1.62e42ff0c52d6p-1 / 32;
}  // namespace expf_data

// Two lanes of expf, in double: musl's steps, in its order.
inline v128_t expf_pair(v128_t xd) {
  using namespace expf_data;
  const v128_t z = wasm_f64x2_mul(wasm_f64x2_splat(kInvLn2N), xd);  // x·32/ln 2 = k + r
  const v128_t ki = wasm_f64x2_add(z, wasm_f64x2_splat(kShift));  // k, in the low bits
  const v128_t kd = wasm_f64x2_sub(ki, wasm_f64x2_splat(kShift));
  const v128_t r = wasm_f64x2_sub(z, kd);  // in [-1/2, 1/2]
  v128_t t = wasm_i64x2_make(kTable[static_cast<uint64_t>(wasm_i64x2_extract_lane(ki, 0)) % 32],
                             kTable[static_cast<uint64_t>(wasm_i64x2_extract_lane(ki, 1)) % 32]);
  t = wasm_i64x2_add(t, wasm_i64x2_shl(ki, 47));  // the bits of s = 2^(k/32)
  const v128_t zc = wasm_f64x2_add(wasm_f64x2_mul(wasm_f64x2_splat(kC0), r), wasm_f64x2_splat(kC1));
  const v128_t r2 = wasm_f64x2_mul(r, r);
  v128_t y = wasm_f64x2_add(wasm_f64x2_mul(wasm_f64x2_splat(kC2), r), wasm_f64x2_splat(1.0));
  y = wasm_f64x2_add(wasm_f64x2_mul(zc, r2), y);
  return wasm_f64x2_mul(y, t);
}

static_assert(kAttentionLanes == 4, "exp_lanes<float> is one f32x4");

template <>
inline LaneVec<float> exp_lanes<float>(LaneVec<float> x) {
  v128_t v;
  std::memcpy(&v, &x, sizeof v);
  // the top 12 bits of |x| at least 88.0f's: |x| ≥ 88, infinite or NaN
  const v128_t abstop = wasm_v128_and(wasm_u32x4_shr(v, 20), wasm_i32x4_splat(0x7ff));
  if (wasm_v128_any_true(wasm_u32x4_ge(abstop, wasm_i32x4_splat(0x42b))))
    return exp_each<float>(x, LaneIndex{});
  const v128_t lo = expf_pair(wasm_f64x2_promote_low_f32x4(v));
  const v128_t hi = expf_pair(wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(v, v, 2, 3, 2, 3)));
  const v128_t y = wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(lo),
                                      wasm_f32x4_demote_f64x2_zero(hi), 0, 1, 4, 5);
  std::memcpy(&x, &y, sizeof x);
  return x;
}
#endif

}  // namespace wolab
