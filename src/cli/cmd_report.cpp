// `wolab report`: the analysis of results files, as text or as the page's JSON.
#include "cli/commands.h"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/analysis.h"
#include "cli/args.h"
#include "config/languages.h"
#include "io/safetensors.h"
#include "lab/config.h"
#include "lab/results.h"

namespace wolab::cli {

namespace {

using json = nlohmann::json;

void print_report_help() {
  std::cout << kUsage << "\nwolab report FILE...: reads results files written by `wolab run` (or the page) and\n"
               "prints, per experiment, whether each variant converged and the paired comparisons of\n"
               "its variants seed by seed, then a verdict on each of the article's claims\n"
               "(rules: docs/claims.md). A bad file exits 2 with one line naming it.\n"
               "--json (first): prints instead the analysis itself, one JSON document, as the page gets\n"
               "it from the core's analyze (docs/claims.md); scripts/record.sh records it beside the\n"
               "results the page shows on load.\n"
               "--lang zh (first, or after --json): the plain summary at the top in Chinese (the\n"
               "details stay in English); en is the default.\n";
}

}  // namespace

int report_command(const std::vector<std::string>& args) {
  if (asks_help(args)) {
    print_report_help();
    return 0;
  }
  auto next = args.begin();
  const bool as_json = next != args.end() && *next == "--json";
  if (as_json) ++next;
  Lang lang = Lang::en;
  if (next != args.end() && *next == "--lang") {
    if (++next == args.end()) throw ConfigError("--lang: missing; use " + lang_choices());
    const std::optional<Lang> code = lang_of(*next);
    if (!code) throw ConfigError("--lang: \"" + *next + "\" is not a language of the words; use " + lang_choices());
    lang = *code;
    ++next;
  }
  const std::vector<std::string> files(next, args.end());
  if (files.empty()) throw ConfigError("report: no results file; give one or more, e.g. wolab report results.json");
  std::vector<json> results;
  for (const std::string& path : files) {
    if (path.rfind("--", 0) == 0) throw ConfigError(path + ": unknown flag; see wolab report --help");
    try {
      const std::vector<uint8_t> bytes = read_file_bytes(path);
      results.push_back(parse_results(std::string(bytes.begin(), bytes.end())));
    } catch (const ConfigError& e) {
      throw ConfigError(path + ": " + e.what());
    }
  }
  const json analysis = analyze(results);
  if (as_json)
    std::printf("%s\n", analysis.dump().c_str());
  else
    std::printf("%s", format_analysis(analysis, lang).c_str());
  return 0;
}

}  // namespace wolab::cli
