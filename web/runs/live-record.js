// The live record of a training run, pure (no DOM, no engine): the trainer's step-0 record
// (record()), then each chunk's losses and each probe step's fragment (probeRecord(), docs/
// results.md "Probe fragments") appended as the worker reports them. Once the run has ended the
// series are those of the trainer's final record (tests/wasm/api.test.js checks it).

// Appends one worker 'progress' message (docs/worker.md): losses of steps firstStep, firstStep+1,
// …, and the fragment of the last probe step reached, if any. probed: the last probe step
// already appended. Returns the last probe step appended now (a chunk that ends the run may
// repeat the last probe: it is appended once).
export function appendProgress(record, { firstStep, losses, fragment }, probed) {
  losses.forEach((loss, i) => {
    record.curve.step.push(firstStep + i);
    record.curve.loss.push(loss);
  });
  if (!fragment || fragment.step <= probed) return probed;
  if (fragment.eval) {
    record.eval.step.push(fragment.step);
    // loss, token_acc, exact; a g2p run's per and wer too (docs/results.md)
    for (const key of Object.keys(record.eval)) if (key !== 'step') record.eval[key].push(fragment.eval[key]);
  }
  record.stats.push(...fragment.stats);
  record.wo.push(...fragment.wo);
  record.ov.push(...fragment.ov);
  return fragment.step;
}
