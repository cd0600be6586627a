// What the verdict files share (src/analysis/*.cpp, one per section of docs/claims.md): the
// results read once, the numbers, and the facts each section computes for the next. Internal to
// src/analysis/: analysis.h is the interface.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/analysis.h"
#include "lab/spread.h"
#include "lab/status_json.h"

namespace wolab::verdicts {

using json = nlohmann::json;

// ---- Reading the results (read.cpp) ----

using State = RunStatus::State;

// obj's member `key`, or null when obj has none (or is no object): for a member a results object
// may lack. nlohmann's const operator[] on a missing key is undefined behaviour.
const json& member_or_null(const json& obj, const char* key);

struct Run {
  std::string variant;
  uint64_t seed = 0;
  double lr = 0;
  State state = State::done;
  const json* record = nullptr;

  bool done() const { return state == State::done; }
  const json& final() const { return (*record)["final"]; }  // read_experiment checked it is there
};

// One results object, read once.
struct Exp {
  const json* results = nullptr;
  std::string name;
  json run_config;  // {model, task, train}: what its runs trained with (lab/experiment.h, run_config)
  int steps = 0, d_model = 0, heads = 0;
  bool g2p = false;  // its runs' task is g2p: their records carry PER and WER (docs/results.md)
  std::vector<std::string> variants;  // the experiment's order, those with a run in the file
  std::vector<std::string> planned;   // every variant the experiment compares (experiment.h)
  int seeds_planned = 0;  // runs per variant and learning rate its config plans (config "seeds")
  std::vector<Run> runs;
  // The runs that could not train (results "failed"): the variant of each, and the first's error.
  std::vector<std::string> failed;
  std::string first_failure;
  std::vector<double> lrs;  // distinct, ascending

  // The first run of (variant, seed), or nullptr.
  const Run* find(const std::string& variant, uint64_t seed) const {
    for (const Run& r : runs)
      if (r.variant == variant && r.seed == seed) return &r;
    return nullptr;
  }
  std::vector<uint64_t> seeds() const {
    std::vector<uint64_t> out;
    for (const Run& r : runs)
      if (std::find(out.begin(), out.end(), r.seed) == out.end()) out.push_back(r.seed);
    return out;
  }
  bool has(const std::string& variant) const {
    return std::find(variants.begin(), variants.end(), variant) != variants.end();
  }
};

[[noreturn]] void bad(const std::string& what);
Exp read_experiment(const json& results, size_t index);

// ---- Numbers (read.cpp) ----

// {n, mean, min, max, sd}: spread_of's (lab/spread.h), sd null for a single value; the whole
// spread is null when there is no value. mean() is lab/spread.h's too.
json spread(const std::vector<double>& xs);
json optional_number(std::optional<double> x);
// Mean training loss over the curve's steps in (last - window, last].
std::optional<double> window_loss(const json& run, int last, int window);
// The first step run r's smoothed training loss is below kLossThreshold (lab/loss_threshold.h,
// over threshold_window(e.steps) steps).
std::optional<double> threshold_step(const Exp& e, const Run& r);
int step_at(const Exp& e, double share);
int smooth_window(const Exp& e);

// ---- Effect sizes (effect.cpp) ----

// The mean of per-seed paired differences and its 95% interval, paired t on n - 1 degrees of
// freedom: the seeds are a sample, the interval says where the mean over all seeds one could run
// would lie. With one value there is no spread, hence no interval (sd, lo and hi empty).
struct Effect {
  int n = 0;
  double mean = 0;
  std::optional<double> sd, lo, hi;
  // The same effect with every value times sign (+1 or -1), the interval's ends in order.
  Effect times(double sign) const;
  // {scale: "log_ratio" or "difference", n, mean, sd, lo, hi, level: 0.95}; null with no value.
  json to_json(bool log_ratio) const;
};

// The 0.975 quantile of Student's t with df >= 1 degrees of freedom.
double t_quantile_975(int df);
Effect paired_effect(const std::vector<double>& diffs);

// ---- Paired comparisons (paired.cpp) ----

struct MetricInfo {
  const char* name;
  bool higher_better;
  double share;  // loss at this share of the run; 0 for the others
  // A rate in [0, 1] compared in points (accuracies, and g2p's error rates PER and WER): ties,
  // gaps and "clear" in points; the others (steps, losses) relative to the smaller.
  bool points;
};

struct MetricPair {
  const MetricInfo* info = nullptr;
  struct Seed {
    uint64_t seed;
    std::optional<double> a, b;
  };
  std::vector<Seed> seeds;
  int ahead_a = 0, ahead_b = 0, ties = 0, neither = 0, reached_a = 0, reached_b = 0;
  std::vector<double> diffs;  // a - b, where both have a value
  int leader = 0;             // 0: none, 1: a, 2: b (ahead in more than half the seeds, mean gap > 0)
  bool consistent = false;    // the leader is ahead in at least kConsistentShare of them
  std::vector<double> gaps;   // per seed, in the leader's favour
  // Per seed where at least one run has a value, what the effect reads: a - b in points for a
  // rate, ln(a / b) for steps and losses (a threshold never reached counts as the run's length,
  // so such a seed is a bound); and their mean with its 95% interval.
  std::vector<double> effects;
  Effect effect;

  int n() const { return static_cast<int>(seeds.size()); }
  bool log_ratio() const { return !info->points; }
  // The effect in the leader's favour (its mean positive); the whole effect, n 0, with no leader.
  Effect advantage() const {
    if (!leader) return {};
    const double favours_a = info->points && info->higher_better ? 1 : -1;
    return effect.times(leader == 1 ? favours_a : -favours_a);
  }
  // The advantage's interval lies past x: its lower end reaches x, in points for a rate, relative
  // for the others (0.2: 20% more steps or loss, ln 1.2 on the log ratio). Never with one seed.
  bool past(double x) const {
    const Effect adv = advantage();
    return adv.lo && *adv.lo >= (info->points ? x : std::log1p(x)) - 1e-12;
  }
  int leader_ahead() const { return leader == 1 ? ahead_a : leader == 2 ? ahead_b : 0; }
  // The seeds split: they do not all fall on one side (a ahead, b ahead, tied, or neither).
  bool split() const {
    for (int k : {ahead_a, ahead_b, ties, neither})
      if (k == n()) return false;
    return n() > 0;
  }
  // Clear: consistent, and the advantage's interval past the size called clear.
  bool clear() const { return consistent && past(info->points ? kClearAccuracyGap : kClearSpeedGap); }
};

// Two variants of one experiment, paired by seed.
struct Pair {
  std::string a, b;
  int excluded = 0;  // seeds where a run of the pair diverged or was stopped
  int diverged_a = 0, diverged_b = 0, stopped_a = 0, stopped_b = 0;
  bool at_ceiling = false;  // both at kCeilingAccuracy in every paired seed
  // The variants (a, b order) with a run still learning at its last step in a paired seed.
  std::vector<std::string> still_learning;
  std::vector<MetricPair> metrics;
  const MetricPair* speed = nullptr;  // per_area on real words; else steps to the threshold, or the loss at the end (pair())
  // The final accuracy (token accuracy; on real words PER, accuracy_metric()); speed when both are at
  // the ceiling or a run of the pair is still learning.
  const MetricPair* performance = nullptr;
  const MetricPair* final_accuracy = nullptr;  // accuracy_metric()'s metric

  int n() const { return metrics.empty() ? 0 : metrics.front().n(); }
  const MetricPair& by(const std::string& name) const {
    for (const MetricPair& m : metrics)
      if (name == m.info->name) return m;
    throw std::logic_error("analysis: no metric " + name);
  }
};

Pair pair(const Exp& e, const std::string& a, const std::string& b);
// The metric a claim about final accuracy reads: token accuracy on the toy tasks; on real words
// (g2p) PER on every held-out word, the share of phonemes pronounced wrong (docs/claims.md).
const char* accuracy_metric(const Exp& e);
json metric_json(const Exp& e, const Pair& p, const MetricPair& m);
json pair_json(const Exp& e, const Pair& p);

// ---- Convergence (convergence.cpp) ----

enum class Conv { converged, still_learning, stalled };

Conv convergence(const Exp& e, const Run& r);
struct VariantConvergence {
  int runs = 0, done = 0, converged = 0, still_learning = 0, stalled = 0, diverged = 0, stopped = 0;
  std::string state() const {
    if (done == 0) return "none_finished";
    if (still_learning > 0) return "still_learning";
    if (converged == done) return "converged";
    return converged == 0 ? "stalled" : "mixed";
  }
  json to_json(const std::string& variant) const {
    return {{"variant", variant}, {"runs", runs}, {"done", done}, {"converged", converged},
            {"still_learning", still_learning}, {"stalled", stalled}, {"diverged", diverged},
            {"stopped", stopped}, {"state", state()}};
  }
};

VariantConvergence convergence_of(const Exp& e, const std::string& variant, std::optional<double> lr = std::nullopt);

// ---- Facts of claims 5 to 9 (wo_structure.cpp, scale.cpp, lr_table.cpp, head_grads.cpp) ----

// A property that holds in `holds` of `n` seeds, in `held_at_init` of them as initialised too: at
// step 0 (claims 5 and 8) or at the first probe, the nearest to step 0 the statistics measure
// (claim 9); 0 for a part with no such reading (6). A property the run had from its start is not
// evidence of learning: the part holds when it holds, and did not from the start, in at least
// kConsistentShare of the seeds (`learned`, the seeds the page draws a dot for).
struct Part {
  int holds = 0, held_at_init = 0, n = 0;
  int learned() const { return holds - held_at_init; }
  bool init_only() const { return holds > 0 && held_at_init == holds; }
  bool consistent() const { return n > 0 && learned() >= kConsistentShare * n - 1e-9; }
  bool split() const { return holds > 0 && holds < n; }
  json to_json() const {
    return {{"holds", holds}, {"held_at_init", held_at_init}, {"learned", learned()}, {"n", n},
            {"init_only", init_only()}, {"consistent", consistent()}};
  }
};

struct WoStructure {
  int seeds = 0;
  // Per seed; the head imbalance of the layer where it is largest at the last snapshot, and that
  // layer's at step 0.
  std::vector<uint64_t> seed_ids;
  std::vector<int> imbalance_layer;
  std::vector<double> dominant, dominant_init, energy, imbalance_init, imbalance_final, change;
  Part not_dominant, imbalanced;
  json to_json() const {
    json per_seed = json::array();
    for (int i = 0; i < seeds; ++i)
      per_seed.push_back({{"seed", seed_ids[i]}, {"dominant_rows", dominant[i]}, {"dominant_rows_init", dominant_init[i]},
                          {"head_imbalance_final", imbalance_final[i]}, {"head_imbalance_init", imbalance_init[i]},
                          {"layer", imbalance_layer[i]}});
    return {{"seeds", seeds},
            {"dominant_rows", spread(dominant)},
            {"dominant_rows_init", spread(dominant_init)},
            {"diagonal_energy", spread(energy)},
            {"head_imbalance_init", spread(imbalance_init)},
            {"head_imbalance_final", spread(imbalance_final)},
            {"change_from_init", spread(change)},
            {"per_seed", per_seed},
            {"not_dominant", not_dominant.to_json()},
            {"imbalanced", imbalanced.to_json()}};
  }
};

WoStructure wo_structure(const Exp& e);

struct ScaleFacts {
  int seeds = 0;
  std::vector<double> ratio_first, ratio_last, cv_learned, cv_identity;
  Part adapts, steadier;
  json to_json() const {
    return {{"seeds", seeds},
            {"scale_ratio_first", spread(ratio_first)},
            {"scale_ratio_last", spread(ratio_last)},
            {"residual_cv_learned", spread(cv_learned)},
            {"residual_cv_identity", spread(cv_identity)},
            {"adapts", adapts.to_json()},
            {"steadier", steadier.to_json()}};
  }
};

ScaleFacts scale_facts(const Exp& e);
// Experiment 4's table, the article's printout: per variant (the experiment's order), layer and
// site (concat, wo_out, residual), the mean over the variant's runs of each site's mean and std
// at the variant's first and last probe step: [{variant, layer, site, early_step, late_step,
// early_mean, early_std, late_mean, late_std, std_ratio}], a value null where no run has that
// probe; std_ratio = late_std / early_std. identity's wo_out row has same_as: "concat" (its W_o
// is the identity, so the row is the concat's again).
json early_late(const Exp& e);
// The sentence under that table: the row (same_as rows aside) whose std moved most, by |log
// std_ratio|, {variant, layer, site, std_ratio, change}: change grows or shrinks past
// kScaleChange, else keeps. null without a ratio.
json early_late_reading(const json& rows);

// Claim 8: the scale of W_o's output at the first probe, per seed with learned and identity done.
// Part (a), small, is also read at step 0: the root mean square of the learned W_o's singular
// values at step 0 (its gain on an input with no preferred direction; the runs' wo_sv), mean over
// layers; seeds whose learned run has no wo_sv (version 1 files) have no step-0 reading.
struct EarlyFacts {
  int seeds = 0, step = 0;  // step: the first probe step
  std::vector<double> ratio, ratio_init, share_learned, share_identity;
  Part small, protects;
  json to_json() const {
    return {{"seeds", seeds},
            {"step", step},
            {"scale_ratio_first", spread(ratio)},
            {"scale_ratio_init", spread(ratio_init)},
            {"output_share_learned", spread(share_learned)},
            {"output_share_identity", spread(share_identity)},
            {"small", small.to_json()},
            {"protects", protects.to_json()}};
  }
};

EarlyFacts early_facts(const Exp& e);

// Claim 9: how evenly the gradient at the concat is shared among the heads, per seed with
// learned and identity done: over the run, and at the first probe (each part's reading as
// initialised: the runs have barely trained there).
struct ValveFacts {
  int seeds = 0;
  std::vector<double> cv_learned, cv_identity, cv_learned_first, cv_identity_first;
  Part reshapes, balances;
  json to_json() const {
    return {{"seeds", seeds},
            {"head_grad_cv_learned", spread(cv_learned)},
            {"head_grad_cv_identity", spread(cv_identity)},
            {"head_grad_cv_learned_first", spread(cv_learned_first)},
            {"head_grad_cv_identity_first", spread(cv_identity_first)},
            {"reshapes", reshapes.to_json()},
            {"balances", balances.to_json()}};
  }
};

ValveFacts valve_facts(const Exp& e);

struct LrRow {
  std::string variant;
  double lr = 0;
  int runs = 0, reached = 0, diverged = 0, stopped = 0, still_learning = 0;
  int near_chance = 0;  // done runs whose final held-out loss is within kNearChance of chance
  std::vector<double> steps, final_loss, chance_loss;  // chance_loss: the final losses of those
  // The runs that trained to their end: a stopped run counts for nothing, never as a failure.
  int ended() const { return runs - stopped; }
  bool trainable() const { return ended() > 0 && reached >= kTrainableShare * ended() - 1e-9; }
  // Does not train the variant, but would if the runs still learning at the last step reached
  // the threshold: longer runs might.
  bool undecided() const {
    return ended() > 0 && !trainable() && reached + still_learning >= kTrainableShare * ended() - 1e-9;
  }
  // Its ended runs split: some but not all reached the threshold.
  bool split() const { return reached > 0 && reached < ended(); }
};

std::vector<LrRow> lr_table(const Exp& e);
// The highest learning rate that trains the variant, if any does.
std::optional<double> highest_trainable(const std::vector<LrRow>& rows, const std::string& variant);
// The next rate above the variant's highest trainable one (its lowest rate when none trains),
// when that rate is undecided.
std::optional<LrRow> undecided_next(const std::vector<LrRow>& rows, const std::string& variant,
                                    std::optional<double> highest);
int diverged_runs(const std::vector<LrRow>& rows, const std::string& variant);
json lr_finding(const Exp& e);

// ---- Claims (claims.cpp) ----

// A claim's JSON: {id, group, verdict, reason, experiment, fragile, figures, plain}. The reason decides the
// verdict (codes.h); `fragile` (the seeds that decided it split) is kept for a verdict only.
json claim(int id, Reason reason, const Exp* e = nullptr, json figures = json::object(), bool fragile = false);
// Enough evidence or no verdict: with n < kMinSeeds seeds, claim `id` is not decided
// (too_few_seeds, with {n, needed} added to the figures); nullopt when n is enough.
std::optional<json> too_few_seeds(int id, int n, const Exp* e, json figures = json::object());

// Claims 1-4, judged from the first experiment of `names` in the input that has their pair:
// kClaimSources' for the first column, kRealWordsSources' for the second.
json claim_slower(const std::vector<Exp>& exps, const std::vector<std::string>& names);
json claim_drop(const std::vector<Exp>& exps, const std::vector<std::string>& names);
json claim_frozen_better(const std::vector<Exp>& exps, const std::vector<std::string>& names);
json claim_far_worse(const std::vector<Exp>& exps, const std::vector<std::string>& names);

// ---- Real words (real_words.cpp) ----

// Claims 1-4 judged on real words alone: the analysis's words_claims.
json real_words_claims(const std::vector<Exp>& exps);
// A key pair's figures on real words (per and wer), added to its finding; {} for the toy tasks.
json words_figures(const Exp& e, const Pair& p);

// ---- Findings per experiment (findings.cpp) ----

json finding(const Exp& e);
// wo_purpose and words_purpose: learned's lead over identity (its measure, n, effect, whether it
// is real) and per control its gap to identity, its share of the lead with a bootstrap interval
// and its reading (decompose.cpp, docs/claims.md "What W_o is for"); null without the pair.
json decomposition(const Exp& e);

// ---- The conclusion (conclusion.cpp) ----

// {counts: per verdict, still_learning, quotes: ids of the claims it quotes, words: {agree,
// differ}: ids of claims 1-4 whose verdicts on the toy tasks and on real words, both deciding, are
// the same or not} of the claims' JSON and words_claims.
json conclusion(const json& claims, const json& words_claims);

}  // namespace wolab::verdicts
