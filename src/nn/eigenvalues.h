// Eigenvalues of a symmetric matrix, in plain double loops: the singular values that the probes
// and the run record report (src/run/probes.cpp) are the square roots of those of a Gram matrix.
// Eigen's SVDs did the same job, but they made run/probes.cpp the slowest file to compile by far
// (about a minute per build); these loops compile in a second and, using no libm function but
// sqrt (exact in IEEE), give the same bits natively and in wasm.
#pragma once

#include <vector>

namespace wolab {

// (n) eigenvalues, largest first, of the (n,n) row-major symmetric matrix a (only its lower
// triangle is read). Householder reduction to tridiagonal form, then bisection on Sturm counts,
// each eigenvalue to within a few ulps of the largest |eigenvalue|. A NaN or an infinity in
// the lower triangle gives NaN values.
std::vector<double> symmetric_eigenvalues(std::vector<double> a, int n);

}  // namespace wolab
