// What a planned run costs to train, counted from its config and what it keeps: the page's
// estimate before Run (and its time left) schedules these over its workers, once a short timed
// run has said how long one unit takes on the device (docs/api.md, "The cost of a run").
#pragma once

#include <nlohmann/json.hpp>

#include "config/run_config.h"

namespace wolab {

// In multiply-adds (an element-wise operation counts as one): the matrix products of the
// forward and backward passes, Adam's update, and the element-wise work around them. Only the
// ratios between runs, and between a run's parts, matter: one timed run converts them to time.
struct RunCost {
  double step = 0;    // one training step: forward and backward on the batch, clip, Adam
  double probe = 0;   // what a probe step adds: the held-out eval, the stats, the W_o snapshots
  double finish = 0;  // the end: the final held-out eval, greedy decoding, W_o's singular values
  int steps = 0;      // train.steps
  int probes = 0;     // probe steps: every probe_every-th and the last
  double total() const { return steps * step + probes * probe + finish; }
};

// The cost of a run of `cfg` trained to its last step (one that diverges or is stopped ends
// sooner), keeping stats and W_o snapshots as asked (Trainer::keep_stats, keep_wo_snapshots).
RunCost run_cost(const RunConfig& cfg, bool keep_stats, bool keep_wo);
// {"step": .., "probe": .., "finish": .., "steps": 400, "probes": 20, "total": ..}
nlohmann::json cost_json(const RunCost& cost);

}  // namespace wolab
