// The analysis's JSON worded from the one table of words (words_table.cpp), for the CLI and the
// page alike (words.h).
#include "analysis/words.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <unordered_map>

#include "analysis/analysis.h"
#include "io/messages.h"

namespace wolab {

using json = nlohmann::json;

Lang lang_from_code(const std::string& code) {
  if (const std::optional<Lang> lang = lang_of(code)) return *lang;
  throw ConfigError("words: unknown language " + in_quotes(code) + "; use " + lang_choices());
}

namespace {

const WordsRow& row_of(const std::string& key) {
  static const std::unordered_map<std::string, const WordsRow*> index = [] {
    std::unordered_map<std::string, const WordsRow*> out;
    for (const WordsRow& r : words_rows()) out.emplace(r.key, &r);
    return out;
  }();
  const auto row = index.find(key);
  if (row == index.end()) throw std::logic_error("words: no words for " + key);
  return *row->second;
}

}  // namespace

std::set<std::string> placeholders_of(const std::string& key) {
  const std::string text = row_of(key).en;
  std::set<std::string> out;
  for (size_t i = text.find('{'); i != std::string::npos; i = text.find('{', i + 1))
    out.insert(text.substr(i + 1, text.find('}', i) - i - 1));
  return out;
}

std::string words(const std::string& key, Lang lang, const Fill& fill) {
  const WordsRow& row = row_of(key);
  const std::string text = text_in(row, lang);
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const size_t close = text[i] == '{' ? text.find('}', i) : std::string::npos;
    if (close == std::string::npos) {
      out += text[i];
      continue;
    }
    const std::string name = text.substr(i + 1, close - i - 1);
    const auto value = fill.find(name);
    if (value == fill.end()) throw std::logic_error("words: " + key + " needs {" + name + "}");
    i = close;
    // A count of none after "only" reads as none: "in only 0 of 3 runs" is "in none of 3 runs",
    // "只有 0 次" is "没有一次".
    static const std::string only_en = "only ", only_zh = "只有 ", times_zh = " 次";
    const auto ends_with = [&out](const std::string& s) { return out.size() >= s.size() && out.compare(out.size() - s.size(), s.size(), s) == 0; };
    if (value->second == "0" && lang == Lang::en && ends_with(only_en)) {
      out.replace(out.size() - only_en.size(), only_en.size(), "none");
      continue;
    }
    if (value->second == "0" && lang == Lang::zh && ends_with(only_zh) && text.compare(i + 1, times_zh.size(), times_zh) == 0) {
      out.replace(out.size() - only_zh.size(), only_zh.size(), "没有一次");
      i += times_zh.size();
      continue;
    }
    out += value->second;
  }
  return out;
}

json words_table_json() {
  json table = json::object();
  for (const WordsRow& r : words_rows())
    for (size_t i = 0; i < std::size(kLangCodes); ++i) table[r.key][kLangCodes[i]] = text_in(r, static_cast<Lang>(i));
  return {{"languages", kLangCodes}, {"words", table}};
}

// ---- Numbers ----

namespace wording {

// A figure that rounds to zero is written without a sign ("0%", not "-0%").
std::string fmt(const char* format, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, x);
  const std::string out = buf;
  if (out[0] == '-' && out.find_first_of("123456789") == std::string::npos) return out.substr(1);
  return out;
}
std::string percent_like(double x, double like) { return fmt(std::fabs(like) < 0.1 ? "%.1f%%" : "%.0f%%", 100 * x); }
std::string percent(double x) { return percent_like(x, x); }
std::string points(double x) { return fmt("%.1f", std::fabs(100 * x) < 0.05 ? 0.0 : 100 * x); }
std::string number(double x) { return fmt(x == std::floor(x) && std::fabs(x) < 1e9 ? "%.0f" : "%.4g", x); }

std::string with_range(const json& s, const std::function<std::string(double)>& f, Lang lang, const std::string& unit) {
  if (s.is_null()) return "-";
  const std::string mean = f(s["mean"].get<double>()) + unit, lo = f(s["min"].get<double>()), hi = f(s["max"].get<double>());
  if (s["n"].get<int>() > 1 && lo != hi) return mean + (lang == Lang::zh ? "（" + lo + " 至 " + hi + "）" : " (" + lo + " to " + hi + ")");
  return mean;
}

std::string percent_range(const json& s, Lang lang) {
  if (s.is_null()) return with_range(s, percent, lang);
  const double mean = s["mean"].get<double>();
  return with_range(s, [mean](double x) { return percent_like(x, mean); }, lang);
}

namespace {

std::string count(const json& x) { return std::to_string(x.get<int>()); }
// A figure of a plain sentence: a count, a learning rate, a ratio, a percentage to one decimal.
std::string figure(const json& x, Lang lang) {
  if (x.is_null()) return words("plain_lr_none", lang);
  const double v = x.get<double>();
  return v == std::floor(v) ? fmt("%.0f", v) : number(v);
}

// "in 2 of 3 seeds", or "in the only seed".
std::string where(int k, int n, Lang lang) {
  return n == 1 ? words("lead_where_only", lang) : words("lead_where_k", lang, {{"k", std::to_string(k)}, {"n", std::to_string(n)}});
}
std::string ties(int k, Lang lang) {
  return k == 1 ? words("lead_ties_one", lang) : words("lead_ties_many", lang, {{"k", std::to_string(k)}});
}
bool is_rate_metric(const json& m) {
  const std::string name = m["metric"].get<std::string>();
  return name == "token_acc" || name == "exact" || name == "per" || name == "wer";
}

// A figure of f, or null where f lacks it (a spread without values words as "-").
const json& figure_of(const json& f, const char* key) {
  static const json null;
  return f.contains(key) ? f[key] : null;
}

// The seeds where a part holds, as the object of "in": never "0 of 3 seeds" or "1 of 1 seed".
std::string part_count(const json& part, Lang lang) {
  const int k = part["holds"].get<int>(), n = part["n"].get<int>();
  if (n == 1) return words(k ? "part_only_seed" : "part_not_only_seed", lang);
  return words(k ? "part_k_of_n" : "part_none_of_n", lang, {{"k", std::to_string(k)}, {"n", std::to_string(n)}});
}
// A part that held at step 0 too (claim 9: at the first probe): all its seeds ("as at step 0"), or
// some of them.
std::string at_init(const json& part, Lang lang, bool first_probe = false) {
  if (part["init_only"].get<bool>()) return words(first_probe ? "part_as_at_first_probe" : "part_as_at_init", lang);
  const int k = part["held_at_init"].get<int>();
  return k ? words(first_probe ? "part_at_first_probe_k" : "part_at_init_k", lang, {{"k", std::to_string(k)}}) : "";
}

// The two parts of claim 5, 6, 8 or 9, each with what it measured.
std::string parts_phrase(const json& claim, Lang lang) {
  const json& f = claim["figures"];
  const std::string share = percent(kConsistentShare);
  const auto x3 = [](double v) { return fmt("%.3f", v); };
  switch (claim["id"].get<int>()) {
    case 5:
      return words("parts5", lang,
                   {{"rows", percent_range(figure_of(f, "dominant_rows"), lang)},
                    {"rows_init", percent_range(figure_of(f, "dominant_rows_init"), lang)},
                    {"dominant", part_count(f["not_dominant"], lang)}, {"dominant_init", at_init(f["not_dominant"], lang)},
                    {"imb", fmt("%.1f", kHeadImbalance)},
                    {"imbalanced", part_count(f["imbalanced"], lang)}, {"imbalanced_init", at_init(f["imbalanced"], lang)},
                    {"share", share}});
    case 6:
      return words("parts6", lang, {{"change", percent(kScaleChange)}, {"adapts", part_count(f["adapts"], lang)},
                                    {"steadier", part_count(f["steadier"], lang)}, {"share", share}});
    case 8:
      return words("parts8", lang, {{"small", fmt("%.2f", 1 - kScaleChange)}, {"small_k", part_count(f["small"], lang)},
                                    {"small_init", at_init(f["small"], lang)},
                                    {"ratio", with_range(figure_of(f, "scale_ratio_first"), x3, lang)},
                                    {"protects", part_count(f["protects"], lang)}, {"share", share}});
    case 9:
      return words("parts9", lang, {{"reshapes", part_count(f["reshapes"], lang)},
                                    {"reshapes_init", at_init(f["reshapes"], lang, true)},
                                    {"balances", part_count(f["balances"], lang)},
                                    {"balances_init", at_init(f["balances"], lang, true)}, {"share", share}});
    default: return "";
  }
}

}  // namespace
}  // namespace wording

std::string verdict_words(Verdict v, Lang lang) { return words(std::string("v_") + code(v), lang); }

std::string group_words(const std::string& group, Lang lang) { return words("group_" + group, lang); }

std::string lead_words(const json& m, Lang lang) {
  using namespace wording;
  const int n = m["n"].get<int>(), tied = m["ties"].get<int>(), neither = m["neither"].get<int>();
  if (n == 0) return words("lead_no_pairs", lang);
  const std::string neither_text = neither ? words("lead_neither", lang, {{"k", std::to_string(neither)}}) : "";
  if (m["leader"].is_null()) {
    if (n == 1) return words(neither ? "lead_neither_only" : "lead_tied_only", lang);
    const std::string tally = words("lead_tally", lang, {{"a", m["a"].get<std::string>()}, {"b", m["b"].get<std::string>()},
                                                         {"ka", count(m["ahead_a"])}, {"kb", count(m["ahead_b"])},
                                                         {"ties", ties(tied, lang)}, {"neither", neither_text}, {"n", std::to_string(n)}});
    return words("lead_no_leader", lang, {{"tally", tally}});
  }
  const std::string a = m["a"].get<std::string>(), b = m["b"].get<std::string>();
  const std::string leader = m["leader"].get<std::string>(), other = leader == a ? b : a;
  const int k = m[leader == a ? "ahead_a" : "ahead_b"].get<int>(), k_other = m[leader == a ? "ahead_b" : "ahead_a"].get<int>();
  const bool clear = m["clear"].get<bool>(), consistent = m["consistent"].get<bool>(), acc = is_rate_metric(m);
  const std::string extra = (tied ? words("lead_extra_ties", lang, {{"ties", ties(tied, lang)}}) : "") + neither_text;
  // A lead in too few seeds names the other side's seeds too: every seed is counted.
  const std::string lead =
      consistent ? words("lead_ahead", lang, {{"leader", leader}, {"where", where(k, n, lang)}, {"extra", extra}})
                 : words("lead_split", lang, {{"leader", leader}, {"where", where(k, n, lang)}, {"other", other},
                                              {"k_other", std::to_string(k_other)}, {"extra", extra}});
  const bool censored = m["metric"] == "steps_to_loss_0_1" && m[leader == a ? "reached_b" : "reached_a"].get<int>() < n;
  const std::string avg = !clear && n > 1 ? words("lead_on_average", lang) : "";
  // The effect in the leader's favour, its mean and 95% interval: points, or percent of a ratio.
  const json& adv = m["advantage"];
  // Points to one decimal, two under 1 (a fraction of a point is a result on real words), as the
  // plain sentences give them.
  const auto size = [&](double x) {
    if (!acc) return percent_like(std::expm1(x), std::expm1(adv["mean"].get<double>()));
    return std::fabs(100 * x) < 1 ? fmt("%.2f", 100 * x) : points(x);
  };
  std::string gap = size(adv["mean"].get<double>()) + (acc ? words("lead_points_unit", lang) : "");
  if (adv["lo"].is_number())
    gap = words("lead_interval", lang, {{"x", gap}, {"lo", size(adv["lo"].get<double>())}, {"hi", size(adv["hi"].get<double>())}});
  const std::string metric = m["metric"].get<std::string>();
  const std::string gap_phrase = words(acc ? "lead_gap_points" : metric == "steps_to_loss_0_1" ? "lead_gap_steps"
                                       : metric == "per_area"                  ? "lead_gap_per_area"
                                                                                : "lead_gap_loss",
                                       lang,
                                       {{"lead", lead}, {"other", other}, {"gap", gap}, {"avg", avg},
                                        {"at_least", censored ? words("lead_at_least", lang) : ""}});
  if (clear) return gap_phrase;
  if (!consistent)
    return words("lead_not_consistent", lang, {{"gap_phrase", gap_phrase}, {"share", percent(kConsistentShare)}});
  // Ahead in enough seeds, but the interval is not past the size called clear: one seed has none,
  // a mean past it may have an interval reaching under it, or the mean is under it.
  const double threshold = acc ? kClearAccuracyGap : std::log1p(kClearSpeedGap);
  const std::string clear_size = acc ? words("lead_points", lang, {{"x", points(kClearAccuracyGap)}}) : percent(kClearSpeedGap);
  if (!adv["lo"].is_number()) return words("lead_one_seed", lang, {{"gap_phrase", gap_phrase}});
  return words(adv["mean"].get<double>() >= threshold ? "lead_interval_under_clear" : "lead_under_clear", lang,
               {{"gap_phrase", gap_phrase}, {"clear", clear_size}});
}

std::string reason_words(const json& claim, Lang lang) {
  using namespace wording;
  const json& f = claim["figures"];
  const std::string reason = claim["reason"].get<std::string>();
  Fill fill = {{"consistent", percent(kConsistentShare)}, {"clear", percent(kClearSpeedGap)},
               {"far", percent(kFarSpeedGap)}, {"far_points", points(kFarAccuracyGap)},
               {"ceiling", percent(kCeilingAccuracy)}, {"low", fmt("%.0f", 100 * kClaimedDropLow)},
               {"high", fmt("%.0f", 100 * kClaimedDropHigh)}, {"much", number(kMuchSmallerLr)},
               {"thr", number(kLossThreshold)}, {"trainable", percent(kTrainableShare)}};
  switch (reason_from_code(reason)) {
    case Reason::too_few_seeds: fill["n"] = count(f["n"]), fill["needed"] = count(f["needed"]); break;
    case Reason::still_learning: fill["steps"] = count(f["needs_more_than"]); break;
    case Reason::rates_incomplete: {
      std::string rates;
      for (const json& r : f["incomplete"])
        rates += (rates.empty() ? "" : lang == Lang::zh ? "，" : ", ") +
                 words("r_rate_item", lang, {{"variant", r["variant"].get<std::string>()}, {"lr", number(r["lr"].get<double>())},
                                             {"ended", count(r["ended"])}});
      fill["needed"] = count(f["needed"]);
      fill["rates"] = rates;
      break;
    }
    case Reason::one_seed_apart: {
      const json& r = f["one_seed_short"];
      fill["lr"] = number(r["lr"].get<double>()), fill["reached"] = count(r["reached"]), fill["ended"] = count(r["ended"]);
      break;
    }
    case Reason::adapts_only: fill["steadier"] = part_count(f["steadier"], lang); break;
    case Reason::runs_failed: {
      const int k = f["failed"].get<int>();
      fill["runs"] = k == 1 ? words("r_runs_failed_one", lang) : words("r_runs_failed_many", lang, {{"k", std::to_string(k)}});
      fill["error"] = f["error"].get<std::string>();
      break;
    }
    default: break;
  }
  // The two-part claims' reasons quote their parts.
  if (placeholders_of("r_" + reason).count("parts")) fill["parts"] = parts_phrase(claim, lang);
  return words("r_" + reason, lang, fill);
}

std::string plain_words(const json& plain, Lang lang) {
  using namespace wording;
  const json& f = plain["figures"];
  Fill fill = {{"low", fmt("%.0f", 100 * kClaimedDropLow)}, {"high", fmt("%.0f", 100 * kClaimedDropHigh)},
               {"much", number(kMuchSmallerLr)}, {"clear", percent(kClearSpeedGap)}};
  for (const auto& [name, value] : f.items()) fill[name] = figure(value, lang);
  // A gap as a learner reads it: whole numbers from 10 up ("44%"), one decimal under ("4.5%"), two
  // under 1 ("0.23 points").
  const auto gap = [](double x) { return fmt(std::fabs(x) < 1 ? "%.2f" : std::fabs(x) < 10 ? "%.1f" : "%.0f", x); };
  for (const char* key : {"gap_pct", "gap_points"}) {
    if (!f.contains(key) || !f[key].is_number()) continue;
    const std::string unit = std::string("plain_") + key;
    fill["gap"] = words(unit, lang, {{"x", gap(f[key].get<double>())}});
    // The gap's 95% interval, in the gap's unit; none with one seed.
    const bool interval = f.contains("gap_lo") && f["gap_lo"].is_number();
    // The ends in the gap's unit for a percentage ("2.6% to 4.6%"), bare for points ("0.08 to 0.39").
    const auto end = [&](const char* k) {
      const std::string x = gap(f[k].get<double>());
      return std::string(key) == "gap_pct" ? words(unit, lang, {{"x", x}}) : x;
    };
    fill["interval"] = interval ? words("plain_interval", lang, {{"lo", end("gap_lo")}, {"hi", end("gap_hi")}}) : "";
    // A lead whose whole interval is on its side is real, however small.
    fill["real"] = interval && f["gap_lo"].get<double>() > 0 ? words("plain_real", lang) : "";
  }
  // Claim 1's measure: held-out PER on real words (`metric` per_area), else the training loss.
  fill["measure"] = words(plain.value("metric", "") == "per_area" ? "plain_measure_per_area" : "plain_measure_loss", lang);
  for (const char* ratio : {"ratio", "ratio_init"})
    if (f.contains(ratio) && f[ratio].is_number()) fill[ratio] = fmt("%.3f", f[ratio].get<double>());
  return words("plain_" + plain["code"].get<std::string>(), lang, fill);
}

std::string statement_words(int id, Lang lang) { return words("claim_" + std::to_string(id), lang); }

std::string headline_words(const json& analysis, Lang lang) {
  // The toy tasks' claims; real words' alone when the toy tasks tested none (a real-words input).
  bool toy = false;
  for (const json& c : analysis["claims"]) toy = toy || c["reason"] != code(Reason::experiment_absent);
  const bool words_only = !toy && analysis.contains("words_claims") && !analysis["words_claims"].empty();
  const json& claims = analysis[words_only ? "words_claims" : "claims"];
  std::map<std::string, int> counts;
  for (const json& c : claims) ++counts[c["verdict"].get<std::string>()];
  const auto count = [&](Verdict v) { return counts[code(v)]; };
  std::vector<std::string> parts;
  for (Verdict v : {Verdict::supported, Verdict::partly_supported, Verdict::not_supported})
    if (count(v) > 0) parts.push_back(words("headline_" + std::string(code(v)), lang, {{"k", std::to_string(count(v))}}));
  std::string joined = parts.empty() ? words("headline_none", lang) : parts[0];
  for (size_t i = 1; i < parts.size(); ++i)
    joined += words(i + 1 == parts.size() ? "headline_and" : "headline_comma", lang) + parts[i];
  std::string rest;
  for (Verdict v : {Verdict::not_decided, Verdict::not_tested})
    if (count(v) > 0) rest += words("headline_" + std::string(code(v)), lang, {{"k", std::to_string(count(v))}});
  return words(words_only ? "headline_words" : "headline", lang,
               {{"n", std::to_string(claims.size())}, {"parts", joined}, {"rest", rest}});
}

json claim_words(const json& c, Lang lang) {
  const json& f = c["figures"];
  return {{"id", c["id"]},
          {"group", c["group"]},
          {"statement", statement_words(c["id"].get<int>(), lang)},
          {"verdict", verdict_words(verdict_from_code(c["verdict"].get<std::string>()), lang)},
          {"reason", reason_words(c, lang)},
          {"plain", plain_words(c.contains("plain") ? c["plain"] : plain_of(c), lang)},
          {"lead", f.contains("comparison") ? json(lead_words(f["comparison"], lang)) : json(nullptr)}};
}

json analysis_words(const json& analysis, Lang lang) {
  json groups = json::array(), statements = json::array();
  for (const ClaimGroup& g : kClaimGroups) {
    groups.push_back({{"code", g.code}, {"title", group_words(g.code, lang)}, {"claims", g.claims}});
    for (int id : g.claims)
      statements.push_back({{"id", id},
                            {"text", statement_words(id, lang)},
                            {"says", words("claim_says", lang, {{"statement", statement_words(id, lang)}})}});
  }
  json claims = json::array(), words_claims = json::array();
  for (const json& c : analysis["claims"]) claims.push_back(claim_words(c, lang));
  for (const json& c : analysis["words_claims"]) words_claims.push_back(claim_words(c, lang));
  json purpose = json::array();
  if (analysis.contains("experiments"))
    for (const json& e : analysis["experiments"]) {
      const json& f = e["finding"];
      if (!f.is_object() || !f.contains("decomposition") || f["decomposition"].is_null()) continue;
      json p = {{"experiment", e["experiment"]},
                {"d_model", e["run_config"]["model"]["d_model"]},
                {"heads", e["run_config"]["model"]["heads"]}};
      p.update(decomposition_words(f["decomposition"], lang));
      purpose.push_back(p);
    }
  return {{"lang", kLangCodes[static_cast<size_t>(lang)]},
          {"purpose", purpose},
          {"groups", groups},
          {"statements", statements},
          {"headline", claims.empty() ? json(nullptr) : json(headline_words(analysis, lang))},
          {"claims", claims},
          {"words_claims", words_claims}};
}

}  // namespace wolab
