#include "nn/layers.h"

namespace wolab {

template <class S>
void scale_forward(S* out, const S* inp, const S* g, int n) {
  const S gain = *g;
  for (int i = 0; i < n; i++) out[i] = gain * inp[i];
}

template <class S>
void scale_backward(S* dinp, S* dg, const S* dout, const S* inp, const S* g, int n) {
  const S gain = *g;
  double sum = 0;  // dLoss/dg = Σ dout ⊙ inp, over every element: in double, then rounded once
  for (int i = 0; i < n; i++) {
    dinp[i] += gain * dout[i];
    sum += double(dout[i]) * double(inp[i]);
  }
  if (dg) *dg += static_cast<S>(sum);
}

#define WOLAB_INSTANTIATE(S)                                                   \
  template void scale_forward<S>(S*, const S*, const S*, int);                 \
  template void scale_backward<S>(S*, S*, const S*, const S*, const S*, int);
WOLAB_INSTANTIATE(float)
WOLAB_INSTANTIATE(double)

}  // namespace wolab
