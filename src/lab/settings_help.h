// The help of every setting of the settings table (config.cpp), in every language, one row per
// setting: the CLI's --help prints the English, and the page shows it under the setting's field
// in the page's language (settings_json's "help", docs/api.md).
#pragma once

#include <string>
#include <vector>

#include "config/languages.h"

namespace wolab {

struct SettingHelp {
  const char* path;  // the setting's JSON path, e.g. "model.d_model"
  Texts help;
};
// In the settings table's order (tests/native/test_config.cpp holds them to it).
const std::vector<SettingHelp>& settings_help_rows();
// The help of the setting at `path`; throws std::logic_error for a path the table lacks (a bug
// of the table, never input).
const Texts& setting_help(const std::string& path);

}  // namespace wolab
