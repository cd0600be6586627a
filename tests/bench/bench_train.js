// Training steps per second of one config in the wasm module under node, timed the way
// bench_train.cpp times the native core: a warm-up (V8 first runs wasm in its baseline tier and
// swaps in optimised code between calls), then chunks of about 50 ms, as the page steps, until
// `seconds` have passed. A figure for scripts/bench.sh, not a test.
//
//   node --no-experimental-fetch tests/bench/bench_train.js BUILD_DIR '<config json>' [seconds] [module]
//
// module: wolab (SIMD, default) or wolab-nosimd. Prints one JSON line like bench_train.cpp
// (steps_per_cpu_s: per second of node's CPU time, V8's own threads included).
// WOLAB_BENCH_SMOKE=1: a smoke run (scripts/test.sh): a warm-up of 3 steps instead of >= 3 s;
// pass a small SECONDS too. It checks that the benchmark runs; its figure means nothing.
'use strict';

const fs = require('fs');
const path = require('path');

async function main() {
  const [dir, config, seconds = '5', name = 'wolab'] = process.argv.slice(2);
  if (!dir || !config) {
    console.error('usage: bench_train.js BUILD_DIR CONFIG_JSON [SECONDS] [wolab|wolab-nosimd]');
    process.exit(2);
  }
  const factory = require(path.resolve(dir, `${name}.js`));
  const wolab = await factory({ wasmBinary: fs.readFileSync(path.resolve(dir, `${name}.wasm`)) });
  const trainer = new wolab.Trainer(config);

  // Warm-up: at least 3 s (none in a smoke run) and 3 steps, one step a call; it also sizes the chunks.
  const warmMs = process.env.WOLAB_BENCH_SMOKE === '1' ? 0 : 3000;
  let warmSteps = 0;
  const warm = performance.now();
  while (performance.now() - warm < warmMs || warmSteps < 3) warmSteps += trainer.step(1).length;
  const chunk = Math.max(1, Math.floor(50 / ((performance.now() - warm) / warmSteps)));

  let steps = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  while (performance.now() - start < Number(seconds) * 1000) {
    const done = trainer.step(chunk).length;
    if (done === 0) throw new Error('the run ended; give train.steps room for the benchmark');
    steps += done;
  }
  const elapsed = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuElapsed = (used.user + used.system) / 1e6;
  trainer.delete();
  console.log(JSON.stringify({
    impl: name === 'wolab' ? 'wasm' : 'wasm-nosimd',
    steps_per_s: Number((steps / elapsed).toFixed(2)),
    steps_per_cpu_s: Number((steps / cpuElapsed).toFixed(2)),
    steps, seconds: Number(elapsed.toFixed(2)),
  }));
}

main().catch((e) => {
  console.error(`bench_train.js: ${e.message}`);
  process.exit(2);
});
