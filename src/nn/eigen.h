// Eigen, for every file of the core that uses it. GCC 12 reports false -Wmaybe-uninitialized
// inside its AVX-512 intrinsics wherever Eigen's kernels inline them (GCC bug 105593); the
// warning is judged where the intrinsics header is first read, which is here.
#pragma once

#pragma GCC diagnostic push
#ifndef __clang__  // clang has no such warning and would warn of an unknown one
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <Eigen/Core>
#pragma GCC diagnostic pop
