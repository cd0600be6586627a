// What every harness asserts beyond "no crash": bad input reaches the user as one clear line
// (a ConfigError; any other exception escapes the harness and libFuzzer reports it), and what
// a parser accepts reads back unchanged.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace wolab {

// Fails the run (libFuzzer saves the input) when `ok` is false.
inline void fuzz_check(bool ok, const char* what, const std::string& detail = "") {
  if (ok) return;
  std::fprintf(stderr, "fuzz check failed: %s\n%s\n", what, detail.c_str());
  std::abort();
}

inline void expect_one_line(const std::string& message) {
  fuzz_check(!message.empty() && message.find_first_of("\r\n") == std::string::npos,
             "an error message must be one non-empty line", message);
}

}  // namespace wolab
