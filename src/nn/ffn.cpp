#include "nn/gemm.h"
#include "nn/layers.h"

namespace wolab {

template <class S>
void ffn_forward(S* out, S* h, S* a, const S* inp, const S* W1, const S* b1, const S* W2,
                 const S* b2, int N, int C, int F) {
  linear_forward(h, inp, W1, b1, N, C, F);
  // (the value is loaded once, before the select: with a load in each arm of the select,
  // clang leaves the loop scalar)
  for (int i = 0; i < N * F; i++) {
    const S x = h[i];
    a[i] = x > 0 ? x : S(0);
  }
  linear_forward(out, a, W2, b2, N, F, C);
}

template <class S>
void ffn_backward(S* dinp, S* dW1, S* db1, S* dW2, S* db2, S* dh, const S* dout, const S* inp,
                  const S* h, const S* a, const S* W1, const S* W2, int N, int C, int F) {
  for (int i = 0; i < N * F; i++) dh[i] = 0;
  linear_backward(dh, dW2, db2, dout, a, W2, N, F, C);  // dh holds dLoss/da here
  // ReLU's kink at 0 takes the subgradient 0, as PyTorch does (load, then select: as above)
  for (int i = 0; i < N * F; i++) {
    const S g = dh[i];
    dh[i] = h[i] > 0 ? g : S(0);
  }
  linear_backward(dinp, dW1, db1, dh, inp, W1, N, C, F);
}

#define WOLAB_INSTANTIATE(S)                                                                   \
  template void ffn_forward<S>(S*, S*, S*, const S*, const S*, const S*, const S*, const S*,   \
                               int, int, int);                                                 \
  template void ffn_backward<S>(S*, S*, S*, S*, S*, S*, const S*, const S*, const S*, const S*, \
                                const S*, const S*, int, int, int);
WOLAB_INSTANTIATE(float)
WOLAB_INSTANTIATE(double)

}  // namespace wolab
