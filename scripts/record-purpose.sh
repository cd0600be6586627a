#!/usr/bin/env bash
# Records the sweeps of "What W_o is for" into recorded/purpose/ (committed; docs/sweeps.md, "What
# W_o is for"): per sweep its merged results, their analysis (`wolab report --json`) and report,
# and manifest.json: the sweeps' commands, the core's commit, the CPU and wall time (in all and
# per sweep), the sha256 of every file, and "figure", the sweeps the page's first screen draws (the
# first one recorded, purpose-figure.js). A sweep that scripts/sweep-purpose.sh finished in the
# work folder is recorded from there; one that is not there but was recorded before is carried
# over (its results kept, its analysis made again), with its command and its time; a sweep in
# neither is left out, and recorded by a later run of this script.
#   WOLAB_BIN       the wolab CLI (default build/wolab)
#   PURPOSE_WORK    where the sweeps trained (default build/purpose)
#   PURPOSE_OUT     the recorded folder (default recorded/purpose)
#   PURPOSE_FIGURE  the sweeps the first screen draws, in order of preference (default
#                   "rate_words_d64 words_d64 words_d32n quick_long": d_model 64 at the rate
#                   every variant trains best at, then at the presets' shared one)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${WOLAB_BIN:-build/wolab}")
work=${PURPOSE_WORK:-build/purpose}
out=${PURPOSE_OUT:-recorded/purpose}
read -r -a figure <<<"${PURPOSE_FIGURE:-rate_words_d64 words_d64 words_d32n quick_long}"
tmp=${out%/}.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
names=() fresh=()
while IFS='|' read -r name experiment _; do
  results=$work/$name/results.$experiment.json
  if [[ -s $results ]]; then
    fresh+=("$name")
  elif [[ -s $out/$name/results.$experiment.json ]]; then
    results=$out/$name/results.$experiment.json
  else
    continue
  fi
  names+=("$name")
  mkdir -p "$tmp/$name"
  cp "$results" "$tmp/$name/"
  (cd "$tmp/$name" && "$bin" report --json "results.$experiment.json" > analysis.json &&
    "$bin" report "results.$experiment.json" > report.txt)
done < <(bash scripts/sweep-purpose.sh --list)
(( ${#names[@]} )) || { echo "record-purpose: no sweep finished in $work or recorded in $out" >&2; exit 1; }
shown=()
for f in "${figure[@]}"; do [[ " ${names[*]} " == *" $f "* ]] && shown+=("\"$f\""); done
# Each sweep's command and seconds: from the work folder, or carried from the earlier manifest.
# Sweeps recorded before the manifest kept seconds per sweep share one figure, "earlier_seconds",
# and their core's commit, "earlier_core_commit".
fields=$(node - "$work" "$out/manifest.json" "${names[*]}" "${fresh[*]}" <<'JS'
const fs = require('fs');
const [work, manifestPath, namesArg, freshArg] = process.argv.slice(2);
const names = namesArg.split(' '), fresh = new Set(freshArg.split(' ').filter(Boolean));
const old = fs.existsSync(manifestPath) ? JSON.parse(fs.readFileSync(manifestPath, 'utf8')) : { presets: [] };
const oldSeconds = old.sweep_seconds || {};
const oldEarlier = old.earlier || (old.sweep_seconds ? [] : old.presets);
const sweep = [], seconds = {}, earlier = [];
for (const name of names) {
  if (fresh.has(name)) {
    sweep.push(fs.readFileSync(`${work}/${name}/command.txt`, 'utf8').trim());
    const t = fs.readFileSync(`${work}/${name}/time.txt`, 'utf8').trim().split('\n').map((l) => l.split(' ').map(Number));
    seconds[name] = [Math.round(t.reduce((s, [u, k]) => s + u + k, 0)), Math.round(t.reduce((s, x) => s + x[2], 0))];
  } else {
    sweep.push(old.sweep[old.presets.indexOf(name)]);
    if (oldSeconds[name]) seconds[name] = oldSeconds[name];
    else earlier.push(name);
  }
}
if (earlier.some((n) => !oldEarlier.includes(n))) throw new Error('record-purpose: no seconds kept for ' + earlier.join(' '));
const earlierSeconds = earlier.length ? old.earlier_seconds || [old.cpu_seconds, old.wall_seconds] : [0, 0];
const cpu = Object.values(seconds).reduce((s, x) => s + x[0], earlierSeconds[0]);
const wall = Object.values(seconds).reduce((s, x) => s + x[1], earlierSeconds[1]);
console.log(cpu, wall);
const earlierCommit = earlier.length ? old.earlier_core_commit || old.core_commit : '';
console.log(JSON.stringify({ sweep, sweep_seconds: seconds, earlier, earlier_seconds: earlierSeconds, earlier_core_commit: earlierCommit }));
JS
)
read -r cpu wall <<<"$(head -1 <<<"$fields")"
extra=$(tail -1 <<<"$fields")
# The core the sweeps trained with, as sweep-purpose.sh found it when it began (the earlier
# manifest's, when every sweep is carried over).
if [[ -s $work/commit.txt && ${#fresh[@]} -gt 0 ]]; then
  read -r commit dirty < "$work/commit.txt"
else
  read -r commit dirty < <(node -e 'const m = require(process.argv[1]); console.log(m.core_commit, m.core_dirty_files)' "$(realpath "$out/manifest.json")")
fi
list() { local IFS=,; echo "$*"; }
WOLAB_BIN=$bin MANIFEST_COMMAND=scripts/sweep-purpose.sh MANIFEST_COMMIT=$commit MANIFEST_DIRTY=$dirty \
  MANIFEST_NOTE="${PURPOSE_NOTE:-The sweeps trained one after the other, 2 slices at a time, while other builds and tests shared the two cores; recorded by scripts/record-purpose.sh.}" \
  MANIFEST_CPU=$cpu MANIFEST_WALL=$wall \
  MANIFEST_EXTRA="\"presets\": [$(printf '"%s",' "${names[@]}" | sed 's/,$//')],
\"figure\": [$(list "${shown[@]}")],
$(node -e 'const x = JSON.parse(process.argv[1]); for (const k of Object.keys(x)) console.log(`${JSON.stringify(k)}: ${JSON.stringify(x[k])},`)' "$extra")" \
  bash scripts/write-manifest.sh "$tmp"
rm -rf "$out"
mv "$tmp" "$out"
echo "record-purpose: $out: ${names[*]} ($cpu s CPU; trained now: ${fresh[*]:-none})"
