// lr_stability per (variant, learning rate), and claim 7's facts (docs/claims.md).
#include "analysis/verdicts.h"

#include <cmath>

namespace wolab::verdicts {

namespace {

// The loss of guessing uniformly among the task's symbols: ln(alphabet), from the run's config
// (every field given: a results file's own config may leave the alphabet at its default unsaid).
double chance_loss(const Exp& e) { return std::log(e.run_config["task"]["alphabet"].get<double>()); }

}  // namespace

std::vector<LrRow> lr_table(const Exp& e) {
  const double chance = chance_loss(e);
  std::vector<LrRow> rows;
  for (const std::string& v : e.variants)
    for (double lr : e.lrs) {
      LrRow row;
      row.variant = v;
      row.lr = lr;
      for (const Run& r : e.runs) {
        if (r.variant != v || r.lr != lr) continue;
        ++row.runs;
        row.diverged += r.state == State::diverged;
        row.stopped += r.state == State::stopped;
        if (!r.done()) continue;
        if (auto s = threshold_step(e, r)) {
          ++row.reached;
          row.steps.push_back(*s);
        }
        const double loss = r.final()["loss"].get<double>();
        row.final_loss.push_back(loss);
        if (std::fabs(loss - chance) <= kNearChance * chance) {
          ++row.near_chance;
          row.chance_loss.push_back(loss);
        }
        row.still_learning += convergence(e, r) == Conv::still_learning;
      }
      if (row.runs) rows.push_back(row);
    }
  return rows;
}

// The highest learning rate that trains the variant, if any does.
std::optional<double> highest_trainable(const std::vector<LrRow>& rows, const std::string& variant) {
  std::optional<double> best;
  for (const LrRow& r : rows)
    if (r.variant == variant && r.trainable()) best = r.lr;
  return best;
}

// The next rate above the variant's highest trainable one (its lowest rate when none trains),
// when that rate is undecided.
std::optional<LrRow> undecided_next(const std::vector<LrRow>& rows, const std::string& variant,
                                    std::optional<double> highest) {
  const LrRow* next = nullptr;
  for (const LrRow& r : rows)
    if (r.variant == variant && (!highest || r.lr > *highest) && (!next || r.lr < next->lr)) next = &r;
  if (next && next->undecided()) return *next;
  return std::nullopt;
}

int diverged_runs(const std::vector<LrRow>& rows, const std::string& variant) {
  int n = 0;
  for (const LrRow& r : rows) n += r.variant == variant ? r.diverged : 0;
  return n;
}

json lr_finding(const Exp& e) {
  const std::vector<LrRow> rows = lr_table(e);
  json table = json::array(), highest = json::object();
  for (const LrRow& r : rows)
    table.push_back({{"variant", r.variant}, {"lr", r.lr}, {"runs", r.runs}, {"reached", r.reached},
                     {"steps_to_loss_0_1", spread(r.steps)}, {"final_loss", spread(r.final_loss)},
                     {"diverged", r.diverged}, {"stopped", r.stopped}, {"still_learning", r.still_learning},
                     {"near_chance", r.near_chance}, {"trainable", r.trainable()}, {"split", r.split()}});
  // Per rate where a run stalled near chance, over every variant: the runs that trained to their
  // end, how many of them ended near chance (and their final losses) and how many diverged.
  json stalls = json::array();
  for (double lr : e.lrs) {
    int ended = 0, near = 0, diverged = 0;
    std::vector<double> losses;
    for (const LrRow& r : rows)
      if (r.lr == lr) {
        ended += r.ended();
        near += r.near_chance;
        diverged += r.diverged;
        losses.insert(losses.end(), r.chance_loss.begin(), r.chance_loss.end());
      }
    if (near > 0)
      stalls.push_back({{"lr", lr}, {"ended", ended}, {"near_chance", near}, {"diverged", diverged},
                        {"final_loss", spread(losses)}});
  }
  std::optional<double> top;
  for (const std::string& v : e.variants) {
    auto h = highest_trainable(rows, v);
    highest[v] = optional_number(h);
    if (h && (!top || *h > *top)) top = h;
  }
  json tolerant = json::array();
  for (const std::string& v : e.variants)
    if (top && highest[v] == *top) tolerant.push_back(v);
  // Does removing W_o need a smaller rate? "smaller", "same" or "larger" than learned's highest
  // trainable rate; null when either variant is absent or neither trains at any rate.
  json identity_vs_learned = nullptr;
  if (e.has("identity") && e.has("learned")) {
    auto i = highest_trainable(rows, "identity"), l = highest_trainable(rows, "learned");
    if (i || l) identity_vs_learned = !i ? "smaller" : !l ? "larger" : *i < *l ? "smaller" : *i > *l ? "larger" : "same";
  }
  return {{"table", table}, {"highest_trainable_lr", highest}, {"most_tolerant", tolerant},
          {"identity_vs_learned", identity_vs_learned}, {"alphabet", e.run_config["task"]["alphabet"]},
          {"chance_loss", chance_loss(e)}, {"stalls", stalls}};
}

}  // namespace wolab::verdicts
