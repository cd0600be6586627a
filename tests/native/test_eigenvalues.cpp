// symmetric_eigenvalues and the singular values built on it, on matrices whose spectrum is
// known by construction: Q·diag(λ)·Qᵀ and Q1·diag(σ)·Q2ᵀ with random orthogonal Q.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "nn/eigenvalues.h"
#include "nn/orthogonal.h"
#include "run/probes.h"

namespace wolab {
namespace {

// (d,d) row-major Q·diag(v)·Rᵀ
std::vector<double> compose(const std::vector<double>& q, const std::vector<double>& v,
                            const std::vector<double>& r, int d) {
  std::vector<double> m(static_cast<size_t>(d) * d, 0.0);
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d; j++)
      for (int k = 0; k < d; k++) m[i * d + j] += q[i * d + k] * v[k] * r[j * d + k];
  return m;
}

std::vector<double> spectrum(int d, uint64_t seed) {  // spread, with a repeat, negatives, a zero
  Rng rng(seed);
  std::vector<double> v(d);
  for (int i = 0; i < d; i++) v[i] = 4 * rng.uniform() - 2;
  if (d >= 3) v[2] = v[1];
  if (d >= 4) v[3] = 0;
  return v;
}

TEST(Eigenvalues, OfQDiagQtAreTheDiagonalLargestFirst) {
  for (int d : {1, 2, 3, 4, 7, 16, 37, 65}) {
    Rng rng(10 + d);
    const std::vector<double> q = random_orthogonal(d, rng);
    std::vector<double> v = spectrum(d, d);
    const std::vector<double> got = symmetric_eigenvalues(compose(q, v, q, d), d);
    std::sort(v.rbegin(), v.rend());
    ASSERT_EQ(got.size(), v.size());
    for (int i = 0; i < d; i++) EXPECT_NEAR(got[i], v[i], 1e-12) << "d " << d << " i " << i;
  }
}

TEST(Eigenvalues, ReadOnlyTheLowerTriangle) {
  // diag(1, 2) with garbage above the diagonal: the matrix is its lower triangle, mirrored
  const std::vector<double> got = symmetric_eigenvalues({1, 99, 0, 2}, 2);
  EXPECT_NEAR(got[0], 2, 1e-14);
  EXPECT_NEAR(got[1], 1, 1e-14);
}

TEST(Eigenvalues, ZeroDiagonalAndEmptyMatrices) {
  EXPECT_EQ(symmetric_eigenvalues(std::vector<double>(9, 0.0), 3), std::vector<double>(3, 0.0));
  const std::vector<double> diagonal = symmetric_eigenvalues({3, 0, 0, 0, -1, 0, 0, 0, 2}, 3);
  EXPECT_NEAR(diagonal[0], 3, 1e-14);
  EXPECT_NEAR(diagonal[1], 2, 1e-14);
  EXPECT_NEAR(diagonal[2], -1, 1e-14);
  EXPECT_TRUE(symmetric_eigenvalues({}, 0).empty());
}

TEST(Eigenvalues, NonFiniteInputGivesNaNAndReturns) {
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    std::vector<double> a(16, 1.0);
    a[5] = bad;
    for (double x : symmetric_eigenvalues(a, 4)) EXPECT_TRUE(std::isnan(x));
  }
}

TEST(SingularValues, OfQ1DiagQ2tAreTheDiagonal) {
  for (int d : {1, 3, 16, 64}) {
    Rng rng(20 + d);
    const std::vector<double> q1 = random_orthogonal(d, rng), q2 = random_orthogonal(d, rng);
    std::vector<double> s = spectrum(d, 30 + d);
    for (double& x : s) x = std::fabs(x) + 0.1;  // well away from zero: float input
    const std::vector<double> m = compose(q1, s, q2, d);
    const std::vector<float> f(m.begin(), m.end());
    const std::vector<float> got = singular_values(f.data(), d);
    std::sort(s.rbegin(), s.rend());
    for (int i = 0; i < d; i++) EXPECT_NEAR(got[i], s[i], 1e-5) << "d " << d << " i " << i;
  }
}

TEST(SingularValues, OvCircuitOfARankDeficientValueBlock) {
  // C 4, 2 heads of width 2; head 0's W_v rows are equal, so its circuit has rank 1 and its
  // second singular value is 0 (a zero Cholesky pivot), up to the sqrt of the eigenvalues
  // precision; W_o = I: σ are those of the rows
  const int C = 4, H = 2;
  const std::vector<float> wv = {1, 2, 0, 2,  1, 2, 0, 2,  0, 0, 3, 0,  0, 0, 0, 4};
  const std::vector<float> head0 = ov_singular_values(nullptr, wv.data(), C, H, 0);
  EXPECT_NEAR(head0[0], std::sqrt(2.0 * 9), 1e-6);  // ‖(1,2,0,2)‖·√2
  EXPECT_NEAR(head0[1], 0, 1e-6);
  const std::vector<float> head1 = ov_singular_values(nullptr, wv.data(), C, H, 1);
  EXPECT_NEAR(head1[0], 4, 1e-6);
  EXPECT_NEAR(head1[1], 3, 1e-6);
}

}  // namespace
}  // namespace wolab
