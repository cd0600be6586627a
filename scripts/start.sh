#!/usr/bin/env bash
# npm start: builds what the page needs and serves it, in the order that prints its URL soonest
# on a fresh clone (the test suites are npm test's, scripts/test.sh):
#   setup -> at once: the Embind modules in wasm (build-wasm.sh, the modules only; dist/ is
#   assembled from them) and, at a lower priority, the wolab CLI natively (with the lexicon the
#   real-words section reads, build/data/) and then the presets' recordings with it (record.sh,
#   Quick first, into build/start/recorded) -> the page is served once dist/ is assembled -> the
#   lexicon and each preset's recording are moved into dist/ as soon as they are made
#   (scripts/place.sh, every 2 s). Until a
#   preset is in place the page says it is being made (dist/recorded/index.json
#   "recording": true, which the page polls), or shows the previous recording.
# Extra arguments go to serve.js's environment as usual (PORT, HOST).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
started=$SECONDS
mkdir -p build
log=build/record.log
rm -f build/start/native.done

# The recordings need only the CLI; nice leaves the cores to the wasm build the URL waits for.
(
  nice -n 10 cmake -B build -S . >/dev/null &&
    nice -n 10 cmake --build build -j2 --target wolab >/dev/null &&
    mkdir -p build/start && touch build/start/native.done &&
    WOLAB_DIST=build/start nice -n 10 bash scripts/record.sh
) >"$log" 2>&1 &
recording=$!

WOLAB_WASM_TARGETS="wolab wolab-nosimd" bash scripts/build-wasm.sh
# From now on only scripts/place.sh writes into dist/: the lexicon and each recording as they come.
place() {
  bash scripts/place.sh | while read -r line; do echo "start: $line after $((SECONDS - started)) s"; done ||
    echo "start: scripts/place.sh failed; trying again" >&2
}
place
echo "start: page built in $((SECONDS - started)) s; the lexicon and the recordings follow (log: $log)"

node scripts/serve.js &
server=$!
stop() { kill "$server" "$recording" 2>/dev/null || true; }
trap stop INT TERM

while kill -0 "$recording" 2>/dev/null; do
  place
  sleep 2
done
if wait "$recording"; then
  place
  echo "start: every preset recorded and in place after $((SECONDS - started)) s"
else
  place
  # Not "being made" any more: without recordings the page says so.
  if grep -q '"recording": true' dist/recorded/index.json 2>/dev/null; then
    sed -i 's/"recording": true/"recording": false/' dist/recorded/index.json
  fi
  echo "start: recording failed (see $log); the page trains live with what is in place" >&2
fi
wait "$server"
