// Picks the wasm build this browser can run and loads it on the main thread (for validateConfig,
// presets, plan). The workers, training and analysis (web/analysis.js), load the same script,
// named by the page.

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

// Resolves to { module, script } once the Embind module is ready.
export async function loadWolab() {
  const script = wasmScriptName();
  await loadScript(script);
  if (typeof globalThis.createWolab !== 'function') throw new Error(`${script} did not define createWolab`);
  const module = await globalThis.createWolab();
  return { module, script };
}
