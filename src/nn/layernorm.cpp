#include <cmath>
#include <cstring>

#include "nn/layers.h"

namespace wolab {
namespace {

// Σ_{c<C} f(a[c], b[c], ...), eight terms at a time: the terms of eight consecutive c form one
// GCC/clang vector value (f is generic; it gets vectors, then scalars for the last C mod 8), so
// the sum runs in a vector register. One running scalar sum is a chain of dependent adds the
// compiler may not reorder, and from eight scalar partial sums GCC vectorized the wrong loop.
template <class S, class F, class... Arrays>
S lane_sum(int C, F f, const Arrays*... arrays) {
  typedef S Lanes __attribute__((vector_size(8 * sizeof(S))));  // 8 values of S
  auto load = [](const S* p) {
    Lanes v;
    std::memcpy(&v, p, sizeof v);  // (an unaligned load)
    return v;
  };
  Lanes acc = {};
  int c = 0;
  for (; c + 8 <= C; c += 8) acc += f(load(arrays + c)...);
  S sum = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
  for (; c < C; c++) sum += f(arrays[c]...);
  return sum;
}

}  // namespace

template <class S>
void layernorm_forward(S* out, S* mean, S* rstd, const S* inp, const S* w, const S* b, int N,
                       int C) {
  const S eps = S(1e-5);
  for (int n = 0; n < N; n++) {
    const S* x = inp + n * C;
    const S m = lane_sum<S>(C, [](auto xc) { return xc; }, x) / C;
    const S var = lane_sum<S>(C, [m](auto xc) { return (xc - m) * (xc - m); }, x) / C;
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
    const S dnorm_mean = lane_sum<S>(C, [](auto wc, auto dc) { return wc * dc; }, w, d) / C;
    const S dnorm_norm_mean =
        lane_sum<S>(C, [m, r](auto wc, auto dc, auto xc) { return wc * dc * ((xc - m) * r); },
                    w, d, x) / C;
    // two loops, not one: with three outputs the compiler cannot rule out their overlap
    // cheaply enough to vectorize
    for (int c = 0; c < C; c++) {
      const S norm = (x[c] - m) * r, dnorm = w[c] * d[c];
      dx[c] += (dnorm - dnorm_mean - norm * dnorm_norm_mean) * r;
    }
    for (int c = 0; c < C; c++) {
      db[c] += d[c];
      dw[c] += (x[c] - m) * r * d[c];
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
