// Adam with PyTorch's semantics (bias-corrected, eps outside the square root) after clipping the
// gradients to a global L2 norm, as torch.nn.utils.clip_grad_norm_ does. Parameters that are not
// trainable (the frozen random W_o) are neither counted in the norm nor updated.
#pragma once

#include <cstdint>
#include <vector>

#include "nn/model.h"

namespace wolab {

// The learning rate of 0-based step `step` of a run of cfg.steps steps. constant: cfg.lr. cosine:
// a linear warmup lr·(step+1)/warmup over the first `warmup` steps, then
// lr_min + (lr − lr_min)·(1 + cos(π·(step − warmup)/(steps − warmup)))/2, as PyTorch's LinearLR
// (start_factor 1/warmup, total_iters warmup − 1) then CosineAnnealingLR (T_max steps − warmup,
// eta_min lr_min) give it; held at lr_min past the last step, where PyTorch's would rise again.
float learning_rate(const TrainConfig& cfg, int64_t step);

struct Adam {
  TrainConfig schedule;  // lr, its schedule and the run's length: learning_rate()'s arguments
  float beta1 = 0.9f, beta2 = 0.98f, eps = 1e-9f, clip = 1.0f;
  int64_t t = 0;         // steps taken
  std::vector<float> m;  // first moments, laid out like the parameters
  std::vector<float> v;  // second moments

  Adam(const TrainConfig& cfg, size_t n_params);
  // Updates `params` from `grads` clipped to the global norm `clip`, at the rate of step t
  // (learning_rate(), so a trainer resumed at step t continues the schedule); returns the
  // gradient norm before clipping.
  float step(std::vector<float>& params, const std::vector<float>& grads,
             const std::vector<ParamInfo>& info);
};

}  // namespace wolab
