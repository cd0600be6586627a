// What W_o is for, worded (words.h): the decomposition of learned's lead over identity by the
// controls (decompose.cpp), from the words table, for the CLI and the page.
#include <cmath>

#include "analysis/words.h"

namespace wolab {

using json = nlohmann::json;

namespace {

using wording::fmt;

// A share of the lead in percent, whole numbers ("87%", "-12%").
std::string share_percent(double x) { return fmt("%.0f%%", 100 * x); }

// "87% (61% to 104%)", or "87%" without an interval.
std::string share_words(const json& share, Lang lang) {
  std::string out = share_percent(share["mean"].get<double>());
  if (share["lo"].is_null()) return out;
  return out + words("plain_interval", lang, {{"lo", share_percent(share["lo"].get<double>())},
                                              {"hi", share_percent(share["hi"].get<double>())}});
}

// An effect in the favour of the first variant of its pair: points of PER, or the other's loss
// that much higher (e^x - 1, in percent); its interval after it, bare ("0.23 points (0.08 to
// 0.39)").
std::string effect_words(const json& effect, Lang lang) {
  const bool log_ratio = effect["scale"] == "log_ratio";
  // Points as the plain sentences write a gap: two decimals under 1, one under 10, whole above.
  const auto number = [&](double x) {
    if (log_ratio) return fmt("%.0f%%", 100 * std::expm1(x));
    const double p = 100 * x;
    return fmt(std::fabs(p) < 1 ? "%.2f" : std::fabs(p) < 10 ? "%.1f" : "%.0f", p);
  };
  const std::string mean = number(effect["mean"].get<double>());
  std::string out = log_ratio ? mean : words("plain_gap_points", lang, {{"x", mean}});
  if (effect["lo"].is_null()) return out;
  return out + words("plain_interval", lang, {{"lo", number(effect["lo"].get<double>())}, {"hi", number(effect["hi"].get<double>())}});
}

}  // namespace

json decomposition_words(const json& d, Lang lang) {
  const std::string measure = words(std::string("purpose_measure_") + d["measure"].get<std::string>(), lang);
  const std::string lead = d["lead"].is_null() ? "-" : effect_words(d["lead"], lang);
  const Fill fill = {{"measure", measure}, {"lead", lead}, {"n", std::to_string(d["n"].get<int>())}};
  json controls = json::array();
  std::string mixing;
  for (const json& c : d["controls"]) {
    const std::string v = c["variant"].get<std::string>();
    const std::string share = c["share"].is_null() ? "" : share_words(c["share"], lang);
    if (v == "block_diagonal") mixing = share;
    const std::string name = words("purpose_" + v, lang);
    controls.push_back({{"variant", v},
                        {"name", name},
                        {"share", c["share"].is_null() ? json(nullptr) : json(share)},
                        {"line", c["share"].is_null() ? json(nullptr) : json(words("purpose_control", lang, {{"name", name}, {"share", share}}))},
                        {"gap", c["effect"].is_null() ? json(nullptr) : json(effect_words(c["effect"], lang))}});
  }
  Fill answer = fill;
  answer["share"] = mixing;
  // Mixing matters, and without it the per-head projection does worse than no W_o at all.
  std::string code = d["code"].get<std::string>();
  for (const json& c : d["controls"])
    if (code == "mixing_matters" && c["variant"] == "block_diagonal" && c["share"]["mean"].get<double>() < 0) code += "_worse";
  return {{"lead", words("purpose_lead", lang, fill)},
          {"answer", words("purpose_" + code, lang, answer)},
          {"controls", controls}};
}

}  // namespace wolab
