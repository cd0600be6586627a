#include "config/languages.h"

namespace wolab {

std::optional<Lang> lang_of(const std::string& code) {
  for (size_t i = 0; i < std::size(kLangCodes); ++i)
    if (code == kLangCodes[i]) return static_cast<Lang>(i);
  return std::nullopt;
}

std::string lang_choices() {
  std::string out;
  for (size_t i = 0; i < std::size(kLangCodes); ++i)
    out += (i == 0 ? "" : i + 1 == std::size(kLangCodes) ? " or " : ", ") + std::string(kLangCodes[i]);
  return out;
}

}  // namespace wolab
