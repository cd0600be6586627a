#include "probes.h"

#include "eigen.h"
#include <cmath>

namespace wolab {

SiteStats mean_std(const float* x, size_t n) {
  double sum = 0, sq = 0;
  for (size_t i = 0; i < n; i++) sum += x[i];
  const double mean = n ? sum / n : 0;
  for (size_t i = 0; i < n; i++) sq += (x[i] - mean) * (x[i] - mean);
  return {static_cast<float>(mean), static_cast<float>(n ? std::sqrt(sq / n) : 0)};
}

std::vector<float> head_block_norms(const float* x, int rows, int C, int H) {
  const int hs = C / H;
  std::vector<double> sq(H, 0.0);
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < C; c++) sq[c / hs] += double(x[r * C + c]) * x[r * C + c];
  std::vector<float> out(H);
  for (int h = 0; h < H; h++) out[h] = static_cast<float>(std::sqrt(sq[h]));
  return out;
}

std::vector<float> ov_singular_values(const float* wo, const float* wv, int C, int H, int h) {
  using Mat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const int hs = C / H;
  Mat wo_h(C, hs), wv_h(hs, C);  // W_o[:, h cols] (C,hs) and W_v[h rows, :] (hs,C)
  for (int r = 0; r < C; r++)
    for (int c = 0; c < hs; c++) wo_h(r, c) = wo ? wo[r * C + h * hs + c] : (r == h * hs + c);
  for (int r = 0; r < hs; r++)
    for (int c = 0; c < C; c++) wv_h(r, c) = wv[(h * hs + r) * C + c];
  // rank ≤ d_k, so only the first d_k singular values can be nonzero
  Eigen::JacobiSVD<Mat> svd(wo_h * wv_h);
  std::vector<float> out(hs);
  for (int i = 0; i < hs; i++) out[i] = static_cast<float>(svd.singularValues()(i));
  return out;
}

std::vector<float> singular_values(const float* a, int n) {
  using Mat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Mat m(n, n);
  for (int r = 0; r < n; r++)
    for (int c = 0; c < n; c++) m(r, c) = a[r * n + c];
  Eigen::BDCSVD<Mat> svd(m);  // values only; divide and conquer, for W_o up to 1024 wide
  std::vector<float> out(n);
  for (int i = 0; i < n; i++) out[i] = static_cast<float>(svd.singularValues()(i));
  return out;
}

}  // namespace wolab
