#include "nn/layers.h"

namespace wolab {

template <class S>
void block_diagonal_forward(S* out, const S* inp, const S* W, const S* b, int N, int C) {
  linear_forward(out, inp, W, b, N, C, C);
}

template <class S>
void block_diagonal_backward(S* dinp, S* dW, S* db, const S* dout, const S* inp, const S* W, int N,
                             int C, int H) {
  // dinp through W as it is: its zeros pass nothing between heads
  linear_backward(dinp, dW, db, dout, inp, W, N, C, C);
  if (dW) zero_between_heads(dW, C, H);
}

template <class S>
void zero_between_heads(S* W, int C, int H) {
  const int dk = C / H;
  for (int r = 0; r < C; r++)
    for (int c = 0; c < C; c++)
      if (r / dk != c / dk) W[r * C + c] = S(0);
}

#define WOLAB_INSTANTIATE(S)                                                                        \
  template void block_diagonal_forward<S>(S*, const S*, const S*, const S*, int, int);              \
  template void block_diagonal_backward<S>(S*, S*, S*, const S*, const S*, const S*, int, int, int); \
  template void zero_between_heads<S>(S*, int, int);
WOLAB_INSTANTIATE(float)
WOLAB_INSTANTIATE(double)

}  // namespace wolab
