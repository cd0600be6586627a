// Every setting of a run and of an experiment, their defaults, limits and validation.
// The same JSON text configures the CLI (`wolab run --config`) and the page (`new Trainer(json)`),
// and the same `validate` judges it on both sides, so an error reads the same everywhere.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace wolab {

// frozen_random_scaled is frozen_random's matrix times √3 (E‖W‖²_F = d, like I's);
// frozen_orthogonal is a random orthogonal matrix (every singular value 1).
enum class WoMode {
  learned,
  identity,
  frozen_random,
  learned_identity_init,
  frozen_random_scaled,
  frozen_orthogonal
};
// W_o exists but is never trained (and has no bias).
inline bool wo_frozen(WoMode m) {
  return m == WoMode::frozen_random || m == WoMode::frozen_random_scaled ||
         m == WoMode::frozen_orthogonal;
}
enum class LnPlace { post, pre };
enum class TaskKind { copy, reverse, sort };

struct ModelConfig {
  int d_model = 64;
  int heads = 4;
  int layers = 2;
  int d_ff = 256;
  LnPlace ln = LnPlace::post;
  WoMode wo = WoMode::learned;
  int vocab = 12;    // derived: alphabet + 2 (BOS, SEP)
  int seq_len = 17;  // derived: model input length 2·length + 1
};

struct TaskConfig {
  TaskKind kind = TaskKind::copy;
  int alphabet = 10;
  int length = 8;
  int heldout = 512;  // held-out sequences: the first `heldout` of one fixed stream (tasks.h)
};

struct TrainConfig {
  int steps = 400;
  int batch = 32;
  float lr = 1e-3f;
  float beta1 = 0.9f;
  float beta2 = 0.98f;
  float eps = 1e-9f;
  float clip = 1.0f;       // global gradient-norm clip; 0 disables
  int probe_every = 25;    // activation stats, W_o snapshots and held-out eval every N steps
  uint64_t seed = 0;
};

// One training run: one model, one W_o mode, one seed.
struct RunConfig {
  ModelConfig model;
  TaskConfig task;
  TrainConfig train;
};

// Settings of experiment lr_stability, which trains every variant at each of these learning
// rates in place of train.lr, and with this clip in place of train.clip.
struct LrStabilityConfig {
  std::vector<float> lrs = {1e-3f, 3e-3f, 1e-2f, 2e-2f, 3e-2f};  // increasing
  float clip = 0;  // off: clipping would hide the instability the experiment measures
};

// An experiment (or "all"): the runs experiment.h plans from it, `seeds` per variant.
struct ExperimentConfig {
  std::string experiment = "remove_wo";
  int seeds = 5;
  RunConfig base;
  LrStabilityConfig lr_stability;
};

// A config the user got wrong: `what()` is one line naming the field and what is allowed.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// User text for a message: control characters (a newline, a terminal escape) written as \u00XX,
// so that the message stays one line.
std::string escape_controls(const std::string& text);

// User text in double quotes, escaped as in JSON (quotes, backslashes, control characters;
// invalid UTF-8 replaced), so that the message stays one line and shows where the text ends.
std::string in_quotes(const std::string& text);

// A number for a message: integers without a decimal point, infinities as inf and -inf, other
// numbers in their shortest round-trip form.
std::string format_number(double v);

// Sets the derived fields (vocab, seq_len) from the task.
void derive(RunConfig& run);

const char* to_string(WoMode m);
const char* to_string(LnPlace p);
const char* to_string(TaskKind t);

// ---- Parsing, validation and limits (config.cpp; its table of settings drives all three) ----

inline constexpr char kVersion[] = "0.1.0";

// Most memory one run may need (see estimate_bytes): keeps a config from exhausting the page's
// wasm heap or the machine. Checked by validate().
inline constexpr uint64_t kMaxRunBytes = uint64_t(512) << 20;

std::optional<WoMode> wo_mode_from_string(const std::string& s);
std::optional<LnPlace> ln_place_from_string(const std::string& s);
std::optional<TaskKind> task_kind_from_string(const std::string& s);

// JSON text → config. Throws ConfigError with the first problem (bad JSON, unknown key, wrong
// type, out of range, cross-field rule). Missing fields keep their defaults; derive() is applied.
// A run config is the same document: "experiment" and "seeds" are accepted (and checked) there
// too, so one file serves `wolab run --config` and `new Trainer(json)`.
ExperimentConfig parse_experiment_config(const std::string& text);
RunConfig parse_run_config(const std::string& text);
// Every problem of a config text, one line each; [] when it is valid (the page's form check).
std::vector<std::string> config_problems(const std::string& text);

// Reads a parsed JSON value field by field without the cross-field rules of validate(), so a
// caller can override fields before validating (the CLI's flags over --config). Problems are
// appended; a field with a problem keeps its default.
ExperimentConfig read_config(const nlohmann::json& j, std::vector<std::string>& problems);
ExperimentConfig read_config_text(const std::string& text, std::vector<std::string>& problems);

// Config → JSON with every field present (docs/config.md); parsing it gives the config back.
nlohmann::json config_json(const ExperimentConfig& cfg);
nlohmann::json config_json(const RunConfig& cfg);  // "model", "task", "train" only

// One line per problem: `<field path>: <problem>; <what is allowed>`; [] when valid.
// The memory limit counts W_o snapshots when an experiment of cfg.experiment keeps them
// (ExperimentInfo::wo_snapshots, experiment.h), and not for a RunConfig alone (a Trainer keeps
// none unless asked).
std::vector<std::string> validate(const RunConfig& cfg);
std::vector<std::string> validate(const ExperimentConfig& cfg);

// Bytes one run holds at its peak, from training to its record's JSON text or a checkpoint,
// counted from the sizes the model, Adam and the trainer allocate (model_sizes, model.h), with
// the W_o snapshots when it keeps them (Trainer::keep_wo_snapshots). test_memory.cpp checks it
// against the bytes really allocated. uint64_t, not size_t: size_t is 32 bits in wasm and the
// estimate of a bad config exceeds it.
uint64_t estimate_bytes(const RunConfig& cfg, bool wo_snapshots = false);

// {"quick": config, "article": config}, fully defaulted.
nlohmann::json presets();

// The settings table for the page, which builds its form and URL parameters from it:
// [{"path": "model.d_model", "key": "d_model", "flag": "--d-model", "kind": "integer",
//   "default": 64, "min": 1, "max": 1024, "lo_open": false, "max_items": null, "choices": null,
//   "form": true, "allowed": "an integer in 1..1024", "help": "..."}, ...] (docs/api.md).
nlohmann::json settings_json();

// One row of the settings table, for `--help`.
struct SettingInfo {
  std::string path;           // JSON path, e.g. "model.d_model"
  std::string flag;           // CLI flag, e.g. "--d-model"; "" for model.wo (experiments set it)
  std::string metavar;        // e.g. "N"
  std::string default_value;  // as the flag would take it
  std::string allowed;        // e.g. "an integer in 1..1024"
  std::string help;
};
std::vector<SettingInfo> settings();

// Sets the field of CLI flag `flag` (e.g. "--d-model") from its text, checking type and range.
// Throws ConfigError("--d-model: ...; ...") for an unknown flag or a bad value.
void set_from_flag(ExperimentConfig& cfg, const std::string& flag, const std::string& text);

// The shortest decimal that reads back as x (Grisu2's digits: the fewest but for rare exact
// midpoints between two floats, where they may take a digit or two more), as a double: JSON
// then shows 0.001, not the 0.0010000000474974513 that widening the float would print.
double decimal_float(float x);

}  // namespace wolab
