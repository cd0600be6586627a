#include "run/probes.h"

#include <algorithm>
#include <cmath>

#include "nn/eigenvalues.h"

namespace wolab {

SiteStats mean_std(const float* x, size_t n) {
  double sum = 0, sq = 0;
  for (size_t i = 0; i < n; i++) sum += x[i];
  const double mean = n ? sum / n : 0;
  for (size_t i = 0; i < n; i++) sq += (x[i] - mean) * (x[i] - mean);
  return {static_cast<float>(mean), static_cast<float>(n ? std::sqrt(sq / n) : 0)};
}

std::vector<float> head_block_norms(const float* x, int rows, int C, int H, const float* minus) {
  const int hs = C / H;
  std::vector<double> sq(H, 0.0);
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < C; c++) {
      const double v = double(x[r * C + c]) - (minus ? minus[r * C + c] : 0.0f);
      sq[c / hs] += v * v;
    }
  std::vector<float> out(H);
  for (int h = 0; h < H; h++) out[h] = static_cast<float>(std::sqrt(sq[h]));
  return out;
}

WoFigures wo_figures(const float* w, const float* w0, int C) {
  WoFigures f;
  int dominant = 0;
  double diag = 0, all = 0, diff = 0, base = 0;
  for (int i = 0; i < C; ++i) {
    double off = 0;
    for (int j = 0; j < C; ++j) {
      const double x = w[i * C + j];
      all += x * x;
      if (j == i) diag += x * x;
      else off += std::fabs(x);
      if (w0) {
        const double x0 = w0[i * C + j];
        diff += (x - x0) * (x - x0);
        base += x0 * x0;
      }
    }
    dominant += std::fabs(double(w[i * C + i])) >= off;
  }
  f.dominant_rows = double(dominant) / C;
  f.diagonal_energy = all > 0 ? diag / all * C : 0;
  f.change_from_init = !w0 ? std::nan("") : base > 0 ? std::sqrt(diff / base) : 0;
  return f;
}

namespace {

// sqrt of each eigenvalue (rounding can leave a zero one a little negative), largest first
std::vector<float> roots(const std::vector<double>& eigenvalues, int count) {
  std::vector<float> out(count);
  for (int i = 0; i < count; i++) out[i] = static_cast<float>(std::sqrt(std::max(eigenvalues[i], 0.0)));
  return out;
}

}  // namespace

std::vector<float> ov_singular_values(const float* wo, const float* wv, int C, int H, int h) {
  // With A = W_o[:, h cols] (C,hs) and B = W_v[h rows, :] (hs,C), the circuit's squared
  // singular values are the eigenvalues of (A·B)ᵀ(A·B), whose nonzero ones (rank ≤ hs) are
  // those of P·K, P = AᵀA and K = B·Bᵀ (hs,hs). With K = L·Lᵀ (Cholesky) they are those of the
  // symmetric Lᵀ·P·L (hs,hs): eig(X·Y) = eig(Y·X).
  const int hs = C / H;
  auto a = [&](int r, int c) { return wo ? double(wo[r * C + h * hs + c]) : double(r == h * hs + c); };
  auto b = [&](int r, int c) { return double(wv[(h * hs + r) * C + c]); };
  std::vector<double> P(hs * hs), K(hs * hs), L(hs * hs, 0.0), PL(hs * hs), T(hs * hs);
  for (int i = 0; i < hs; i++)
    for (int j = 0; j <= i; j++) {
      double p = 0, k = 0;
      for (int r = 0; r < C; r++) p += a(r, i) * a(r, j);
      for (int c = 0; c < C; c++) k += b(i, c) * b(j, c);
      P[i * hs + j] = P[j * hs + i] = p;
      K[i * hs + j] = k;
    }
  // Cholesky of the positive semi-definite K: a pivot that rounding leaves at or below zero
  // (a rank-deficient W_v block) gives a zero column, and K = L·Lᵀ still holds.
  for (int j = 0; j < hs; j++) {
    double pivot = K[j * hs + j];
    for (int k = 0; k < j; k++) pivot -= L[j * hs + k] * L[j * hs + k];
    if (!(pivot > 0)) continue;
    const double ljj = std::sqrt(pivot);
    L[j * hs + j] = ljj;
    for (int i = j + 1; i < hs; i++) {
      double s = K[i * hs + j];
      for (int k = 0; k < j; k++) s -= L[i * hs + k] * L[j * hs + k];
      L[i * hs + j] = s / ljj;
    }
  }
  for (int i = 0; i < hs; i++)  // PL = P·L
    for (int j = 0; j < hs; j++) {
      double s = 0;
      for (int k = j; k < hs; k++) s += P[i * hs + k] * L[k * hs + j];
      PL[i * hs + j] = s;
    }
  for (int i = 0; i < hs; i++)  // T = Lᵀ·(P·L), lower triangle
    for (int j = 0; j <= i; j++) {
      double s = 0;
      for (int k = i; k < hs; k++) s += L[k * hs + i] * PL[k * hs + j];
      T[i * hs + j] = s;
    }
  return roots(symmetric_eigenvalues(std::move(T), hs), hs);
}

std::vector<float> singular_values(const float* a, int n) {
  std::vector<double> gram(static_cast<size_t>(n) * n, 0.0);  // AᵀA, row by row of A
  for (int r = 0; r < n; r++) {
    const float* ar = a + static_cast<size_t>(r) * n;
    for (int i = 0; i < n; i++) {
      const double x = ar[i];
      double* gi = &gram[static_cast<size_t>(i) * n];
      for (int j = 0; j <= i; j++) gi[j] += x * ar[j];
    }
  }
  return roots(symmetric_eigenvalues(std::move(gram), n), n);
}

}  // namespace wolab
