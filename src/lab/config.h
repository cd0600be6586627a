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

#include "io/messages.h"
#include "lab/experiment.h"
#include "config/run_config.h"

namespace wolab {

// ---- Parsing, validation and limits (config.cpp; its table of settings drives all three) ----

inline constexpr char kVersion[] = "0.1.0";

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

// {"quick": config, "article": config}, fully defaulted: the page's presets; with_native adds
// the CLI's own (converged, converged_small, converged_narrow: real words trained to the end).
nlohmann::json presets(bool with_native = false);
// The presets' names in the order the page offers them; the first is the page's default, where
// a link's bad values fall back. with_native adds the CLI's own after them.
std::vector<std::string> preset_names(bool with_native = false);

// The settings table for the page, which builds its form and URL parameters from it:
// [{"path": "model.d_model", "key": "d_model", "flag": "--d-model", "kind": "integer",
//   "default": 64, "min": 1, "max": 1024, "lo_open": false, "max_items": null, "choices": null,
//   "form": true, "allowed": "an integer in 1..1024", "help": {"en": "...", "zh": "..."}}, ...]
// (docs/api.md), the help in every language of kLangCodes (lab/settings_help.h).
nlohmann::json settings_json();

// One row of the settings table, for `--help`.
struct SettingInfo {
  std::string path;           // JSON path, e.g. "model.d_model"
  std::string flag;           // CLI flag, e.g. "--d-model"; "" for model.wo (experiments set it)
  std::string metavar;        // e.g. "N"
  std::string default_value;  // as the flag would take it
  std::string allowed;        // e.g. "an integer in 1..1024"
  std::string help;           // in English (lab/settings_help.h)
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
