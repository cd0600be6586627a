// The text of messages about user input: the error they throw, and user text and numbers
// written so that a message stays one line.
#pragma once

#include <stdexcept>
#include <string>

namespace wolab {

// A config the user got wrong: `what()` is one line naming the field and what is allowed.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// User text for a message: control characters (a newline, a terminal escape) written as \u00XX,
// so that the message stays one line.
std::string escape_controls(const std::string& text);

// User text in double quotes, escaped as in JSON (quotes, backslashes, control characters;
// invalid UTF-8 replaced), so that the message stays one line and shows where the text ends.
std::string in_quotes(const std::string& text);

// A number for a message: integers without a decimal point, infinities as inf and -inf, other
// numbers in their shortest round-trip form.
std::string format_number(double v);

}  // namespace wolab
