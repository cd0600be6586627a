#!/usr/bin/env bash
# npm start's last step, run again and again while it serves the page (scripts/start.sh): moves
# into the assembled dist/ what the background builds have made since it was assembled: the
# module for browsers without WASM SIMD once it is built (its marker file), the lexicon once the
# native build is done (its marker file), and, when the committed recordings did not match their
# manifest, each preset's recording once record.sh has put it in place in $WOLAB_MADE/recorded. A
# file is copied beside its place and renamed into it, and a preset's folder is in place before
# the index that names it, so that the page never reads half of either. What is already in place
# is left. Prints a line per thing placed. With no recordings at all in place, it writes an index
# that says they are being made.
#   WOLAB_DIST         the assembled page (default dist)
#   WOLAB_MADE         what npm start makes: nosimd.done and native.done once those builds are
#                      done, recorded/ as record.sh writes it (default build/start)
#   WOLAB_WASM_DIR     the wasm build (default build-wasm)
#   WOLAB_NATIVE_DIR   the native build, whose data/ holds the lexicon (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
dist=${WOLAB_DIST:-dist}
made=${WOLAB_MADE:-build/start}
native=${WOLAB_NATIVE_DIR:-build}
wasm=${WOLAB_WASM_DIR:-build-wasm}

# Until record.sh has written an index (when nothing was committed to show), the page says the
# recordings are being made.
if [[ ! -f $dist/recorded/index.json ]]; then
  mkdir -p "$dist/recorded"
  echo '{"presets": {}, "recording": true}' >"$dist/.index.json.tmp"
  mv "$dist/.index.json.tmp" "$dist/recorded/index.json"
fi

if [[ -f $made/nosimd.done ]] && ! cmp -s "$wasm/wolab-nosimd.wasm" "$dist/wolab-nosimd.wasm"; then
  # The script last: the page picks the module by its script, which must find its .wasm.
  for f in wolab-nosimd.wasm wolab-nosimd.js; do
    cp "$wasm/$f" "$dist/.$f.tmp" && mv "$dist/.$f.tmp" "$dist/$f"
  done
  echo "the module for browsers without WASM SIMD in place"
fi

if [[ -f $made/native.done ]] && ! cmp -s "$native/data/cmudict-g2p.txt" "$dist/cmudict-g2p.txt"; then
  for f in cmudict-LICENSE.txt cmudict-g2p.txt; do
    cp "$native/data/$f" "$dist/.$f.tmp" && mv "$dist/.$f.tmp" "$dist/$f"
  done
  echo "the lexicon (real words) in place"
fi

from=$made/recorded
to=$dist/recorded
[[ -f $from/index.json ]] || exit 0
cmp -s "$from/index.json" "$to/index.json" && exit 0
# The index first, so that every folder it names is complete (record.sh moves each into place
# before it rewrites the index); the folders as hard links where they can be, a copy that costs
# nothing.
mkdir -p "$to"
cp "$from/index.json" "$dist/.index.json.tmp"
for d in "$from"/*/; do
  [[ -d $d ]] || continue
  p=$(basename "$d")
  [[ $d/analysis.json -ef $to/$p/analysis.json ]] && continue
  rm -rf "$to/.$p.new"
  cp -al "$d" "$to/.$p.new" 2>/dev/null || { rm -rf "$to/.$p.new" && cp -a "$d" "$to/.$p.new"; }
  rm -rf "$to/$p" && mv "$to/.$p.new" "$to/$p"
  echo "the $p recording in place"
done
mv "$dist/.index.json.tmp" "$to/index.json"
