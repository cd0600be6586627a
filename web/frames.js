// Batches view renders into animation frames: worker messages only mark a view dirty; each view
// renders at most every MIN_INTERVAL ms, and one frame spends at most BUDGET ms on renders, so no
// main-thread task grows long however fast the workers report.
const MIN_INTERVAL = 200;
const BUDGET = 12;

const dirty = new Set();
const lastRender = new Map();
let frame = 0;
let timer = 0;

export function invalidate(view) {
  dirty.add(view);
  request();
}

function request() {
  if (frame || timer || !dirty.size) return;
  frame = requestAnimationFrame(flush);
}

function flush() {
  frame = 0;
  const start = performance.now();
  let wait = Infinity;
  for (const view of [...dirty]) {
    const now = performance.now();
    const due = (lastRender.get(view) || -Infinity) + MIN_INTERVAL;
    if (now < due) {
      wait = Math.min(wait, due - now);
      continue;
    }
    if (now - start > BUDGET) {
      wait = 0;
      break;
    }
    dirty.delete(view);
    lastRender.set(view, now);
    view.render();
  }
  if (!dirty.size) return;
  if (wait === 0) request();
  else timer = setTimeout(() => { timer = 0; request(); }, wait);
}

// Renders a view now (after a language switch, an import), outside the throttle.
export function renderNow(view) {
  dirty.delete(view);
  lastRender.set(view, performance.now());
  view.render();
}
