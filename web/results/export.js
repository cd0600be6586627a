// Files the page hands to the user: results JSON (built by the wasm makeResults, so it is the
// CLI's schema, docs/results.md), curves as CSV, charts as PNG, a W_o matrix as .npy, a model as
// safetensors. Everything is made in the browser and saved through a temporary object URL.

export function download(name, data, type) {
  const blob = data instanceof Blob ? data : new Blob([data], { type });
  const url = URL.createObjectURL(blob);
  downloadUrl(name, url);
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// Saves what url (an object or data: URL) holds as the file `name`.
export function downloadUrl(name, url) {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

// NumPy .npy v1.0 of a float32 matrix: magic, version, header length (u16 LE), then a Python
// dict literal padded with spaces and ended by '\n' so that the data starts at a multiple of 64.
export function npyBytes(data, rows, cols) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${rows}, ${cols}), }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += ' '.repeat(pad % 64) + '\n';
  const out = new Uint8Array(10 + header.length + rows * cols * 4);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0], 0);  // \x93NUMPY 1.0
  new DataView(out.buffer).setUint16(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  const values = new DataView(out.buffer, 10 + header.length);
  for (let i = 0; i < rows * cols; i++) values.setFloat32(i * 4, data[i], true);
  return out;
}

// Long format, one row per measured point: training loss every step, held-out metrics at probes.
export function curvesCsv(experiment, runs) {
  const lines = ['experiment,variant,seed,kind,step,loss,token_acc,exact'];
  for (const { variant, seed, record } of runs) {
    const { curve, eval: ev } = record;
    for (let i = 0; i < curve.step.length; i++) {
      lines.push(`${experiment},${variant},${seed},train,${curve.step[i]},${curve.loss[i]},,`);
    }
    for (let i = 0; i < ev.step.length; i++) {
      lines.push(`${experiment},${variant},${seed},eval,${ev.step[i]},${ev.loss[i]},${ev.token_acc[i]},${ev.exact[i]}`);
    }
  }
  return lines.join('\n') + '\n';
}
