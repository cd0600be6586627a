#include "nn/layers.h"

namespace wolab {

template <class S>
void embedding_forward(S* out, const int* input, const S* tok_emb, const S* pos_emb, int B, int T,
                       int C) {
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++) {
      S* o = out + (b * T + t) * C;
      const S* te = tok_emb + input[b * T + t] * C;
      const S* pe = pos_emb + t * C;
      for (int c = 0; c < C; c++) o[c] = te[c] + pe[c];
    }
}

template <class S>
void embedding_backward(S* dtok_emb, S* dpos_emb, const S* dout, const int* input, int B, int T,
                        int C) {
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++) {
      const S* d = dout + (b * T + t) * C;
      S* dte = dtok_emb + input[b * T + t] * C;
      S* dpe = dpos_emb + t * C;
      for (int c = 0; c < C; c++) {
        dte[c] += d[c];
        dpe[c] += d[c];
      }
    }
}

#define WOLAB_INSTANTIATE(S)                                                       \
  template void embedding_forward<S>(S*, const int*, const S*, const S*, int, int, int); \
  template void embedding_backward<S>(S*, S*, const S*, const int*, int, int, int);
WOLAB_INSTANTIATE(float)
WOLAB_INSTANTIATE(double)

}  // namespace wolab
