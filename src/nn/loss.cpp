// exp_lanes gives std::exp's bits, so the probabilities are those of a scalar loop.
#include <cmath>
#include <cstring>

#include "nn/lanes.h"

namespace wolab {

template <class S>
S crossentropy_forward(S* probs, const S* logits, const int* targets, int N, int V) {
  S total = 0;
  int count = 0;
  for (int n = 0; n < N; n++) {
    const S* z = logits + n * V;
    S* p = probs + n * V;
    S maxval = z[0];
    for (int i = 1; i < V; i++) maxval = z[i] > maxval ? z[i] : maxval;
    int i = 0;
    for (; i + kAttentionLanes <= V; i += kAttentionLanes) {  // e^(z - max), 4 at a time
      LaneVec<S> e;
      std::memcpy(&e, z + i, sizeof e);
      e = exp_lanes<S>(e - maxval);
      std::memcpy(p + i, &e, sizeof e);
    }
    for (; i < V; i++) p[i] = std::exp(z[i] - maxval);
    S sum = 0;
    for (i = 0; i < V; i++) sum += p[i];
    for (i = 0; i < V; i++) p[i] /= sum;
    if (targets[n] < 0) continue;
    total += maxval + std::log(sum) - z[targets[n]];  // -log softmax, without underflow
    count++;
  }
  return count ? total / count : S(0);
}

template <class S>
void crossentropy_backward(S* dlogits, const S* probs, const int* targets, int N, int V) {
  int count = 0;
  for (int n = 0; n < N; n++) count += targets[n] >= 0;
  if (!count) return;
  const S inv = S(1) / count;
  for (int n = 0; n < N; n++) {
    if (targets[n] < 0) continue;
    const S* p = probs + n * V;
    S* d = dlogits + n * V;
    for (int i = 0; i < V; i++) d[i] += (p[i] - (i == targets[n] ? S(1) : S(0))) * inv;
  }
}

#define WOLAB_INSTANTIATE(S)                                                           \
  template S crossentropy_forward<S>(S*, const S*, const int*, int, int);               \
  template void crossentropy_backward<S>(S*, const S*, const int*, int, int);
WOLAB_INSTANTIATE(float)
WOLAB_INSTANTIATE(double)

}  // namespace wolab
