#!/usr/bin/env bash
# WebAssembly build into build-wasm/ (Embind modules wolab.js/.wasm with SIMD and
# wolab-nosimd.js/.wasm without, and the GoogleTest suite for node, unless WOLAB_WASM_TARGETS
# names fewer targets), then assembles dist/ from them (scripts/assemble-dist.sh).
# Extra arguments go to the CMake configure step.
# Exit status: 0 done; 1 the wasm build failed; 2 built, but dist/ could not be assembled.
set -uo pipefail
cd "$(dirname "$0")/.."

# Debian's emcc runs its JS tools with the machine's node, which lacks Debian's acorn.
export NODE_PATH=/usr/share/nodejs
# ctest runs the wasm tests through this emulator. Emscripten's default adds
# --experimental-wasm-threads, which node 20 rejects; Emscripten 3.1.6 output loads its
# .wasm with fetch() under node 20 unless fetch is off.
emulator="$(command -v node);--no-experimental-fetch"
emcmake cmake -B build-wasm -S . -DCMAKE_CROSSCOMPILING_EMULATOR="$emulator" "$@" || exit 1
# WOLAB_WASM_TARGETS="wolab wolab-nosimd": only the page's modules (npm start), not the suite.
read -r -a targets <<<"${WOLAB_WASM_TARGETS:-all}"
cmake --build build-wasm -j2 --target "${targets[@]}" || exit 1

bash scripts/assemble-dist.sh || exit 2
