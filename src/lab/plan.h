// The plan of the runs that a set of experiments needs, shared (variant, seed) runs trained
// once, and the CLI's training of it. The page asks for the plan through Embind (plan()).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lab/config.h"
#include "lab/experiment.h"
#include "run/trainer.h"

namespace wolab {

// One run to train, and every experiment that compares it.
struct PlannedRun {
  RunConfig config;        // model.wo (the variant), train.seed, train.lr, train.clip all set
  bool keep_stats = false;  // Trainer::keep_stats
  bool keep_wo = false;     // Trainer::keep_wo_snapshots
  std::vector<std::string> experiments;  // in experiments() order
};

// The runs that the named experiments ("all" for every one) need, each distinct (variant,
// seed, lr, clip) once, keeping the union of what its experiments keep: identical configs train
// identically, so one run serves all of them. Seed by seed; within a seed in the order the
// experiments list their variants (and learning rates). Throws ConfigError if cfg is invalid
// for any of them or a name is unknown. cfg.experiment is not read: `names` chooses.
std::vector<PlannedRun> plan_runs(const ExperimentConfig& cfg, const std::vector<std::string>& names);
// [{"variant": "learned", "seed": 0, "lr": 0.001, "clip": 1, "keep": {"stats": true,
//   "wo": false}, "experiments": ["remove_wo", "activation_stats"], "cost": cost_json
//   (lab/run_cost.h), "config": {model, task, train}}, ...] (docs/api.md).
nlohmann::json plan_json(const std::vector<PlannedRun>& plan);

// What a planned run is estimated to cost: run_cost(...).total() (lab/run_cost.h) of its config
// and what it keeps.
double planned_cost(const PlannedRun& run);

// The plan cut into `shards` slices of about equal estimated cost (run_cost's total), for
// training on several machines at once: each slice lists the plan indices of its runs in plan
// order. Deterministic, so every machine that computes it from the same config gets the same
// slices: runs are dealt out from the costliest down (a tie goes to the earlier run), each to
// the slice with the least cost so far (a tie to the earlier slice). Every slice has at least
// one run. Throws ConfigError if shards is below 1 or above plan.size(), its message naming no
// field: the caller's flag or setting goes before it.
std::vector<std::vector<size_t>> shard_plan(const std::vector<PlannedRun>& plan, int shards);

// Called once a run's Trainer exists and after every chunk of steps; the last call of a run
// has trainer.finished(). `run` is the run's index among those being trained, 0 .. runs - 1
// (the whole plan, or one slice of it). Calls never overlap, also when runs train in parallel.
using ProgressFn = std::function<void(int run, int runs, const Trainer& trainer)>;

// Trains the planned runs at `indices` of `plan`, up to `jobs` at a time, each on its own
// thread (1: one after another on this thread), and returns their records (run_record), in
// the order of `indices`. The records do not depend on `jobs`. `g2p` is the lexicon every g2p
// run reads, shared by all of them (read once, not per run); other tasks ignore it, and a g2p
// run without it is a ConfigError (Trainer's constructor).
std::vector<nlohmann::json> train_runs(const std::vector<PlannedRun>& plan, const std::vector<size_t>& indices,
                                       const ProgressFn& progress, int jobs,
                                       std::shared_ptr<const G2pData> g2p = nullptr);

// The results JSON (results.h) of each experiment of cfg.experiment, in experiments() order,
// from `records`, the record of every run of plan = plan_runs(cfg, {cfg.experiment}) in plan
// order. Throws ConfigError if a record is not one of the plan's.
std::vector<nlohmann::json> experiment_results(const ExperimentConfig& cfg, const std::vector<PlannedRun>& plan,
                                               const std::vector<nlohmann::json>& records);

// Trains plan_runs(cfg, {cfg.experiment}), up to `jobs` runs at a time, each on its own thread
// (1: one after another on this thread), and returns one results JSON (results.h) per
// experiment, in experiments() order. The results do not depend on `jobs`. A run that
// diverges is recorded with its status and the others go on. Throws ConfigError if cfg is
// invalid. `g2p`: as for train_runs.
std::vector<nlohmann::json> run_experiment(const ExperimentConfig& cfg, const ProgressFn& progress = nullptr,
                                           int jobs = 1, std::shared_ptr<const G2pData> g2p = nullptr);

}  // namespace wolab
