#include "cli/args.h"

#include "lab/config.h"

namespace wolab {

std::vector<std::pair<std::string, std::string>> flag_pairs(const std::vector<std::string>& args) {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.compare(0, 2, "--") != 0)
      throw ConfigError(escape_controls(a) + ": unexpected argument; flags start with --, see wolab --help");
    auto eq = a.find('=');
    if (eq != std::string::npos) {
      out.emplace_back(a.substr(0, eq), a.substr(eq + 1));
    } else {
      if (i + 1 == args.size() || args[i + 1].compare(0, 2, "--") == 0)
        throw ConfigError(escape_controls(a) + ": missing value; see wolab --help");
      out.emplace_back(a, args[++i]);
    }
    // No flag takes an empty value, and `--config ""` would otherwise mean no config at all.
    if (out.back().second.empty())
      throw ConfigError(escape_controls(out.back().first) + ": empty value; see wolab --help");
  }
  return out;
}

}  // namespace wolab
