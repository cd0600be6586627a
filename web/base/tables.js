// The cells of the views' tables: column headers from text keys, and body rows whose first cell
// heads the row (th scope="row"), so that a screen reader names each cell by its variant. Each
// body cell carries its column's name (data-label): where the table's column is too narrow for
// its columns side by side, the rows stack (fitTable, style.css), each cell under that name.
import { t } from '../i18n/i18n.js';

// One th scope="col" per text key, with the texts' parameters.
export const headerCells = (keys, params = {}) => keys.map((key) => {
  const th = document.createElement('th');
  th.scope = 'col';
  th.textContent = t(key, params);
  return th;
});

// Gives each cell of body row `tr` the name of its column, from the table's header row; a cell
// spanning several columns takes the first one's.
export function labelRow(tr) {
  const head = tr.closest('table').tHead;
  const names = head && head.rows.length ? [...head.rows[0].cells].map((c) => c.textContent) : [];
  let column = 0;
  for (const cell of tr.cells) {
    if (names[column] !== undefined) cell.dataset.label = names[column];
    column += cell.colSpan;
  }
}

// Stacks the table of each .table-wrap fitted whose columns side by side are wider than the
// wrap: measured whenever fitTable is called (a change of text can make the columns narrower
// again without changing the stacked table's size), and again whenever the wrap or the table
// changes size. A table shown for the first time is fitted when the task or frame callback that
// made it ends (a microtask), so that it is never painted wider than its column; after that, in
// the next animation frame, which keeps the measure out of the frame that rendered the table
// (a frame that renders the claims panel is long already), and out of the observer's callback,
// where a change of size would be a resize loop. A wrap already stacked stays stacked meanwhile.
const pending = new Set();
let soon = false;
let nextFrame = false;
const schedule = (wrap, now) => {
  pending.add(wrap);
  if (now && !soon) {
    soon = true;
    queueMicrotask(() => { soon = false; fitPending(); });
  } else if (!now && !nextFrame) {
    nextFrame = true;
    requestAnimationFrame(() => { nextFrame = false; fitPending(); });
  }
};
const sizes = new ResizeObserver((entries) => {
  for (const e of entries) schedule(e.target.closest('.table-wrap'), false);
});
const watched = new WeakSet();
const measured = new WeakSet();  // wraps fitted once with their table laid out

// All the pending wraps at once, read between two rounds of writes, so that the frame lays the
// page out once rather than once per table.
function fitPending() {
  const wraps = [...pending].filter((wrap) => wrap.isConnected && wrap.querySelector('table'));
  pending.clear();
  for (const wrap of wraps) wrap.classList.remove('stacked');
  // An offscreen section skips layout (content-visibility): its sizes are 0 until in view.
  const shown = wraps.filter((wrap) => wrap.clientWidth > 0 && wrap.querySelector('table').offsetWidth > 0);
  const wide = shown.filter((wrap) => wrap.querySelector('table').offsetWidth > wrap.clientWidth);
  for (const wrap of wide) wrap.classList.add('stacked');
  for (const wrap of shown) measured.add(wrap);
}

// Fits the table in `wrap` (above), and keeps it fitted from now on.
export function fitTable(wrap) {
  if (!wrap) return;
  schedule(wrap, !measured.has(wrap));
  if (watched.has(wrap)) return;
  watched.add(wrap);
  sizes.observe(wrap);
  const table = wrap.querySelector('table');
  if (table) sizes.observe(table);
}

// A new row of `body` with these texts, the first one its header, labelled by the table's
// header row (headerCells, added before the rows); its table is kept fitted. Returns the row.
export function addRow(body, [head, ...texts]) {
  const tr = body.insertRow();
  const th = document.createElement('th');
  th.scope = 'row';
  th.textContent = head;
  tr.appendChild(th);
  for (const text of texts) tr.insertCell().textContent = text;
  labelRow(tr);
  fitTable(tr.closest('.table-wrap'));
  return tr;
}
