// Decimal text to double, fast where Emscripten's libc is slow (src/io/strtod.cpp). In wasm builds
// the linker routes every strtod call of the program here (--wrap=strtod, CMakeLists.txt):
// nlohmann's JSON lexer, the config reader, all of it.
#pragma once

namespace wolab {

// strtod's result and end pointer for every input, correctly rounded: the exact fast path for
// plain decimals, the C library's strtod for the rest.
double parse_double(const char* text, char** end);
// The C library's own strtod (in wasm builds the one --wrap=strtod hides): parse_double's
// fallback, and the tests' reference.
double libc_strtod(const char* text, char** end);

}  // namespace wolab
