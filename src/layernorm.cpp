#include <cmath>

#include "layers.h"

namespace wolab {

template <class S>
void layernorm_forward(S* out, S* mean, S* rstd, const S* inp, const S* w, const S* b, int N,
                       int C) {
  const S eps = S(1e-5);
  for (int n = 0; n < N; n++) {
    const S* x = inp + n * C;
    S m = 0;
    for (int c = 0; c < C; c++) m += x[c];
    m /= C;
    S var = 0;
    for (int c = 0; c < C; c++) var += (x[c] - m) * (x[c] - m);
    var /= C;
    const S r = S(1) / std::sqrt(var + eps);
    S* o = out + n * C;
    for (int c = 0; c < C; c++) o[c] = (x[c] - m) * r * w[c] + b[c];
    mean[n] = m;
    rstd[n] = r;
  }
}

template <class S>
void layernorm_backward(S* dinp, S* dw, S* db, const S* dout, const S* inp, const S* w,
                        const S* mean, const S* rstd, int N, int C) {
  for (int n = 0; n < N; n++) {
    const S* d = dout + n * C;
    const S* x = inp + n * C;
    S* dx = dinp + n * C;
    const S m = mean[n], r = rstd[n];
    // dx = r · (dnorm - mean(dnorm) - norm · mean(dnorm · norm)), with dnorm = w · dout
    S dnorm_mean = 0, dnorm_norm_mean = 0;
    for (int c = 0; c < C; c++) {
      const S norm = (x[c] - m) * r, dnorm = w[c] * d[c];
      dnorm_mean += dnorm;
      dnorm_norm_mean += dnorm * norm;
    }
    dnorm_mean /= C;
    dnorm_norm_mean /= C;
    for (int c = 0; c < C; c++) {
      const S norm = (x[c] - m) * r, dnorm = w[c] * d[c];
      db[c] += d[c];
      dw[c] += norm * d[c];
      dx[c] += (dnorm - dnorm_mean - norm * dnorm_norm_mean) * r;
    }
  }
}

#define WOLAB_INSTANTIATE(S)                                                                 \
  template void layernorm_forward<S>(S*, S*, S*, const S*, const S*, const S*, int, int);    \
  template void layernorm_backward<S>(S*, S*, S*, const S*, const S*, const S*, const S*,    \
                                      const S*, int, int);
WOLAB_INSTANTIATE(float)
WOLAB_INSTANTIATE(double)

}  // namespace wolab
