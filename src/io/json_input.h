// JSON from outside the program (config and results files, checkpoint headers, the page's
// text) is parsed here, with its nesting limited. nlohmann's parser keeps its own stack, but
// dump(), comparison and copy recurse once per level, so a file of a million '[' that parsed
// would overflow the call stack (natively, and far sooner in wasm) wherever it was used next.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace wolab {

// Far deeper than any document of ours (a results file nests 5 levels) and shallow enough for
// every stack.
inline constexpr int kMaxJsonDepth = 64;

// `text` as JSON, or nullopt with `problem` set to what is wrong: nlohmann's message without
// its "[json.exception...]" prefix, or that it nests deeper than kMaxJsonDepth.
std::optional<nlohmann::json> parse_json(const char* begin, const char* end, std::string& problem);
std::optional<nlohmann::json> parse_json(const std::string& text, std::string& problem);
// Whether `text`, which is not JSON, fails only because it stops: its parse error is at its very
// end (cut in a string, a number or between values), as a download or copy that stopped partway.
bool ends_early(const std::string& text);

}  // namespace wolab
