// The cells of the views' tables: column headers from text keys, and body rows whose first cell
// heads the row (th scope="row"), so that a screen reader names each cell by its variant.
import { t } from './i18n.js';

// One th scope="col" per text key, with the texts' parameters.
export const headerCells = (keys, params = {}) => keys.map((key) => {
  const th = document.createElement('th');
  th.scope = 'col';
  th.textContent = t(key, params);
  return th;
});

// A new row of `body` with these texts, the first one its header. Returns the row.
export function addRow(body, [head, ...texts]) {
  const tr = body.insertRow();
  const th = document.createElement('th');
  th.scope = 'row';
  th.textContent = head;
  tr.appendChild(th);
  for (const text of texts) tr.insertCell().textContent = text;
  return tr;
}
