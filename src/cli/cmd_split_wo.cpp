// `wolab split-wo`: a results file with its W_o snapshots moved into binary files beside it.
#include "cli/commands.h"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/args.h"
#include "cli/outputs.h"
#include "io/safetensors.h"
#include "lab/config.h"
#include "lab/results.h"
#include "lab/wo_files.h"

namespace wolab::cli {

namespace {

using json = nlohmann::json;

void print_split_help() {
  std::cout << kUsage << "\nwolab split-wo IN.json --out OUT.json: writes the results file IN as OUT with each\n"
               "run's W_o snapshots moved to OUT-stem.<variant>.seed<N>.safetensors beside it, in\n"
               "float16 (lab/wo_files.h, docs/results.md); OUT keeps each snapshot's figures, so\n"
               "`wolab report OUT.json` prints what `wolab report IN.json` prints. OUT may be IN.\n";
}

}  // namespace

int split_command(const std::vector<std::string>& args) {
  if (asks_help(args)) {
    print_split_help();
    return 0;
  }
  if (args.empty()) throw ConfigError("split-wo: no results file; e.g. wolab split-wo results.wo_heatmap.json --out r.json");
  const std::string in = args.front();
  std::string out;
  for (const auto& [flag, value] : flag_pairs({args.begin() + 1, args.end()})) {
    if (flag != "--out") throw ConfigError(flag + ": unknown flag; see wolab split-wo --help");
    out = value;
  }
  if (out.empty()) throw ConfigError("--out: missing; give the results file to write, e.g. --out r.json");
  json results;
  try {
    const std::vector<uint8_t> bytes = read_file_bytes(in);
    results = parse_results(std::string(bytes.begin(), bytes.end()));
  } catch (const ConfigError& e) {
    throw ConfigError(in + ": " + e.what());
  }
  const size_t slash = out.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "" : out.substr(0, slash + 1);
  std::string stem = out.substr(folder.size());
  if (stem.size() > 5 && stem.compare(stem.size() - 5, 5, ".json") == 0) stem.resize(stem.size() - 5);
  check_writable("--out", out);
  const WoSplit split = split_wo_snapshots(std::move(results), stem);
  std::vector<std::string> written;
  try {
    for (const WoFile& f : split.files) {
      write_file_atomic(folder + f.name, f.bytes);
      written.push_back(folder + f.name);
    }
    write_file_atomic(out, json_text(split.results) + "\n");
    written.push_back(out);
  } catch (...) {
    for (const std::string& path : written) std::remove(path.c_str());  // all or nothing
    throw;
  }
  for (const std::string& path : written) std::printf("wrote %s\n", path.c_str());
  return 0;
}

}  // namespace wolab::cli
