#include "nn/orthogonal.h"

#include <cmath>

namespace wolab {
namespace {

// m ← H m on rows k.. and columns j0.. of the (n,n) row-major m, for H = I - 2vvᵀ/vᵀv with v
// zero above row k. Row by row through w = vᵀm, so every loop runs along a row and no sum
// needs reordering to vectorize: the same bits with or without SIMD.
void reflect(std::vector<double>& m, const std::vector<double>& v, double vv, size_t k, size_t j0,
             size_t n, std::vector<double>& w) {  // m (n,n), v (n), w (n) scratch
  double* wj = w.data() + j0;
  const size_t len = n - j0;
  for (size_t j = 0; j < len; j++) wj[j] = 0;
  for (size_t i = k; i < n; i++) {
    const double vi = v[i];
    const double* row = m.data() + i * n + j0;
    for (size_t j = 0; j < len; j++) wj[j] += vi * row[j];
  }
  for (size_t i = k; i < n; i++) {
    const double f = 2 * v[i] / vv;
    double* row = m.data() + i * n + j0;
    for (size_t j = 0; j < len; j++) row[j] -= f * wj[j];
  }
}

}  // namespace

std::vector<double> random_orthogonal(int d, Rng& rng) {
  const size_t n = static_cast<size_t>(d);
  std::vector<double> a(n * n), p(n * n, 0.0), v(n), w(n), r_sign(n);  // (d,d), (d,d), (d) ×3
  for (double& x : a) x = rng.normal();
  for (size_t i = 0; i < n; i++) p[i * n + i] = 1;

  // Reflection k maps A's column k from the diagonal down onto e_k: H_k = I - 2vvᵀ/vᵀv with
  // v = x - αe_k and α = -sign(x₀)‖x‖ (the sign that avoids cancellation), so R_kk = α. The last
  // column needs none: its one entry is R's last diagonal value, so a 1×1 Q is exactly ±1.
  // P = H_{d-2} … H_0 accumulates Qᵀ, each H_k applied from the left like A's.
  for (size_t k = 0; k + 1 < n; k++) {
    double norm2 = 0;
    for (size_t i = k; i < n; i++) norm2 += a[i * n + k] * a[i * n + k];
    const double alpha = a[k * n + k] > 0 ? -std::sqrt(norm2) : std::sqrt(norm2);
    for (size_t i = k; i < n; i++) v[i] = a[i * n + k];
    v[k] -= alpha;
    double vv = 0;
    for (size_t i = k; i < n; i++) vv += v[i] * v[i];
    r_sign[k] = alpha < 0 ? -1.0 : 1.0;
    if (vv == 0) continue;  // x = 0 (probability 0): nothing to reflect
    reflect(a, v, vv, k, k, n, w);
    reflect(p, v, vv, k, 0, n, w);
  }
  if (n > 0) r_sign[n - 1] = a[n * n - 1] < 0 ? -1.0 : 1.0;
  // Q·diag(sign R_kk) with Q = Pᵀ: the factorization whose R has a positive diagonal (unique)
  std::vector<double> q(n * n);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) q[i * n + j] = p[j * n + i] * r_sign[j];
  return q;
}

}  // namespace wolab
