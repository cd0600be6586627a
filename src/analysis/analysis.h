// What a set of results measured: paired comparisons per seed, whether each variant converged,
// a verdict on each of the article's claims, and one finding per experiment. The CLI prints it
// (format_analysis) and the page reads the same JSON through Embind; both word it from one table
// (words.h), so the JSON holds codes (codes.h) and numbers, never prose. docs/claims.md states
// every rule below in words, citing these constants by name.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/codes.h"
#include "analysis/words.h"
#include "lab/loss_threshold.h"

namespace wolab {

// ---- Thresholds of the rules (docs/claims.md) ----

// kLossThreshold (0.1), the loss steps_to_loss_0_1 counts steps to, and kThresholdWindow (10), the
// most steps of the trailing mean it reads (threshold_window): lab/loss_threshold.h, shared with
// the results' summary.
// Two accuracies (token or exact, as fractions) closer than this are a tie: half a point.
inline constexpr double kAccuracyTie = 0.005;
// Two error rates on real words' held-out words (PER, WER) closer than this are a tie: a twentieth
// of a point, about 3 of the 5,726 words for WER. Rates measured on that many words are finer than
// the toy tasks' accuracies, and a consistent lead of a fraction of a point is a result there.
inline constexpr double kWordRateTie = 0.0005;
// Two step counts or losses within this fraction of the smaller one are a tie.
inline constexpr double kRelativeTie = 0.02;
// A lead is consistent when the leader is ahead in at least this share of the paired seeds.
inline constexpr double kConsistentShare = 0.8;
// A speed gap is clear from 20% more steps (or 20% higher loss), far from 50%.
inline constexpr double kClearSpeedGap = 0.2;
inline constexpr double kFarSpeedGap = 0.5;
// An accuracy gap is clear from 2 points, far from 10 points.
inline constexpr double kClearAccuracyGap = 0.02;
inline constexpr double kFarAccuracyGap = 0.10;
// The article's claimed accuracy drop without W_o, in points: the claim tested, not a measurement.
inline constexpr double kClaimedDropLow = 0.05;
inline constexpr double kClaimedDropHigh = 0.15;
// What W_o is for (decompose.cpp): a control recovers "most" of learned's lead over identity when
// the 95% interval of its share lies at or above this, "little" at or below it; the interval
// comes from this many resamples of the seeds, drawn by std::mt19937 seeded so.
inline constexpr double kRecoversMost = 0.5;
inline constexpr int kShareResamples = 4000;
inline constexpr unsigned kShareBootstrapSeed = 20260407;
// Held-out token accuracy at or above this is at the ceiling.
inline constexpr double kCeilingAccuracy = 0.99;
// kSmoothShare (0.05), the share of the run the loss at a fixed step is the mean over (ending
// there): lab/loss_threshold.h, where a short run's threshold window is that share too.
// Still learning: over the last kTailShare of the run, the training loss fell by more than
// kStillFalling relative to the tail before it, or held-out accuracy rose by more than kAccuracyTie.
inline constexpr double kTailShare = 0.1;
inline constexpr double kStillFalling = 0.05;
// Still learning on real words (g2p): its held-out PER at the probe steps fell by more than this,
// in points, over the last kTailShare of the run. The training loss does not decide there: it
// keeps falling while a model memorises its training words.
inline constexpr double kPerStillFalling = 0.005;
// Claim 5: W_o is diagonal-dominant when at least this share of its rows are (|w_ii| >= sum of
// the row's other |w_ij|); heads' blocks differ when the largest block norm is at least
// kHeadImbalance times the smallest (and more unequal than at step 0).
inline constexpr double kDominantRowsShare = 0.5;
inline constexpr double kHeadImbalance = 1.5;
// Claim 6: W_o adapts the scale when std(W_o(concat)) / std(concat) changes by this share
// between the first and the last probe. Claim 8: W_o's output is small when that ratio is below
// 1 - kScaleChange at the first probe; experiment 5: a W_o whose singular values' root mean
// square is below 1 - kScaleChange shrinks its input, above 1 + kScaleChange amplifies it.
inline constexpr double kScaleChange = 0.2;
// Claim 7: a learning rate trains a variant when at least this share of its seeds reached
// kLossThreshold; "much smaller" means a highest trainable rate at least this factor lower.
inline constexpr double kTrainableShare = 0.5;
inline constexpr double kMuchSmallerLr = 3.0;
// lr_stability: a run stalled at chance when its final held-out loss is within this share of
// ln(alphabet), the loss of guessing uniformly among the task's symbols.
inline constexpr double kNearChance = 0.1;

// Enough evidence or no verdict: claims 1-6 need this many paired (or finished) seeds, and claim 7
// this many runs that trained to their end per variant and learning rate.
inline constexpr int kMinSeeds = 3;

// ---- Analysis ----

// The analysis of results objects as parse_results returns them. Each object is analysed on
// its own (its experiment's pairs, convergence, finding); each claim is judged from the first
// object, in input order, of the experiments that can test it (docs/claims.md). Throws
// ConfigError("analysis: ...") for input that is not a results object.
nlohmann::json analyze(const std::vector<nlohmann::json>& results);

// analyze() of a JSON array of results documents, each checked by parse_results first: the
// page's entry point. Throws ConfigError("results[i]: ...") naming the bad element.
nlohmann::json analyze_text(const std::string& results_array);

// The conclusion of `analysis` (its "conclusion"), its real-words part read from the words_claims
// of `words_analysis` instead of its own: the toy tasks' claims against real words trained to the
// end, recorded apart (docs/claims.md, "The conclusion").
nlohmann::json conclude(const nlohmann::json& analysis, const nlohmann::json& words_analysis);

// A claim's `plain` (analyze() adds it to every claim): {code, figures}, the code one of
// kPlainCodes, read from the claim's reason and figures (plain.cpp, docs/claims.md "Plain words").
nlohmann::json plain_of(const nlohmann::json& claim);

// The analysis as text for the CLI: the plain summary (each claim's verdict and plain sentence,
// grouped by the article's design philosophies) in `summary_lang`, then in English per experiment
// its convergence and paired comparisons (and the per-learning-rate table of lr_stability), then
// the claims with their reasons and figures.
std::string format_analysis(const nlohmann::json& analysis, Lang summary_lang);
std::string format_analysis(const nlohmann::json& analysis);  // the summary in English too
// format_analysis()'s English for a claim's verdict, and for the reason of a claim (its JSON, as
// analyze() writes it): verdict_words and reason_words (words.h) in English.
std::string verdict_text(Verdict v);
std::string reason_text(const nlohmann::json& claim);

}  // namespace wolab
