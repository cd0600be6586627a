#!/usr/bin/env bash
# npm run bench: the speed figures, measured in one run, one thread each.
#   1. Training steps/s of the default config (d_model 64, 4 heads, 2 layers, d_ff 256, copy,
#      L 8, alphabet 10, batch 32) and of d_model 256 / d_ff 1024: native (tests/bench/
#      bench_train.cpp), wasm with and without SIMD under node (tests/bench/bench_train.js:
#      after warm-up, stepping in ~50 ms chunks as the page does), PyTorch eager
#      (scripts/bench_torch.py; skipped when python3-torch is missing), with ratios.
#   2. The task g2p (real words, docs/g2p.md) on the same models, batch 32 words padded to the
#      longest: training steps/s native, wasm under node (tests/bench/bench_g2p.cpp, built both
#      ways) and PyTorch eager (scripts/bench_torch.py --task g2p, the same lexicon, split and
#      layout; skipped when python3-torch is missing), with each one's mean padded length; and
#      held-out words greedily decoded and scored per second, native and wasm.
#   3. GEMM GFLOP/s on the training shapes, the g2p shapes included (scripts/bench_gemm.sh).
#   4. The end-of-run evaluation (held-out eval and greedy decoding) at the Article size, in
#      training steps of the same config, and the record's W_o singular values
#      (tests/bench/bench_eval.cpp).
#   5. Wall time of the Quick and the Article presets' suites (experiments 1-4) on the page in
#      headless Chromium (scripts/bench_page.js), served from dist/, which is rebuilt first
#      (scripts/build-wasm.sh) when it is missing or older than web/, src/ or bindings/.
# Only training steps are timed (no held-out evals), as in bench_torch.py. Steps/s and words/s
# are per second of each process's own CPU time (wall time is in each program's JSON): each is
# one thread, and on cores shared with other work the CPU time is far steadier than the wall
# time, whose ratios followed the load (wasm/native 0.42x on the copy task and 0.86x on g2p in
# one run at a load average of 7 to 16 on 2 cores). Builds what it needs in build/ and
# build-wasm/ (NATIVE_BUILD / WASM_BUILD name others); BENCH_SECONDS (default 5) is the timed
# span per figure. Takes about eight minutes; run it on an otherwise idle machine.
# --smoke (or WOLAB_BENCH_SMOKE=1): a smoke run for scripts/test.sh, every measurement once and
# briefly (the default model only, 0.2 s spans, no warm-up, 32 held-out words to decode, the
# head's GEMM shapes, the evaluation at the default size, the
# page's experiment 1 of the Quick preset only, dist/ used as it is): to check that the benchmark
# runs, in seconds; its figures mean nothing.
# --build-only: builds every binary the benchmarks run, and exits (scripts/test.sh builds them
# so in the background, before its smoke run).
set -euo pipefail
cd "$(dirname "$0")/.."
native=${NATIVE_BUILD:-build}
wasm=${WASM_BUILD:-build-wasm}
smoke=${WOLAB_BENCH_SMOKE:-0}
[[ ${1:-} == --smoke ]] && smoke=1
build_only=0
[[ ${1:-} == --build-only ]] && build_only=1
if [[ $smoke == 1 ]]; then
  export WOLAB_BENCH_SMOKE=1  # for bench_train.js, bench_gemm.sh and bench_page.js
  seconds=${BENCH_SECONDS:-0.2}
  torch_args=(--steps 3)
  warm_native=0 warm_wasm=0 heldout=32
  eval_args=('{"model": {"d_model": 64, "d_ff": 256}, "train": {"steps": 100000, "probe_every": 100000}}')
  presets=(quick)
else
  seconds=${BENCH_SECONDS:-5}
  torch_args=()
  warm_native=1 warm_wasm=3 heldout=256  # warm-ups in s, as bench_train.cpp and bench_train.js
  eval_args=()
  presets=(quick article)
fi

export NODE_PATH=/usr/share/nodejs  # Debian's emcc needs Debian's acorn

configured_release() {  # build dir
  [[ -f $1/CMakeCache.txt ]] && grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$1/CMakeCache.txt"
}
echo "building bench_train, bench_eval, bench_g2p, bench_gemm, the lexicon (native), the wasm modules, bench_g2p and bench_gemm ..." >&2
configured_release "$native" || cmake -B "$native" -S . -DCMAKE_BUILD_TYPE=Release >/dev/null
configured_release "$wasm" || emcmake cmake -B "$wasm" -S . -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node);--no-experimental-fetch" >/dev/null
cmake --build "$native" --target bench_train bench_eval bench_g2p bench_gemm lexicon -j2 >/dev/null
cmake --build "$wasm" --target wolab wolab-nosimd bench_g2p bench_gemm -j2 >/dev/null
[[ $build_only == 1 ]] && exit 0
lexicon=$native/data/cmudict-g2p.txt

steps_per_s() {  # the steps per CPU second of a JSON line on stdin
  field steps_per_cpu_s
}
field() {  # a number field of a JSON line on stdin
  sed -n "s/.*\"$1\": *\([0-9.]*\).*/\1/p"
}
torch_bench() {  # bench_torch.py's JSON line, or nothing when python3-torch is missing (exit 3)
  local status=0
  /usr/bin/python3 scripts/bench_torch.py "$@" ${torch_args[@]+"${torch_args[@]}"} || status=$?
  case $status in
    0 | 3) ;;  # 3: bench_torch.py said on stderr that torch is missing
    *) echo "bench: scripts/bench_torch.py failed (exit $status)" >&2; exit 1 ;;
  esac
}

# name, d_model, d_ff; steps and probe_every beyond the run, so that no evals are timed.
models=("d64 (default)|64|256" "d256, d_ff 1024|256|1024")
[[ $smoke == 1 ]] && models=("${models[0]}")
rows=()
torch_about=""  # the last bench_torch.py line, for its torch and BLAS
for m in "${models[@]}"; do
  IFS='|' read -r name d ff <<<"$m"
  config="{\"model\": {\"d_model\": $d, \"d_ff\": $ff}, \"train\": {\"steps\": 1000000, \"probe_every\": 1000000}}"
  echo "$name: native ..." >&2
  n=$("$native"/tests/bench/bench_train "$config" "$seconds" | steps_per_s)
  echo "$name: wasm SIMD under node $(node --version) ..." >&2
  w=$(node --no-experimental-fetch tests/bench/bench_train.js "$wasm" "$config" "$seconds" wolab | steps_per_s)
  echo "$name: wasm without SIMD ..." >&2
  p=$(node --no-experimental-fetch tests/bench/bench_train.js "$wasm" "$config" "$seconds" wolab-nosimd | steps_per_s)
  echo "$name: PyTorch eager ..." >&2
  torch_line=$(torch_bench --d-model "$d" --d-ff "$ff")
  t=$(steps_per_s <<<"$torch_line")
  rows+=("$name|$n|$w|$p|$t")
  if [[ -n $torch_line ]]; then torch_about=$torch_line; fi
done

g2p_rows=()
for m in "${models[@]}"; do
  IFS='|' read -r name d ff <<<"$m"
  config="{\"model\": {\"d_model\": $d, \"d_ff\": $ff}, \"task\": {\"name\": \"g2p\", \"heldout\": $heldout}, \"train\": {\"steps\": 1000000, \"probe_every\": 1000000}}"
  echo "$name, g2p: native ..." >&2
  native_line=$("$native"/tests/bench/bench_g2p "$lexicon" "$config" "$seconds" "$warm_native")
  echo "$name, g2p: wasm SIMD under node $(node --version) ..." >&2
  wasm_line=$(node --no-experimental-fetch "$wasm"/tests/bench/bench_g2p.js "$lexicon" "$config" "$seconds" "$warm_wasm")
  echo "$name, g2p: PyTorch eager ..." >&2
  torch_line=$(torch_bench --task g2p --lexicon "$lexicon" --d-model "$d" --d-ff "$ff")
  g2p_rows+=("$name|$(steps_per_s <<<"$native_line")|$(steps_per_s <<<"$wasm_line")|$(steps_per_s <<<"$torch_line")|\
$(field positions <<<"$native_line")|$(field positions <<<"$wasm_line")|$(field positions <<<"$torch_line")|\
$(field words_per_cpu_s <<<"$native_line")|$(field words_per_cpu_s <<<"$wasm_line")")
done

echo
echo "Training steps per second of CPU time, one thread ($(nproc) cores, $(uname -m), 1-minute load"
echo "average $(cut -d' ' -f1 /proc/loadavg) now); ratios of those"
printf '%-17s %9s %9s %9s %9s %12s %12s %12s\n' \
  model native wasm wasm-noSIMD pytorch wasm/native native/torch wasm/torch
for r in "${rows[@]}"; do
  IFS='|' read -r name n w p t <<<"$r"
  awk -v name="$name" -v n="$n" -v w="$w" -v p="$p" -v t="$t" 'BEGIN {
    cell = (t == "") ? "skipped" : sprintf("%.1f", t)
    nt = (t == "") ? "-" : sprintf("%.2fx", n / t)
    wt = (t == "") ? "-" : sprintf("%.2fx", w / t)
    printf "%-17s %9.1f %9.1f %9.1f %9s %12s %12s %12s\n", name, n, w, p, cell, sprintf("%.2fx", w / n), nt, wt
  }'
done
if [[ -n $torch_about ]]; then
  node -e 'const r = JSON.parse(process.argv[1]);
const ob = r.openblas.core ? `, kernels for ${r.openblas.core}, ${r.openblas.threads} thread(s)` : "";
console.log(`PyTorch ${r.torch} eager, ${r.threads} OS thread(s); BLAS ${r.blas}${ob}`);' "$torch_about"
else
  echo "PyTorch: skipped (python3-torch is not installed)"
fi
echo
echo "G2P, batch 32 words each padded to its batch's longest: training steps per CPU second, one"
echo "thread; ratios of those; mean padded positions per batch of each (native/wasm/pytorch)"
printf '%-17s %9s %9s %9s %12s %12s %12s %17s\n' \
  model native wasm pytorch wasm/native native/torch wasm/torch positions
for r in "${g2p_rows[@]}"; do
  IFS='|' read -r name n w t pn pw pt dn dw <<<"$r"
  awk -v name="$name" -v n="$n" -v w="$w" -v t="$t" -v pn="$pn" -v pw="$pw" -v pt="$pt" 'BEGIN {
    cell = (t == "") ? "skipped" : sprintf("%.1f", t)
    nt = (t == "") ? "-" : sprintf("%.2fx", n / t)
    wt = (t == "") ? "-" : sprintf("%.2fx", w / t)
    printf "%-17s %9.1f %9.1f %9s %12s %12s %12s %17s\n", name, n, w, cell, sprintf("%.2fx", w / n), nt, wt,
      sprintf("%.1f/%.1f/%s", pn, pw, (pt == "") ? "-" : sprintf("%.1f", pt))
  }'
done
echo "G2P held-out words decoded greedily (to EOS or the cap) and scored per CPU second, $heldout"
echo "words, an untrained model (step 0: the same weights in both), one thread"
printf '%-17s %9s %9s %12s\n' model native wasm wasm/native
for r in "${g2p_rows[@]}"; do
  IFS='|' read -r name n w t pn pw pt dn dw <<<"$r"
  awk -v name="$name" -v n="$dn" -v w="$dw" 'BEGIN {
    printf "%-17s %9.1f %9.1f %12s\n", name, n, w, sprintf("%.2fx", w / n)
  }'
done
echo

if [[ -f scripts/bench_gemm.sh ]]; then
  NATIVE_BUILD="$native" WASM_BUILD="$wasm" bash scripts/bench_gemm.sh
fi

echo "the end-of-run evaluation at the Article size ..." >&2
eval_line=$("$native"/tests/bench/bench_eval ${eval_args[@]+"${eval_args[@]}"})
node -e 'const r = JSON.parse(process.argv[1]);
console.log("End of a run at the Article size (d_model 256, 2 layers), native, one thread:");
console.log(`  held-out eval ${r.evaluate_ms.toFixed(0)} ms + greedy decoding ${r.greedy_ms.toFixed(0)} ms` +
  ` = ${r.cost_in_steps.toFixed(1)} training steps of ${r.step_ms.toFixed(1)} ms;` +
  ` singular values of every W_o for the record ${r.wo_sv_ms.toFixed(0)} ms`);' "$eval_line"
echo

# dist/ is missing, or differs from web/, or is older than the core its wasm was built from.
dist_stale() {
  [[ -f dist/index.html && -f dist/wolab.wasm ]] || return 0
  [[ -n $(diff -rq web dist | grep -v '^Only in dist') ]] && return 0
  [[ -n $(find src bindings CMakeLists.txt -newer dist/wolab.wasm -print -quit) ]]
}
if [[ $smoke == 1 && -f dist/index.html && -f dist/wolab.wasm ]]; then
  :  # a smoke run checks the benchmark, not dist/: no rebuild
elif dist_stale; then
  echo "dist/ is missing or out of date: bash scripts/build-wasm.sh ..." >&2
  bash scripts/build-wasm.sh >/dev/null
fi
for preset in "${presets[@]}"; do
  echo "the $preset preset's four-experiment suite on the page in headless Chromium ..." >&2
  page_line=$(BENCH_PRESET=$preset node scripts/bench_page.js)
  echo
  node -e 'const r = JSON.parse(process.argv[1]);
const preset = r.preset[0].toUpperCase() + r.preset.slice(1);
const target = r.preset === "quick" ? 10 : 60;
console.log(`Page: the ${preset} preset, experiments 1-4, in headless Chromium ${r.chromium}`);
console.log(`  ${r.seconds.toFixed(1)} s from the first Run click until every run had ended:` +
  ` ${r.runs} distinct (variant, seed) runs (${r.experiment_runs} rows in the run tables) on ${r.workers} workers` +
  ` (hardwareConcurrency ${r.hardware_concurrency}); target <= ${target} s; 1-minute load average ${r.load1.join(" -> ")}`);' "$page_line"
done
