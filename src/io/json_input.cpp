#include "io/json_input.h"

namespace wolab {

namespace {

// Whether arrays and objects nest deeper than kMaxJsonDepth, counting brackets outside strings.
// For text that parses, this is exactly its nesting; other text fails to parse either way.
bool too_deep(const char* p, const char* end) {
  int depth = 0;
  bool in_string = false;
  for (; p < end; ++p) {
    if (in_string) {
      if (*p == '\\') {
        if (++p == end) break;  // skip the escaped character, which may be a quote
      } else if (*p == '"') {
        in_string = false;
      }
    } else if (*p == '"') {
      in_string = true;
    } else if (*p == '[' || *p == '{') {
      if (++depth > kMaxJsonDepth) return true;
    } else if (*p == ']' || *p == '}') {
      --depth;
    }
  }
  return false;
}

}  // namespace

std::optional<nlohmann::json> parse_json(const char* begin, const char* end, std::string& problem) {
  if (too_deep(begin, end)) {
    problem = "arrays and objects nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
    return std::nullopt;
  }
  try {
    return nlohmann::json::parse(begin, end);
  } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range for a number like 1e999
    const std::string what = e.what();             // "[json.exception.parse_error.101] parse error at ..."
    const auto pos = what.find("] ");
    problem = pos == std::string::npos ? what : what.substr(pos + 2);
    return std::nullopt;
  }
}

std::optional<nlohmann::json> parse_json(const std::string& text, std::string& problem) {
  return parse_json(text.data(), text.data() + text.size(), problem);
}

bool ends_early(const std::string& text) {
  try {
    (void)nlohmann::json::parse(text);
    return false;
  } catch (const nlohmann::json::parse_error& e) {
    return !text.empty() && e.byte >= text.size();
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

}  // namespace wolab
