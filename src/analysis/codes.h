// The codes the analysis's JSON holds for each claim, one table each: its verdict, and the reason
// for it, which decides the verdict. A claim is built from a Reason (claims.cpp), so no code
// outside these tables can be emitted. The CLI and the page word them from one table of words
// (words.h); codes() hands the page these lists and the run states' (docs/api.md), and
// docs/claims.md says when each reason is given.
#pragma once

#include <cstddef>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace wolab {

// not_decided: the input has the experiment, but not the evidence to decide (too few seeds, runs
// still learning, rates without enough ended runs); not_tested: the input cannot test the claim.
enum class Verdict { supported, partly_supported, not_supported, not_decided, not_tested };

// In enum order.
inline constexpr const char* kVerdictCodes[] = {"supported", "partly_supported", "not_supported", "not_decided",
                                                "not_tested"};
static_assert(std::size(kVerdictCodes) == static_cast<size_t>(Verdict::not_tested) + 1);

enum class Reason {
  // The input cannot test the claim.
  experiment_absent, no_pairs, no_snapshots, no_stats, none_trained,
  // The input has the experiment, but not the evidence to decide.
  too_few_seeds, still_learning, rates_incomplete, one_seed_apart, runs_stopped, runs_failed,
  // 1. Without W_o the loss falls clearly slower.
  clearly_slower, slower_small_gap, slower_some_seeds, not_slower,
  // 2. Without W_o final accuracy drops by 5–15%.
  both_at_ceiling, no_drop, drop_some_seeds, drop_smaller, drop_larger, drop_in_range, drop_unsure,
  // 3. A frozen random W_o does better than none.
  frozen_better, frozen_better_some_seeds, identity_better, no_difference,
  // 4. ...but far worse than a learned W_o.
  far_worse, worse_not_far, worse_some_seeds, not_worse,
  // 5 and 6: each is two parts (5: not_dominant, imbalance; 6: adapts, steadier; 6's second part
  // is the first's consequence, so adapts_only is not_supported).
  both_hold, not_dominant_only, imbalance_only, adapts_only, steadier_only, neither_holds,
  // 7. Without W_o training is unstable and may need a much smaller learning rate.
  much_smaller_lr, smaller_lr, diverges_more, not_needed,
  // 8. Early in training W_o's output is small, which protects the residual stream (two parts:
  // small, protects; both_hold and neither_holds as for 5 and 6).
  small_only, protects_only,
  // 9. W_o is a valve for the gradient reaching each head, balancing learning (two parts:
  // reshapes, balances; the second implies the first).
  valve_only, one_head,
};

struct ReasonInfo {
  Reason reason;
  const char* code;
  Verdict verdict;  // the one verdict a claim given this reason gets
};

// In enum order (checked below).
inline constexpr ReasonInfo kReasons[] = {
    {Reason::experiment_absent, "experiment_absent", Verdict::not_tested},
    {Reason::no_pairs, "no_pairs", Verdict::not_tested},
    {Reason::no_snapshots, "no_snapshots", Verdict::not_tested},
    {Reason::no_stats, "no_stats", Verdict::not_tested},
    {Reason::none_trained, "none_trained", Verdict::not_tested},

    {Reason::too_few_seeds, "too_few_seeds", Verdict::not_decided},
    {Reason::still_learning, "still_learning", Verdict::not_decided},
    {Reason::rates_incomplete, "rates_incomplete", Verdict::not_decided},
    {Reason::one_seed_apart, "one_seed_apart", Verdict::not_decided},
    {Reason::runs_stopped, "runs_stopped", Verdict::not_decided},
    {Reason::runs_failed, "runs_failed", Verdict::not_decided},

    {Reason::clearly_slower, "clearly_slower", Verdict::supported},
    {Reason::slower_small_gap, "slower_small_gap", Verdict::partly_supported},
    {Reason::slower_some_seeds, "slower_some_seeds", Verdict::partly_supported},
    {Reason::not_slower, "not_slower", Verdict::not_supported},

    {Reason::both_at_ceiling, "both_at_ceiling", Verdict::not_decided},
    {Reason::no_drop, "no_drop", Verdict::not_supported},
    {Reason::drop_some_seeds, "drop_some_seeds", Verdict::partly_supported},
    {Reason::drop_smaller, "drop_smaller", Verdict::partly_supported},
    {Reason::drop_larger, "drop_larger", Verdict::partly_supported},
    {Reason::drop_in_range, "drop_in_range", Verdict::supported},
    {Reason::drop_unsure, "drop_unsure", Verdict::partly_supported},

    {Reason::frozen_better, "frozen_better", Verdict::supported},
    {Reason::frozen_better_some_seeds, "frozen_better_some_seeds", Verdict::partly_supported},
    {Reason::identity_better, "identity_better", Verdict::not_supported},
    {Reason::no_difference, "no_difference", Verdict::not_supported},

    {Reason::far_worse, "far_worse", Verdict::supported},
    {Reason::worse_not_far, "worse_not_far", Verdict::partly_supported},
    {Reason::worse_some_seeds, "worse_some_seeds", Verdict::partly_supported},
    {Reason::not_worse, "not_worse", Verdict::not_supported},

    {Reason::both_hold, "both_hold", Verdict::supported},
    {Reason::not_dominant_only, "not_dominant_only", Verdict::partly_supported},
    {Reason::imbalance_only, "imbalance_only", Verdict::partly_supported},
    {Reason::adapts_only, "adapts_only", Verdict::not_supported},
    {Reason::steadier_only, "steadier_only", Verdict::partly_supported},
    {Reason::neither_holds, "neither_holds", Verdict::not_supported},

    {Reason::much_smaller_lr, "much_smaller_lr", Verdict::supported},
    {Reason::smaller_lr, "smaller_lr", Verdict::partly_supported},
    {Reason::diverges_more, "diverges_more", Verdict::partly_supported},
    {Reason::not_needed, "not_needed", Verdict::not_supported},

    // 8.
    {Reason::small_only, "small_only", Verdict::not_supported},
    {Reason::protects_only, "protects_only", Verdict::partly_supported},

    // 9.
    {Reason::valve_only, "valve_only", Verdict::not_supported},
    {Reason::one_head, "one_head", Verdict::not_tested},
};

constexpr bool reasons_in_enum_order() {
  for (size_t i = 0; i < std::size(kReasons); ++i)
    if (kReasons[i].reason != static_cast<Reason>(i)) return false;
  return std::size(kReasons) == static_cast<size_t>(Reason::one_head) + 1;
}
static_assert(reasons_in_enum_order(), "kReasons lists every Reason once, in enum order");

inline const char* code(Verdict v) { return kVerdictCodes[static_cast<size_t>(v)]; }
inline const char* code(Reason r) { return kReasons[static_cast<size_t>(r)].code; }
inline Verdict verdict_of(Reason r) { return kReasons[static_cast<size_t>(r)].verdict; }

// The experiments each claim reads, in its order of preference: a claim is judged from the first
// of them in the input that has the variants it needs (claims.cpp, docs/claims.md "The claims").
// codes() hands the list to the page, which marks a claim as running while one of them trains.
struct ClaimSources {
  int id;
  std::vector<std::string> experiments;
};
inline const std::vector<ClaimSources> kClaimSources = {
    {1, {"remove_wo", "freeze_wo", "gain_vs_learning", "activation_stats"}},
    {2, {"remove_wo", "freeze_wo", "gain_vs_learning", "activation_stats"}},
    {3, {"freeze_wo", "gain_vs_learning"}},
    {4, {"freeze_wo", "gain_vs_learning"}},
    {5, {"wo_heatmap"}},
    {6, {"activation_stats", "remove_wo", "freeze_wo"}},
    {7, {"lr_stability"}},
    {8, {"activation_stats", "remove_wo", "freeze_wo"}},
    {9, {"activation_stats", "remove_wo", "freeze_wo"}},
};

// The article's three design philosophies, in its order, and the claims each groups (in the
// order a summary reads them): fusion, from concatenation to a shared space; learnable freedom,
// a layer and not a fixed matrix; the residual path and the gradient. Every claim is in one.
struct ClaimGroup {
  const char* code;
  std::vector<int> claims;
};
inline const std::vector<ClaimGroup> kClaimGroups = {
    {"fusion", {5, 1}},
    {"freedom", {2, 3, 4}},
    {"residual_gradient", {6, 7, 8, 9}},
};
// The code of claim `id`'s group; throws std::logic_error for an id no group lists.
const char* claim_group(int id);

// A claim's answer in plain words (plain.cpp, docs/claims.md "Plain words"): a code for one short
// sentence, and the figures it quotes, named in `figures` (space-separated; every figure a number;
// "gap" stands for gap_pct, a relative gap in percent, or gap_points, a rate's gap in points, one
// of them by the metric, and gap_lo, gap_hi for the ends of its 95% interval (the effect in the
// leader's favour: docs/claims.md "Effect sizes"); lr_learned may be null in lr_not_needed). The words
// for each code are in words_table.cpp, in every language of the page.
struct PlainInfo {
  const char* code;
  const char* figures;
};
inline constexpr PlainInfo kPlainCodes[] = {
    // Any claim: the input cannot test it, or not decide it.
    {"experiment_absent", ""},
    {"no_pairs", ""},
    {"no_snapshots", ""},
    {"no_stats", ""},
    {"too_few_seeds", "seeds needed"},
    {"still_learning", "steps"},
    {"rates_incomplete", "needed"},
    {"one_seed_apart", "lr reached runs"},
    {"runs_stopped", ""},
    {"runs_failed", "failed"},
    {"none_trained", ""},
    {"one_head", ""},
    // 1. Without W_o the loss falls clearly slower.
    {"slower_clear", "seeds_ahead seeds gap gap_lo gap_hi"},
    {"slower_small_gap", "seeds_ahead seeds gap gap_lo gap_hi"},
    {"slower_unsure_gap", "seeds_ahead seeds gap gap_lo gap_hi"},
    {"slower_some_seeds", "seeds_ahead seeds gap gap_lo gap_hi"},
    {"not_slower", "seeds_ahead seeds gap gap_lo gap_hi"},
    // 2. Without W_o final accuracy drops by 5–15%.
    {"both_at_ceiling", "seeds"},
    {"no_drop", "seeds_ahead seeds gap gap_lo gap_hi"},
    {"drop_some_seeds", "seeds_ahead seeds gap gap_lo gap_hi"},
    {"drop_smaller", "seeds_ahead seeds gap gap_lo gap_hi"},
    {"drop_larger", "seeds_ahead seeds gap gap_lo gap_hi"},
    {"drop_in_range", "seeds_ahead seeds gap gap_lo gap_hi"},
    {"drop_unsure", "seeds_ahead seeds gap gap_lo gap_hi"},
    // 3. A frozen random W_o does better than none.
    {"frozen_better", "seeds_ahead seeds gap gap_lo gap_hi"},
    {"frozen_better_some_seeds", "seeds_ahead seeds gap gap_lo gap_hi"},
    {"identity_better", "seeds_ahead seeds gap gap_lo gap_hi"},
    {"no_difference", "seeds gap gap_lo gap_hi"},
    // 4. ...but far worse than a learned W_o.
    {"far_worse", "seeds_ahead seeds gap gap_lo gap_hi"},
    {"worse_not_far", "seeds_ahead seeds gap gap_lo gap_hi"},
    {"worse_unsure_far", "seeds_ahead seeds gap gap_lo gap_hi"},
    {"worse_some_seeds", "seeds_ahead seeds gap gap_lo gap_hi"},
    {"not_worse", "seeds_ahead seeds gap gap_lo gap_hi"},
    // 5. Is the learned W_o diagonal (diagonal_seeds: seeds where it is diagonal-dominant), is it
    // as at step 0, and does a head's block stand out (uneven_seeds)?
    {"mixed_uneven", "diagonal_seeds uneven_seeds seeds rows_pct"},
    {"mixed_even", "diagonal_seeds uneven_seeds seeds rows_pct"},
    {"mixed_from_start_uneven", "uneven_seeds seeds rows_pct rows_init_pct"},
    {"mixed_from_start_even", "uneven_seeds seeds rows_pct rows_init_pct"},
    {"diagonal_uneven", "diagonal_seeds uneven_seeds seeds rows_pct"},
    {"diagonal_even", "diagonal_seeds uneven_seeds seeds rows_pct"},
    // 6. W_o adapts the scale (adapts_seeds), the residual sum is steadier (steadier_seeds).
    {"scale_both", "adapts_seeds steadier_seeds seeds"},
    {"scale_adapts_only", "adapts_seeds steadier_seeds seeds"},
    {"scale_steadier_only", "adapts_seeds steadier_seeds seeds"},
    {"scale_neither", "adapts_seeds steadier_seeds seeds"},
    // 7. The highest learning rate that trains each variant; the runs that diverged.
    {"lr_much_smaller", "lr_learned lr_identity"},
    {"lr_identity_none", "lr_learned"},
    {"lr_smaller", "lr_learned lr_identity"},
    {"lr_diverges_more", "diverged_learned diverged_identity"},
    {"lr_not_needed", "lr_learned lr_identity"},
    // 8. W_o's output small early (small_seeds; ratio: its mean std ratio), the attention's share
    // of the residual sum smaller than without W_o (protects_seeds).
    {"early_both", "small_seeds protects_seeds seeds ratio"},
    {"early_small_only", "small_seeds protects_seeds seeds ratio"},
    {"early_protects_only", "small_seeds protects_seeds seeds ratio"},
    {"early_neither", "small_seeds protects_seeds seeds ratio"},
    // ... W_o's output small early as the step-0 W_o made it (ratio_init: its step-0 gain), not learned.
    {"early_init_protects", "small_seeds protects_seeds seeds ratio ratio_init"},
    {"early_init", "small_seeds protects_seeds seeds ratio ratio_init"},
    // 9. The gradient shared differently among the heads (reshapes_seeds), more evenly
    // (balances_seeds).
    {"valve_balances", "reshapes_seeds balances_seeds seeds"},
    {"valve_reshapes_only", "reshapes_seeds balances_seeds seeds"},
    {"valve_neither", "reshapes_seeds balances_seeds seeds"},
    // ... as the heads shared it already at the first probe: as initialised, not learned.
    {"valve_balances_as_initialised", "reshapes_seeds balances_seeds seeds"},
    {"valve_reshapes_as_initialised", "reshapes_seeds balances_seeds seeds"},
};

// Claims 1-4 are judged a second time from real words alone (analyze()'s words_claims):
// the same rules on experiment real_words, which no claim of kClaimSources reads.
inline constexpr int kRealWordsClaims[] = {1, 2, 3, 4};
inline const std::vector<std::string> kRealWordsSources = {"real_words"};

// Claim `id`'s experiments (kClaimSources); throws std::logic_error for an id it does not list.
const std::vector<std::string>& claim_sources(int id);

// The names of a plain code's figures (PlainInfo::figures, split).
std::vector<std::string> plain_figure_names(const PlainInfo& p);

// The verdict or reason of a code in the analysis's JSON; throws ConfigError for any other text.
Verdict verdict_from_code(const std::string& code);
Reason reason_from_code(const std::string& code);

// {"verdicts": [code, ...], "reasons": [{"code", "verdict"}, ...], "states": [code, ...],
//  "trained_to_end": [code, ...], "cut_short": [code, ...], "claim_sources": [{"id", "experiments": [name, ...]}, ...],
//  "words_claims": {"ids": [1, 2, 3, 4], "experiments": ["real_words"]},
//  "claim_groups": [{"code", "claims": [id, ...]}, ...], "plain": [{"code", "figures": [name, ...]}, ...]}:
//  the tables above
// and the run status states (config/run_status.h), each in its order.
nlohmann::json codes_json();

}  // namespace wolab
