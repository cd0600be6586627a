// Measurements of W_o and of the activations around it (the article's experiments 3 and 4).
#pragma once

#include <cstddef>
#include <vector>

#include "run/trainer.h"

namespace wolab {

// Mean and (population) standard deviation of n values, accumulated in double.
SiteStats mean_std(const float* x, size_t n);

// (H) Frobenius norm of each head's block of columns x[:, h·d_k .. (h+1)·d_k) of x (rows,C),
// or of x − minus (rows,C) when minus is given. Of W_o (C,C, PyTorch layout (out, in)): how
// strongly W_o reads each head (the record's head_norms), and, less its step-0 value, how far
// that has moved (head_change_norms). Of the gradient at the concat (N,C): how much learning
// signal reaches each head (the article's "valve").
std::vector<float> head_block_norms(const float* x, int rows, int C, int H, const float* minus = nullptr);

// What claim 5 reads of one W_o snapshot w (C,C), row-major (out, in), in double:
//   dominant_rows    share of rows with |w_ii| >= sum over j != i of |w_ij| (diagonal dominance);
//   diagonal_energy  the diagonal's share of ||w||²_F times C: 1 for a matrix with no preference
//                    for its diagonal (whose share is 1/C), C for a diagonal one;
//   change_from_init ||w − w0||_F / ||w0||_F against w0 (C,C), the layer's W_o at step 0; NaN
//                    without w0.
// The record carries them beside each snapshot, so that the analysis reads the same figures
// whether or not the snapshot's matrix travels with the record (lab/wo_files.h).
struct WoFigures {
  double dominant_rows = 0, diagonal_energy = 0, change_from_init = 0;
};
WoFigures wo_figures(const float* w, const float* w0, int C);

// (d_k) singular values, largest first, of head h's OV circuit W_o[:, h cols] · W_v[h rows, :],
// the (C,C) map from the residual stream through that head's values to the attention output.
// wo may be null (identity mode: W_o = I).
std::vector<float> ov_singular_values(const float* wo, const float* wv, int C, int H, int h);

// (n) singular values, largest first, of the (n,n) matrix a (row-major).
std::vector<float> singular_values(const float* a, int n);

}  // namespace wolab
