#!/usr/bin/env bash
# npm start: builds what the page needs and serves it, in the order that prints its URL soonest
# on a fresh clone (the test suites are npm test's, scripts/test.sh):
#   setup -> at once: the Embind modules in wasm (build-wasm.sh, the modules only; dist/ is
#   assembled from them) and, at a lower priority, the wolab CLI natively and then both presets'
#   recordings with it (record.sh) -> the page is served once dist/ is assembled -> the
#   recordings move into dist/recorded when they are done. Until then the page says they are
#   being made (dist/recorded/index.json {"recording": true}), or shows the previous ones.
# Extra arguments go to serve.js's environment as usual (PORT, HOST).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
started=$SECONDS
mkdir -p build
log=build/record.log

# The recordings need only the CLI; nice leaves the cores to the wasm build the URL waits for.
(
  nice -n 10 cmake -B build -S . >/dev/null &&
    nice -n 10 cmake --build build -j2 --target wolab >/dev/null &&
    WOLAB_DIST=build/start nice -n 10 bash scripts/record.sh
) >"$log" 2>&1 &
recording=$!

WOLAB_WASM_TARGETS="wolab wolab-nosimd" bash scripts/build-wasm.sh
if [[ ! -f dist/recorded/index.json ]]; then
  mkdir -p dist/recorded
  echo '{"presets": {}, "recording": true}' >dist/recorded/index.json
fi
echo "start: page built in $((SECONDS - started)) s; recording both presets meanwhile (log: $log)"

node scripts/serve.js &
server=$!
stop() { kill "$server" "$recording" 2>/dev/null || true; }
trap stop INT TERM

if wait "$recording"; then
  rm -rf dist/recorded.old
  if [[ -d dist/recorded ]]; then mv dist/recorded dist/recorded.old; fi
  mv build/start/recorded dist/recorded
  rm -rf dist/recorded.old
  echo "start: recordings in place after $((SECONDS - started)) s; reload the page to see them"
else
  # Not "being made" any more: without recordings the page says so.
  if grep -q '"recording": true' dist/recorded/index.json 2>/dev/null; then rm -rf dist/recorded; fi
  echo "start: recording failed (see $log); the page trains live without recordings" >&2
fi
wait "$server"
