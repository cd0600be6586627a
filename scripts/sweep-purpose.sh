#!/usr/bin/env bash
# Trains "What W_o is for" (experiments wo_purpose and words_purpose, docs/claims.md) natively with
# the project's sweep tools, one sweep at a time in the order below, every sweep in slices through
# GNU parallel (docs/sweeps.md, "What W_o is for"). A slice whose results file exists is not
# trained again, so the sweep resumes where a stop left it; each finished sweep is merged into
# WORK/NAME/results.EXPERIMENT.json and its CPU time added to WORK/NAME/time.txt.
#   WOLAB_BIN       the wolab CLI (default build/wolab)
#   PURPOSE_WORK    where the sweeps train (default build/purpose)
#   PURPOSE_ONLY    the sweeps to train, by name (default: every one, in order)
#   PURPOSE_JOBS    slices at once (default 2)
# Usage: scripts/sweep-purpose.sh [--list]   (--list: the sweeps, a line each, nothing trained)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${WOLAB_BIN:-build/wolab}")
work=${PURPOSE_WORK:-build/purpose}
jobs=${PURPOSE_JOBS:-2}

# name | experiment | plan flags. The shared learning rate is each preset's (0.001); the sweep of
# rates trains 2 seeds at each other rate, its 0.001 read from the main sweep's first 2 seeds;
# rate_* trains every seed again at the rate the sweep of rates chose (scripts/lr-choice.js).
# The real-words sweeps train 10,000 steps, probed every 250 (the converged presets' settings when
# they were recorded; flags since the presets train 20,000), long_words_d64 twice as long.
sweeps=$(cat <<'EOF'
words_d64|words_purpose|--preset converged --words-steps 10000 --words-probe-every 250 --loss-every 10
words_d32n|words_purpose|--preset converged_narrow --words-steps 10000 --words-probe-every 250 --loss-every 10
quick_long|wo_purpose|--preset quick --seeds 5 --steps 4000 --probe-every 200
article|wo_purpose|--preset article --seeds 5
lr_words_d64_0.0003|words_purpose|--preset converged --seeds 2 --lr 0.0003 --words-steps 10000 --words-probe-every 250 --loss-every 10
lr_words_d64_0.003|words_purpose|--preset converged --seeds 2 --lr 0.003 --words-steps 10000 --words-probe-every 250 --loss-every 10
lr_words_d64_0.01|words_purpose|--preset converged --seeds 2 --lr 0.01 --words-steps 10000 --words-probe-every 250 --loss-every 10
lr_quick_0.0003|wo_purpose|--preset quick --seeds 2 --steps 4000 --probe-every 200 --lr 0.0003
lr_quick_0.003|wo_purpose|--preset quick --seeds 2 --steps 4000 --probe-every 200 --lr 0.003
lr_quick_0.01|wo_purpose|--preset quick --seeds 2 --steps 4000 --probe-every 200 --lr 0.01
lr_quick_0.03|wo_purpose|--preset quick --seeds 2 --steps 4000 --probe-every 200 --lr 0.03
lr_quick_0.1|wo_purpose|--preset quick --seeds 2 --steps 4000 --probe-every 200 --lr 0.1
lr_quick_0.3|wo_purpose|--preset quick --seeds 2 --steps 4000 --probe-every 200 --lr 0.3
rate_quick|wo_purpose|--preset quick --seeds 5 --steps 4000 --probe-every 200 --lr 0.03
words_d128|words_purpose|--preset converged_large --seeds 3 --words-steps 10000 --words-probe-every 250 --loss-every 10
long_words_d64|words_purpose|--preset converged --seeds 3 --words-steps 20000 --words-probe-every 250 --loss-every 10
rate_words_d64|words_purpose|--preset converged --lr 0.003 --words-steps 10000 --words-probe-every 250 --loss-every 10
rate_words_d32n|words_purpose|--preset converged_narrow --lr 0.01 --words-steps 10000 --words-probe-every 250 --loss-every 10
rate_words_d128|words_purpose|--preset converged_large --seeds 3 --lr 0.003 --words-steps 10000 --words-probe-every 250 --loss-every 10
lr_words_d32n_0.0003|words_purpose|--preset converged_narrow --seeds 2 --lr 0.0003 --words-steps 10000 --words-probe-every 250 --loss-every 10
lr_words_d32n_0.003|words_purpose|--preset converged_narrow --seeds 2 --lr 0.003 --words-steps 10000 --words-probe-every 250 --loss-every 10
lr_words_d32n_0.01|words_purpose|--preset converged_narrow --seeds 2 --lr 0.01 --words-steps 10000 --words-probe-every 250 --loss-every 10
lr_words_d32n_0.03|words_purpose|--preset converged_narrow --seeds 2 --lr 0.03 --words-steps 10000 --words-probe-every 250 --loss-every 10
EOF
)
if [[ ${1:-} == --list ]]; then
  echo "$sweeps"
  exit 0
fi
mkdir -p "$work"
# The core the sweeps train with: the commit, and how many of its source files differed from it.
[[ -s $work/commit.txt ]] || echo "$(git rev-parse HEAD) $(git status --porcelain -- src bindings CMakeLists.txt | wc -l)" > "$work/commit.txt"
read -r -a only <<<"${PURPOSE_ONLY:-}"
while IFS='|' read -r name experiment flags; do
  [[ ${#only[@]} -eq 0 || " ${only[*]} " == *" $name "* ]] || continue
  dir=$work/$name
  [[ -s $dir/results.$experiment.json ]] && continue
  mkdir -p "$dir"
  # A slice per run of the plan: the runs differ in cost (a wider FFN, a matrix or none).
  read -r -a args <<<"$flags"
  shards=$("$bin" plan "${args[@]}" --experiment "$experiment" --jobs 1 --out "$dir/results.$experiment.json" 2>/dev/null |
    awk '/ runs, / { print $1 }')
  "$bin" plan "${args[@]}" --experiment "$experiment" --jobs 1 --out "$dir/results.$experiment.json" --shards "$shards" \
    > "$dir/commands.txt" 2> "$dir/slices.txt"
  echo "wolab plan ${flags} --experiment $experiment --jobs 1 --out results.$experiment.json --shards $shards | parallel -j $jobs" > "$dir/command.txt"
  while read -r line; do
    k=${line##*--shard }
    [[ -f $dir/results.$experiment-shard-${k%/*}-of-$shards.json ]] || echo "$line"
  done < "$dir/commands.txt" > "$dir/todo.txt"
  if [[ -s $dir/todo.txt ]]; then
    /usr/bin/time -f "%U %S %e" -a -o "$dir/time.txt" parallel --will-cite -j "$jobs" --joblog "$dir/joblog" < "$dir/todo.txt"
  fi
  "$bin" merge "$dir"/results."$experiment"-shard-*-of-"$shards".json --out "$dir/results.$experiment.json"
  echo "sweep-purpose: $name done ($(awk '{ s += $1 + $2 } END { printf "%.0f", s }' "$dir/time.txt") s CPU)"
done <<<"$sweeps"
