#include "cli/args.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "lab/config.h"

namespace wolab {

namespace {

// The value as it appears in a message: quoted, controls escaped, invalid UTF-8 replaced.
std::string shown(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A count of at most `digits` decimal digits in lo..hi, or 0.
int count_in(const std::string& text, size_t digits, int lo, int hi) {
  if (text.empty() || text.size() > digits || text.find_first_not_of("0123456789") != std::string::npos) return 0;
  const int n = std::stoi(text);
  return n >= lo && n <= hi ? n : 0;
}

}  // namespace

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

bool asks_help(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; });
}

std::pair<std::vector<std::string>, std::vector<std::string>> operands_and_flags(const std::vector<std::string>& args) {
  std::vector<std::string> operands, flags;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].compare(0, 2, "--") != 0) {
      operands.push_back(args[i]);
      continue;
    }
    flags.push_back(args[i]);
    if (args[i].find('=') == std::string::npos && i + 1 < args.size()) flags.push_back(args[++i]);
  }
  return {operands, flags};
}

int parse_jobs(const std::string& text) {
  const int n = count_in(text, 3, 1, kMaxJobs);
  if (n == 0)
    throw ConfigError("--jobs: " + shown(text) + " is not a number of jobs; use an integer in 1.." +
                      std::to_string(kMaxJobs));
  return n;
}

ShardSpec parse_shard(const std::string& text) {
  const size_t slash = text.find('/');
  ShardSpec s;
  if (slash != std::string::npos) {
    s.count = count_in(text.substr(slash + 1), 4, 1, kMaxShards);
    s.index = count_in(text.substr(0, slash), 4, 1, s.count);
  }
  if (s.index == 0 || s.count == 0)
    throw ConfigError("--shard: " + shown(text) + " is not a slice; use K/N, slice K of N, with 1 <= K <= N <= " +
                      std::to_string(kMaxShards) + ", e.g. --shard 1/8");
  return s;
}

int parse_shards(const std::string& text) {
  const int n = count_in(text, 4, 1, kMaxShards);
  if (n == 0)
    throw ConfigError("--shards: " + shown(text) + " is not a number of slices; use an integer in 1.." +
                      std::to_string(kMaxShards));
  return n;
}

std::string shell_quote(const std::string& word) {
  const char* plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=,:+@%";
  if (!word.empty() && word.find_first_not_of(plain) == std::string::npos) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string one_line(std::string s) {
  for (char& ch : s)
    if (ch == '\n' || ch == '\r') ch = ' ';
  return s;
}

}  // namespace wolab
