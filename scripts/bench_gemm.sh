#!/usr/bin/env bash
# GEMM benchmark: builds bench_gemm natively (build/) and for wasm (build-wasm/), configuring
# those dirs (Release, as scripts/build-native.sh and scripts/build-wasm.sh do) unless they are
# already, runs both and prints one table of GFLOP/s (best and median of 40 timed batches, after
# warm-up): wasm SIMD kernels, Eigen autovectorized in wasm, native Eigen (-march=native: AVX-512 where the CPU has it).
# Usage: scripts/bench_gemm.sh [--smoke] [shape filter, e.g. "d64" or "dW"]
# --smoke (or WOLAB_BENCH_SMOKE=1): a smoke run for scripts/test.sh, the d64 head's forward on
# the copy and the g2p batch unless a
# filter names others: a few seconds, to check that the benchmark runs; no figure to read.
# NATIVE_BUILD / WASM_BUILD name other build dirs (e.g. to stay out of a build in progress).
# Takes about a minute; the figures are only meaningful on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
smoke=${WOLAB_BENCH_SMOKE:-0}
if [[ ${1:-} == --smoke ]]; then smoke=1; shift; fi
filter=${1:-}
if [[ $smoke == 1 && -z $filter ]]; then filter="d64  head fwd"; fi
native=${NATIVE_BUILD:-build}
wasm=${WASM_BUILD:-build-wasm}

export NODE_PATH=/usr/share/nodejs  # Debian's emcc needs Debian's acorn
node_run=(node --no-experimental-fetch)  # Emscripten 3.1.6 output under node 20

configured_release() {  # build dir
  [[ -f $1/CMakeCache.txt ]] && grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$1/CMakeCache.txt"
}
if ! configured_release "$native"; then
  cmake -B "$native" -S . -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
if ! configured_release "$wasm"; then
  emcmake cmake -B "$wasm" -S . -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node);--no-experimental-fetch" >/dev/null
fi
cmake --build "$native" --target bench_gemm -j2 >/dev/null
cmake --build "$wasm" --target bench_gemm -j2 >/dev/null

results=$(mktemp)
trap 'rm -f "$results"' EXIT
echo "running native bench_gemm ..." >&2
"$native"/tests/bench/bench_gemm "$filter" >>"$results"
echo "running wasm bench_gemm under $(node --version) ..." >&2
"${node_run[@]}" "$wasm"/tests/bench/bench_gemm.js "$filter" >>"$results"

# One row per shape; columns per implementation. The ratio (wasm SIMD over wasm Eigen) and
# "mix" use the best batches, the figures least disturbed by other load; "mix" is total FLOP /
# total time over the rows listed (each product run once), the rate of that sequence of products.
# "ceiling" is the SIMD micro-kernel's inner loop alone in V8 (bench_gemm.cpp: ceiling_loop), the
# most its mul+add instruction mix reaches here, timed right after each row's product; "of ceil"
# is the row's best over that ceiling's best, and for the mix, over the mean of the ceilings.
awk -F'\t' '
  /^#/ { next }
  {
    key = $1 "\t" $2 "\t" $3 "x" $4 "x" $5
    if (!(key in seen)) { seen[key] = 1; order[++n] = key; flop[key] = 2 * $3 * $4 * $5 }
    best[key, $6] = $7; median[key, $6] = $8
    if ($6 == "wasm_simd_ceiling") { ceil_sum += $7; ceil_n++; next }
    if ($7 > 0) { mixf[$6] += flop[key]; mixt[$6] += flop[key] / $7 }
  }
  function cell(k, impl) {
    return ((k, impl) in best) ? sprintf("%6.1f (%5.1f)", best[k, impl], median[k, impl]) : sprintf("%14s", "-")
  }
  function share(g, c) {
    return (c > 0 && g != "") ? sprintf("%6.0f%%", 100 * g / c) : sprintf("%7s", "-")
  }
  END {
    printf "GFLOP/s, best (median)\n"
    printf "%-20s %-2s %-13s %14s %14s %7s %14s %7s %14s\n", "product", "", "MxKxN", "ceiling", "wasm SIMD", "of ceil", "wasm Eigen", "ratio", "native Eigen"
    for (i = 1; i <= n; i++) {
      k = order[i]; split(k, f, "\t")
      ratio = ((k, "wasm_eigen") in best && best[k, "wasm_eigen"] > 0 && (k, "wasm_simd") in best) ? \
              sprintf("%6.2fx", best[k, "wasm_simd"] / best[k, "wasm_eigen"]) : sprintf("%7s", "-")
      printf "%-20s %-2s %-13s %s %s %s %s %s %s\n", f[1], f[2], f[3], cell(k, "wasm_simd_ceiling"), cell(k, "wasm_simd"), \
        share(((k, "wasm_simd") in best) ? best[k, "wasm_simd"] : "", best[k, "wasm_simd_ceiling"]), \
        cell(k, "wasm_eigen"), ratio, cell(k, "native_eigen")
    }
    printf "%-37s %14s", "mix (all rows above)", (ceil_n > 0) ? sprintf("%5.1f", ceil_sum / ceil_n) : "-"
    split("wasm_simd wasm_eigen native_eigen", impls, " ")
    for (j = 1; j <= 3; j++) {
      printf " %14s", (impls[j] in mixt) ? sprintf("%5.1f", mixf[impls[j]] / mixt[impls[j]]) : "-"
      if (j == 1) printf " %s", share(("wasm_simd" in mixt) ? mixf["wasm_simd"] / mixt["wasm_simd"] : "", (ceil_n > 0) ? ceil_sum / ceil_n : 0)
      if (j == 2) printf " %7s", ("wasm_simd" in mixt && "wasm_eigen" in mixt) ? \
        sprintf("%6.2fx", (mixf["wasm_simd"] / mixt["wasm_simd"]) / (mixf["wasm_eigen"] / mixt["wasm_eigen"])) : "-"
    }
    printf "\n"
  }' "$results"
