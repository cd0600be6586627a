// The languages the core writes its texts in (the words of the analysis, the settings' help, the
// notebooks), in one list: the CLI's --lang takes these codes, and the page asks the core for
// its words in one of them (docs/api.md). The bottom layer beside run_config.h: plain types.
#pragma once

#include <iterator>
#include <optional>
#include <string>

namespace wolab {

enum class Lang { en, zh };
inline constexpr const char* kLangCodes[] = {"en", "zh"};  // in enum order; the first is the default
static_assert(std::size(kLangCodes) == static_cast<size_t>(Lang::zh) + 1);

// The language of a code of kLangCodes, or none for any other text.
std::optional<Lang> lang_of(const std::string& code);
// The codes as a message offers them: "en or zh".
std::string lang_choices();

// One text in every language of kLangCodes, as a table of texts holds it.
struct Texts {
  const char* en;
  const char* zh;
};
static_assert(std::size(kLangCodes) == 2, "a language of kLangCodes needs its column in Texts and text_in");
// The text of `lang` in a row of a table of texts (Texts, or a row with the same columns).
template <class Row>
const char* text_in(const Row& row, Lang lang) {
  return lang == Lang::zh ? row.zh : row.en;
}

}  // namespace wolab
