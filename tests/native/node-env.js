// --pre-js of the GoogleTest suite's wasm build (CMakeLists.txt): Emscripten gives a program an
// environment of its own, not node's, so GoogleTest's sharding variables are copied in, and
// scripts/test.sh runs the suite as two shards at once instead of one node process per test.
Module.preRun = (Module.preRun || []).concat(() => {
  for (const name of ['GTEST_TOTAL_SHARDS', 'GTEST_SHARD_INDEX']) {
    if (process.env[name] !== undefined) ENV[name] = process.env[name];
  }
});
