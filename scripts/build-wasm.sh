#!/usr/bin/env bash
# WebAssembly build into build-wasm/ (Embind modules wolab.js/.wasm with SIMD and
# wolab-nosimd.js/.wasm without, and the GoogleTest suite for node, unless WOLAB_WASM_TARGETS
# names fewer targets), then assembles dist/, keeping dist/recorded:
# web/ + the modules + vendor/chart.umd.js + rules.html (docs/claims.md, the rules the claims panel
# links to, rendered by scripts/render-doc.js) + the compact CMUdict lexicon and its licence, which
# the native build makes (build-native.sh: build/data/; without it the page leaves out what needs
# it). Extra arguments go to the CMake configure step.
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

cannot_assemble() {
  echo "build-wasm: dist/ not assembled: $1" >&2
  exit 2
}
[[ -f bindings/embind.cpp ]] ||
  cannot_assemble "bindings/embind.cpp does not exist yet, so there is no wolab.js/wolab.wasm"
[[ -f web/index.html ]] || cannot_assemble "web/index.html does not exist yet"
chart=node_modules/chart.js/dist/chart.umd.js
[[ -f $chart ]] || cannot_assemble "$chart is missing; run bash scripts/setup.sh (npm ci)"

# Assembled beside dist/ and moved into place, so a running server never sees half of it.
rm -rf dist.tmp
mkdir -p dist.tmp/vendor
cp -R web/. dist.tmp/ &&
  cp build-wasm/wolab.js build-wasm/wolab.wasm \
     build-wasm/wolab-nosimd.js build-wasm/wolab-nosimd.wasm dist.tmp/ &&
  cp "$chart" dist.tmp/vendor/chart.umd.js || cannot_assemble "copying into dist.tmp/ failed"
# The lexicon is fetched only when the page's real-words section needs it (web/state/data-files.js).
lexicon=build/data/cmudict-g2p.txt
if [[ -f $lexicon ]]; then
  cp "$lexicon" build/data/cmudict-LICENSE.txt dist.tmp/ || cannot_assemble "copying the lexicon failed"
else
  echo "build-wasm: $lexicon not built (run build-native.sh): the page will leave out the real-words section" >&2
fi
node scripts/render-doc.js docs/claims.md dist.tmp/rules.html || cannot_assemble "rendering docs/claims.md failed"
# The recordings (scripts/record.sh, which may be writing them meanwhile) stay.
if [[ -d dist/recorded ]]; then mv dist/recorded dist.tmp/recorded || cannot_assemble "keeping dist/recorded failed"; fi
rm -rf dist && mv dist.tmp dist || cannot_assemble "moving dist.tmp/ to dist/ failed"
echo "build-wasm: dist/ assembled ($(du -sh dist | cut -f1))"
