#!/usr/bin/env bash
# Records the sweeps of "What W_o is for" that scripts/sweep-purpose.sh has finished into
# recorded/purpose/ (committed; docs/sweeps.md, "What W_o is for"): per sweep its merged results,
# their analysis (`wolab report --json`) and report, and manifest.json: the sweeps' commands, the
# core's commit, the CPU and wall time, the sha256 of every file, and "figure", the sweeps the
# page's first screen draws (the first one recorded, purpose-figure.js). A sweep not finished yet
# is left out, and recorded by the next run of this script.
#   WOLAB_BIN       the wolab CLI (default build/wolab)
#   PURPOSE_WORK    where the sweeps trained (default build/purpose)
#   PURPOSE_OUT     the recorded folder (default recorded/purpose)
#   PURPOSE_FIGURE  the sweeps the first screen draws, in order of preference (default
#                   "words_d64 words_d32n quick_long")
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${WOLAB_BIN:-build/wolab}")
work=${PURPOSE_WORK:-build/purpose}
out=${PURPOSE_OUT:-recorded/purpose}
read -r -a figure <<<"${PURPOSE_FIGURE:-words_d64 words_d32n quick_long}"
tmp=${out%/}.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
names=() sweep='' cpu=0 wall=0
while IFS='|' read -r name experiment _; do
  results=$work/$name/results.$experiment.json
  [[ -s $results ]] || continue
  names+=("$name")
  mkdir -p "$tmp/$name"
  cp "$results" "$tmp/$name/"
  (cd "$tmp/$name" && "$bin" report --json "results.$experiment.json" > analysis.json &&
    "$bin" report "results.$experiment.json" > report.txt)
  sweep+="${sweep:+, }$(node -e 'console.log(JSON.stringify(require("fs").readFileSync(process.argv[1], "utf8").trim()))' "$work/$name/command.txt")"
  read -r c w < <(awk '{ c += $1 + $2; w += $3 } END { printf "%.0f %.0f\n", c, w }' "$work/$name/time.txt")
  cpu=$((cpu + c)) wall=$((wall + w))
done < <(bash scripts/sweep-purpose.sh --list)
(( ${#names[@]} )) || { echo "record-purpose: no sweep finished in $work" >&2; exit 1; }
shown=()
for f in "${figure[@]}"; do [[ " ${names[*]} " == *" $f "* ]] && shown+=("\"$f\""); done
# The core the sweeps trained with, as sweep-purpose.sh found it when it began.
read -r commit dirty < "$work/commit.txt"
list() { local IFS=,; echo "$*"; }
WOLAB_BIN=$bin MANIFEST_COMMAND=scripts/sweep-purpose.sh MANIFEST_COMMIT=$commit MANIFEST_DIRTY=$dirty \
  MANIFEST_NOTE="${PURPOSE_NOTE:-The sweeps trained one after the other, 2 slices at a time, while other builds and tests shared the two cores; recorded by scripts/record-purpose.sh.}" \
  MANIFEST_CPU=$cpu MANIFEST_WALL=$wall \
  MANIFEST_EXTRA="\"presets\": [$(printf '"%s",' "${names[@]}" | sed 's/,$//')],
\"figure\": [$(list "${shown[@]}")],
\"sweep\": [$sweep]," bash scripts/write-manifest.sh "$tmp"
rm -rf "$out"
mv "$tmp" "$out"
echo "record-purpose: $out: ${names[*]} ($cpu s CPU)"
