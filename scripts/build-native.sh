#!/usr/bin/env bash
# Native build into build/: the wolab_core library, the wolab CLI and the GoogleTest suite
# (Release, -march=native). Extra arguments go to the CMake configure step,
# e.g. -DWOLAB_NATIVE_ARCH=OFF for a binary that runs on other x86-64 machines.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -B build -S . "$@"
cmake --build build -j2
