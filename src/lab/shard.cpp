#include "lab/shard.h"

#include <cinttypes>
#include <cstdio>
#include <optional>

#include "io/json_input.h"
#include "io/messages.h"
#include "lab/plan.h"
#include "lab/results.h"

namespace wolab {

using json = nlohmann::json;

namespace {

constexpr char kShardFormat[] = "wolab-shard";

// FNV-1a (64 bits) of the plan's JSON, which holds every run's config, what it keeps and its
// cost: two files of the same digest were cut from the same plan by the same slicing.
std::string plan_digest(const std::vector<PlannedRun>& plan) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : json_text(plan_json(plan))) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016" PRIx64, h);
  return hex;
}

std::string slice_name(int index, int count) { return std::to_string(index) + "/" + std::to_string(count); }

// A record is the planned run's: same variant, seed, learning rate and clip.
bool is_run_of(const json& record, const PlannedRun& run) {
  const TrainConfig& t = run.config.train;
  return record.is_object() && record.value("variant", json()) == to_string(run.config.model.wo) &&
         record.value("seed", json()) == t.seed && record.value("lr", json()) == decimal_float(t.lr) &&
         record.value("clip", json()) == decimal_float(t.clip);
}

// One shard file, checked on its own and against the plan its config makes.
struct Shard {
  std::string name;
  ExperimentConfig config;
  json config_json;  // as the file holds it, fully defaulted
  std::vector<PlannedRun> plan;
  int index = 0, count = 0;
  std::vector<size_t> runs;  // plan indices, in plan order
  std::vector<json> records;
};

[[noreturn]] void refuse(const std::string& name, const std::string& what) {
  throw ConfigError("merge: " + escape_controls(name) + ": " + what);
}

const json& member(const json& obj, const char* key, const std::string& name) {
  if (!obj.is_object() || !obj.contains(key)) refuse(name, std::string("corrupt: no \"") + key + "\"");
  return obj[key];
}

int integer(const json& v, const std::string& where, int lo, int hi, const std::string& name) {
  if (!v.is_number_integer() || v.get<int64_t>() < lo || v.get<int64_t>() > hi)
    refuse(name, "corrupt: " + where + ": expected an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
  return v.get<int>();
}

Shard read_shard(const ShardText& file) {
  const std::string& name = file.name;
  std::string problem;
  const std::optional<json> parsed = parse_json(file.text, problem);
  if (!parsed) refuse(name, "corrupt: not valid JSON (" + problem + ")");
  const json& j = *parsed;
  if (!j.is_object() || !j.contains("format") || j["format"] != kShardFormat) {
    if (j.is_object() && j.value("format", json()) == "wolab-results")
      refuse(name, "a results file, not a shard file; wolab report reads it as it is");
    refuse(name, "not a shard file of wolab run --shard (no \"format\": \"wolab-shard\")");
  }
  const json& version = member(j, "version", name);
  if (version != kShardVersion)
    refuse(name, "shard file version " + escape_controls(version.dump()) + "; this wolab reads version " +
                     std::to_string(kShardVersion));
  const json& created_by = member(j, "created_by", name);
  const std::string mine = std::string("wolab ") + kVersion;
  if (created_by != mine)
    refuse(name, "written by " + (created_by.is_string() ? escape_controls(created_by.get<std::string>()) : "?") +
                     ", this is " + mine + "; merge with the wolab that trained the slices");

  Shard s;
  s.name = name;
  const json& plan = member(j, "plan", name);
  s.config_json = member(plan, "config", name);
  std::vector<std::string> problems;
  s.config = read_config(s.config_json, problems);
  if (problems.empty()) problems = validate(s.config);
  if (!problems.empty()) refuse(name, "corrupt: plan.config." + problems.front());
  if (config_json(s.config) != s.config_json) refuse(name, "corrupt: plan.config is not a fully defaulted config");
  try {
    s.plan = plan_runs(s.config, {s.config.experiment});
  } catch (const ConfigError& e) {
    refuse(name, std::string("corrupt: plan.config.") + e.what());
  }
  if (member(plan, "digest", name) != plan_digest(s.plan) || member(plan, "runs", name) != s.plan.size())
    refuse(name, "its plan's digest or size is not that of its config: written by another build of " + mine + "?");

  const json& slice = member(j, "slice", name);
  const int max_count = static_cast<int>(s.plan.size());
  s.count = integer(member(slice, "count", name), "slice.count", 1, max_count, name);
  s.index = integer(member(slice, "index", name), "slice.index", 1, s.count, name);
  const std::vector<size_t> expected = shard_plan(s.plan, s.count)[static_cast<size_t>(s.index - 1)];
  if (member(slice, "runs", name) != expected)
    refuse(name, "corrupt: slice.runs are not the runs of slice " + slice_name(s.index, s.count) + " of its plan");
  s.runs = expected;

  const json& records = member(j, "records", name);
  if (!records.is_array() || records.size() != expected.size())
    refuse(name, "corrupt: expected " + std::to_string(expected.size()) + " records, one per run of slice " +
                     slice_name(s.index, s.count));
  for (size_t i = 0; i < records.size(); ++i) {
    const PlannedRun& run = s.plan[expected[i]];
    const std::string where = "records[" + std::to_string(i) + "]";
    try {
      check_record(s.config, run.experiments.front(), records[i], where);
    } catch (const ConfigError& e) {
      refuse(name, std::string("corrupt: ") + e.what());
    }
    if (!is_run_of(records[i], run))
      refuse(name, "corrupt: " + where + " is not plan run " + std::to_string(expected[i] + 1) + " (" +
                       to_string(run.config.model.wo) + ", seed " + std::to_string(run.config.train.seed) + ")");
  }
  s.records = records.get<std::vector<json>>();
  return s;
}

// Where two configs first differ, e.g. "/train/steps: 30 vs 20".
std::string first_difference(const json& a, const json& b) {
  const json patch = json::diff(b, a);  // turns b into a
  if (patch.empty()) return "";
  const std::string path = patch[0].value("path", std::string());
  const json::json_pointer at(path);
  auto shown = [&](const json& j) { return j.contains(at) ? j.at(at).dump() : std::string("nothing"); };
  return path + ": " + escape_controls(shown(a)) + " vs " + escape_controls(shown(b));
}

}  // namespace

json shard_file(const ExperimentConfig& cfg, int index, int count, std::vector<json> records) {
  const auto problems = validate(cfg);
  if (!problems.empty()) throw ConfigError(problems.front());
  const std::vector<PlannedRun> plan = plan_runs(cfg, {cfg.experiment});
  const auto slices = shard_plan(plan, count);
  if (index < 1 || index > count) throw ConfigError("slice " + slice_name(index, count) + " is not a slice");
  const std::vector<size_t>& runs = slices[static_cast<size_t>(index - 1)];
  if (records.size() != runs.size())
    throw ConfigError("shard: " + std::to_string(records.size()) + " records for the " + std::to_string(runs.size()) +
                      " runs of slice " + slice_name(index, count));
  for (size_t i = 0; i < runs.size(); ++i)
    if (!is_run_of(records[i], plan[runs[i]]))
      throw ConfigError("shard: record " + std::to_string(i) + " is not plan run " + std::to_string(runs[i] + 1));
  return {{"format", kShardFormat},
          {"version", kShardVersion},
          {"created_by", std::string("wolab ") + kVersion},
          {"plan", {{"digest", plan_digest(plan)}, {"runs", plan.size()}, {"config", config_json(cfg)}}},
          {"slice", {{"index", index}, {"count", count}, {"runs", runs}}},
          {"records", std::move(records)}};
}

Merged merge_shards(const std::vector<ShardText>& files) {
  if (files.empty())
    throw ConfigError("merge: no shard file; give every slice's, e.g. wolab merge results-shard-*-of-8.json --out results.json");
  std::vector<Shard> shards;
  std::vector<const Shard*> by_index;  // (count) the file of each slice, null while none
  for (const ShardText& file : files) {
    shards.push_back(read_shard(file));
    const Shard& s = shards.back();
    const Shard& first = shards.front();
    if (s.config_json != first.config_json)
      refuse(s.name, "a slice of another plan than " + escape_controls(first.name) + "'s (config differs at " +
                         first_difference(s.config_json, first.config_json) + ")");
    if (s.count != first.count)
      refuse(s.name, "slice " + slice_name(s.index, s.count) + ", but " + escape_controls(first.name) +
                         " is a slice of " + std::to_string(first.count) + ": the plan was cut differently");
    by_index.resize(static_cast<size_t>(first.count), nullptr);
  }
  // Pointers into `shards` only once it no longer grows.
  for (const Shard& s : shards) {
    const Shard*& seen = by_index[static_cast<size_t>(s.index - 1)];
    if (seen)
      refuse(s.name, "slice " + slice_name(s.index, s.count) +
                         (seen->name == s.name ? " given twice" : " again, already in " + escape_controls(seen->name)));
    seen = &s;
  }
  std::string missing;
  int n_missing = 0;
  for (size_t i = 0; i < by_index.size(); ++i)
    if (!by_index[i]) {
      missing += (missing.empty() ? "" : ", ") + slice_name(static_cast<int>(i + 1), static_cast<int>(by_index.size()));
      ++n_missing;
    }
  if (n_missing > 0)
    throw ConfigError(std::string("merge: slice") + (n_missing > 1 ? "s " : " ") + missing + " missing: give the shard file of every slice of the plan (" +
                      std::to_string(shards.size()) + " of " + std::to_string(by_index.size()) + " given)");

  const Shard& first = shards.front();
  std::vector<json> records(first.plan.size());
  for (const Shard& s : shards)
    for (size_t i = 0; i < s.runs.size(); ++i) records[s.runs[i]] = s.records[i];
  return {first.config, experiment_results(first.config, first.plan, records)};
}

}  // namespace wolab
