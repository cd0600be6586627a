// `wolab merge`: joins the shard files of a plan's slices into the results files of the whole plan.
#include "cli/commands.h"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/outputs.h"
#include "io/messages.h"
#include "io/safetensors.h"
#include "lab/config.h"
#include "lab/shard.h"

namespace wolab::cli {

namespace {

void print_merge_help() {
  std::cout << kUsage << "\nwolab merge SHARD_FILE... --out results.json: joins the shard files that\n"
               "`wolab run --shard K/N --out results.json` wrote, one per slice, into the results files\n"
               "`wolab run --out results.json` writes for the whole plan (results.<experiment>.json\n"
               "under --experiment all). Files of different plans or wolab versions, a slice missing\n"
               "or given twice, or a file that is not whole exit 2 with one line naming it.\n";
}

}  // namespace

// `wolab merge SHARD_FILE... --out FILE`
int merge_command(const std::vector<std::string>& args) {
  if (asks_help(args)) {
    print_merge_help();
    return 0;
  }
  const auto [files, flags] = operands_and_flags(args);
  std::string out;
  for (const auto& [flag, value] : flag_pairs(flags)) {
    if (flag != "--out") throw ConfigError(flag + ": unknown flag; see wolab merge --help");
    out = value;
  }
  if (out.empty()) throw ConfigError("--out: missing; give the results file to write, e.g. --out results.json");
  std::vector<ShardText> texts;
  for (const std::string& path : files) {
    std::vector<uint8_t> bytes;
    try {
      bytes = read_file_bytes(path);
    } catch (const ConfigError& e) {
      throw ConfigError("merge: " + escape_controls(path) + ": " + e.what());
    }
    texts.push_back({path, std::string(bytes.begin(), bytes.end())});
  }
  const Merged merged = merge_shards(texts);
  const std::vector<std::string> outputs = results_paths(merged.config, out);
  for (const std::string& path : outputs) check_writable("--out", path);
  write_all(outputs, [&](size_t i) { return merged.results[i].dump() + "\n"; });
  for (const std::string& path : outputs) std::printf("wrote %s\n", path.c_str());
  return 0;
}

}  // namespace wolab::cli
