#include "lab/run_cost.h"

#include "nn/model.h"
#include "run/tasks.h"

namespace wolab {

namespace {

// Multiply-adds of one token's forward pass through the model, and the share of them that are
// matrix products (backward does those twice over: the input's gradient and the weights').
// Per layer: the Q, K, V projections, the causal scores and their weighted sum (query t sees
// t + 1 keys: (T + 1) / 2 on average), W_o's product where it has a matrix (scalar_gain's one
// multiply per element is in the element-wise work), the feed-forward layer at its width,
// and the element-wise work of softmax, two LayerNorms, the activation and the residual sums;
// then the output layer and its softmax.
struct TokenCost {
  double products = 0;
  double elementwise = 0;
  double wo = 0;  // W_o's product, in `products`; a frozen W_o's weights get no gradient
};

TokenCost token_cost(const ModelConfig& m) {
  const double C = m.d_model, F = ffn_width(m), H = m.heads, T = m.seq_len, V = m.vocab;
  const double keys = (T + 1) / 2;
  TokenCost c;
  c.wo = wo_absent(m.wo) || m.wo == WoMode::scalar_gain ? 0 : m.layers * C * C;
  c.products = m.layers * (3 * C * C + 2 * keys * C + 2 * C * F) + c.wo + C * V;
  c.elementwise = m.layers * (3 * keys * H + 12 * C + F) + 3 * V + C;
  return c;
}

// Adam's update is about eight element-wise operations per parameter; clipping reads each
// gradient once more for the norm and once to scale it.
constexpr double kAdamPerParameter = 8;
constexpr double kClipPerParameter = 2;

}  // namespace

RunCost run_cost(const RunConfig& config, bool keep_stats, bool keep_wo) {
  RunConfig cfg = config;
  derive(cfg);
  const ModelConfig& m = cfg.model;
  const TrainConfig& t = cfg.train;
  const double C = m.d_model, H = m.heads, L = m.layers, dk = C / H;
  const double batch_tokens = double(t.batch) * m.seq_len;
  const double heldout_tokens = double(cfg.task.heldout) * m.seq_len;
  const TokenCost token = token_cost(m);
  const double forward = token.products + token.elementwise;
  // Backward: the products twice (a frozen W_o's once: its input's gradient only), the
  // element-wise work twice.
  const double backward = 2 * (token.products + token.elementwise) - (wo_frozen(m.wo) ? token.wo : 0);
  const double params = static_cast<double>(model_sizes<float>(m, t.batch).params);

  RunCost cost;
  cost.steps = t.steps;
  cost.probes = t.steps / t.probe_every + (t.steps % t.probe_every != 0);
  cost.step = batch_tokens * (forward + backward) + params * (kAdamPerParameter + (t.clip > 0 ? kClipPerParameter : 0));
  // The held-out eval; the stats read three sites and the concat's gradient once; a snapshot
  // copies each W_o and takes each head's OV singular values from two (d_k, d_k) Gram matrices.
  cost.probe = heldout_tokens * forward;
  if (keep_stats) cost.probe += 4 * batch_tokens * C * L;
  if (keep_wo) cost.probe += L * (C * C + H * (2 * C * dk * dk + dk * dk * dk));
  // Greedy decoding feeds the held-out set once through the cache of keys and values (the
  // final eval is the last probe step's); W_o's singular values come from a (C, C) Gram matrix.
  cost.finish = heldout_tokens * forward + L * 2 * C * C * C;
  return cost;
}

nlohmann::json cost_json(const RunCost& cost) {
  return {{"step", cost.step},   {"probe", cost.probe}, {"finish", cost.finish},
          {"steps", cost.steps}, {"probes", cost.probes}, {"total", cost.total()}};
}

}  // namespace wolab
