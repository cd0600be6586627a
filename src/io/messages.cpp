#include "io/messages.h"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace wolab {

using json = nlohmann::json;

std::string escape_controls(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c >= 0x20 && c != 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    }
  }
  return out;
}

std::string in_quotes(const std::string& text) {
  return json(text).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string format_number(double v) {
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  if (std::floor(v) == v && std::fabs(v) < 1e17) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  return json(v).dump();
}

}  // namespace wolab
