#include "nn/eigenvalues.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace wolab {
namespace {

// Householder reduction of the symmetric (n,n) a, both triangles kept, to a tridiagonal matrix
// with diagonal d (n) and off-diagonal e (n-1; e[i] couples i and i+1). Row i's reflector
// P = I - u·uᵀ/h zeroes a[i][0..i-2]; the leading (i,i) block becomes P·A·P = A - u·qᵀ - q·uᵀ
// with p = A·u/h, K = uᵀp/(2h), q = p - K·u (Golub and Van Loan, 8.3.1).
void tridiagonalize(std::vector<double>& a, int n, std::vector<double>& d, std::vector<double>& e) {
  std::vector<double> u(n), q(n);
  for (int i = n - 1; i >= 2; --i) {
    const int m = i;  // the leading block is (m,m): rows and columns 0..i-1
    const double* ai = &a[static_cast<size_t>(i) * n];
    double scale = 0;
    for (int k = 0; k < m; ++k) scale += std::fabs(ai[k]);
    if (scale == 0) {  // nothing to zero in this row
      e[i - 1] = 0;
      continue;
    }
    double h = 0;
    for (int k = 0; k < m; ++k) {
      u[k] = ai[k] / scale;
      h += u[k] * u[k];
    }
    const double f = u[m - 1];
    const double g = f >= 0 ? -std::sqrt(h) : std::sqrt(h);
    e[i - 1] = scale * g;
    h -= f * g;
    u[m - 1] = f - g;
    double K = 0;
    for (int j = 0; j < m; ++j) {
      const double* aj = &a[static_cast<size_t>(j) * n];
      double p = 0;
      for (int k = 0; k < m; ++k) p += aj[k] * u[k];
      q[j] = p / h;
      K += u[j] * q[j];
    }
    K /= 2 * h;
    for (int j = 0; j < m; ++j) q[j] -= K * u[j];
    for (int j = 0; j < m; ++j) {
      double* aj = &a[static_cast<size_t>(j) * n];
      for (int k = 0; k < m; ++k) aj[k] -= u[j] * q[k] + q[j] * u[k];
    }
  }
  if (n >= 2) e[0] = a[n];  // a[1][0]
  for (int i = 0; i < n; ++i) d[i] = a[static_cast<size_t>(i) * n + i];
}

// How many eigenvalues of the tridiagonal (d, e) are below x: the negative pivots of the LDLᵀ
// factorization of T - x·I (Sylvester's law of inertia). A zero pivot is nudged off zero.
int count_below(const std::vector<double>& d, const std::vector<double>& e, double x, double tiny) {
  int count = 0;
  double pivot = 1;
  for (size_t i = 0; i < d.size(); ++i) {
    pivot = d[i] - x - (i ? e[i - 1] * e[i - 1] / pivot : 0.0);
    if (std::fabs(pivot) < tiny) pivot = -tiny;
    count += pivot < 0;
  }
  return count;
}

}  // namespace

std::vector<double> symmetric_eigenvalues(std::vector<double> a, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j)
      if (!std::isfinite(a[static_cast<size_t>(i) * n + j]))
        return std::vector<double>(n, std::numeric_limits<double>::quiet_NaN());
  for (int i = 0; i < n; ++i)  // the lower triangle is the matrix: mirror it
    for (int j = i + 1; j < n; ++j) a[static_cast<size_t>(i) * n + j] = a[static_cast<size_t>(j) * n + i];
  std::vector<double> d(n), e(std::max(n - 1, 0)), out(n);
  tridiagonalize(a, n, d, e);
  // Gershgorin bounds every eigenvalue in [lo, hi]
  double lo = 0, hi = 0, norm = 0;
  for (int i = 0; i < n; ++i) {
    const double r = (i ? std::fabs(e[i - 1]) : 0) + (i + 1 < n ? std::fabs(e[i]) : 0);
    lo = std::min(lo, d[i] - r);
    hi = std::max(hi, d[i] + r);
    norm = std::max(norm, std::fabs(d[i]) + r);
  }
  const double eps = std::numeric_limits<double>::epsilon();
  const double tiny = std::max(norm * eps * eps, std::numeric_limits<double>::min());
  // The k-th largest eigenvalue is the x where count_below passes n - k: bisect for each k.
  // Each halving is exact until the interval is a few ulps of the norm wide; 200 halvings bound
  // the loop whatever the input.
  for (int k = 0; k < n; ++k) {
    double a_lo = lo, a_hi = hi;
    for (int it = 0; it < 200 && a_hi - a_lo > 4 * eps * norm; ++it) {
      const double mid = 0.5 * (a_lo + a_hi);
      if (count_below(d, e, mid, tiny) > n - 1 - k) a_hi = mid; else a_lo = mid;
    }
    out[k] = 0.5 * (a_lo + a_hi);
  }
  return out;
}

}  // namespace wolab
