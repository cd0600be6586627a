// A random orthogonal matrix (the frozen_orthogonal W_o), from our own PRNG with plain double
// loops and no libm function but sqrt (exact in IEEE), so native and wasm build the same bits.
#pragma once

#include <vector>

#include "nn/rng.h"

namespace wolab {

// (d,d) row-major Q, Haar-distributed: Householder QR of a matrix of N(0,1) draws from `rng`,
// A = QR, with Q's columns flipped to make R's diagonal positive (the QR that is unique, as in
// torch.nn.init.orthogonal_). Every singular value is 1 up to double rounding.
std::vector<double> random_orthogonal(int d, Rng& rng);

}  // namespace wolab
