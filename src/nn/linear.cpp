#include <algorithm>

#include "nn/gemm.h"
#include "nn/layers.h"

namespace wolab {

template <class S>
void linear_forward(S* out, const S* inp, const S* W, const S* b, int N, int C, int OC) {
  // Every row starts as the bias and the product accumulates onto it: one pass over `out`
  // fewer than adding the bias afterwards (and Eigen zeroes `out` before a product it assigns).
  if (b)
    for (int n = 0; n < N; n++) std::copy_n(b, OC, out + n * OC);
  matmul_nt(out, inp, W, N, C, OC, /*accumulate=*/b != nullptr);
}

template <class S>
void linear_backward(S* dinp, S* dW, S* db, const S* dout, const S* inp, const S* W, int N, int C,
                     int OC) {
  matmul_nn(dinp, dout, W, N, OC, C, /*accumulate=*/true);
  if (dW) matmul_tn(dW, dout, inp, OC, N, C, /*accumulate=*/true);
  if (db)
    for (int n = 0; n < N; n++)
      for (int o = 0; o < OC; o++) db[o] += dout[n * OC + o];
}

#define WOLAB_INSTANTIATE(S)                                                               \
  template void linear_forward<S>(S*, const S*, const S*, const S*, int, int, int);        \
  template void linear_backward<S>(S*, S*, S*, const S*, const S*, const S*, int, int, int);
WOLAB_INSTANTIATE(float)
WOLAB_INSTANTIATE(double)

}  // namespace wolab
