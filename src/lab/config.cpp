// Config parsing, validation and limits. One table (kSettings) names every setting once, with its
// JSON path, CLI flag and allowed range (its help, in every language, is settings_help.cpp's);
// JSON reading, JSON writing, CLI flags, `--help` and validate() all walk it, so the rules and
// their messages cannot drift apart.
#include "lab/config.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "io/json_input.h"
#include "io/strtod.h"
#include "lab/experiment.h"
#include "lab/settings_help.h"
#include "run/memory_estimate.h"
#include "run/tasks.h"

namespace wolab {

using json = nlohmann::json;

namespace {

// The experiments of experiment.cpp's table, and "all" for every one of them.
const std::vector<std::string> kExperimentNames = [] {
  std::vector<std::string> names;
  for (const ExperimentInfo& e : experiments()) names.push_back(e.name);
  names.push_back("all");
  return names;
}();


}  // namespace

// nlohmann's hooks for the enums (found by ADL); values are checked against the table first.
static void from_json(const json& j, WoMode& m) { m = *wo_mode_from_string(j.get<std::string>()); }
static void from_json(const json& j, LnPlace& p) { p = *ln_place_from_string(j.get<std::string>()); }
static void from_json(const json& j, TaskKind& t) { t = *task_kind_from_string(j.get<std::string>()); }
static void from_json(const json& j, LrSchedule& s) { s = *lr_schedule_from_string(j.get<std::string>()); }




double decimal_float(float x) {
  if (!std::isfinite(x)) return x;
  // Grisu2's shortest digits for a float (nlohmann's dtoa, which the dump then prints for the
  // double), read back by parse_double's exact fast path: snprintf and strtod per digit count
  // were slow in wasm, and a W_o snapshot is d_model² of them.
  char text[32];
  *nlohmann::detail::to_chars(text, text + sizeof text - 1, x) = '\0';
  return parse_double(text, nullptr);
}

namespace {

// reals: an increasing list of 1..kMaxReals distinct numbers, each in the setting's range.
enum class Kind { integer, real, choice, reals };
constexpr size_t kMaxReals = 12;

constexpr double kMaxSeed = 9007199254740992.0;  // 2^53: the largest integer JS numbers hold exactly
// "No upper limit" for a float field: the largest float, since a larger value would be stored
// as infinity, which JSON cannot write back.
constexpr double kUnbounded = std::numeric_limits<float>::max();

json value_of(int v) { return v; }
json value_of(uint64_t v) { return v; }
json value_of(float v) { return decimal_float(v); }
json value_of(const std::string& v) { return v; }
json value_of(const std::vector<float>& v) {
  json a = json::array();
  for (float x : v) a.push_back(decimal_float(x));
  return a;
}
template <class E, class = std::enable_if_t<std::is_enum<E>::value>>
json value_of(E v) { return to_string(v); }

// A setting: JSON path, the page's short name for it (form field and URL parameter), CLI flag,
// allowed values, and access to its field.
struct Setting {
  const char* path;
  const char* key;
  const char* flag;
  const char* metavar;
  Kind kind;
  double lo, hi;  // integer and real: allowed range [lo, hi] ((lo, hi] when lo_open)
  bool lo_open;
  const std::vector<std::string>* choices;  // choice: the allowed strings
  json (*get)(const ExperimentConfig&);
  void (*set)(ExperimentConfig&, const json&);  // the value has passed check()
};

#define FIELD(member)                                                   \
  [](const ExperimentConfig& c) { return value_of(c.member); },         \
  [](ExperimentConfig& c, const json& v) { v.get_to(c.member); }

// Every setting with its limits. The ranges keep one run within kMaxRunBytes' reach and the
// model meaningful (heads must divide d_model; see validate()).
const Setting kSettings[] = {
    {"experiment", "experiment", "--experiment", "E", Kind::choice, 0, 0, false, &kExperimentNames, FIELD(experiment)},
    {"seeds", "seeds", "--seeds", "N", Kind::integer, 1, 100, false, nullptr, FIELD(seeds)},
    {"model.d_model", "d_model", "--d-model", "N", Kind::integer, 1, 1024, false, nullptr, FIELD(base.model.d_model)},
    {"model.heads", "heads", "--heads", "N", Kind::integer, 1, 64, false, nullptr, FIELD(base.model.heads)},
    {"model.layers", "layers", "--layers", "N", Kind::integer, 1, 12, false, nullptr, FIELD(base.model.layers)},
    {"model.d_ff", "d_ff", "--d-ff", "N", Kind::integer, 1, 4096, false, nullptr, FIELD(base.model.d_ff)},
    {"model.ln", "ln", "--ln", "P", Kind::choice, 0, 0, false, &kLnNames, FIELD(base.model.ln)},
    {"model.wo", "wo", "", "W", Kind::choice, 0, 0, false, &kWoNames, FIELD(base.model.wo)},
    {"task.name", "task", "--task", "T", Kind::choice, 0, 0, false, &kTaskNames, FIELD(base.task.kind)},
    {"task.alphabet", "alphabet", "--alphabet", "N", Kind::integer, 2, 64, false, nullptr, FIELD(base.task.alphabet)},
    {"task.length", "length", "--length", "N", Kind::integer, 1, 64, false, nullptr, FIELD(base.task.length)},
    {"task.heldout", "heldout", "--heldout", "N", Kind::integer, 16, 4096, false, nullptr, FIELD(base.task.heldout)},
    {"train.steps", "steps", "--steps", "N", Kind::integer, 1, 1000000, false, nullptr, FIELD(base.train.steps)},
    {"train.batch", "batch", "--batch", "N", Kind::integer, 1, 1024, false, nullptr, FIELD(base.train.batch)},
    {"train.lr", "lr", "--lr", "X", Kind::real, 0, 1, true, nullptr, FIELD(base.train.lr)},
    {"train.schedule", "schedule", "--schedule", "S", Kind::choice, 0, 0, false, &kScheduleNames, FIELD(base.train.schedule)},
    {"train.warmup", "warmup", "--warmup", "N", Kind::integer, 0, 1000000, false, nullptr, FIELD(base.train.warmup)},
    {"train.lr_min", "lr_min", "--lr-min", "X", Kind::real, 0, 1, false, nullptr, FIELD(base.train.lr_min)},
    {"train.clip", "clip", "--clip", "X", Kind::real, 0, kUnbounded, false, nullptr, FIELD(base.train.clip)},
    {"train.probe_every", "probe_every", "--probe-every", "N", Kind::integer, 1, 1000000, false, nullptr, FIELD(base.train.probe_every)},
    {"train.loss_every", "loss_every", "--loss-every", "N", Kind::integer, 1, 1000000, false, nullptr, FIELD(base.train.loss_every)},
    {"train.seed", "seed", "--seed", "N", Kind::integer, 0, kMaxSeed, false, nullptr, FIELD(base.train.seed)},
    {"lr_stability.lrs", "lrs", "--lrs", "X,Y,..", Kind::reals, 0, 1, true, nullptr, FIELD(lr_stability.lrs)},
    {"lr_stability.clip", "stability_clip", "--stability-clip", "X", Kind::real, 0, kUnbounded, false, nullptr, FIELD(lr_stability.clip)},
    {"real_words.d_model", "words_d_model", "--words-d-model", "N", Kind::integer, 1, 1024, false, nullptr, FIELD(real_words.d_model)},
    {"real_words.heads", "words_heads", "--words-heads", "N", Kind::integer, 1, 64, false, nullptr, FIELD(real_words.heads)},
    {"real_words.layers", "words_layers", "--words-layers", "N", Kind::integer, 1, 12, false, nullptr, FIELD(real_words.layers)},
    {"real_words.d_ff", "words_d_ff", "--words-d-ff", "N", Kind::integer, 1, 4096, false, nullptr, FIELD(real_words.d_ff)},
    {"real_words.steps", "words_steps", "--words-steps", "N", Kind::integer, 1, 1000000, false, nullptr, FIELD(real_words.steps)},
    {"real_words.batch", "words_batch", "--words-batch", "N", Kind::integer, 1, 1024, false, nullptr, FIELD(real_words.batch)},
    {"real_words.probe_every", "words_probe_every", "--words-probe-every", "N", Kind::integer, 1, 1000000, false,
     nullptr, FIELD(real_words.probe_every)},
    {"real_words.heldout", "words_heldout", "--words-heldout", "N", Kind::integer, 16, 4096, false, nullptr, FIELD(real_words.heldout)},
};

#undef FIELD

std::string join(const std::vector<std::string>& items, const char* sep, const char* last_sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += (i + 1 == items.size()) ? last_sep : sep;
    out += items[i];
  }
  return out;
}

std::string allowed(const Setting& s) {
  switch (s.kind) {
    case Kind::integer:
      return "an integer in " + format_number(s.lo) + ".." + format_number(s.hi);
    case Kind::real:
      if (s.hi == kUnbounded) return "a number >= " + format_number(s.lo);
      return std::string("a number in ") + (s.lo_open ? "(" : "[") + format_number(s.lo) + ", " +
             format_number(s.hi) + "]";
    case Kind::choice:
      return join(*s.choices, ", ", " or ");
    case Kind::reals:
      return "1 to " + std::to_string(kMaxReals) + " increasing numbers in " + (s.lo_open ? "(" : "[") +
             format_number(s.lo) + ", " + format_number(s.hi) + "]";
  }
  return "";
}

const char* type_name(const json& v) {
  if (v.is_string()) return "a string";
  if (v.is_boolean()) return "a boolean";
  if (v.is_null()) return "null";
  if (v.is_array()) return "an array";
  if (v.is_object()) return "an object";
  return "a number";
}

std::optional<json> check_reals(const Setting& s, const json& v, std::string& problem);

// `v` as the setting stores it, or the problem with it (then `problem` is set, without the path).
std::optional<json> check(const Setting& s, const json& v, std::string& problem) {
  if (s.kind == Kind::reals) return check_reals(s, v, problem);
  if (s.kind == Kind::choice) {
    if (!v.is_string()) {
      problem = std::string("expected a string, got ") + type_name(v);
      return std::nullopt;
    }
    for (const auto& c : *s.choices)
      if (c == v.get<std::string>()) return v;
    problem = "unknown value " + in_quotes(v.get<std::string>());
    return std::nullopt;
  }
  if (!v.is_number()) {
    problem = std::string("expected a number, got ") + type_name(v);
    return std::nullopt;
  }
  // JSON integers are compared exactly: 2^53 + 1 would round to the limit as a double. Only for
  // integer settings: a real one's bound may be infinite, which no integer type holds.
  if (s.kind == Kind::integer && v.is_number_unsigned() &&
      v.get<uint64_t>() > static_cast<uint64_t>(s.hi)) {
    problem = std::to_string(v.get<uint64_t>()) + " is out of range";
    return std::nullopt;
  }
  double x = v.get<double>();
  if (!std::isfinite(x)) {
    problem = "must be finite";
    return std::nullopt;
  }
  if (s.kind == Kind::real && std::fabs(x) <= kUnbounded) x = static_cast<float>(x);  // as stored
  if (s.kind == Kind::integer && std::floor(x) != x) {
    problem = format_number(x) + " is not an integer";
    return std::nullopt;
  }
  bool below = s.lo_open ? x <= s.lo : x < s.lo;
  if (below || x > s.hi) {
    problem = format_number(x) + " is out of range";
    return std::nullopt;
  }
  if (s.kind == Kind::real) return json(x);
  if (x < 0) return json(static_cast<int64_t>(x));
  return json(static_cast<uint64_t>(x));
}

// Each value as a real setting of the same range would take it, then their order.
std::optional<json> check_reals(const Setting& s, const json& v, std::string& problem) {
  if (!v.is_array()) {
    problem = std::string("expected an array of numbers, got ") + type_name(v);
    return std::nullopt;
  }
  if (v.empty() || v.size() > kMaxReals) {
    problem = "has " + std::to_string(v.size()) + " values";
    return std::nullopt;
  }
  Setting each = s;
  each.kind = Kind::real;
  json out = json::array();
  for (const json& x : v) {
    auto checked = check(each, x, problem);
    if (!checked) return std::nullopt;
    if (!out.empty() && checked->get<double>() <= out.back().get<double>()) {
      auto shortest = [](const json& x) { return format_number(decimal_float(x.get<float>())); };
      problem = shortest(*checked) + " does not increase on " + shortest(out.back());
      return std::nullopt;
    }
    out.push_back(*checked);
  }
  return out;
}

std::string message(const std::string& where, const std::string& problem, const Setting& s) {
  return where + ": " + problem + "; use " + allowed(s);
}

const Setting* find_by_path(const std::string& path) {
  for (const auto& s : kSettings)
    if (path == s.path) return &s;
  return nullptr;
}

// The keys allowed directly under `prefix` ("" for the top level), in table order.
std::vector<std::string> keys_under(const std::string& prefix) {
  std::vector<std::string> keys;
  std::string lead = prefix.empty() ? "" : prefix + ".";
  for (const auto& s : kSettings) {
    std::string path = s.path;
    if (path.compare(0, lead.size(), lead) != 0) continue;
    std::string key = path.substr(lead.size(), path.find('.', lead.size()) - lead.size());
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  }
  return keys;
}

bool is_section(const std::string& path) {
  std::string lead = path + ".";
  for (const auto& s : kSettings)
    if (std::string(s.path).compare(0, lead.size(), lead) == 0) return true;
  return false;
}

void read_object(const json& obj, const std::string& prefix, ExperimentConfig& cfg,
                 std::vector<std::string>& problems) {
  for (const auto& item : obj.items()) {
    const std::string& key = item.key();
    std::string path = prefix.empty() ? key : prefix + "." + key;
    const Setting* s = key.find('.') == std::string::npos ? find_by_path(path) : nullptr;
    if (s) {
      std::string problem;
      if (auto v = check(*s, item.value(), problem))
        s->set(cfg, *v);
      else
        problems.push_back(message(path, problem, *s));
    } else if (key.find('.') == std::string::npos && is_section(path)) {
      if (item.value().is_object())
        read_object(item.value(), path, cfg, problems);
      else
        problems.push_back(path + ": expected an object, got " + type_name(item.value()) +
                           "; use an object with keys " + join(keys_under(path), ", ", " and "));
    } else {
      problems.push_back(escape_controls(path) + ": unknown key; use " + join(keys_under(prefix), ", ", " or "));
    }
  }
}

// Checks every setting of the table whose path starts with one of `prefixes`.
void check_ranges(const ExperimentConfig& cfg, const std::vector<std::string>& prefixes,
                  std::vector<std::string>& problems) {
  for (const auto& s : kSettings) {
    std::string path = s.path;
    bool selected = false;
    for (const auto& p : prefixes) selected = selected || path.compare(0, p.size(), p) == 0;
    std::string problem;
    if (selected && !check(s, s.get(cfg), problem)) problems.push_back(message(path, problem, s));
  }
}


int factors_of_two(int n) {  // n > 0
  int k = 0;
  for (; n % 2 == 0; n /= 2) ++k;
  return k;
}

void check_run(const RunConfig& run, bool wo_snapshots, std::vector<std::string>& problems) {
  ExperimentConfig e;
  e.base = run;
  size_t before = problems.size();
  check_ranges(e, {"model.", "task.", "train."}, problems);
  if (problems.size() != before) return;  // the rules below assume every field in range
  const TrainConfig& t = run.train;
  if (t.schedule == LrSchedule::cosine && t.warmup >= t.steps)
    problems.push_back("train.warmup: " + std::to_string(t.warmup) + " warmup steps leave none of a run's " +
                       std::to_string(t.steps) + " steps to decay; use fewer warmup steps than steps");
  if (t.schedule == LrSchedule::cosine && t.lr_min > t.lr)
    problems.push_back("train.lr_min: " + format_number(decimal_float(t.lr_min)) + " is above train.lr " +
                       format_number(decimal_float(t.lr)) + "; use a floor at most the peak rate");
  if (problems.size() != before) return;
  const ModelConfig& m = run.model;
  if (m.d_model % m.heads != 0) {
    // Name the value a person would change. Widths are normally multiples of a power of two
    // (16, 64, 256) and head counts powers of two, so the one with fewer factors of two is the
    // odd one out: d_model 63 with 4 heads names d_model, d_model 64 with 5 heads names heads.
    // On a tie, heads: a divisor of d_model near it is the smaller change.
    std::string d = std::to_string(m.d_model), h = std::to_string(m.heads);
    if (factors_of_two(m.d_model) < factors_of_two(m.heads)) {
      int below = m.d_model / m.heads * m.heads, above = below + m.heads;
      std::vector<std::string> near;
      if (below > 0) near.push_back(std::to_string(below));
      if (above <= find_by_path("model.d_model")->hi) near.push_back(std::to_string(above));
      problems.push_back("model.d_model: d_model " + d + " is not divisible by heads " + h +
                         "; choose a d_model divisible by " + h + ", such as " +
                         join(near, ", ", " or "));
    } else {
      problems.push_back("model.heads: d_model " + d + " is not divisible by heads " + h +
                         "; choose heads dividing d_model");
    }
    return;
  }
  if (auto problem = memory_problem(run, wo_snapshots)) problems.push_back(*problem);
}

}  // namespace

ExperimentConfig read_config(const json& j, std::vector<std::string>& problems) {
  ExperimentConfig cfg;
  if (!j.is_object())
    problems.push_back(std::string("config: expected a JSON object, got ") + type_name(j) +
                       "; write a JSON object such as {\"model\": {\"d_model\": 64}}");
  else
    read_object(j, "", cfg, problems);
  derive(cfg.base);
  return cfg;
}

ExperimentConfig read_config_text(const std::string& text, std::vector<std::string>& problems) {
  std::string problem;
  const std::optional<json> j = parse_json(text, problem);
  if (!j) {
    problems.push_back("config: not valid JSON (" + problem +
                       "); write a JSON object such as {\"model\": {\"d_model\": 64}}");
    ExperimentConfig defaults;
    derive(defaults.base);
    return defaults;
  }
  return read_config(*j, problems);
}

// Field by field, then (only when every field is fine) the cross-field rules.
std::vector<std::string> config_problems(const std::string& text) {
  std::vector<std::string> problems;
  ExperimentConfig cfg = read_config_text(text, problems);
  if (problems.empty()) problems = validate(cfg);
  return problems;
}

ExperimentConfig parse_experiment_config(const std::string& text) {
  std::vector<std::string> problems;
  ExperimentConfig cfg = read_config_text(text, problems);
  if (problems.empty()) problems = validate(cfg);
  if (!problems.empty()) throw ConfigError(problems.front());
  return cfg;
}

RunConfig parse_run_config(const std::string& text) { return parse_experiment_config(text).base; }

json config_json(const ExperimentConfig& cfg) {
  json j = json::object();
  for (const auto& s : kSettings) {
    std::string pointer = std::string("/") + s.path;
    std::replace(pointer.begin(), pointer.end(), '.', '/');
    j[json::json_pointer(pointer)] = s.get(cfg);
  }
  return j;
}

json config_json(const RunConfig& cfg) {
  ExperimentConfig e;
  e.base = cfg;
  json j = config_json(e);
  return {{"model", j["model"]}, {"task", j["task"]}, {"train", j["train"]}};
}

std::vector<std::string> validate(const RunConfig& cfg) {
  std::vector<std::string> problems;
  check_run(cfg, /*wo_snapshots=*/false, problems);
  return problems;
}

std::vector<std::string> validate(const ExperimentConfig& cfg) {
  std::vector<std::string> problems;
  check_ranges(cfg, {"experiment", "seeds", "lr_stability.", "real_words."}, problems);
  bool wo_snapshots = false;
  for (const ExperimentInfo* e : selected_experiments(cfg.experiment))
    wo_snapshots = wo_snapshots || (e->wo_snapshots && e->needs_data.empty());
  check_run(cfg.base, wo_snapshots, problems);
  // An experiment with settings of its own (real_words) is checked with them, its problems
  // named by its own fields.
  for (const ExperimentInfo* e : selected_experiments(cfg.experiment)) {
    if (e->needs_data.empty() || !problems.empty()) continue;
    std::vector<std::string> own;
    check_run(run_config(*e, cfg), e->wo_snapshots, own);
    for (std::string& p : own) {
      for (const char* field : {"model.d_model", "model.heads", "model.layers", "model.d_ff", "train.steps",
                                "train.batch", "train.probe_every", "task.heldout"}) {
        const std::string f = field;
        if (p.compare(0, f.size() + 1, f + ":") == 0)
          p = "real_words." + f.substr(f.find('.') + 1) + p.substr(f.size());
      }
      problems.push_back(p);
    }
  }
  return problems;
}

// The presets, in one place. "quick" is small and narrow-headed (8 heads of width 2, one
// layer) on purpose: sweeps with the CLI showed W_o's effect on final accuracy most clearly
// there (docs/findings.md, "Choosing the presets"), and its whole suite trains in seconds. "article" is
// the article's model size, trained only as long as learned and identity differ: with batch 16
// every variant reaches loss 0.1 by step 18-23, so 25 steps (30 gave the same verdicts), probed
// every 5 (held-out accuracy at step 15: learned 0.98-1.00, identity 0.87-0.96, frozen_random
// 0.69-0.83), on 128 held-out sequences (an eval of 512 cost more than the training steps
// between probes; docs/findings.md, "Choosing the presets"). Quick's learning rates reach where training
// fails: the default 0.001..0.03 trained every variant at 0.03, and 0.001 trained none in 400
// steps. real_words (docs/findings.md, "Choosing the real words presets"): Quick is the smallest model
// that learns words visibly within about a minute of the page's two workers for its 12 runs
// (d_model 64, 400 steps: PER 38%, WER 87%, still learning; d_model 16 barely learned, d_model 32
// learned less for the same time); Article is the article's model size, as long as the page can
// afford it.
namespace {
struct Preset {
  const char* name;
  const char* config;  // JSON; what it leaves out takes the defaults
  bool page = true;    // offered by the page; else the CLI's alone (runs too long for a browser)
};
// In the order the page offers them: the first is its default.
const Preset kPresets[] = {
    {"quick", R"({"seeds": 3,
      "model": {"d_model": 16, "heads": 8, "layers": 1, "d_ff": 64},
      "task": {"name": "reverse", "alphabet": 10, "length": 6},
      "train": {"steps": 400, "probe_every": 20},
      "lr_stability": {"lrs": [0.003, 0.01, 0.03, 0.1, 0.3]},
      "real_words": {"d_model": 64, "heads": 4, "layers": 2, "d_ff": 256, "steps": 400, "batch": 32,
                     "probe_every": 100, "heldout": 128}})"},
    {"article", R"({"seeds": 3,
      "model": {"d_model": 256, "heads": 4, "layers": 2, "d_ff": 1024},
      "task": {"name": "copy", "alphabet": 10, "length": 8, "heldout": 128},
      "train": {"steps": 25, "batch": 16, "probe_every": 5},
      "real_words": {"d_model": 256, "heads": 4, "layers": 2, "d_ff": 1024, "steps": 200, "batch": 16,
                     "probe_every": 50, "heldout": 128}})"},
    // Real words trained to the end, natively (scripts/record-converged.sh; docs/sweeps.md, "Real
    // words to the end", has the pilot behind the steps, and docs/findings.md why 20,000: at
    // 10,000 every variant's PER still fell by about 2 points with twice the steps): the page
    // shows their recorded results and models. converged is d_model 64 with heads of width 16; converged_small and
    // converged_narrow cut d_model 32 into 2 heads of width 16 or 8 of width 4 (narrow heads,
    // where the toy tasks showed W_o mattering most).
    {"converged", R"({"experiment": "real_words", "seeds": 5,
      "train": {"steps": 20000, "schedule": "cosine", "warmup": 250, "lr_min": 0.00001, "loss_every": 20},
      "real_words": {"d_model": 64, "heads": 4, "layers": 2, "d_ff": 256, "steps": 20000, "batch": 32,
                     "probe_every": 500, "heldout": 1024}})", /*page=*/false},
    {"converged_small", R"({"experiment": "real_words", "seeds": 5,
      "train": {"steps": 20000, "schedule": "cosine", "warmup": 250, "lr_min": 0.00001, "loss_every": 20},
      "real_words": {"d_model": 32, "heads": 2, "layers": 2, "d_ff": 128, "steps": 20000, "batch": 32,
                     "probe_every": 500, "heldout": 1024}})", /*page=*/false},
    {"converged_narrow", R"({"experiment": "real_words", "seeds": 5,
      "train": {"steps": 20000, "schedule": "cosine", "warmup": 250, "lr_min": 0.00001, "loss_every": 20},
      "real_words": {"d_model": 32, "heads": 8, "layers": 2, "d_ff": 128, "steps": 20000, "batch": 32,
                     "probe_every": 500, "heldout": 1024}})", /*page=*/false},
    // d_model 128 with heads of width 16 (8 heads): the third size of "What W_o is for" on real
    // words, so that learned's lead and each control's are seen against d_model.
    {"converged_large", R"({"experiment": "words_purpose", "seeds": 5,
      "train": {"steps": 20000, "schedule": "cosine", "warmup": 250, "lr_min": 0.00001, "loss_every": 20},
      "real_words": {"d_model": 128, "heads": 8, "layers": 2, "d_ff": 512, "steps": 20000, "batch": 32,
                     "probe_every": 500, "heldout": 1024}})", /*page=*/false},
};
}  // namespace

json presets(bool with_native) {
  json out = json::object();
  for (const Preset& p : kPresets)
    if (p.page || with_native) out[p.name] = config_json(parse_experiment_config(p.config));
  return out;
}

std::vector<std::string> preset_names(bool with_native) {
  std::vector<std::string> out;
  for (const Preset& p : kPresets)
    if (p.page || with_native) out.push_back(p.name);
  return out;
}

json settings_json() {
  static const char* const kKindNames[] = {"integer", "real", "choice", "reals"};
  json out = json::array();
  ExperimentConfig defaults;
  for (const auto& s : kSettings) {
    const bool ranged = s.kind != Kind::choice;
    json choices = nullptr, needs_data = nullptr, help = json::object();
    for (size_t i = 0; i < std::size(kLangCodes); ++i) help[kLangCodes[i]] = text_in(setting_help(s.path), static_cast<Lang>(i));
    if (s.choices) choices = *s.choices;
    // A g2p run reads the CMUdict lexicon (docs/g2p.md), which a front end must load and hand
    // to the trainer: one that has not must not offer it.
    if (std::string(s.path) == "task.name") needs_data = {{"g2p", "lexicon"}};
    // g2p's symbols and lengths come from the lexicon: a front end leaves these out of what it
    // says such a run trained with.
    json unused_by = nullptr;
    if (std::string(s.path) == "task.alphabet" || std::string(s.path) == "task.length")
      unused_by = {{"task.name", {"g2p"}}};
    out.push_back({{"path", s.path},
                   {"key", s.key},
                   {"flag", s.flag},
                   {"kind", kKindNames[static_cast<int>(s.kind)]},
                   {"default", s.get(defaults)},
                   {"min", ranged ? json(s.lo) : json(nullptr)},
                   {"max", ranged && s.hi != kUnbounded ? json(s.hi) : json(nullptr)},
                   {"lo_open", s.lo_open},
                   {"max_items", s.kind == Kind::reals ? json(kMaxReals) : json(nullptr)},
                   {"choices", choices},
                   {"needs_data", needs_data},
                   {"unused_by", unused_by},
                   // The experiment and the W_o mode are chosen per run by the plan (plan.h);
                   // the loss curve's spacing is the CLI's (the page charts every step it trains).
                   // real_words' settings are a form's too: a front end that cannot load the
                   // lexicon leaves the experiment out, and they then change nothing it runs.
                   {"form", std::string(s.path) != "experiment" && std::string(s.path) != "model.wo" &&
                                std::string(s.path) != "train.loss_every"},
                   {"allowed", allowed(s)},
                   {"help", help}});
  }
  return out;
}

std::vector<SettingInfo> settings() {
  std::vector<SettingInfo> out;
  ExperimentConfig defaults;
  for (const auto& s : kSettings) {
    json d = s.get(defaults);
    std::string text;  // as the flag takes it
    if (d.is_string()) {
      text = d.get<std::string>();
    } else if (d.is_array()) {
      std::vector<std::string> items;
      for (const json& x : d) items.push_back(format_number(x.get<double>()));
      text = join(items, ",", ",");
    } else {
      text = format_number(d.get<double>());
    }
    out.push_back({s.path, s.flag, s.metavar, text,
                   s.kind == Kind::choice ? join(*s.choices, "|", "|") : allowed(s), setting_help(s.path).en});
  }
  return out;
}

void set_from_flag(ExperimentConfig& cfg, const std::string& flag, const std::string& text) {
  const Setting* s = nullptr;
  for (const auto& x : kSettings)
    if (flag == x.flag && !flag.empty()) s = &x;
  if (!s) throw ConfigError(escape_controls(flag) + ": unknown flag; see wolab run --help");
  auto number = [&](const std::string& part) -> json {
    // Digits, sign, point and exponent only: strtod alone would also take "inf", "nan", "0x1p3".
    char* end = nullptr;
    bool plain = !part.empty() && part.find_first_not_of("0123456789+-.eE") == std::string::npos;
    double x = plain ? std::strtod(part.c_str(), &end) : 0;
    if (!plain || *end != '\0') throw ConfigError(message(flag, in_quotes(part) + " is not a number", *s));
    if (part.find_first_not_of("0123456789") == std::string::npos && part.size() < 20)
      return std::stoull(part);  // exactly, as JSON would read it
    return x;
  };
  json v = text;
  if (s->kind == Kind::reals) {  // comma-separated: --lrs 0.001,0.01
    v = json::array();
    for (size_t begin = 0, comma;; begin = comma + 1) {
      comma = text.find(',', begin);
      v.push_back(number(text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin)));
      if (comma == std::string::npos) break;
    }
  } else if (s->kind != Kind::choice) {
    v = number(text);
  }
  std::string problem;
  auto checked = check(*s, v, problem);
  if (!checked) throw ConfigError(message(flag, problem, *s));
  s->set(cfg, *checked);
  derive(cfg.base);
}

}  // namespace wolab
