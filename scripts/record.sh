#!/usr/bin/env bash
# Records the page's presets with the native CLI (the same core as the page), so the page has
# results to show on load: dist/recorded/<preset>/results.<experiment>.json, one per experiment,
# each run's W_o snapshots beside them (results.<experiment>.<variant>.seed<N>.safetensors, named
# by the run's wo_file), the CLI's report (report.txt), and dist/recorded/index.json listing them by
# experiment, so that a page showing one experiment (an embed) fetches only its file. Needs only
# the wolab CLI (build-native.sh): build-wasm.sh may assemble dist/ meanwhile, and keeps
# dist/recorded when it does.
#   WOLAB_BIN   the wolab CLI (default build/wolab)
#   WOLAB_DIST  the assembled page (default dist)
#   WOLAB_PRESETS  the presets to record (default "quick article"; the tests need only quick)
# Exit status: 0 done; 1 a recording failed (dist/recorded/ is then left without it).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${WOLAB_BIN:-build/wolab}")
dist=${WOLAB_DIST:-dist}
read -r -a presets <<<"${WOLAB_PRESETS:-quick article}"

# Written beside dist/ (which build-wasm.sh may replace meanwhile) and moved into place, so the
# page never sees half of it.
tmp=${dist%/}.recorded.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
# Every experiment at once (runs they share are trained once), the learning-rate sweep
# included: at the Article preset's batch 16 and 25 steps all of it takes about a minute natively.
for preset in "${presets[@]}"; do
  mkdir -p "$tmp/$preset"
  start=$(date +%s)
  # Run in the preset's folder, so that the report names its files as they lie beside it.
  (cd "$tmp/$preset" && "$bin" run --preset "$preset" --experiment all --jobs 2 --out results.json > report.txt)
  # Each run's W_o snapshots to a float16 file of its own beside its results (lab/wo_files.h):
  # at the Article preset they are 29 MB of JSON, which a page fetches only to draw one run.
  for f in "$tmp/$preset"/results.*.json; do
    "$bin" split-wo "$f" --out "$f" > /dev/null
  done
  echo "record: $preset in $(( $(date +%s) - start )) s"
done

# index.json: {"presets": {"quick": {"remove_wo": "results.remove_wo.json", ...}, ...}}
{
  printf '{"presets": {'
  sep=''
  for preset in "${presets[@]}"; do
    printf '%s"%s": {' "$sep" "$preset"
    sep2=''
    for f in "$tmp/$preset"/results.*.json; do
      file=$(basename "$f")
      experiment=${file#results.}
      printf '%s"%s": "%s"' "$sep2" "${experiment%.json}" "$file"
      sep2=', '
    done
    printf '}'
    sep=', '
  done
  printf '}}\n'
} > "$tmp/index.json"
rm -rf "$dist/recorded"
mkdir -p "$dist"
mv "$tmp" "$dist/recorded"
echo "record: $dist/recorded ($(du -sh "$dist/recorded" | cut -f1))"
