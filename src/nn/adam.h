// Adam with PyTorch's semantics (bias-corrected, eps outside the square root) after clipping the
// gradients to a global L2 norm, as torch.nn.utils.clip_grad_norm_ does. Parameters that are not
// trainable (the frozen random W_o) are neither counted in the norm nor updated.
#pragma once

#include <cstdint>
#include <vector>

#include "nn/model.h"

namespace wolab {

struct Adam {
  float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.98f, eps = 1e-9f, clip = 1.0f;
  int64_t t = 0;         // steps taken
  std::vector<float> m;  // first moments, laid out like the parameters
  std::vector<float> v;  // second moments

  Adam(const TrainConfig& cfg, size_t n_params);
  // Updates `params` from `grads` clipped to the global norm `clip`; returns the gradient norm
  // before clipping.
  float step(std::vector<float>& params, const std::vector<float>& grads,
             const std::vector<ParamInfo>& info);
};

}  // namespace wolab
