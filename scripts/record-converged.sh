#!/usr/bin/env bash
# Trains real words to the end natively (the presets converged and converged_narrow, experiment
# real_words) with the project's own sweep tools, and records them as a small model zoo
# (docs/sweeps.md, "Real words to the end"):
#   1. `wolab plan --preset P --experiment real_words --shards N` for each preset, every slice
#      also saving its runs' models (--save-checkpoints), all slices through GNU parallel;
#   2. `wolab merge` of each preset's slices, `wolab report --json` of the merged results;
#   3. the recorded folder: per preset its results and analysis, and for the presets of
#      CONVERGED_MODELS the models of the first seed, one per variant (float16 where every held-out
#      word is pronounced the same, else float32),
#      the example words of the page's word box (examples.txt), and manifest.json: the command, the wolab
#      version, the core's commit, the CPU and wall time, and the sha256 of every file.
#   WOLAB_BIN        the wolab CLI (default build/wolab)
#   CONVERGED_WORK   where the sweep trains (default build/converged; slices already there are kept,
#                    so a rerun after a failure trains only the slices that failed)
#   CONVERGED_OUT    the recorded folder (default recorded/converged)
#   CONVERGED_PRESETS  (default "converged converged_small converged_narrow", the order the page
#                      shows them in)
#   CONVERGED_SHARDS   slices per preset (default 10)   CONVERGED_JOBS  slices at once (default 2)
#   CONVERGED_MODELS   the presets whose models are shipped (default "converged converged_narrow":
#                      one model per variant of each size, d_model 64 and 32; converged_small has
#                      narrow's size and parameters, and its float32 models would take the folder
#                      over 3 MB compressed)
#   CONVERGED_TRAIN_ONLY  set: train the missing slices, record nothing
#   CONVERGED_WALL   the wall seconds to record when the presets trained at the same time (the
#                    span from the first start to the last end), else the sum of their walls
#   CONVERGED_NOTE   a line for the manifest: how the sweep was run, if not by this script alone
# Exit status: 0 recorded; 1 a step failed (the recorded folder is then left as it was).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${WOLAB_BIN:-build/wolab}")
work=${CONVERGED_WORK:-build/converged}
out=${CONVERGED_OUT:-recorded/converged}
read -r -a presets <<<"${CONVERGED_PRESETS:-converged converged_small converged_narrow}"
read -r -a shipped <<<"${CONVERGED_MODELS:-converged converged_narrow}"
# Flags after --preset, for a sweep of presets changed since the CLI was built (recorded in the manifest).
read -r -a extra <<<"${CONVERGED_FLAGS:-}"
shards=${CONVERGED_SHARDS:-10}
jobs=${CONVERGED_JOBS:-2}
lexicon=$(dirname "$bin")/data/cmudict-g2p.txt
mkdir -p "$work"
# The core the sweep trains with: the commit, and how many of its source files differed from it
# (0 for a clean tree), as the first start of the sweep found them.
[[ -s $work/commit.txt ]] || echo "$(git rev-parse HEAD) $(git status --porcelain -- src bindings CMakeLists.txt | wc -l)" > "$work/commit.txt"
read -r commit dirty < "$work/commit.txt"

# 1. Each preset's slices through GNU parallel, the first preset's first. A slice whose shard file
# exists is not trained again, so a rerun after a failure or a stop trains only what is missing.
# GNU time counts the CPU of every slice (parallel waits for each); each run of parallel adds a
# line to the preset's time.txt, and the sweep's time is their sum.
for p in "${presets[@]}"; do
  mkdir -p "$work/$p/models"
  shopt -s nullglob
  done_slices=("$work/$p"/results.real_words-shard-*-of-"$shards".json)
  shopt -u nullglob
  (( ${#done_slices[@]} < shards )) || continue
  "$bin" plan --preset "$p" "${extra[@]}" --experiment real_words --jobs 1 --save-checkpoints "$work/$p/models" \
    --out "$work/$p/results.real_words.json" --shards "$shards" > "$work/$p/commands.txt" 2> "$work/$p/slices.txt"
  while read -r line; do
    k=${line##*--shard }
    [[ -f $work/$p/results.real_words-shard-${k%/*}-of-$shards.json ]] || echo "$line"
  done < "$work/$p/commands.txt" > "$work/$p/todo.txt"
  if [[ -s $work/$p/todo.txt ]]; then
    /usr/bin/time -f "%U %S %e" -a -o "$work/$p/time.txt" \
      parallel --will-cite -j "$jobs" --joblog "$work/$p/joblog" < "$work/$p/todo.txt"
  fi
done
[[ -z ${CONVERGED_TRAIN_ONLY:-} ]] || exit 0
times=()
for p in "${presets[@]}"; do times+=("$work/$p/time.txt"); done
cpu=$(cat "${times[@]}" | awk '{ s += $1 + $2 } END { printf "%.0f", s }')
wall=$(cat "${times[@]}" | awk '{ s += $3 } END { printf "%.0f", s }')
# Presets trained at the same time (separate runs of this script): their span, not the sum.
wall=${CONVERGED_WALL:-$wall}
echo "record-converged: trained in ${wall} s wall, ${cpu} s CPU"

# 2. Merge and analyse each preset.
tmp=${out%/}.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
for p in "${presets[@]}"; do
  "$bin" merge "$work/$p"/results.real_words-shard-*-of-"$shards".json --out "$work/$p/results.real_words.json"
  mkdir -p "$tmp/$p"
  cp "$work/$p/results.real_words.json" "$tmp/$p/"
  (cd "$tmp/$p" && "$bin" report --json results.real_words.json > analysis.json && "$bin" report results.real_words.json > report.txt)
done

# 3. The models of each preset's first seed, in float16 unless that changes how a held-out word
# is pronounced (every held-out word is checked), else in float32.
# Held-out words (wolab pronounce says so), one a line.
heldout_words() {  # model file; the words on stdin
  xargs -n 4000 "$bin" pronounce --model "$1" --data "$lexicon" |
    awk '/^[^ ]+: / { w = $1; sub(/:$/, "", w) } /^  dictionary \(held out\)/ { print w }'
}
# The pronunciations of words by a model, a line each, without the dictionary's lines.
pronunciations() {  # model file, words...
  printf '%s\n' "${@:2}" | xargs -n 4000 "$bin" pronounce --model "$1" --data "$lexicon" 2>/dev/null | grep -v '^  '
}
mapfile -t listed < <(awk '!/^;;;/ && $1 !~ /\(/ { print tolower($1) }' "$lexicon" | sort -u)
for p in "${presets[@]}"; do
  [[ " ${shipped[*]} " == *" $p "* ]] || continue
  mkdir -p "$tmp/$p/models"
  # The first seed: the config's train.seed (the first run of the plan).
  seed=$(grep -o '"seed":[0-9]*' "$tmp/$p/results.real_words.json" | head -1 | cut -d: -f2)
  first=$(ls "$work/$p/models"/*.seed"$seed".safetensors | head -1)
  [[ -s $work/heldout.txt ]] || printf '%s\n' "${listed[@]}" | heldout_words "$first" > "$work/heldout.txt"
  mapfile -t heldout < "$work/heldout.txt"
  for f in "$work/$p/models"/*.seed"$seed".safetensors; do
    name=$(basename "$f")
    "$bin" half-model "$f" --out "$work/$name.f16" > /dev/null
    if cmp -s <(pronunciations "$f" "${heldout[@]}") <(pronunciations "$work/$name.f16" "${heldout[@]}"); then
      mv "$work/$name.f16" "$tmp/$p/models/$name"
      echo "record-converged: $p/$name in float16 (every held-out word pronounced the same)"
    else
      rm "$work/$name.f16"
      cp "$f" "$tmp/$p/models/$name"
      echo "record-converged: $p/$name in float32 (float16 changed a held-out word)"
    fi
  done
done

# The word box's example chips: held-out words a reader recognises, on which the models of
# converged (the wider model) differ. "Recognises": CMUdict lists the word with two inflected forms (w+s or w+es, and
# w+ed), which common words have and names and abbreviations rarely do (johann has johanns and
# johanning, a surname, but no johanned), and does not list w+e (ador, whose forms adores and
# adored are adore's); 4 to 8 letters. The six with the most distinct pronunciations among the variants, then in the
# lexicon's order.
declare -A is_listed
for w in "${listed[@]}"; do is_listed[$w]=1; done
common=()
for w in "${heldout[@]}"; do
  (( ${#w} >= 4 && ${#w} <= 8 )) || continue
  [[ -n ${is_listed[${w}s]:-} || -n ${is_listed[${w}es]:-} ]] || continue
  [[ -n ${is_listed[${w}ed]:-} ]] || continue
  [[ -z ${is_listed[${w}e]:-} ]] || continue
  common+=("$w")
done
p=converged
[[ -d $tmp/$p/models ]] || p=${shipped[0]}
for f in "$tmp/$p/models"/*.safetensors; do pronunciations "$f" "${common[@]}" > "$f.said"; done
paste -d '\t' "$tmp/$p/models"/*.said |
  awk -F '\t' '{ split($1, a, ": "); n = 0; delete seen; for (i = 1; i <= NF; i++) { sub(/^[^:]*: /, "", $i); if (!($i in seen)) { seen[$i] = 1; n++ } } if (n > 1) print n "\t" NR "\t" a[1] }' |
  sort -t $'\t' -k1,1nr -k2,2n | head -6 | cut -f3 > "$tmp/examples.txt"
rm "$tmp/$p/models"/*.said

# The manifest, then the folder into place.
sweep=''
for p in "${presets[@]}"; do
  sweep+="${sweep:+, }\"wolab plan --preset $p${extra[*]:+ ${extra[*]}} --experiment real_words --jobs 1 --save-checkpoints DIR --out results.real_words.json --shards $shards | parallel -j $jobs\""
done
WOLAB_BIN=$bin MANIFEST_COMMAND=scripts/record-converged.sh MANIFEST_COMMIT=$commit MANIFEST_DIRTY=$dirty \
  MANIFEST_NOTE=${CONVERGED_NOTE:-} MANIFEST_CPU=$cpu MANIFEST_WALL=$wall \
  MANIFEST_EXTRA="\"presets\": [$(printf '"%s", ' "${presets[@]}" | sed 's/, $//')],
\"sweep\": [$sweep]," bash scripts/write-manifest.sh "$tmp"
rm -rf "$out"
mkdir -p "$(dirname "$out")"
mv "$tmp" "$out"
echo "record-converged: $out ($(tar -czf - -C "$out" . | wc -c) bytes compressed)"
