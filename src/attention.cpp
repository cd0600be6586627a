#include <cmath>

#include "layers.h"

namespace wolab {

template <class S>
void attention_forward(S* out, S* att, const S* q, const S* k, const S* v, int B, int T, int C,
                       int H) {
  const int hs = C / H;  // head size d_k
  const S scale = S(1) / std::sqrt(S(hs));
  for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++)
      for (int i = 0; i < T; i++) {
        const S* qi = q + (b * T + i) * C + h * hs;
        S* p = att + ((b * H + h) * T + i) * T;  // (T) probabilities of query i
        S maxval = -INFINITY;
        for (int j = 0; j <= i; j++) {  // causal: keys up to the query only
          const S* kj = k + (b * T + j) * C + h * hs;
          S s = 0;
          for (int c = 0; c < hs; c++) s += qi[c] * kj[c];
          p[j] = s * scale;
          if (p[j] > maxval) maxval = p[j];
        }
        S sum = 0;
        for (int j = 0; j <= i; j++) sum += (p[j] = std::exp(p[j] - maxval));
        for (int j = 0; j <= i; j++) p[j] /= sum;
        for (int j = i + 1; j < T; j++) p[j] = 0;

        S* oi = out + (b * T + i) * C + h * hs;
        for (int c = 0; c < hs; c++) oi[c] = 0;
        for (int j = 0; j <= i; j++) {
          const S* vj = v + (b * T + j) * C + h * hs;
          for (int c = 0; c < hs; c++) oi[c] += p[j] * vj[c];
        }
      }
}

template <class S>
void attention_backward(S* dq, S* dk, S* dv, const S* dout, const S* att, const S* q, const S* k,
                        const S* v, int B, int T, int C, int H) {
  const int hs = C / H;
  const S scale = S(1) / std::sqrt(S(hs));
  for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++)
      for (int i = 0; i < T; i++) {
        const S* p = att + ((b * H + h) * T + i) * T;
        const S* doi = dout + (b * T + i) * C + h * hs;
        auto dp = [&](int j) {  // dLoss/dp[j] = dout_i · v_j
          const S* vj = v + (b * T + j) * C + h * hs;
          S s = 0;
          for (int c = 0; c < hs; c++) s += doi[c] * vj[c];
          return s;
        };
        // softmax backward: ds_j = p_j (dp_j - Σ_j' p_j' dp_j'); dp is recomputed, not stored,
        // because a row is at most T long and this keeps the pass free of scratch memory
        S pdp = 0;
        for (int j = 0; j <= i; j++) pdp += p[j] * dp(j);
        const S* qi = q + (b * T + i) * C + h * hs;
        S* dqi = dq + (b * T + i) * C + h * hs;
        for (int j = 0; j <= i; j++) {
          const S* kj = k + (b * T + j) * C + h * hs;
          S* dkj = dk + (b * T + j) * C + h * hs;
          S* dvj = dv + (b * T + j) * C + h * hs;
          const S ds = p[j] * (dp(j) - pdp) * scale;
          for (int c = 0; c < hs; c++) {
            dvj[c] += p[j] * doi[c];
            dqi[c] += ds * kj[c];
            dkj[c] += ds * qi[c];
          }
        }
      }
}

#define WOLAB_INSTANTIATE(S)                                                                  \
  template void attention_forward<S>(S*, S*, const S*, const S*, const S*, int, int, int, int); \
  template void attention_backward<S>(S*, S*, S*, const S*, const S*, const S*, const S*,       \
                                      const S*, int, int, int, int);
WOLAB_INSTANTIATE(float)
WOLAB_INSTANTIATE(double)

}  // namespace wolab
