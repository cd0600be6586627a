// Our own PRNG and distributions. std:: distributions differ between libstdc++ (native) and
// libc++ (Emscripten), and libm's log differs in the last bit between glibc and musl, so init and
// data use only this file: the same seed gives bit-identical weights and batches everywhere.
#pragma once

#include <cstdint>
#include <string_view>

namespace wolab {

// splitmix64: tiny, fast, passes BigCrush, and any 64-bit seed is a good state.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next_u64();
  float uniform();                      // [0, 1) with 24 random bits
  float uniform(float lo, float hi);    // [lo, hi)
  float normal();                       // N(0, 1), Marsaglia's polar method
  int below(int n);                     // uniform integer in [0, n)
  uint64_t state() const { return state_; }

 private:
  uint64_t state_;
};

// A seed for an independent stream named `name` (a parameter, "data", ...) of run `seed`:
// streams keyed by name keep every W_o variant's other weights identical for one seed.
uint64_t stream_seed(uint64_t seed, std::string_view name);

}  // namespace wolab
