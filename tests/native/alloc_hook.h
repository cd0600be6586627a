// Counts the program's heap allocations by interposing the malloc family, which operator new,
// Eigen and libc itself all reach, so the count misses nothing: glibc's natively, Emscripten's
// dlmalloc in wasm. For the tests of what a training step allocates (test_alloc.cpp) and of a
// run's peak memory (test_memory.cpp). Not under sanitizers, which interpose malloc themselves.
#pragma once

#include <cstdint>

namespace wolab::alloc_hook {

// Whether this build counts: glibc or Emscripten, and no sanitizer.
bool available();

struct Counts {
  long allocations = 0;  // calls to the malloc family
  int64_t peak = 0;      // most bytes held at once above what was held at start()
};

// Counts from zero until stop(). Bytes are what the allocator hands out for each block
// (its usable size and its header), so they are what the heap really gives up.
void start();
Counts stop();

}  // namespace wolab::alloc_hook
