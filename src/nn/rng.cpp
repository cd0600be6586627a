#include "nn/rng.h"

#include <cmath>

namespace wolab {
namespace {

// log(x) for x > 0 from +, *, / only, so it rounds identically on every libm:
// x = m·2^e with m in [1/√2, √2), log(m) = 2·atanh(s), s = (m-1)/(m+1), |s| < 0.172.
double portable_log(double x) {
  int e = 0;
  double m = std::frexp(x, &e);  // exact
  if (m < 0.70710678118654752) {
    m *= 2;
    e -= 1;
  }
  const double s = (m - 1) / (m + 1), s2 = s * s;
  double term = s, sum = 0;
  for (int k = 1; k < 40; k += 2) {  // |s|^39 < 1e-29: past double precision
    sum += term / k;
    term *= s2;
  }
  return 2 * sum + e * 0.69314718055994530942;
}

}  // namespace

uint64_t Rng::next_u64() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

float Rng::uniform() { return static_cast<float>(next_u64() >> 40) * (1.0f / 16777216.0f); }

float Rng::uniform(float lo, float hi) { return lo + (hi - lo) * uniform(); }

float Rng::normal() {
  for (;;) {
    const double u = 2.0 * static_cast<double>(next_u64() >> 11) * 0x1p-53 - 1.0;
    const double v = 2.0 * static_cast<double>(next_u64() >> 11) * 0x1p-53 - 1.0;
    const double s = u * u + v * v;
    if (s > 0 && s < 1) return static_cast<float>(u * std::sqrt(-2.0 * portable_log(s) / s));
  }
}

int Rng::below(int n) { return static_cast<int>(next_u64() % static_cast<uint64_t>(n)); }

uint64_t stream_seed(uint64_t seed, std::string_view name) {
  uint64_t h = 0xCBF29CE484222325ull;  // FNV-1a
  for (unsigned char c : name) h = (h ^ c) * 0x100000001B3ull;
  Rng mix(seed ^ h);
  return mix.next_u64();
}

}  // namespace wolab
