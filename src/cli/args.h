// The CLI's command-line tokenizer and the values of its own flags, apart from the commands so
// that the flags fuzz harness (tests/fuzz/fuzz_flags.cpp) parses argv exactly as wolab does.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace wolab {

// "--flag value" or "--flag=value" pairs, in order. Throws ConfigError for an argument that is
// not a flag, or a flag without its value or with an empty one.
std::vector<std::pair<std::string, std::string>> flag_pairs(const std::vector<std::string>& args);

// --help or -h anywhere among a command's arguments.
bool asks_help(const std::vector<std::string>& args);

// A command's operands (files, words) and its flags, each flag with its value for flag_pairs.
std::pair<std::vector<std::string>, std::vector<std::string>> operands_and_flags(const std::vector<std::string>& args);

inline constexpr int kMaxJobs = 256;
inline constexpr int kMaxShards = 9999;

// --jobs N: 1..kMaxJobs. Throws ConfigError naming the flag.
int parse_jobs(const std::string& text);

// --shard K/N: slice K of N, 1 <= K <= N <= kMaxShards (whether the plan has N runs is the
// plan's to say). Throws ConfigError naming the flag.
struct ShardSpec {
  int index = 0;  // K, 1-based
  int count = 0;  // N
};
ShardSpec parse_shard(const std::string& text);

// --shards N of `wolab plan`: 1..kMaxShards. Throws ConfigError naming the flag.
int parse_shards(const std::string& text);

// `word` as one word of a POSIX shell command line: as it is when it holds only characters no
// shell treats specially, else in single quotes.
std::string shell_quote(const std::string& word);

// A message as one line of stderr, whatever it holds (line breaks as spaces).
std::string one_line(std::string s);

}  // namespace wolab
