#!/usr/bin/env bash
# npm start: builds what the page needs and serves it, in the order that prints its URL soonest
# on a fresh clone (the test suites are npm test's, scripts/test.sh):
#   setup -> the SIMD Embind module alone (build-wasm.sh: every browser of the last years runs
#   it), dist/ assembled from it with the committed recordings of both presets (recorded/presets/,
#   checked against their manifest) -> the page is served and its URL printed -> in the
#   background, at a lower priority: the module for browsers without WASM SIMD, and the wolab
#   CLI natively with the lexicon that the real-words section trains on (build/data/); each is
#   moved into dist/ as soon as it is made (scripts/place.sh). Until then a browser without SIMD
#   says that its build is on its way, and the real-words section that its lexicon is.
# Only when recorded/presets/ does not match its manifest (edited or half recorded) are the
# presets recorded again, with that CLI, into build/start/recorded, and placed as each is done;
# meanwhile the page says they are being made (dist/recorded/index.json "recording": true, which
# the page polls). scripts/time-start.sh times all of this from a fresh clone (docs/performance.md).
# Extra arguments go to serve.js's environment as usual (PORT, HOST).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
started=$SECONDS
say() { echo "start: $* after $((SECONDS - started)) s"; }
mkdir -p build/start
log=build/start/background.log
rm -f build/start/native.done build/start/nosimd.done
rm -rf build/start/recorded

if bash scripts/check-manifest.sh recorded/presets 2>/dev/null; then
  record=''
else
  record=1
  echo "start: recorded/presets/ does not match its manifest: the presets are recorded again in the background (scripts/record.sh)" >&2
fi

WOLAB_WASM_TARGETS=wolab bash scripts/build-wasm.sh
say "page built (SIMD module; the committed recordings in place)"

node scripts/serve.js &
server=$!

# The module without SIMD, then the CLI and its lexicon (and, only if needed, the recordings), at
# a lower priority than the server; scripts/place.sh moves each into dist/ once it is there.
(
  NODE_PATH=/usr/share/nodejs nice -n 10 cmake --build build-wasm -j2 --target wolab-nosimd && touch build/start/nosimd.done
  nice -n 10 cmake -B build -S . >/dev/null &&
    nice -n 10 cmake --build build -j2 --target wolab >/dev/null &&
    touch build/start/native.done &&
    if [[ -n $record ]]; then WOLAB_RECORDED=build/start/recorded nice -n 10 bash scripts/record.sh; fi
) >"$log" 2>&1 &
background=$!
stop() { kill "$server" "$background" 2>/dev/null || true; }
trap stop INT TERM

place() {
  bash scripts/place.sh | while read -r line; do say "$line"; done ||
    echo "start: scripts/place.sh failed; trying again" >&2
}
while kill -0 "$background" 2>/dev/null; do
  place
  sleep 2
done
if wait "$background"; then
  place
  say "everything built and in place"
else
  place
  # Not "being made" any more: without recordings the page says so.
  if grep -q '"recording": true' dist/recorded/index.json 2>/dev/null; then
    sed -i 's/"recording": true/"recording": false/' dist/recorded/index.json
  fi
  echo "start: a background build failed (see $log); the page runs with what is in place" >&2
fi
wait "$server"
