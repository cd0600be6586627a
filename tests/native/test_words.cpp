// The words of the analysis (src/analysis/words.h): one table, English and Chinese; every plain
// code the analysis can return worded in both, within 25 words (English) and 60 characters
// (Chinese); and words that match the numbers, on constructed claims whose old wording
// contradicted itself.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <sstream>
#include <tuple>

#include "analysis/analysis.h"
#include "analysis/words.h"

namespace wolab {
namespace words_test {

using json = nlohmann::json;

constexpr int kMaxPlainWords = 25;      // English: words separated by spaces
constexpr int kMaxPlainCharacters = 60;  // Chinese: characters (code points), punctuation included

int word_count(const std::string& s) {
  std::istringstream in(s);
  int n = 0;
  for (std::string w; in >> w;) ++n;
  return n;
}

int code_points(const std::string& s) {
  int n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::set<std::string> placeholders(const std::string& text) {
  std::set<std::string> out;
  for (size_t i = text.find('{'); i != std::string::npos; i = text.find('{', i + 1))
    out.insert(text.substr(i + 1, text.find('}', i) - i - 1));
  return out;
}

json spread(double mean, double min, double max, int n = 3) {
  return {{"n", n}, {"mean", mean}, {"min", min}, {"max", max}, {"sd", n > 1 ? json(0.1) : json(nullptr)}};
}

json part(int holds, int n, int at_init = 0) {
  const bool init_only = holds > 0 && at_init == holds;
  return {{"holds", holds}, {"held_at_init", at_init}, {"learned", holds - at_init}, {"n", n}, {"init_only", init_only},
          {"consistent", holds - at_init >= kConsistentShare * n - 1e-9}};
}

// An effect as the analysis writes it (effect.cpp) of learned's advantage `gap`, a rate's
// difference in points or the log ratio of a relative gap, its interval 0.64 to 1.36 times the
// gap (none for one seed): as the advantage, or as the effect a - b, ln(a / b) (learned is a;
// fewer steps and lower losses are better, so the effect is the advantage negated).
json effect(const std::string& metric, double gap, int n, bool advantage) {
  const bool points = metric == "token_acc" || metric == "exact";
  const bool log_ratio = !points && metric != "per" && metric != "wer";
  const double sign = points || advantage ? 1 : -1;
  const auto at = [&](double x) { return sign * (log_ratio ? std::log1p(x) : x); };
  const double lo = sign > 0 ? 0.64 : 1.36, hi = sign > 0 ? 1.36 : 0.64;
  return {{"scale", log_ratio ? "log_ratio" : "difference"}, {"n", n}, {"mean", at(gap)},
          {"sd", n > 1 ? json(0.1) : json(nullptr)}, {"lo", n > 1 ? json(at(lo * gap)) : json(nullptr)},
          {"hi", n > 1 ? json(at(hi * gap)) : json(nullptr)}, {"level", 0.95}};
}

// A paired comparison as the analysis writes it (paired.cpp, metric_json), learned's advantage
// `gap` (relative for steps and losses, in points for a rate).
json comparison(const std::string& metric, int ahead_a, int ahead_b, int n, double gap, bool consistent, bool clear) {
  return {{"metric", metric}, {"a", "learned"}, {"b", "identity"}, {"n", n}, {"ahead_a", ahead_a},
          {"advantage", effect(metric, gap, n, true)}, {"effect", effect(metric, gap, n, false)},
          {"ahead_b", ahead_b}, {"ties", n - ahead_a - ahead_b}, {"neither", 0}, {"reached_a", n}, {"reached_b", n},
          {"leader", ahead_a > n / 2 ? json("learned") : ahead_b > n / 2 ? json("identity") : json(nullptr)},
          {"consistent", consistent}, {"clear", clear}, {"gap", spread(gap, 0.64 * gap, 1.36 * gap)},
          {"diff", spread(-gap, -1.36 * gap, -0.64 * gap)}};
}

// Every figure any claim's reason reads, with the parts as given.
json figures(const json& parts) {
  json f = {{"comparison", comparison("steps_to_loss_0_1", 3, 0, 3, 0.113, true, false)},
            {"still_learning", json::array()},
            {"n", 2}, {"needed", 3}, {"needs_more_than", 400},
            {"incomplete", {{{"variant", "identity"}, {"lr", 0.03}, {"ended", 2}}}},
            {"one_seed_short", {{"lr", 0.003}, {"reached", 1}, {"ended", 3}}},
            {"highest_trainable_lr", {{"learned", 0.01}, {"identity", 0.001}}},
            {"diverged", {{"learned", 0}, {"identity", 2}}},
            {"seeds", 3}, {"failed", 2}, {"error", "could not load wolab.js"},
            {"dominant_rows", spread(0, 0, 0)}, {"dominant_rows_init", spread(0, 0, 0)},
            {"scale_ratio_first", spread(0.717, 0.55, 0.95)},
            {"output_share_learned", spread(0.4, 0.3, 0.5)}, {"output_share_identity", spread(0.6, 0.5, 0.7)}};
  f.update(parts);
  return f;
}

json claim(int id, Reason r, const json& f) {
  json c = {{"id", id}, {"reason", code(r)}, {"verdict", code(verdict_of(r))}, {"figures", f}};
  c["plain"] = plain_of(c);
  return c;
}

// Every (claim, reason) the rules of claims.cpp can give, with parts that make it so; claim 5
// also with "not diagonal-dominant" held only as at step 0, and claim 7 with no rate training
// identity.
std::vector<json> every_claim() {
  std::vector<json> out;
  const json none = json::object();
  for (int id = 1; id <= 9; ++id) out.push_back(claim(id, Reason::experiment_absent, figures(none)));
  for (int id : {1, 2, 3, 4}) out.push_back(claim(id, Reason::no_pairs, figures(none)));
  for (int id : {1, 2, 3, 4}) out.push_back(claim(id, Reason::runs_stopped, figures(none)));
  for (int id = 1; id <= 9; ++id) out.push_back(claim(id, Reason::runs_failed, figures(none)));
  for (int id : {1, 2, 3, 4, 5, 6, 8, 9}) out.push_back(claim(id, Reason::too_few_seeds, figures(none)));
  out.push_back(claim(2, Reason::still_learning, figures(none)));
  out.push_back(claim(5, Reason::no_snapshots, figures(none)));
  for (int id : {6, 8, 9}) out.push_back(claim(id, Reason::no_stats, figures(none)));
  for (Reason r : {Reason::rates_incomplete, Reason::none_trained, Reason::one_seed_apart, Reason::much_smaller_lr,
                   Reason::smaller_lr, Reason::diverges_more, Reason::not_needed})
    out.push_back(claim(7, r, figures(none)));
  out.push_back(claim(7, Reason::much_smaller_lr, figures({{"highest_trainable_lr", {{"learned", 0.01}, {"identity", nullptr}}}})));
  out.push_back(claim(9, Reason::one_head, figures(none)));
  const std::vector<std::pair<int, std::vector<Reason>>> pairs = {
      {1, {Reason::clearly_slower, Reason::slower_small_gap, Reason::slower_some_seeds, Reason::not_slower}},
      {2, {Reason::both_at_ceiling, Reason::no_drop, Reason::drop_some_seeds, Reason::drop_smaller, Reason::drop_larger,
           Reason::drop_in_range, Reason::drop_unsure}},
      {3, {Reason::frozen_better, Reason::frozen_better_some_seeds, Reason::identity_better, Reason::no_difference}},
      {4, {Reason::far_worse, Reason::worse_not_far, Reason::worse_some_seeds, Reason::not_worse}}};
  for (const auto& [id, reasons] : pairs)
    for (Reason r : reasons) {
      json f = figures(none);
      if (id == 2) f["comparison"] = comparison("token_acc", 3, 0, 3, 0.034, true, true);
      out.push_back(claim(id, r, f));
    }
  // Claims 1 and 4 under their size, with an interval reaching past it: not surely under.
  for (const auto& [id, r, gap] : {std::tuple{1, Reason::slower_small_gap, 0.18}, std::tuple{4, Reason::worse_not_far, 0.45}}) {
    json f = figures(none);
    f["comparison"] = comparison("steps_to_loss_0_1", 3, 0, 3, gap, true, false);
    out.push_back(claim(id, r, f));
  }
  // Claim 5: not diagonal-dominant (learned, as at step 0, or not) x a head standing out (or not).
  for (const json& nd : {part(3, 3), part(3, 3, 3), part(1, 3)})
    for (const json& im : {part(3, 3), part(1, 3)}) {
      const bool a = nd["consistent"].get<bool>(), b = im["consistent"].get<bool>();
      const Reason r = a && b ? Reason::both_hold : a ? Reason::not_dominant_only : b ? Reason::imbalance_only : Reason::neither_holds;
      out.push_back(claim(5, r, figures({{"not_dominant", nd}, {"imbalanced", im}})));
    }
  const auto two = [&](int id, const char* a, const char* b, Reason a_only, Reason b_only) {
    for (bool ha : {true, false})
      for (bool hb : {true, false}) {
        const Reason r = ha && hb ? Reason::both_hold : ha ? a_only : hb ? b_only : Reason::neither_holds;
        if (id == 9 && !ha && hb) continue;  // a seed that balances also reshapes
        out.push_back(claim(id, r, figures({{a, part(ha ? 3 : 1, 3)}, {b, part(hb ? 3 : 0, 3)}})));
      }
  };
  // Claim 8 small and claim 9's parts only as initialised (at step 0, at the first probe).
  for (bool protects : {true, false})
    out.push_back(claim(8, protects ? Reason::protects_only : Reason::neither_holds,
                        figures({{"small", part(3, 3, 3)}, {"protects", part(protects ? 3 : 1, 3)},
                                 {"scale_ratio_init", spread(0.577, 0.57, 0.58)}})));
  out.push_back(claim(9, Reason::neither_holds, figures({{"reshapes", part(3, 3, 3)}, {"balances", part(3, 3, 3)}})));
  out.push_back(claim(9, Reason::neither_holds, figures({{"reshapes", part(3, 3, 3)}, {"balances", part(1, 3)}})));
  two(6, "adapts", "steadier", Reason::adapts_only, Reason::steadier_only);
  two(8, "small", "protects", Reason::small_only, Reason::protects_only);
  two(9, "reshapes", "balances", Reason::valve_only, Reason::both_hold);
  return out;
}

TEST(Words, EveryRowHasBothLanguagesNamingTheSameFigures) {
  std::set<std::string> keys;
  for (const WordsRow& r : words_rows()) {
    EXPECT_TRUE(keys.insert(r.key).second) << "twice: " << r.key;
    EXPECT_STRNE(r.en, "") << r.key;
    EXPECT_STRNE(r.zh, "") << r.key;
    EXPECT_EQ(placeholders(r.en), placeholders(r.zh)) << r.key;
  }
  for (const char* v : kVerdictCodes) EXPECT_TRUE(keys.count(std::string("v_") + v)) << v;
  for (const ReasonInfo& r : kReasons) EXPECT_TRUE(keys.count(std::string("r_") + r.code)) << r.code;
  for (const PlainInfo& p : kPlainCodes) EXPECT_TRUE(keys.count(std::string("plain_") + p.code)) << p.code;
  for (const ClaimGroup& g : kClaimGroups) EXPECT_TRUE(keys.count(std::string("group_") + g.code)) << g.code;
}

TEST(Words, EveryClaimIsInOneGroup) {
  std::multiset<int> ids;
  for (const ClaimGroup& g : kClaimGroups) ids.insert(g.claims.begin(), g.claims.end());
  EXPECT_EQ(ids, (std::multiset<int>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_STREQ(claim_group(5), "fusion");
  EXPECT_STREQ(claim_group(7), "residual_gradient");
}

// Every plain code the rules can give is listed, and every listed one can be given; each is
// worded in both languages within its bound, with the figures codes().plain names.
TEST(Words, EveryPlainCodeIsWordedShortInBothLanguages) {
  std::set<std::string> listed, given;
  for (const PlainInfo& p : kPlainCodes) listed.insert(p.code);
  for (const json& c : every_claim()) {
    const json& p = c["plain"];
    const std::string code = p["code"].get<std::string>();
    given.insert(code);
    ASSERT_TRUE(listed.count(code)) << code << " is not in kPlainCodes";
    for (const PlainInfo& info : kPlainCodes) {
      if (code != info.code) continue;
      std::set<std::string> names;
      for (const std::string& n : plain_figure_names(info)) names.insert(n == "gap" ? (p["figures"].contains("gap_pct") ? "gap_pct" : "gap_points") : n);
      std::set<std::string> have;
      for (const auto& [name, value] : p["figures"].items()) have.insert(name);
      EXPECT_EQ(have, names) << code;
    }
    // A two-part claim's answer counts each part's seeds (the page's dots), no other has parts.
    const json& f = p["figures"];
    if (f.contains("uneven_seeds") || f.contains("adapts_seeds") || f.contains("small_seeds") || f.contains("reshapes_seeds")) {
      ASSERT_TRUE(p.contains("parts")) << code;
      ASSERT_EQ(p["parts"].size(), 2u) << code;
      for (const json& k : p["parts"]) EXPECT_LE(k.get<int>(), f["seeds"].get<int>()) << code;
    } else {
      EXPECT_FALSE(p.contains("parts")) << code;
    }
    const std::string en = plain_words(p, Lang::en), zh = plain_words(p, Lang::zh);
    EXPECT_LE(word_count(en), kMaxPlainWords) << en;
    EXPECT_LE(code_points(zh), kMaxPlainCharacters) << zh;
    EXPECT_EQ(en.find('{'), std::string::npos) << en;
    EXPECT_NE(reason_words(c, Lang::en), "") << c["reason"];
    EXPECT_NE(reason_words(c, Lang::zh), "") << c["reason"];
  }
  EXPECT_EQ(given, listed);
}

// The longest figures a sentence can quote: ten seeds, wide gaps, small learning rates.
TEST(Words, PlainSentencesStayShortWithTheLongestFigures) {
  for (const PlainInfo& info : kPlainCodes) {
    json f = json::object();
    for (const std::string& n : plain_figure_names(info)) {
      if (n == "gap") f["gap_points"] = 100.0;
      else if (n == "gap_lo" || n == "gap_hi") f[n] = -100.0;
      else if (n.rfind("lr", 0) == 0) f[n] = 0.0003;
      else if (n == "ratio") f[n] = 0.717;
      else if (n.find("pct") != std::string::npos) f[n] = 12.5;
      else f[n] = 100;  // seeds: at most 100 (the settings table)
    }
    for (const char* metric : {"loss_at_100", "per_area"}) {  // claim 1 names its measure
      const json p = {{"code", info.code}, {"figures", f}, {"metric", metric}};
      EXPECT_LE(word_count(plain_words(p, Lang::en)), kMaxPlainWords) << plain_words(p, Lang::en);
      EXPECT_LE(code_points(plain_words(p, Lang::zh)), kMaxPlainCharacters) << plain_words(p, Lang::zh);
    }
  }
}

// A leader ahead in every seed by less than the size called clear is named as the leader.
// A count of none after "only" is worded as none, in both languages.
TEST(Words, AFigureThatRoundsToZeroHasNoSign) {
  EXPECT_EQ(wording::fmt("%.0f%%", -0.3), "0%");
  EXPECT_EQ(wording::fmt("%.2f", -0.001), "0.00");
  EXPECT_EQ(wording::fmt("%.0f%%", -0.6), "-1%");
  EXPECT_EQ(wording::fmt("%.4g", -0.0001), "-0.0001");
  EXPECT_EQ(wording::fmt("%.1f", 0.04), "0.0");
}

TEST(Words, OnlyNoneReadsAsNone) {
  const Fill f = {{"adapts_seeds", "3"}, {"steadier_seeds", "0"}, {"seeds", "3"}};
  EXPECT_EQ(words("plain_scale_adapts_only", Lang::en, f),
            "W_o rescaled the attention output in 3 of 3 runs, but the residual sum was steadier in none.");
  EXPECT_EQ(words("plain_scale_adapts_only", Lang::zh, f), "3 次运行中有 3 次 W_o 调整了注意力输出的尺度，但没有一次残差和更稳定。");
  const Fill g = {{"adapts_seeds", "3"}, {"steadier_seeds", "1"}, {"seeds", "3"}};
  EXPECT_EQ(words("plain_scale_adapts_only", Lang::en, g),
            "W_o rescaled the attention output in 3 of 3 runs, but the residual sum was steadier in only 1.");
  const Fill h = {{"seeds_ahead", "0"}, {"seeds", "5"}, {"gap", "-3%"}, {"interval", ""}, {"measure", "the loss"}};
  EXPECT_EQ(words("plain_not_slower", Lang::en, h).find("only 0"), std::string::npos) << words("plain_not_slower", Lang::en, h);
}

TEST(Words, ALeaderUnderTheSizeThresholdIsNamed) {
  const json m = comparison("loss_at_100", 3, 0, 3, 0.11, true, false);
  const std::string en = lead_words(m, Lang::en), zh = lead_words(m, Lang::zh);
  EXPECT_EQ(en.find("no clear leader"), std::string::npos) << en;
  EXPECT_NE(en.find("learned ahead in 3 of 3 seeds"), std::string::npos) << en;
  EXPECT_NE(en.find("identity's loss was 11% (95% interval 7% to 15%) higher on average, under the 20% called clear"),
            std::string::npos) << en;
  EXPECT_EQ(zh.find("没有明显的领先者"), std::string::npos) << zh;
  EXPECT_NE(zh.find("低于称为明显的 20%"), std::string::npos) << zh;
  // On accuracy, in points.
  const std::string acc = lead_words(comparison("token_acc", 3, 0, 3, 0.012, true, false), Lang::en);
  EXPECT_NE(acc.find("learned ahead in 3 of 3 seeds, by 1.2 points (95% interval 0.77 to 1.6) on average, under the 2.0 points called clear"),
            std::string::npos) << acc;
  // A leader ahead in too few seeds is named with every seed counted, the other side's too.
  const std::string split = lead_words(comparison("token_acc", 2, 1, 3, 0.03, false, false), Lang::en);
  EXPECT_NE(split.find("learned ahead in 2 of 3 seeds, identity in 1, by 3.0 points"), std::string::npos) << split;
  EXPECT_NE(split.find("in under the 80% of seeds called consistent"), std::string::npos) << split;
  const std::string none_behind = lead_words(comparison("token_acc", 2, 0, 3, 0.015, false, false), Lang::en);
  EXPECT_EQ(none_behind.find("no clear leader"), std::string::npos) << none_behind;
  EXPECT_NE(none_behind.find("learned ahead in 2 of 3 seeds, identity in 0, 1 tie"), std::string::npos) << none_behind;
  // Claim 1's plain sentence counts the same seeds, and gives the interval.
  const json c = claim(1, Reason::slower_small_gap, figures({{"comparison", m}}));
  EXPECT_EQ(plain_words(c["plain"], Lang::en),
            "Without W_o the loss fell more slowly in 3 of 3 runs, by 11% (7.0% to 15%): real, but under the 20% called clear.");
}

// Claim 8 judged seed by seed while the mean is under the line: the reason says which it read.
TEST(Words, APartJudgedBySeedsSaysSoBesideItsMean) {
  const json c = claim(8, Reason::protects_only, figures({{"small", part(1, 3)}, {"protects", part(3, 3)}}));
  const std::string en = reason_words(c, Lang::en);
  EXPECT_EQ(en.find("not small"), std::string::npos) << en;
  EXPECT_NE(en.find("W_o's output was small (below 0.80 of its input's) in 1 of 3 seeds, its mean ratio 0.717 (0.550 to 0.950)"),
            std::string::npos) << en;
  EXPECT_NE(en.find("counted seed by seed, not from the mean"), std::string::npos) << en;
  EXPECT_EQ(plain_words(c["plain"], Lang::en),
            "W_o shrank the attention's share of the residual in 3 of 3 runs; its output was small in only 1 (mean ratio 0.717).");
  EXPECT_EQ(reason_words(c, Lang::zh).find("并不小"), std::string::npos) << reason_words(c, Lang::zh);
}

// Claim 5 whose "not diagonal-dominant" held at step 0 too: the reason says what was measured.
TEST(Words, APartTrueAtStepZeroSaysWhatWasMeasured) {
  const json c = claim(5, Reason::neither_holds, figures({{"not_dominant", part(3, 3, 3)}, {"imbalanced", part(0, 3)}}));
  const std::string en = reason_words(c, Lang::en);
  EXPECT_EQ(en.find("neither part holds"), std::string::npos) << en;
  EXPECT_NE(en.find("not diagonal-dominant (0.0% of its rows diagonally dominant, 0.0% at step 0) in 3 of 3 seeds, as at step 0: "
                    "not evidence of learning"),
            std::string::npos) << en;
  EXPECT_NE(en.find("in none of the 3 seeds"), std::string::npos) << en;
  EXPECT_EQ(c["plain"]["code"], "mixed_from_start_even");
  EXPECT_EQ(plain_words(c["plain"], Lang::en),
            "W_o ended not diagonal, as it started (0% diagonal rows, 0% at step 0); one head stood out in none of 3 runs.");
}

TEST(Words, TheReportPrintsThePlainSummaryFirstByGroup) {
  const std::string text = format_analysis(analyze({}));
  EXPECT_EQ(text.rfind("What the runs found", 0), 0u) << text;
  const size_t fusion = text.find(group_words("fusion", Lang::en)), freedom = text.find(group_words("freedom", Lang::en)),
               residual = text.find(group_words("residual_gradient", Lang::en)), reasons = text.find("The article's claims");
  EXPECT_LT(fusion, freedom);
  EXPECT_LT(freedom, residual);
  EXPECT_LT(residual, reasons);
  EXPECT_NE(text.find("These results do not include the experiment that tests this."), std::string::npos);
}

TEST(Words, AnalysisWordsHoldEveryClaimInEachLanguage) {
  const json a = analyze({});
  for (Lang lang : {Lang::en, Lang::zh}) {
    const json w = analysis_words(a, lang);
    EXPECT_EQ(w["lang"], kLangCodes[static_cast<size_t>(lang)]);
    ASSERT_EQ(w["claims"].size(), 9u);
    ASSERT_EQ(w["groups"].size(), 3u);
    for (const json& c : w["claims"]) EXPECT_FALSE(c["plain"].get<std::string>().empty());
  }
  EXPECT_THROW(lang_from_code("fr"), ConfigError);
}

}  // namespace words_test
}  // namespace wolab
