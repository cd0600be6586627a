// Batches rendering into animation frames so that no main-thread task grows long however fast
// the workers report. Worker messages only mark units dirty; a unit renders at most every
// MIN_INTERVAL ms; one frame spends at most about BUDGET ms; and a unit tied to an element
// (a chart redraw) waits until that element is near the viewport, since drawing what nobody
// sees is the most expensive thing the page could do while training.
const MIN_INTERVAL = 250;
const BUDGET = 4;

const dirty = new Map();      // key -> { render, el }
const lastRender = new Map();  // key -> time
const visible = new Set();
const observed = new WeakSet();
const observer = new IntersectionObserver((entries) => {
  for (const e of entries) {
    if (e.isIntersecting) visible.add(e.target);
    else visible.delete(e.target);
  }
  request();
}, { rootMargin: '300px 0px' });

let frame = 0;
let timer = 0;

// Marks a unit dirty: `render` runs in a later frame. With `el`, only while el is near the
// viewport (it stays dirty until then).
export function invalidate(key, render, el = null) {
  if (el && !observed.has(el)) {
    observed.add(el);
    observer.observe(el);
  }
  dirty.set(key, { render, el });
  if (el) el.dataset.stale = 'true';  // for tests: the drawing behind el is not up to date yet
  request();
}

// Renders a unit now, outside the throttle (a language switch, an import: the user asked).
export function renderNow(key, render) {
  dirty.delete(key);
  lastRender.set(key, performance.now());
  render();
}

function request() {
  if (frame || timer || !dirty.size) return;
  frame = requestAnimationFrame(flush);
}

function flush() {
  frame = 0;
  const start = performance.now();
  let wait = Infinity;
  for (const [key, unit] of [...dirty]) {
    if (unit.el && !visible.has(unit.el)) continue;  // the observer asks again when it shows
    const now = performance.now();
    const due = (lastRender.get(key) ?? -Infinity) + MIN_INTERVAL;
    if (now < due) {
      wait = Math.min(wait, due - now);
      continue;
    }
    if (now - start > BUDGET) {
      wait = 0;
      break;
    }
    dirty.delete(key);
    lastRender.set(key, now);
    unit.render();
    if (unit.el) delete unit.el.dataset.stale;
  }
  if (wait === 0) request();
  else if (wait < Infinity) timer = setTimeout(() => { timer = 0; request(); }, wait);
}
