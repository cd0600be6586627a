#!/usr/bin/env bash
# Assembles the page into dist/: web/ + the Embind modules (build-wasm.sh; the one without SIMD
# only once it is built, which npm start does after serving the page, scripts/place.sh moving it
# in) + the presets' committed recordings (recorded/presets/ as dist/recorded/, when they match
# their manifest; else dist/recorded is kept) + vendor/chart.umd.js + rules.html (docs/claims.md, the rules the claims panel links to, rendered
# by scripts/render-doc.js) + the compact CMUdict lexicon and its licence, which the native build
# makes (build-native.sh: build/data/; without it the real-words section can neither train nor
# pronounce until scripts/place.sh puts it in place, as npm start does).
#   WOLAB_WASM_DIR     the Embind modules (default build-wasm)
#   WOLAB_NATIVE_DIR   the native build whose data/ holds the lexicon (default build)
#   WOLAB_DIST         where to assemble (default dist)
# Exit status: 0 done; 1 dist/ could not be assembled (and is left as it was).
set -uo pipefail
cd "$(dirname "$0")/.."
wasm=${WOLAB_WASM_DIR:-build-wasm}
native=${WOLAB_NATIVE_DIR:-build}
dist=${WOLAB_DIST:-dist}
dist=${dist%/}

cannot_assemble() {
  echo "assemble-dist: $dist/ not assembled: $1" >&2
  exit 1
}
[[ -f bindings/embind.cpp ]] ||
  cannot_assemble "bindings/embind.cpp does not exist yet, so there is no wolab.js/wolab.wasm"
[[ -f web/index.html ]] || cannot_assemble "web/index.html does not exist yet"
chart=node_modules/chart.js/dist/chart.umd.js
[[ -f $chart ]] || cannot_assemble "$chart is missing; run bash scripts/setup.sh (npm ci)"

# Assembled beside dist/ and moved into place, so a running server never sees half of it.
tmp=$dist.tmp
rm -rf "$tmp"
mkdir -p "$tmp/vendor"
cp -R web/. "$tmp/" &&
  cp "$wasm/wolab.js" "$wasm/wolab.wasm" "$tmp/" &&
  cp "$chart" "$tmp/vendor/chart.umd.js" || cannot_assemble "copying into $tmp/ failed"
if [[ -f $wasm/wolab-nosimd.wasm ]]; then
  cp "$wasm/wolab-nosimd.js" "$wasm/wolab-nosimd.wasm" "$tmp/" || cannot_assemble "copying the module without SIMD failed"
elif [[ -f $dist/wolab-nosimd.wasm ]]; then
  cp "$dist/wolab-nosimd.js" "$dist/wolab-nosimd.wasm" "$tmp/" || cannot_assemble "keeping the module without SIMD failed"
fi
# The lexicon is fetched only when the page's real-words section needs it (web/state/data-files.js).
lexicon=$native/data/cmudict-g2p.txt
if [[ -f $lexicon ]]; then
  cp "$lexicon" "$native/data/cmudict-LICENSE.txt" "$tmp/" || cannot_assemble "copying the lexicon failed"
else
  echo "assemble-dist: $lexicon not built yet (build-native.sh makes it; npm start moves it into $dist/ once made): until it is there, the real-words section can neither train nor pronounce" >&2
fi
node scripts/render-doc.js docs/claims.md "$tmp/rules.html" || cannot_assemble "rendering docs/claims.md failed"
# Real words trained to the end natively (scripts/record-converged.sh), committed: section 7 and
# "Try a word" lead with them.
if [[ -d recorded/converged ]]; then
  cp -R recorded/converged "$tmp/converged" || cannot_assemble "copying recorded/converged failed"
fi
# What W_o is for, trained natively (scripts/sweep-purpose.sh, recorded by record-purpose.sh): the
# first screen's figure reads the sizes its manifest's "figure" names.
if [[ -d recorded/purpose ]]; then
  cp -R recorded/purpose "$tmp/purpose" || cannot_assemble "copying recorded/purpose failed"
else  # none recorded: a manifest that names no sweep, so that the page asks for nothing missing
  mkdir -p "$tmp/purpose" && echo '{"figure": []}' > "$tmp/purpose/manifest.json" ||
    cannot_assemble "writing purpose/manifest.json failed"
fi
# The presets' recordings: the committed ones where they match their manifest, else those in place.
if bash scripts/check-manifest.sh recorded/presets; then
  cp -R recorded/presets "$tmp/recorded" && rm "$tmp/recorded/manifest.json" ||
    cannot_assemble "copying recorded/presets failed"
elif [[ -d $dist/recorded ]]; then
  mv "$dist/recorded" "$tmp/recorded" || cannot_assemble "keeping $dist/recorded failed"
fi
rm -rf "$dist" && mv "$tmp" "$dist" || cannot_assemble "moving $tmp/ to $dist/ failed"
echo "assemble-dist: $dist/ assembled ($(du -sh "$dist" | cut -f1))"
