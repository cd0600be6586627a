#!/usr/bin/env bash
# Records the page's presets with the native CLI (the same core as the page), so the page has
# results to show on load: dist/recorded/<preset>/results.<experiment>.json, one per experiment,
# each run's W_o snapshots beside them (results.<experiment>.<variant>.seed<N>.safetensors, named
# by the run's wo_file), the CLI's report (report.txt) and the same analysis as the page's analyze
# makes it (analysis.json: `wolab report --json` of the files the page fetches, so that the page
# shows the recorded verdicts without analysing them again on every load), and
# dist/recorded/index.json listing them by experiment ("analyses" names each preset's
# analysis.json), so that a page showing one experiment (an embed) fetches only its file; and the
# models of real_words' first seed, one per variant (models/<variant>.seed<N>.safetensors, listed
# under "models" in index.json, with a few held-out words on which they differ), which the page's word box pronounces with. Needs only
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

# Telling words for the word box's chips: held-out words (every 50th word of the lexicon
# pronounced) whose pronunciations differ between the recorded models in folder $1, at most 6,
# one a line.
examples() {
  local lexicon words=() i=0 f
  lexicon=$(dirname "$bin")/data/cmudict-g2p.txt
  mapfile -t words < <(awk '!/^;;;/ && $1 !~ /\(/ && NR % 50 == 0 { print tolower($1) }' "$lexicon")
  for f in "$1"/*.safetensors; do
    # word<TAB>pronunciation<TAB>held out (1 or 0), a line per word, in the same order for each model
    "$bin" pronounce --model "$f" --data "$lexicon" "${words[@]}" |
      awk '/^[a-z]+: / { w = $1; sub(/:$/, "", w); p = $0; sub(/^[a-z]+: /, "", p); next }
           /^  dictionary/ { print w "\t" p "\t" ($0 ~ /held out/ ? 1 : 0) }' > "$1/pron.$i.tmp"
    i=$((i + 1))
  done
  paste "$1"/pron.*.tmp | awk -F '\t' '$3 == 1 { for (i = 5; i <= NF; i += 3) if ($i != $2) { print $1; break } }' | head -6
  rm -f "$1"/pron.*.tmp
}

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
  "$bin" report --json "$tmp/$preset"/results.*.json > "$tmp/$preset/analysis.json"
  # real_words' first seed again, to keep its models (the same runs as the recorded ones: a run
  # depends only on its config and seed).
  mkdir -p "$tmp/$preset/models"
  "$bin" run --preset "$preset" --experiment real_words --seeds 1 --jobs 2 \
    --out "$tmp/$preset/models/results.json" --save-checkpoints "$tmp/$preset/models" > /dev/null
  rm "$tmp/$preset/models/results.json"
  examples "$tmp/$preset/models" > "$tmp/$preset/models/examples.txt"
  echo "record: $preset in $(( $(date +%s) - start )) s"
done

# index.json: {"presets": {"quick": {"remove_wo": "results.remove_wo.json", ...}, ...},
#              "models": {"quick": {"files": {"learned": "models/learned.seed0.safetensors", ...},
#                                   "examples": ["word", ...]}, ...}}
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
  printf '}, "analyses": {'
  sep=''
  for preset in "${presets[@]}"; do
    printf '%s"%s": "analysis.json"' "$sep" "$preset"
    sep=', '
  done
  printf '}, "models": {'
  sep=''
  for preset in "${presets[@]}"; do
    printf '%s"%s": {"files": {' "$sep" "$preset"
    sep2=''
    for f in "$tmp/$preset"/models/*.safetensors; do
      file=$(basename "$f")
      printf '%s"%s": "models/%s"' "$sep2" "${file%%.*}" "$file"
      sep2=', '
    done
    printf '}, "examples": ['
    sep2=''
    while read -r word; do
      printf '%s"%s"' "$sep2" "$word"
      sep2=', '
    done < "$tmp/$preset/models/examples.txt"
    printf ']}'
    sep=', '
  done
  printf '}}\n'
} > "$tmp/index.json"
rm -rf "$dist/recorded"
mkdir -p "$dist"
mv "$tmp" "$dist/recorded"
echo "record: $dist/recorded ($(du -sh "$dist/recorded" | cut -f1))"
