// The cost model of a planned run (lab/run_cost.h): its parts add up, and it tells apart what
// makes runs differ: the W_o mode, what a run keeps, its shape, its steps and probe steps.
#include <gtest/gtest.h>

#include "helpers.h"
#include "lab/plan.h"
#include "lab/run_cost.h"

namespace wolab {
namespace {

RunConfig with_wo(RunConfig c, WoMode wo) {
  c.model.wo = wo;
  return c;
}

TEST(RunCost, PartsAddUpOverStepsAndProbeSteps) {
  RunConfig c = small_config().base;
  c.train.steps = 22;  // probe steps 5, 10, 15, 20 and the last, 22
  const RunCost cost = run_cost(c, true, true);
  EXPECT_EQ(cost.steps, 22);
  EXPECT_EQ(cost.probes, 5);
  EXPECT_GT(cost.step, 0);
  EXPECT_GT(cost.probe, 0);
  EXPECT_GT(cost.finish, 0);
  EXPECT_DOUBLE_EQ(cost.total(), 22 * cost.step + 5 * cost.probe + cost.finish);
  const nlohmann::json j = cost_json(cost);
  EXPECT_EQ(j["probes"], 5);
  EXPECT_DOUBLE_EQ(j["total"].get<double>(), cost.total());
  c.train.steps = 20;
  EXPECT_EQ(run_cost(c, true, true).probes, 4);
}

// Without W_o a step skips its product; a frozen W_o skips its weights' gradient only; the
// forward passes of the evals and of decoding are the same with a frozen or a learned W_o.
TEST(RunCost, TheWoModeChangesTheSteps) {
  const RunConfig c = small_config().base;
  const RunCost learned = run_cost(with_wo(c, WoMode::learned), false, false);
  const RunCost frozen = run_cost(with_wo(c, WoMode::frozen_random), false, false);
  const RunCost identity = run_cost(with_wo(c, WoMode::identity), false, false);
  EXPECT_LT(identity.step, frozen.step);
  EXPECT_LT(frozen.step, learned.step);
  EXPECT_DOUBLE_EQ(frozen.probe, learned.probe);
  EXPECT_LT(identity.probe, learned.probe);
  EXPECT_EQ(run_cost(with_wo(c, WoMode::learned_identity_init), false, false).total(), learned.total());
}

TEST(RunCost, WhatARunKeepsCostsAtItsProbeSteps) {
  const RunConfig c = small_config().base;
  const RunCost bare = run_cost(c, false, false);
  const RunCost stats = run_cost(c, true, false);
  const RunCost wo = run_cost(c, false, true);
  EXPECT_GT(stats.probe, bare.probe);
  EXPECT_GT(wo.probe, bare.probe);
  for (const RunCost& kept : {stats, wo}) {
    EXPECT_DOUBLE_EQ(kept.step, bare.step);
    EXPECT_DOUBLE_EQ(kept.finish, bare.finish);
  }
}

// A step's products grow with the batch and the width; the held-out set costs the evals and
// decoding only; clipping costs a little on each step.
TEST(RunCost, TheShapeSetsTheCost) {
  const RunConfig c = small_config().base;
  RunConfig batch = c, wide = c, heldout = c, unclipped = c;
  batch.train.batch *= 2;
  wide.model.d_model *= 4;
  wide.model.d_ff *= 4;
  heldout.task.heldout *= 2;
  unclipped.train.clip = 0;
  const RunCost base = run_cost(c, false, false);
  EXPECT_GT(run_cost(batch, false, false).step, 1.5 * base.step);
  EXPECT_GT(run_cost(wide, false, false).step, 8 * base.step);
  EXPECT_DOUBLE_EQ(run_cost(heldout, false, false).step, base.step);
  EXPECT_GT(run_cost(heldout, false, false).probe, 1.9 * base.probe);
  EXPECT_LT(run_cost(unclipped, false, false).step, base.step);
}

TEST(RunCost, ThePlanGivesEachRunItsCost) {
  const ExperimentConfig cfg = small_config();
  const auto plan = plan_runs(cfg, {"all"});
  const nlohmann::json j = plan_json(plan);
  for (size_t i = 0; i < plan.size(); ++i)
    EXPECT_EQ(j[i]["cost"], cost_json(run_cost(plan[i].config, plan[i].keep_stats, plan[i].keep_wo))) << i;
  EXPECT_LT(j[1]["cost"]["total"].get<double>(), j[0]["cost"]["total"].get<double>());  // identity, learned
}

}  // namespace
}  // namespace wolab
