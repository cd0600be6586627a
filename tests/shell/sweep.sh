#!/usr/bin/env bash
# A sweep as docs/sweeps.md runs it, with GNU parallel: `wolab plan --shards 3 | parallel`,
# then `wolab merge`, must give the files of the unsharded run byte for byte, for every
# experiment, and so must a job array's tasks; a shard killed while it trains must leave no
# file that merge accepts.
# Usage: tests/shell/sweep.sh WOLAB {parallel|array|killed}   (ctest runs each: CMakeLists.txt)
set -euo pipefail
wolab=$1
case=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail() { echo "FAIL: $*" >&2; exit 1; }

# A tiny model: every run of every experiment trains in well under a second.
flags=(--experiment all --d-model 8 --heads 2 --layers 1 --d-ff 16 --alphabet 4 --length 3 --batch 8
       --heldout 32 --steps 20 --probe-every 5 --seeds 2 --lrs 0.003,0.03
       --words-d-model 8 --words-heads 2 --words-layers 1 --words-d-ff 16 --words-steps 10 --words-batch 8
       --words-probe-every 5 --words-heldout 16)

case $case in
parallel)
  command -v parallel >/dev/null || fail "GNU parallel is not installed (scripts/setup.sh installs it)"
  # real_words reads a small lexicon: every 200th word of the build's, about 570 words
  awk '!/^;/ && !/\(/ && ++n % 200 == 0' "$(dirname "$wolab")/data/cmudict-g2p.txt" >words.txt
  flags+=(--data words.txt)
  "$wolab" run "${flags[@]}" --jobs 2 --out whole.json >whole.log 2>&1 || fail "unsharded run: $(tail -1 whole.log)"
  "$wolab" plan "${flags[@]}" --shards 3 --out sweep.json >commands.txt 2>slices.txt
  [[ $(wc -l <commands.txt) -eq 3 ]] || fail "plan --shards 3 printed $(wc -l <commands.txt) lines"
  # The recipe for several machines, on this one: an ssh login file whose only host is ":"
  # (GNU parallel's name for the local machine), two jobs at once.
  echo "2/:" >hosts.txt
  parallel --will-cite --sshloginfile hosts.txt --workdir . --halt now,fail=1 <commands.txt >parallel.log 2>&1 ||
    fail "parallel: $(tail -3 parallel.log)"
  "$wolab" merge sweep-shard-*-of-3.json --out sweep.json >merge.log 2>&1 || fail "merge: $(cat merge.log)"
  n=0
  for whole in whole.*.json; do
    experiment=${whole#whole.}
    cmp -s "$whole" "sweep.$experiment" || fail "sweep.$experiment differs from $whole"
    n=$((n + 1))
  done
  [[ $n -eq 8 ]] || fail "expected 8 experiments' files, compared $n"
  "$wolab" report sweep.*.json >report.txt || fail "report of the merged files"
  grep -q "The article's claims" report.txt || fail "the report has no claims"
  echo "3 slices run by parallel, merged: $n results files identical to the unsharded run's"
  ;;
array)
  # The job-array recipe: task K runs line K of the commands file, here one task after another.
  "$wolab" run "${flags[@]}" --experiment freeze_wo --jobs 2 --out whole.json >/dev/null 2>&1
  "$wolab" plan "${flags[@]}" --experiment freeze_wo --shards 4 --out sweep.json >commands.txt 2>/dev/null
  for task in 4 2 3 1; do
    SLURM_ARRAY_TASK_ID=$task bash -c 'sed -n "${SLURM_ARRAY_TASK_ID}p" commands.txt | bash' >/dev/null 2>&1 ||
      fail "array task $task"
  done
  "$wolab" merge sweep-shard-*-of-4.json --out sweep.json >/dev/null || fail "merge of the array's slices"
  cmp -s whole.json sweep.json || fail "the array's merged sweep.json differs from whole.json"
  echo "4 array tasks, merged: identical to the unsharded run's file"
  ;;
killed)
  # Slice 1 of 2 of a plan long enough to be killed while it trains, as a job scheduler's
  # time limit or a lost machine kills it: nothing may be left that looks like its shard file.
  "$wolab" run "${flags[@]}" --experiment remove_wo --steps 100000 --probe-every 50000 --shard 1/2 --out sweep.json \
    >killed.log 2>&1 &
  pid=$!
  sleep 1
  kill -0 "$pid" 2>/dev/null || fail "the slice ended before it could be killed: $(tail -1 killed.log)"
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null && fail "the killed slice exited 0"
  # Only the empty probe of --out's writability (killed within its microseconds at the start)
  # could be left, as a .partial, which merge must refuse.
  leftovers=$(ls -A | grep -v -e '^killed.log$' -e '\.partial$' || true)
  [[ -z $leftovers ]] || fail "a killed slice left: $leftovers"
  for partial in *.partial; do
    [[ -e $partial ]] || continue
    if "$wolab" merge "$partial" --out merged.json 2>/dev/null; then fail "merge accepted $partial"; fi
    rm -f "$partial"
  done

  # Killed while writing: the text goes to <file>.partial, renamed into place once whole; a
  # glob of shard files does not match it, and merge refuses it by name when given.
  "$wolab" run "${flags[@]}" --experiment remove_wo --shard 2/2 --out sweep.json >/dev/null 2>&1
  "$wolab" run "${flags[@]}" --experiment remove_wo --shard 1/2 --out whole.json >/dev/null 2>&1
  head -c 200 whole-shard-1-of-2.json >sweep-shard-1-of-2.json.partial
  if "$wolab" merge sweep-shard-*-of-2.json --out merged.json 2>err.txt; then fail "merge accepted one slice of two"; fi
  grep -qx "wolab: merge: slice 1/2 missing: .*" err.txt || fail "merge said: $(cat err.txt)"
  if "$wolab" merge sweep-shard-1-of-2.json.partial sweep-shard-2-of-2.json --out merged.json 2>err.txt; then
    fail "merge accepted a file cut short"
  fi
  grep -qx "wolab: merge: sweep-shard-1-of-2.json.partial: corrupt: not valid JSON .*" err.txt || fail "merge said: $(cat err.txt)"
  [[ ! -e merged.json ]] || fail "a refused merge wrote merged.json"
  echo "a killed slice left no file; merge refused a missing slice and a file cut short"
  ;;
*)
  fail "unknown case $case; use parallel, array or killed"
  ;;
esac
