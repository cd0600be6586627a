// The CLI's command-line tokenizer, apart from main.cpp so that the flags fuzz harness
// (tests/fuzz/fuzz_flags.cpp) parses argv exactly as wolab does.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace wolab {

// "--flag value" or "--flag=value" pairs, in order. Throws ConfigError for an argument that is
// not a flag, or a flag without its value or with an empty one.
std::vector<std::pair<std::string, std::string>> flag_pairs(const std::vector<std::string>& args);

}  // namespace wolab
