#!/usr/bin/env bash
# npm run fuzz: runs each libFuzzer harness of tests/fuzz (config, flags, results, checkpoint, cmudict)
# for SECONDS (default 300), $FUZZ_JOBS at a time (default 2, one per core). Usage:
#   scripts/fuzz.sh [--no-build] [SECONDS] [HARNESS...]
# Each harness first replays tests/fuzz/regressions/<harness> (inputs that once crashed) and its
# seed corpus tests/fuzz/corpus/<harness>, then fuzzes; inputs it finds go to
# <build>/fuzz-corpus/<harness>, a crashing input to test-results/fuzz/<harness>/ with its log.
# Builds build-asan/ (scripts/build-asan.sh; ASAN_BUILD names another dir) unless --no-build.
# Prints one line per harness, "fuzz_<name>: passed, ..." or "fuzz_<name>: FAILED ...";
# the exit status is non-zero if any failed. scripts/test.sh runs it for 10 s each.
set -uo pipefail
cd "$(dirname "$0")/.."
build=true
if [[ ${1:-} == --no-build ]]; then build=false; shift; fi
seconds=${1:-300}
shift || true
harnesses=("$@")
((${#harnesses[@]})) || harnesses=(config flags results checkpoint cmudict)
dir=${ASAN_BUILD:-build-asan}
parallel=${FUZZ_JOBS:-2}

if $build; then
  bash scripts/build-asan.sh || { echo "fuzz: the sanitized build failed" >&2; exit 1; }
fi

# A report of either sanitizer ends the input and is a crash; libFuzzer saves the input.
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1

fuzz_one() {  # harness
  local name=$1 out=test-results/fuzz/$1
  local corpus=("$dir/fuzz-corpus/$name" "tests/fuzz/corpus/$name")
  [[ -d tests/fuzz/regressions/$name ]] && corpus+=("tests/fuzz/regressions/$name")
  rm -rf "$out"
  mkdir -p "$out" "$dir/fuzz-corpus/$name"
  # -timeout: one input may take 10 s at most (a hang is a failure); -rss_limit_mb also
  # limits any single allocation to 1 GiB, twice the memory a valid config may claim.
  "$dir/tests/fuzz/fuzz_$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 \
    -print_final_stats=1 -artifact_prefix="$out/" "${corpus[@]}" >"$out/log.txt" 2>&1
  local status=$? runs rss
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log.txt" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$out/log.txt" | tail -1)
  if ((status == 0)); then
    echo "fuzz_$name: passed, ${runs:-?} executions in $seconds s, peak RSS ${rss:-?} MB"
  else
    local input
    input=$(ls "$out" | grep -v '^log.txt$' | head -1)
    echo "fuzz_$name: FAILED (exit $status) after ${runs:-?} executions; input: $out/${input:-none}; log: $out/log.txt"
    grep -m1 -E 'ERROR: |runtime error|fuzz check failed|deadly signal|uncaught exception' "$out/log.txt" | sed 's/^/  /'
  fi
}

summary=test-results/fuzz/summary.txt
mkdir -p test-results/fuzz
: >"$summary"
for name in "${harnesses[@]}"; do
  if [[ ! -x $dir/tests/fuzz/fuzz_$name ]]; then
    echo "fuzz_$name: FAILED (no harness $dir/tests/fuzz/fuzz_$name)" | tee -a "$summary"
    continue
  fi
  while (($(jobs -rp | wc -l) >= parallel)); do wait -n; done
  fuzz_one "$name" | tee -a "$summary" &
done
wait
! grep -q FAILED "$summary"
