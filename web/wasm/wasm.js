// Picks the wasm build this browser can run, compiles its .wasm once and instantiates it on the
// main thread (for validateConfig, presets, plan). The workers, training and analysis
// (web/results/analysis.js), load the same script and instantiate the same compiled module
// (web/wasm/load-wolab.js), both named in their 'init' message.

// The smallest module using a SIMD instruction: (func (result v128) (i32x4.splat (i32.const 0))).
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11,
]);

export function wasmScriptName() {
  return WebAssembly.validate(SIMD_PROBE) ? 'wolab.js' : 'wolab-nosimd.js';
}

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const el = document.createElement('script');
    el.src = src;
    el.onload = resolve;
    el.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.appendChild(el);
  });
}

// The compiled module of `url`: streamed, and so cached compiled by the browser, when the server
// names it application/wasm, else compiled from its bytes.
// A browser without WASM SIMD on a page whose module for it is not built yet (npm start builds it
// right after serving the page): an error of its own, which the page words as such.
export class ModuleNotBuiltYet extends Error {}

async function compileWasm(url) {
  const response = await fetch(url);
  if (response.status === 404 && url.startsWith('wolab-nosimd')) throw new ModuleNotBuiltYet(url);
  if (!response.ok) throw new Error(`could not load ${url}: HTTP ${response.status}`);
  if (response.headers.get('Content-Type') === 'application/wasm') return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}

// Resolves to { module, engine } once the Embind module is ready: engine = { script, wasm }, the
// build's script and its compiled WebAssembly.Module, which the workers' 'init' messages carry.
export async function loadWolab() {
  const script = wasmScriptName();
  const loads = await Promise.allSettled([compileWasm(script.replace(/\.js$/, '.wasm')), loadScript(script), loadScript(new URL('./load-wolab.js', import.meta.url).href)]);
  // The .wasm's 404 says why its script did not load either.
  const failed = loads.filter((l) => l.status === 'rejected').map((l) => l.reason);
  if (failed.length) throw failed.find((e) => e instanceof ModuleNotBuiltYet) || failed[0];
  const wasm = loads[0].value;
  if (typeof globalThis.createWolab !== 'function') throw new Error(`${script} did not define createWolab`);
  const module = await globalThis.instantiateWolab(wasm);
  return { module, engine: { script, wasm } };
}
