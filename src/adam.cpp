#include "adam.h"

#include <cmath>

namespace wolab {

Adam::Adam(const TrainConfig& cfg, size_t n_params)
    : lr(cfg.lr), beta1(cfg.beta1), beta2(cfg.beta2), eps(cfg.eps), clip(cfg.clip),
      m(n_params, 0.0f), v(n_params, 0.0f) {}

float Adam::step(std::vector<float>& params, std::vector<float>& grads,
                 const std::vector<ParamInfo>& info) {
  double sq = 0;
  for (const ParamInfo& p : info)
    if (p.trainable)
      for (size_t i = p.offset; i < p.offset + p.size; i++) sq += double(grads[i]) * grads[i];
  const float norm = static_cast<float>(std::sqrt(sq));
  const float coef = clip > 0 && norm > clip ? clip / (norm + 1e-6f) : 1.0f;

  t++;
  const float bc1 = 1.0f - std::pow(beta1, static_cast<float>(t));
  const float bc2_sqrt = std::sqrt(1.0f - std::pow(beta2, static_cast<float>(t)));
  const float step_size = lr / bc1;
  for (const ParamInfo& p : info) {
    if (!p.trainable) continue;
    for (size_t i = p.offset; i < p.offset + p.size; i++) {
      const float g = grads[i] * coef;
      grads[i] = g;
      m[i] = beta1 * m[i] + (1 - beta1) * g;
      v[i] = beta2 * v[i] + (1 - beta2) * g * g;
      params[i] -= step_size * m[i] / (std::sqrt(v[i]) / bc2_sqrt + eps);
    }
  }
  return norm;
}

}  // namespace wolab
