#!/usr/bin/env bash
# Records the page's presets with the native CLI (the same core as the page) into recorded/presets/,
# which is committed, so that the page has results to show on load without training anything
# (scripts/assemble-dist.sh copies the folder into dist/recorded): recorded/presets/<preset>/
# results.<experiment>.json, one per experiment, each run's W_o snapshots beside them
# (results.<experiment>.<variant>.seed<N>.safetensors, named by the run's wo_file), the CLI's
# report (report.txt) and the same analysis as the page's analyze makes it (analysis.json:
# `wolab report --json` of the files the page fetches, so that the page shows the recorded
# verdicts without analysing them again on every load), and index.json listing them by experiment
# ("analyses" names each preset's analysis.json), so that a page showing one experiment (an embed)
# fetches only its file; and, for the presets of WOLAB_RECORD_MODELS, the models of real_words'
# first seed, one per variant (models/<variant>.seed<N>.safetensors, listed under "models" in
# index.json, with a few held-out words on which they differ), which the page's word box
# pronounces with where no models trained to the end are shipped (recorded/converged/). Each preset is in place
# as soon as it is recorded, Quick first (index.json lists the presets in place, and says
# "recording": true until the last one is, which the page polls). Last, manifest.json (scripts/
# write-manifest.sh), whose sha256 tests/shell/recorded.sh checks, and whose first steps and
# analyses tests/native/test_recorded.cpp checks against the core of today (docs/sweeps.md,
# "The page's presets, committed"). Needs only the wolab CLI (build-native.sh).
#   WOLAB_BIN       the wolab CLI (default build/wolab)
#   WOLAB_RECORDED  the folder recorded into (default recorded/presets; npm start records into
#                   build/start/recorded when the committed one does not match its manifest)
#   WOLAB_PRESETS   the presets to record, in this order (default "quick article"); the
#                   recordings of other presets are removed
#   WOLAB_RECORD_MODELS  the presets whose models are recorded (default "quick": Article's four
#                   d_model-256 models are 27 MB, and the word box pronounces with the converged
#                   models, which the page always ships)
# Exit status: 0 done; 1 a recording failed (the presets recorded before it stay in place).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${WOLAB_BIN:-build/wolab}")
recorded=${WOLAB_RECORDED:-recorded/presets}
recorded=${recorded%/}
read -r -a presets <<<"${WOLAB_PRESETS:-quick article}"
read -r -a with_models <<<"${WOLAB_RECORD_MODELS:-quick}"
# The core the runs are made with: its commit, and how many of its source files differ from it.
commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
dirty=$(git status --porcelain -- src bindings CMakeLists.txt 2>/dev/null | wc -l)
began=$SECONDS

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

# Each preset is recorded into $tmp/<preset> and moved into $recorded as soon as it is done, Quick
# first, so that a page serving the folder shows it while the next one records; index.json,
# rewritten after each move, lists the presets in place, with "recording": true until the last one is.
tmp=$recorded.tmp
rm -rf "$tmp"
mkdir -p "$tmp" "$recorded"

# index.json: {"presets": {"quick": {"remove_wo": "results.remove_wo.json", ...}, ...},
#              "analyses": {"quick": "analysis.json", ...},
#              "models": {"quick": {"files": {"learned": "models/learned.seed0.safetensors", ...},
#                                   "examples": ["word", ...]}, ...}, "recording": true|false}
# assembled from the entries each preset's folder carries (preset.files.json, preset.models.json),
# of the presets in place that this run records; $1: whether presets are still to come.
write_index() {
  local key sep p
  {
    for key in presets analyses models; do
      [[ $key == presets ]] && printf '{' || printf ', '
      printf '"%s": {' "$key"
      sep=''
      for p in "${presets[@]}"; do
        [[ -f $recorded/$p/preset.files.json ]] || continue
        [[ $key != models || -f $recorded/$p/preset.models.json ]] || continue
        printf '%s"%s": ' "$sep" "$p"
        case $key in
          presets) cat "$recorded/$p/preset.files.json" ;;
          analyses) printf '"analysis.json"' ;;
          models) cat "$recorded/$p/preset.models.json" ;;
        esac
        sep=', '
      done
      printf '}'
    done
    printf ', "recording": %s}\n' "$1"
  } >"$recorded/index.json.tmp"
  mv "$recorded/index.json.tmp" "$recorded/index.json"
}

# Recordings of presets this run does not record are not listed: another core made them.
for f in "$recorded"/*/; do
  [[ -d $f ]] || continue
  p=$(basename "$f")
  [[ " ${presets[*]} " == *" $p "* ]] || rm -rf "$f"
done
write_index true
trap 'write_index false' ERR  # not "recording" any more: the page says what it has

# Every experiment at once (runs they share are trained once), the learning-rate sweep
# included: at the Article preset's batch 16 and 25 steps all of it takes about a minute natively.
for i in "${!presets[@]}"; do
  preset=${presets[$i]}
  mkdir -p "$tmp/$preset"
  start=$(date +%s)
  # Run in the preset's folder, so that the report names its files as they lie beside it.
  (cd "$tmp/$preset" && "$bin" run --preset "$preset" --experiment all --jobs 2 --out results.json > /dev/null)
  # Each run's W_o snapshots to a float16 file of its own beside its results (lab/wo_files.h):
  # at the Article preset they are 29 MB of JSON, which a page fetches only to draw one run.
  for f in "$tmp/$preset"/results.*.json; do
    "$bin" split-wo "$f" --out "$f" > /dev/null
  done
  (cd "$tmp/$preset" && "$bin" report --json results.*.json > analysis.json && "$bin" report results.*.json > report.txt)
  # This preset's entries of index.json.
  {
    printf '{'
    sep=''
    for f in "$tmp/$preset"/results.*.json; do
      file=$(basename "$f")
      experiment=${file#results.}
      printf '%s"%s": "%s"' "$sep" "${experiment%.json}" "$file"
      sep=', '
    done
    printf '}'
  } > "$tmp/$preset/preset.files.json"
  # real_words' first seed again, to keep its models (the same runs as the recorded ones: a run
  # depends only on its config and seed).
  if [[ " ${with_models[*]} " == *" $preset "* ]]; then
    mkdir -p "$tmp/$preset/models"
    "$bin" run --preset "$preset" --experiment real_words --seeds 1 --jobs 2 --save-checkpoints "$tmp/$preset/models" > /dev/null
    examples "$tmp/$preset/models" > "$tmp/$preset/models/examples.txt"
    {
      printf '{"files": {'
      sep=''
      for f in "$tmp/$preset"/models/*.safetensors; do
        file=$(basename "$f")
        printf '%s"%s": "models/%s"' "$sep" "${file%%.*}" "$file"
        sep=', '
      done
      printf '}, "examples": ['
      sep=''
      while read -r word; do
        printf '%s"%s"' "$sep" "$word"
        sep=', '
      done < "$tmp/$preset/models/examples.txt"
      printf ']}'
    } > "$tmp/$preset/preset.models.json"
  fi
  # In place: the previous recording of this preset out, this one in, then the index naming it.
  rm -rf "$recorded/.$preset.old"
  if [[ -d $recorded/$preset ]]; then mv "$recorded/$preset" "$recorded/.$preset.old"; fi
  mv "$tmp/$preset" "$recorded/$preset"
  rm -rf "$recorded/.$preset.old"
  if ((i + 1 < ${#presets[@]})); then write_index true; else write_index false; fi
  echo "record: $preset in $(( $(date +%s) - start )) s, in place in $recorded/$preset"
done
rm -rf "$tmp"
# The CPU seconds of every command above: bash's `times` (the children's user and system time),
# written to a file by this shell itself (in a pipe or $(...) a subshell would count its own).
times > "$recorded/.times"
cpu=$(tail -1 "$recorded/.times" | awk '{ for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] } } END { printf "%.0f", s }')
rm "$recorded/.times"
WOLAB_BIN=$bin MANIFEST_COMMAND=scripts/record.sh MANIFEST_COMMIT=$commit MANIFEST_DIRTY=$dirty \
  MANIFEST_CPU=$cpu MANIFEST_WALL=$((SECONDS - began)) \
  MANIFEST_EXTRA="\"presets\": [$(printf '"%s", ' "${presets[@]}" | sed 's/, $//')]," bash scripts/write-manifest.sh "$recorded"
echo "record: $recorded ($(du -sh "$recorded" | cut -f1); $((SECONDS - began)) s, $cpu s CPU)"
