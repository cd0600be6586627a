// The DOM helpers every part of the page uses. Text goes into the DOM as text only.

export const $ = (sel, root = document) => root.querySelector(sel);
// The id of an experiment's section (sections/experiment-section.js), for the modules that find
// a part of it: its Run button, its notices.
export const sectionId = (name) => `exp-${name}`;
export const errorText = (e) => (e && e.message ? e.message : String(e));

// An element with a class and its text, which goes in as text only.
export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text != null) e.textContent = text;
  return e;
}

export function button(className, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = className;
  b.addEventListener('click', onClick);
  return b;
}
