// Shared by the node tests: loads the Embind modules built by scripts/build-wasm.sh and finds
// the native build (scripts/build-native.sh) for the parity and CLI checks.
// WOLAB_WASM_DIR / WOLAB_NATIVE_DIR point elsewhere (default: build-wasm/ and build/).
'use strict';

const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..', '..');
const wasmDir = process.env.WOLAB_WASM_DIR || path.join(root, 'build-wasm');
const nativeDir = process.env.WOLAB_NATIVE_DIR || path.join(root, 'build');

const loaded = new Map();

// A new instance of 'wolab' (SIMD) or 'wolab-nosimd', with a heap of its own. The .wasm bytes
// are handed over because Emscripten 3.1.6 cannot fetch them under node 20.
function newWolab(name = 'wolab') {
  const factory = require(path.join(wasmDir, `${name}.js`));
  return factory({ wasmBinary: fs.readFileSync(path.join(wasmDir, `${name}.wasm`)) });
}

// The instance the tests of one file share.
function loadWolab(name = 'wolab') {
  if (!loaded.has(name)) loaded.set(name, newWolab(name));
  return loaded.get(name);
}

// Makes a Trainer of `config` (JSON text) in module `wolab`, awaits fn(trainer) and deletes the
// trainer whether fn returned or threw; returns what fn returned.
async function withTrainer(wolab, config, fn) {
  const t = new wolab.Trainer(config);
  try {
    return await fn(t);
  } finally {
    t.delete();
  }
}

// Path of a native executable, or null when the native build has not made it.
function nativeTool(name) {
  const file = path.join(nativeDir, name);
  return fs.existsSync(file) ? file : null;
}

// Wasm memory in bytes (it only ever grows).
function memoryBytes(wolab) {
  return wolab.HEAPU8.buffer.byteLength;
}

// safetensors bytes -> { metadata, tensors: { name: { shape, data: Float32Array } } } (F32 only:
// all a wolab checkpoint holds). 8 bytes little-endian header length, JSON header, data.
function readSafetensors(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  const { __metadata__: metadata, ...entries } = header;
  const tensors = {};
  for (const [name, { dtype, shape, data_offsets: [begin, end] }] of Object.entries(entries)) {
    if (dtype !== 'F32') throw new Error(`${name}: dtype ${dtype}, expected F32`);
    const data = bytes.slice(8 + n + begin, 8 + n + end);  // a copy, so aligned for Float32Array
    tensors[name] = { shape, data: new Float32Array(data.buffer) };
  }
  return { metadata, tensors };
}

module.exports = { loadWolab, newWolab, withTrainer, nativeTool, memoryBytes, readSafetensors, root };
