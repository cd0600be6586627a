#!/usr/bin/env bash
# Every test suite of W_o Lab, from a fresh Debian machine or an existing checkout:
#   setup -> native build + GoogleTest (2 shards) and the shell tests (ctest), every experiment's
#   PyTorch notebook executed in the background (tests/shell/notebooks.sh) -> the same under
#   ASan + UBSan, beside the libFuzzer harnesses, 10 s each -> the same GoogleTest suite compiled
#   to wasm, under node (2 shards) -> node --test tests/wasm -> Playwright tests/e2e in
#   /usr/bin/chromium -> every benchmark once in its smoke mode (bench.sh --smoke). The wasm
#   build runs in the background meanwhile.
# Each suite runs even when an earlier one failed. A suite that cannot run (its build failed,
# its runner crashed or printed no counts) counts as one failed test. The last line is
# "N passed, N failed, N skipped", the sum over all suites; the exit status is non-zero if N failed > 0.
# Build dirs are reused, so a second run only rebuilds what changed.
set -uo pipefail   # no -e: one failing suite must not stop the others
cd "$(dirname "$0")/.."

logs=test-results/logs
mkdir -p "$logs"
passed=0
failed=0
skipped=0
notes=()

count() {  # suite, passed, failed[, skipped] (passed excludes skipped)
  passed=$((passed + $2))
  failed=$((failed + $3))
  skipped=$((skipped + ${4:-0}))
  notes+=("$1: $2 passed, $3 failed, ${4:-0} skipped")
}
cannot_run() {  # suite, reason
  failed=$((failed + 1))
  notes+=("$1: could not run ($2), counted as 1 failed")
}
clock() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }  # seconds as m:ss
banner() { printf '\n===== %s (at %s)\n' "$1" "$(clock "$SECONDS")"; }
has_files() {  # dir, find -name pattern
  [[ -d $1 ]] && [[ -n $(find "$1" -name "$2" -print -quit) ]]
}

# ctest prints "N% tests passed, F tests failed out of T" (or "No tests were found!!!").
run_ctest() {  # suite, build dir[, more ctest arguments]
  local log="$logs/$1.log"
  banner "$1: ctest --test-dir $2 ${*:3}"
  ctest --test-dir "$2" --output-on-failure -j2 --timeout 900 "${@:3}" 2>&1 | tee "$log"
  local line
  line=$(grep -Eo '[0-9]+ tests failed out of [0-9]+' "$log" | tail -1)
  if [[ -n $line ]]; then
    local f t s
    read -r f _ _ _ _ t <<<"$line"
    s=$(grep -c '(Skipped)$' "$log" || true)  # GTEST_SKIP: e.g. native-only tests under wasm
    count "$1" $((t - f - s)) "$f" "$s"
  elif grep -q 'No tests were found' "$log" && ! has_files tests/native '*.cpp'; then
    notes+=("$1: no tests yet")
  else
    cannot_run "$1" "no ctest summary; see $log"
  fi
}

# A GoogleTest binary, run as two shards at once (GoogleTest's sharding: GTEST_TOTAL_SHARDS,
# which tests/native/node-env.js hands to the wasm program) rather than through ctest, which
# starts one process per test: each would start node and compile the module anew, or parse the
# dictionary anew.
# GoogleTest prints "[  PASSED  ] N tests.", and "[  FAILED  ] N tests, listed below:" and
# "[  SKIPPED ] N tests, listed below:" when there are any; a shard that ends without its
# "[==========] N tests from M test suites ran." line (a crash) counts as one failed test more.
run_shards() {  # suite, command...
  local suite=$1 log="$logs/$1.log" i n p=0 f=0 k=0 pids=()
  shift
  banner "$suite: $* (2 shards)"
  for i in 0 1; do
    GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i "$@" >"$logs/$suite.shard$i.log" 2>&1 &
    pids+=($!)
  done
  wait "${pids[@]}"  # only the shards: the wasm build and the fuzzers run in the background meanwhile
  cat "$logs/$suite".shard[01].log >"$log"
  grep -E -A8 '^\[  FAILED  \] [A-Za-z]|Failure$' "$log"
  for i in 0 1; do
    local shard="$logs/$suite.shard$i.log"
    n=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\?\..*/\1/p' "$shard"); p=$((p + ${n:-0}))
    n=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) tests\?, listed below:.*/\1/p' "$shard"); f=$((f + ${n:-0}))
    n=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) tests\?, listed below:.*/\1/p' "$shard"); k=$((k + ${n:-0}))
    grep -qE '^\[==========\] [0-9]+ tests? from .* ran\.' "$shard" || f=$((f + 1))
  done
  echo "$suite: $p passed, $f failed, $k skipped (2 shards; see $log)"
  count "$suite" "$p" "$f" "$k"
}

banner "setup"
bash scripts/setup.sh || cannot_run setup "scripts/setup.sh failed"

# The wasm build needs nothing native: it runs from here on in the background at the lowest
# priority, on what the native builds and suites leave of the two cores (a tenth of their time
# went idle: link steps, the last tests of a suite), and is waited for before the wasm suites.
nice -n 19 bash scripts/build-wasm.sh >"$logs/build-wasm.log" 2>&1 &
wasm_pid=$!
wasm_started=$SECONDS

banner "native build"
notebooks_pid=''
if bash scripts/build-native.sh 2>&1 | tee "$logs/build-native.log"; then
  # Every experiment's PyTorch notebook, executed by nbclient (tests/shell/notebooks.sh), in the
  # background beside the suites below; node's notebook test imports the results files it leaves.
  nice -n 10 bash tests/shell/notebooks.sh build/wolab test-results/notebooks >"$logs/notebooks.log" 2>&1 &
  notebooks_pid=$!
  run_shards native build/wolab_tests
  run_ctest native-shell build -R '^(sweep|recorded)\.'
else
  cannot_run native "native build failed; see $logs/build-native.log"
fi

# The same GoogleTest suite, CLI tests included, built by clang under AddressSanitizer and
# UndefinedBehaviorSanitizer (scripts/build-asan.sh); meanwhile each libFuzzer harness for 10 s,
# all five at once beside that suite (scripts/fuzz.sh; a time box, so sharing the cores costs
# executions, not time), one test per harness. Tests whose name ends in Unsanitized are left out
# there: each says why beside it (slow under ASan, and their code runs under the sanitizers in
# other tests), and a test that reads the published dictionary fails unless it is so named
# (tests/native/helpers.h). A sanitizer report ends the
# process it happens in (the test binary or the wolab it runs) and goes to a file in
# $logs/sanitizers/; each such file counts as one more failure, so no report passes unseen.
banner "sanitized build (ASan + UBSan)"
if bash scripts/build-asan.sh 2>&1 | tee "$logs/build-asan.log"; then
  FUZZ_JOBS=5 bash scripts/fuzz.sh --no-build 10 >"$logs/fuzz.log" 2>&1 &
  fuzz_pid=$!
  reports=$PWD/$logs/sanitizers
  rm -rf "$reports" && mkdir -p "$reports"
  export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:log_path=$reports/asan
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$reports/ubsan
  run_shards asan build-asan/wolab_tests --gtest_filter='-*Unsanitized'
  run_ctest asan-shell build-asan -R '^(sweep|recorded)\.'
  unset ASAN_OPTIONS UBSAN_OPTIONS
  n=$(find "$reports" -type f | wc -l)
  if ((n > 0)); then
    cat "$reports"/* | tee -a "$logs/asan.log"
    failed=$((failed + n))
    notes+=("asan: $n sanitizer reports in $reports, counted as $n failed")
  fi

  wait "$fuzz_pid"
  banner "fuzz: scripts/fuzz.sh --no-build 10 (ran beside the sanitized suite)"
  cat "$logs/fuzz.log"
  p=$(grep -c '^fuzz_[a-z]*: passed' "$logs/fuzz.log")
  f=$(grep -c '^fuzz_[a-z]*: FAILED' "$logs/fuzz.log")
  if ((p + f > 0)); then
    count fuzz "$p" "$f"
  else
    cannot_run fuzz "no harness ran; see $logs/fuzz.log"
  fi
else
  cannot_run asan "sanitized build failed; see $logs/build-asan.log"
  cannot_run fuzz "sanitized build failed; see $logs/build-asan.log"
fi

wait "$wasm_pid"
wasm_status=$?
banner "wasm build: scripts/build-wasm.sh (ran in the background from $(clock "$wasm_started"))"
cat "$logs/build-wasm.log"
# The benchmarks' binaries, for the smoke run at the end, build from here on in the background
# under SCHED_IDLE (below even the niced wasm build): on what the suites leave idle, mostly the
# page tests that run one at a time, rather than on the smoke run's own time.
bench_build_pid=''
if ((wasm_status == 0)) && [[ -x build/wolab ]]; then
  chrt --idle 0 bash scripts/bench.sh --build-only >"$logs/build-bench.log" 2>&1 &
  bench_build_pid=$!
fi
if ((wasm_status == 0 || wasm_status == 2)); then
  run_shards wasm node --no-experimental-fetch build-wasm/wolab_tests.js
else
  cannot_run wasm "wasm build failed; see $logs/build-wasm.log"
fi

if [[ -n $notebooks_pid ]]; then
  wait "$notebooks_pid"
  banner "notebooks: tests/shell/notebooks.sh (ran in the background after the native build)"
  cat "$logs/notebooks.log"
  read -r p f < <(sed -n 's/^notebooks: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$logs/notebooks.log")
  if [[ -n ${p:-} ]]; then count notebooks "$p" "$f"; else cannot_run notebooks "no counts; see $logs/notebooks.log"; fi
fi

# node's test runner (tap reporter) closes with "# pass N" and "# fail N"; cancelled tests
# (a file that crashed or timed out) count as failed; two test files run at a time, one per
# core (node 20's default is one). --no-experimental-fetch reaches every
# test file's process and lets Emscripten 3.1.6 modules load their .wasm under node 20.
if has_files tests/wasm '*.js' || has_files tests/wasm '*.mjs'; then
  banner "node --test tests/wasm/"
  if ((wasm_status == 0 || wasm_status == 2)); then
    log="$logs/node.log"
    node --no-experimental-fetch --test --test-concurrency=2 --test-reporter=tap tests/wasm/ 2>&1 | tee "$log"
    p=$(sed -n 's/^# pass \([0-9]\+\)$/\1/p' "$log" | tail -1)
    f=$(sed -n 's/^# fail \([0-9]\+\)$/\1/p' "$log" | tail -1)
    c=$(sed -n 's/^# cancelled \([0-9]\+\)$/\1/p' "$log" | tail -1)
    k=$(sed -n 's/^# skipped \([0-9]\+\)$/\1/p' "$log" | tail -1)
    if [[ -n $p && -n $f ]]; then
      count node "$p" $((f + ${c:-0})) "${k:-0}"
    else
      cannot_run node "no '# pass'/'# fail' lines; see $log"
    fi
  else
    cannot_run node "wasm build failed"
  fi
fi

# Playwright, in two runs: the tests tagged @timed (tests/e2e/helpers.js TIMED: they bound a
# task's length, an estimate or a landing after layout) one at a time, the others two at a time
# beforehand. Each run writes its counts to a JSON report (stats.expected/flaky/unexpected).
run_playwright() {  # suite, workers, playwright arguments...
  local suite=$1 report=test-results/$1-report.json
  banner "$suite: playwright test ${*:3} ($2 at a time)"
  rm -f "$report"
  WOLAB_E2E_WORKERS=$2 WOLAB_E2E_REPORT=$report WOLAB_E2E_OUT=test-results/$suite npx --no-install playwright test "${@:3}" 2>&1 | tee "$logs/$suite.log"
  read -r p f k < <(node -e '
    try {
      const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
      const s = r.stats;
      // Errors outside tests (web server, config, a spec file that does not load)
      // count as one failure: the suite did not run as written.
      const outside = (r.errors || []).length > 0 ? 1 : 0;
      console.log(s.expected + s.flaky, s.unexpected + outside, s.skipped);
    } catch { console.log("x x x"); }' "$report")
  if [[ $p =~ ^[0-9]+$ ]]; then
    count "$suite" "$p" "$f" "$k"
  else
    cannot_run "$suite" "no readable $report; see $logs/$suite.log"
  fi
}
if has_files tests/e2e '*.spec.js'; then
  if ((wasm_status == 0)); then
    run_playwright e2e 2 --grep-invert @timed
    run_playwright e2e-timed 1 --grep @timed
  else
    cannot_run e2e "dist/ was not built; see $logs/build-wasm.log"
  fi
elif ((wasm_status == 2)); then
  cannot_run dist "dist/ could not be assembled; see $logs/build-wasm.log"
fi

# Every benchmark once in its smoke mode: scripts/bench.sh --smoke runs each benchmark script
# (bench_train, bench_g2p, bench_torch, bench_gemm.sh, bench_eval, bench_page.js) once and briefly,
# so that none can break unseen; no figure is checked. One test: passed when it exits 0. It
# needs build/, build-wasm/ and dist/, all built above.
banner "bench smoke: scripts/bench.sh --smoke"
if ((wasm_status == 0)) && [[ -x build/wolab ]]; then
  start=$SECONDS
  [[ -n $bench_build_pid ]] && wait "$bench_build_pid"  # a failed build is built again, and reported, by the smoke run
  if bash scripts/bench.sh --smoke >"$logs/bench-smoke.log" 2>&1; then
    count bench-smoke 1 0; echo "bench smoke passed ($((SECONDS - start)) s)"
  else
    count bench-smoke 0 1; echo "bench smoke FAILED ($((SECONDS - start)) s); see $logs/bench-smoke.log"
    tail -5 "$logs/bench-smoke.log"
  fi
else
  cannot_run bench-smoke "the native or wasm build (or dist/) is missing"
fi

banner "summary"
for n in "${notes[@]}"; do echo "  $n"; done
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
