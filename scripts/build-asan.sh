#!/usr/bin/env bash
# Sanitized build into build-asan/ (ASAN_BUILD names another dir): clang with AddressSanitizer
# and UndefinedBehaviorSanitizer (WOLAB_SANITIZE in CMakeLists.txt): the wolab CLI, the
# GoogleTest suite (whose CLI tests run this sanitized wolab) and the libFuzzer harnesses of
# tests/fuzz. scripts/test.sh runs the first two and scripts/fuzz.sh the harnesses.
# Portable (WOLAB_NATIVE_ARCH=OFF: baseline x86-64, SSE2, no FMA) and by another compiler than
# build/ (g++, -march=native): the sanitized suite is also the suite of "another CPU", so the
# drift guard of the committed runs (tests/native/test_recorded.cpp) and the recorded-results
# tests run on two builds whose float32 arithmetic differs, and a machine unlike the developer's
# is not the first to find that a result holds on one CPU only (docs/sweeps.md, "What
# reproduces where").
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${ASAN_BUILD:-build-asan}
cmake -B "$dir" -S . -DCMAKE_CXX_COMPILER=clang++ -DWOLAB_SANITIZE=ON -DWOLAB_NATIVE_ARCH=OFF "$@"
cmake --build "$dir" -j2 --target wolab wolab_tests fuzzers
