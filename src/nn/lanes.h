// Vectors of kAttentionLanes values, for attention's examples side by side (attention.cpp), and
// e^x lane by lane with each lane exactly std::exp's value.
#pragma once

#include <cmath>
#include <cstdint>
#include <utility>

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
// each lane rounds exactly as expf does; lanes near overflow or underflow (|x| ≥ 88, NaN) take
// expf itself. Natively std::exp stays: glibc's expf may fuse the multiply-adds.
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

template <size_t... L>
LaneVec<float> expf_table_lanes(LaneVec<float> x, std::index_sequence<L...>) {
  using namespace expf_data;
  typedef double D __attribute__((vector_size(kAttentionLanes * sizeof(double))));
  typedef uint64_t U __attribute__((vector_size(kAttentionLanes * sizeof(uint64_t))));
  const D xd = __builtin_convertvector(x, D);
  const D z = kInvLn2N * xd;  // x·32/ln 2 = k + r with r in [-1/2, 1/2] and an integer k
  D kd = z + kShift;          // rounds z to the integer k, in the low bits
  const U ki = reinterpret_cast<const U&>(kd);
  kd -= kShift;
  const D r = z - kd;
  const U t = U{kTable[ki[L] % 32]...} + (ki << 47);
  const D s = reinterpret_cast<const D&>(t);  // 2^(k/32)
  const D zc = kC0 * r + kC1;
  const D r2 = r * r;
  D y = kC2 * r + 1;
  y = zc * r2 + y;
  y = y * s;
  return __builtin_convertvector(y, LaneVec<float>);
}

template <class M, size_t... L>
bool any_lane(M m, std::index_sequence<L...>) {
  return ((m[L] != 0) | ...);
}

template <>
inline LaneVec<float> exp_lanes<float>(LaneVec<float> x) {
  typedef uint32_t U __attribute__((vector_size(kAttentionLanes * sizeof(uint32_t))));
  const U abstop = (reinterpret_cast<const U&>(x) >> 20) & 0x7ff;
  // abstop ≥ the top 12 bits of 88.0f: |x| ≥ 88, infinite or NaN
  return any_lane(abstop >= 0x42b, LaneIndex{}) ? exp_each<float>(x, LaneIndex{})
                                                 : expf_table_lanes(x, LaneIndex{});
}
#endif

}  // namespace wolab
