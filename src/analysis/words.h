// The words of the analysis, in every language of the page: one table (words_table.cpp) of
// templates, English and Chinese side by side, from which the CLI (report_text.cpp) and the
// page (through Embind: analysisWords, leadWords, wordsTable; docs/api.md) word the verdicts, the
// reasons, the lead phrases of the paired comparisons and each claim's plain sentence. The
// analysis's JSON holds codes and numbers only (analysis.h); this is where they become text.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/codes.h"
#include "config/languages.h"

namespace wolab {

// The language of a code of kLangCodes (config/languages.h); throws ConfigError for any other text.
Lang lang_from_code(const std::string& code);

// One entry of the table: a key and its template per language (text_in, config/languages.h). A
// template names its figures in braces, "{k} of {n} seeds"; every language's template names the
// same ones.
struct WordsRow {
  const char* key;
  const char* en;
  const char* zh;
};
const std::vector<WordsRow>& words_rows();

using Fill = std::map<std::string, std::string>;
// The template of `key` in `lang` with each {name} replaced by fill[name]; throws
// std::logic_error for a key the table lacks or a name fill lacks (a wording bug, never input).
std::string words(const std::string& key, Lang lang, const Fill& fill = {});
// The names of the figures the template of `key` fills in (its English one's: every language's
// names the same).
std::set<std::string> placeholders_of(const std::string& key);
// {"languages": ["en", "zh"], "words": {key: {"en": text, "zh": text}, ...}}: the table itself.
nlohmann::json words_table_json();

// ---- Numbers as the words print them ----
namespace wording {
std::string fmt(const char* format, double x);
// "11%", or one decimal under 10% ("4.5%", "0.3%").
std::string percent(double fraction);
// fraction at the precision percent() gives `like`: a range's ends at its mean's precision.
std::string percent_like(double fraction, double like);
// A fraction in points, one decimal: 0.032 -> "3.2" (no "-0.0").
std::string points(double fraction);
// A count or a learning rate: "3", "0.003".
std::string number(double x);
// "mean unit (min to max)" of a spread (docs/claims.md "Spreads") in `lang`, each value by f,
// the range only for several values that differ as printed (never a ± for one value); "-" for
// a null spread.
std::string with_range(const nlohmann::json& spread, const std::function<std::string(double)>& f, Lang lang,
                       const std::string& unit = "");
// with_range of a spread of fractions in percent, its ends at the mean's precision: "11% (7% to 15%)".
std::string percent_range(const nlohmann::json& spread, Lang lang);
}  // namespace wording

// ---- The analysis's JSON (analyze()) worded ----

// A verdict, as a badge says it: "partly supported", "部分支持".
std::string verdict_words(Verdict v, Lang lang);
// Who was ahead on one metric of a paired comparison (a metric of a pair's, or a claim's
// figures.comparison), in how many seeds and by how much, with the threshold it missed when the
// lead is not clear (docs/claims.md, "Words").
std::string lead_words(const nlohmann::json& metric, Lang lang);
// Why a claim got its verdict, from its reason and figures (analyze()'s claim JSON).
std::string reason_words(const nlohmann::json& claim, Lang lang);
// A claim's answer in one plain sentence (its `plain`: {code, figures}); at most 25 words in
// English, 60 characters in Chinese (tests/native/test_words.cpp holds every code to it).
std::string plain_words(const nlohmann::json& plain, Lang lang);
// The title of a design philosophy of kClaimGroups.
std::string group_words(const std::string& group, Lang lang);

// What W_o is for: a decomposition (decompose.cpp, an experiment finding's "decomposition")
// worded: {"lead": "Without W_o the final PER ... was worse by ...", "answer": the plain sentence
// of its code, "controls": [{"variant", "name", "share": "87% (61% to 104%)" or null, "gap", "line": "per-head
// blocks, no mixing: 87% (61% to 104%) of W_o's lead." or null}]}.
nlohmann::json decomposition_words(const nlohmann::json& decomposition, Lang lang);
// Claim `id` as the article states it ("Without W_o, the loss falls clearly slower.").
std::string statement_words(int id, Lang lang);
// What an analysis's claims found overall, in one line: "Of the article's 9 claims, these runs
// support 1, partly support 4 and do not support 2; 2 not decided."; for an input of real words
// alone (no toy task tested), its words_claims': "Of the article's claims 1–4, on real words, ...".
std::string headline_words(const nlohmann::json& analysis, Lang lang);
// One claim of analyze()'s JSON worded: {"id", "group", "statement", "verdict", "reason",
// "plain", "lead"}, lead the lead words of figures.comparison, or null for a claim without one.
nlohmann::json claim_words(const nlohmann::json& claim, Lang lang);
// The words of a whole analysis for the page (docs/api.md, analysisWords):
// {"lang", "groups": [{"code", "title", "claims": [id, ...]}], "statements": [{"id", "text",
//  "says"}] (every claim's, analysed or not: its statement, and "The article: " before it), "headline" (headline_words of its claims; null for none),
//  "claims": [claim words], "words_claims": [claim words], "purpose": [{"experiment", "d_model",
//  "heads", ...decomposition_words}] per experiment with a decomposition}, each claim's words
//  claim_words'.
nlohmann::json analysis_words(const nlohmann::json& analysis, Lang lang);

}  // namespace wolab
