#include "nn/adam.h"

#include <algorithm>
#include <cmath>

namespace wolab {
namespace {

// Σ x², in double, over eight interleaved partial sums: a single running sum is a chain of
// dependent adds the compiler may not reorder, eight are the lanes of vector registers.
double sum_squares(const float* x, size_t n) {
  double part[8] = {};
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; k++) part[k] += double(x[i + k]) * x[i + k];
  for (; i < n; i++) part[0] += double(x[i]) * x[i];
  double sum = 0;
  for (double p : part) sum += p;
  return sum;
}

struct Hyper {
  float coef, beta1, beta2, step_size, bc2_sqrt, eps;
};

// One tensor's update. The hyperparameters come by value, not as members of Adam: a float
// store could overwrite a float member as far as the compiler knows, and then it does not
// vectorize the loop.
void update(float* w, float* m, float* v, const float* grad, size_t n, Hyper h) {
  for (size_t i = 0; i < n; i++) {
    const float g = grad[i] * h.coef;
    m[i] = h.beta1 * m[i] + (1 - h.beta1) * g;
    v[i] = h.beta2 * v[i] + (1 - h.beta2) * g * g;
    w[i] -= h.step_size * m[i] / (std::sqrt(v[i]) / h.bc2_sqrt + h.eps);
  }
}

}  // namespace

constexpr double kPi = 3.14159265358979323846;

float learning_rate(const TrainConfig& cfg, int64_t step) {
  if (cfg.schedule == LrSchedule::constant) return cfg.lr;
  // In double, as PyTorch's schedulers compute in Python floats, then rounded once.
  const double peak = cfg.lr, floor = cfg.lr_min;
  if (step < cfg.warmup) return static_cast<float>(peak * double(step + 1) / cfg.warmup);
  const int64_t span = std::max<int64_t>(1, cfg.steps - cfg.warmup);
  const double progress = std::min(1.0, double(step - cfg.warmup) / double(span));
  return static_cast<float>(floor + (peak - floor) * (1 + std::cos(kPi * progress)) / 2);
}

Adam::Adam(const TrainConfig& cfg, size_t n_params)
    : schedule(cfg), beta1(cfg.beta1), beta2(cfg.beta2), eps(cfg.eps), clip(cfg.clip),
      m(n_params, 0.0f), v(n_params, 0.0f) {}

float Adam::step(std::vector<float>& params, const std::vector<float>& grads,
                 const std::vector<ParamInfo>& info) {
  double sq = 0;
  for (const ParamInfo& p : info)
    if (p.trainable) sq += sum_squares(grads.data() + p.offset, p.size);
  const float norm = static_cast<float>(std::sqrt(sq));
  const float coef = clip > 0 && norm > clip ? clip / (norm + 1e-6f) : 1.0f;

  t++;
  const float bc1 = 1.0f - std::pow(beta1, static_cast<float>(t));
  const float bc2_sqrt = std::sqrt(1.0f - std::pow(beta2, static_cast<float>(t)));
  const float step_size = learning_rate(schedule, t - 1) / bc1;
  const Hyper hyper{coef, beta1, beta2, step_size, bc2_sqrt, eps};
  for (const ParamInfo& p : info)
    if (p.trainable)
      update(params.data() + p.offset, m.data() + p.offset, v.data() + p.offset,
             grads.data() + p.offset, p.size, hyper);
  return norm;
}

}  // namespace wolab
