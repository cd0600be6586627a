#!/usr/bin/env bash
# Sanitized build into build-asan/ (ASAN_BUILD names another dir): clang with AddressSanitizer
# and UndefinedBehaviorSanitizer (WOLAB_SANITIZE in CMakeLists.txt): the wolab CLI, the
# GoogleTest suite (whose CLI tests run this sanitized wolab) and the libFuzzer harnesses of
# tests/fuzz. scripts/test.sh runs the first two and scripts/fuzz.sh the harnesses.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${ASAN_BUILD:-build-asan}
cmake -B "$dir" -S . -DCMAKE_CXX_COMPILER=clang++ -DWOLAB_SANITIZE=ON "$@"
cmake --build "$dir" -j2 --target wolab wolab_tests fuzzers
