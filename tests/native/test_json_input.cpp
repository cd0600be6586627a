// JSON from outside: parse_json's nesting limit, and every parser that reads JSON text refusing
// a deeply nested document with one line. Before the limit, a results file whose "version" was
// a million nested arrays parsed, then overflowed the stack when its error message dumped it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "io/json_input.h"
#include "io/safetensors.h"
#include "lab/config.h"
#include "lab/results.h"

namespace wolab {
namespace {

std::string nested(int depth, const std::string& inner = "") {
  return std::string(depth, '[') + inner + std::string(depth, ']');
}

TEST(JsonInput, NestingUpToTheLimitParses) {
  std::string problem;
  const auto j = parse_json(nested(kMaxJsonDepth, "1"), problem);
  ASSERT_TRUE(j.has_value()) << problem;
  const nlohmann::json* inner = &*j;
  for (int i = 0; i < kMaxJsonDepth; ++i) inner = &inner->at(0);
  EXPECT_EQ(*inner, 1);
}

TEST(JsonInput, DeeperNestingIsRefused) {
  std::string problem;
  EXPECT_FALSE(parse_json(nested(kMaxJsonDepth + 1), problem).has_value());
  EXPECT_EQ(problem, "arrays and objects nested deeper than 64 levels");
  EXPECT_FALSE(parse_json("{\"a\": " + nested(kMaxJsonDepth) + "}", problem).has_value());
}

TEST(JsonInput, BracketsInStringsDoNotCount) {
  std::string problem;
  const std::string brackets = "\"" + nested(2 * kMaxJsonDepth) + " \\\"[[[\"";
  const auto j = parse_json("{\"key [\": " + brackets + "}", problem);
  ASSERT_TRUE(j.has_value()) << problem;
  EXPECT_EQ(j->at("key [").get<std::string>(), nested(2 * kMaxJsonDepth) + " \"[[[");
}

TEST(JsonInput, SyntaxErrorsSayWhereWithoutNlohmannsPrefix) {
  std::string problem;
  EXPECT_FALSE(parse_json("{\"a\": 1,}", problem).has_value());
  EXPECT_EQ(problem.find("[json.exception"), std::string::npos) << problem;
  EXPECT_NE(problem.find("line 1, column 9"), std::string::npos) << problem;
  EXPECT_FALSE(parse_json("[1e999]", problem).has_value());
  EXPECT_NE(problem.find("number overflow"), std::string::npos) << problem;
}

// A million levels: deep enough to overflow any stack if anything walked it recursively.
constexpr int kDeep = 1000000;

void expect_one_line_naming_the_nesting(const std::string& message) {
  EXPECT_NE(message.find("nested deeper than 64 levels"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(JsonInput, EveryParserRefusesDeepNesting) {
  const std::vector<std::string> problems = config_problems("{\"model\": " + nested(kDeep) + "}");
  ASSERT_EQ(problems.size(), 1u);
  expect_one_line_naming_the_nesting(problems.front());

  const std::string results = "{\"format\": \"wolab-results\", \"version\": " + nested(kDeep) + "}";
  try {
    parse_results(results);
    ADD_FAILURE() << "parse_results accepted " << kDeep << " levels";
  } catch (const ConfigError& e) {
    expect_one_line_naming_the_nesting(e.what());
  }
  EXPECT_THROW(analyze_text("[" + results + "]"), ConfigError);

  const std::string header = "{\"x\": " + nested(kDeep) + "}";
  std::vector<uint8_t> file(8 + header.size());
  const uint64_t n = header.size();
  std::memcpy(file.data(), &n, 8);
  std::memcpy(file.data() + 8, header.data(), header.size());
  EXPECT_THROW(read_safetensors(file.data(), file.size()), ConfigError);
}

}  // namespace
}  // namespace wolab
