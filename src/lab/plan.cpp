#include "lab/plan.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>

#include "lab/config.h"
#include "lab/results.h"
#include "lab/run_cost.h"

namespace wolab {

using json = nlohmann::json;

namespace {

// Steps per Trainer::step call: small enough for a lively progress bar, large enough that the
// callback costs nothing next to the training.
constexpr int kChunk = 10;

// W_o trains: the variants whose snapshots show something learning.
bool wo_learns(WoMode m) { return !wo_absent(m) && !wo_frozen(m); }

std::string experiment_list() {
  std::string list;
  for (const ExperimentInfo& e : experiments()) list += e.name + ", ";
  return list + "or all";
}

// One planned run, trained to its end; progress calls are serialised by `mu`.
json train(const PlannedRun& run, const std::shared_ptr<const G2pData>& g2p, int index, int runs,
           const ProgressFn& progress, std::mutex& mu) {
  // A trainer checks no config: a plan of a validated ExperimentConfig holds valid ones, and a
  // plan made otherwise stops at its first bad run.
  const std::vector<std::string> problems = validate(run.config);
  if (!problems.empty()) throw ConfigError(problems.front());
  Trainer trainer(run.config, g2p);
  trainer.keep_stats(run.keep_stats);
  trainer.keep_wo_snapshots(run.keep_wo);
  auto report = [&] {
    if (!progress) return;
    std::lock_guard<std::mutex> lock(mu);
    progress(index, runs, trainer);
  };
  report();
  while (!trainer.finished()) {
    if (trainer.step(kChunk).empty() && !trainer.finished())
      throw std::logic_error("Trainer::step ran no step on an unfinished run");
    report();
  }
  return run_record(trainer);
}

}  // namespace

std::vector<json> train_runs(const std::vector<PlannedRun>& plan, const std::vector<size_t>& indices,
                             const ProgressFn& progress, int jobs, std::shared_ptr<const G2pData> g2p) {
  // Each run owns all it touches (its Trainer, its slot in the result), so the order in which
  // threads take runs changes nothing in the records.
  const int runs = static_cast<int>(indices.size());
  std::vector<json> records(indices.size());
  std::atomic<int> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex mu;
  auto work = [&] {
    while (!failed) {
      const int i = next++;
      if (i >= runs) break;
      try {
        records[i] = train(plan.at(indices[i]), g2p, i, runs, progress, mu);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!error) error = std::current_exception();
        failed = true;
      }
    }
  };
  const int threads = std::min(jobs, runs);
  if (threads <= 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(work);
    for (std::thread& t : pool) t.join();
  }
  if (error) std::rethrow_exception(error);
  return records;
}

double planned_cost(const PlannedRun& run) { return run_cost(run.config, run.keep_stats, run.keep_wo).total(); }

std::vector<std::vector<size_t>> shard_plan(const std::vector<PlannedRun>& plan, int shards) {
  if (shards < 1 || static_cast<size_t>(shards) > plan.size())
    throw ConfigError(std::to_string(shards) + " slices of a plan of " + std::to_string(plan.size()) +
                      " runs; use 1.." + std::to_string(plan.size()) + " (every slice trains at least one run)");
  std::vector<double> cost(plan.size());
  for (size_t i = 0; i < plan.size(); ++i) cost[i] = planned_cost(plan[i]);
  std::vector<size_t> order(plan.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return cost[a] > cost[b]; });
  std::vector<std::vector<size_t>> slices(static_cast<size_t>(shards));
  std::vector<double> load(slices.size(), 0);
  for (size_t i : order) {
    const size_t lightest = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    slices[lightest].push_back(i);
    load[lightest] += cost[i];
  }
  for (auto& slice : slices) std::sort(slice.begin(), slice.end());
  return slices;
}

std::vector<PlannedRun> plan_runs(const ExperimentConfig& cfg, const std::vector<std::string>& names) {
  if (names.empty()) throw ConfigError("experiments: none given; use " + experiment_list());
  std::vector<bool> chosen(experiments().size(), false);
  for (const std::string& name : names) {
    auto selected = selected_experiments(name);
    if (selected.empty())
      throw ConfigError("experiments: unknown experiment " + json(name).dump() + "; use " + experiment_list());
    for (const ExperimentInfo* e : selected) chosen[e - experiments().data()] = true;
  }

  // The distinct runs of one seed, in first-use order, and each one's config as text.
  std::vector<PlannedRun> shapes;
  std::vector<std::string> texts;
  for (size_t i = 0; i < chosen.size(); ++i) {
    if (!chosen[i]) continue;
    const ExperimentInfo& e = experiments()[i];
    ExperimentConfig one = cfg;
    one.experiment = e.name;
    const auto problems = validate(one);
    if (!problems.empty()) throw ConfigError(problems.front());
    const float clip = gradient_clip(e, cfg);
    for (WoMode v : e.variants) {
      for (float lr : learning_rates(e, cfg)) {
        PlannedRun run;
        run.config = run_config(e, cfg);
        run.config.model.wo = v;
        run.config.train.lr = lr;
        run.config.train.clip = clip;
        // Identical configs train identically: real_words' runs, on another task, share none.
        const std::string text = config_json(run.config).dump();
        const size_t found = static_cast<size_t>(std::find(texts.begin(), texts.end(), text) - texts.begin());
        if (found == shapes.size()) {
          shapes.push_back(run);
          texts.push_back(text);
        }
        PlannedRun& shape = shapes[found];
        shape.keep_stats = shape.keep_stats || e.stats;
        shape.keep_wo = shape.keep_wo || (e.wo_snapshots && wo_learns(v));
        shape.experiments.push_back(e.name);
      }
    }
  }

  std::vector<PlannedRun> plan;
  for (int i = 0; i < cfg.seeds; ++i) {
    for (const PlannedRun& shape : shapes) {
      plan.push_back(shape);
      plan.back().config.train.seed = cfg.base.train.seed + static_cast<uint64_t>(i);
    }
  }
  return plan;
}

json plan_json(const std::vector<PlannedRun>& plan) {
  json out = json::array();
  for (const PlannedRun& run : plan) {
    const TrainConfig& t = run.config.train;
    out.push_back({{"variant", to_string(run.config.model.wo)},
                   {"seed", t.seed},
                   {"lr", decimal_float(t.lr)},
                   {"clip", decimal_float(t.clip)},
                   {"keep", {{"stats", run.keep_stats}, {"wo", run.keep_wo}}},
                   {"experiments", run.experiments},
                   {"cost", cost_json(run_cost(run.config, run.keep_stats, run.keep_wo))},
                   {"config", config_json(run.config)}});
  }
  return out;
}

std::vector<json> experiment_results(const ExperimentConfig& cfg, const std::vector<PlannedRun>& plan,
                                     const std::vector<json>& records) {
  if (records.size() != plan.size())
    throw ConfigError("results: " + std::to_string(records.size()) + " records for a plan of " +
                      std::to_string(plan.size()) + " runs");
  std::vector<json> results;
  for (const ExperimentInfo* e : selected_experiments(cfg.experiment)) {
    std::vector<json> mine;
    for (size_t i = 0; i < plan.size(); ++i) {
      const auto& exps = plan[i].experiments;
      if (std::find(exps.begin(), exps.end(), e->name) != exps.end()) mine.push_back(records[i]);
    }
    results.push_back(make_results(cfg, e->name, std::move(mine)));
  }
  return results;
}

std::vector<json> run_experiment(const ExperimentConfig& cfg, const ProgressFn& progress, int jobs,
                                 std::shared_ptr<const G2pData> g2p) {
  auto problems = validate(cfg);
  if (!problems.empty()) throw ConfigError(problems.front());
  const std::vector<PlannedRun> plan = plan_runs(cfg, {cfg.experiment});
  std::vector<size_t> all(plan.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  return experiment_results(cfg, plan, train_runs(plan, all, progress, jobs, std::move(g2p)));
}

}  // namespace wolab
