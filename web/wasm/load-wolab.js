// The Embind module made from the page's compiled WebAssembly.Module (web/wasm/wasm.js compiles the
// build's .wasm once per page): the main thread and every worker instantiate that one module,
// posted to them in their 'init' message, rather than each fetching and compiling the file
// again (docs/worker.md, "One compiled module"). Classic, for the workers' importScripts; the
// build's script (createWolab) is loaded first.
'use strict';

self.instantiateWolab = (wasm) => new Promise((resolve, reject) => {
  self.createWolab({
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(wasm, imports).then((instance) => receive(instance, wasm), reject);
      return {};  // the exports arrive through receive
    },
  }).then(resolve, reject);
});
