#include "alloc_hook.h"

#include <cerrno>
#include <cstddef>
#include <cstring>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define WOLAB_SANITIZED
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define WOLAB_SANITIZED
#endif
#endif
#if (defined(__GLIBC__) || defined(__EMSCRIPTEN__)) && !defined(WOLAB_SANITIZED)
#define WOLAB_COUNT_ALLOCATIONS
#endif

namespace {

bool counting = false;
wolab::alloc_hook::Counts counts;
int64_t held = 0;  // bytes held now, relative to start()

}  // namespace

namespace wolab::alloc_hook {

#ifdef WOLAB_COUNT_ALLOCATIONS
bool available() { return true; }
#else
bool available() { return false; }
#endif

void start() {
  counts = {};
  held = 0;
  counting = true;
}

Counts stop() {
  counting = false;
  return counts;
}

}  // namespace wolab::alloc_hook

#ifdef WOLAB_COUNT_ALLOCATIONS
#include <malloc.h>

// The program's malloc family takes precedence over the C library's (both glibc and
// Emscripten support replacing malloc); each counts, then forwards to the library's own
// allocator: glibc's __libc_* entry points, Emscripten's emscripten_builtin_* aliases of dlmalloc.
extern "C" {
#ifdef __EMSCRIPTEN__
void* emscripten_builtin_malloc(size_t size);
void emscripten_builtin_free(void* ptr);
void* emscripten_builtin_memalign(size_t alignment, size_t size);
#define WOLAB_MALLOC emscripten_builtin_malloc
#define WOLAB_FREE emscripten_builtin_free
#define WOLAB_MEMALIGN emscripten_builtin_memalign
#define WOLAB_NOEXCEPT  // as Emscripten's libc declares them
#else
void* __libc_malloc(size_t size);
void __libc_free(void* ptr);
void* __libc_memalign(size_t alignment, size_t size);
#define WOLAB_MALLOC __libc_malloc
#define WOLAB_FREE __libc_free
#define WOLAB_MEMALIGN __libc_memalign
#define WOLAB_NOEXCEPT noexcept  // as glibc declares them
#endif
}

namespace {

// What a block takes from the heap: its usable size and the allocator's header before it.
int64_t block_bytes(void* p) { return static_cast<int64_t>(malloc_usable_size(p) + sizeof(size_t)); }

void* counted(void* p) {
  if (counting && p) {
    counts.allocations++;
    held += block_bytes(p);
    if (held > counts.peak) counts.peak = held;
  }
  return p;
}

void uncount(void* p) {
  if (counting && p) held -= block_bytes(p);
}

}  // namespace

extern "C" {
void* malloc(size_t size) WOLAB_NOEXCEPT { return counted(WOLAB_MALLOC(size)); }

void free(void* ptr) WOLAB_NOEXCEPT {
  uncount(ptr);
  WOLAB_FREE(ptr);
}

void* calloc(size_t count, size_t size) WOLAB_NOEXCEPT {
  if (size != 0 && count > SIZE_MAX / size) return nullptr;
  void* p = WOLAB_MALLOC(count * size);
  if (p) std::memset(p, 0, count * size);
  return counted(p);
}

// As a new block, a copy and a free: the old and the new block are both held for a moment,
// as they may be in the library's own realloc.
void* realloc(void* ptr, size_t size) WOLAB_NOEXCEPT {
  if (!ptr) return malloc(size);
  if (size == 0) {
    free(ptr);
    return nullptr;
  }
  void* p = counted(WOLAB_MALLOC(size));
  if (!p) return nullptr;
  const size_t old = malloc_usable_size(ptr);
  std::memcpy(p, ptr, old < size ? old : size);
  free(ptr);
  return p;
}

void* memalign(size_t alignment, size_t size) WOLAB_NOEXCEPT {
  return counted(WOLAB_MEMALIGN(alignment, size));
}

void* aligned_alloc(size_t alignment, size_t size) WOLAB_NOEXCEPT {
  return counted(WOLAB_MEMALIGN(alignment, size));
}

int posix_memalign(void** out, size_t alignment, size_t size) WOLAB_NOEXCEPT {
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* p = counted(WOLAB_MEMALIGN(alignment, size));
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}
}  // extern "C"
#endif
