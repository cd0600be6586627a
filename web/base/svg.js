// SVG elements made in code (the block diagram, the fusion figure): attributes set one by one,
// text only as text, and colours of style.css (var(--…)) through the CSSOM, since the page's
// Content-Security-Policy refuses style attributes.
const NS = 'http://www.w3.org/2000/svg';

// svg('rect', { x: 1, class: 'a', style: { fill: 'var(--head-1)' } }, text?)
export function svg(tag, attrs = {}, text = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'style') for (const [p, x] of Object.entries(v)) e.style.setProperty(p, x);
    else e.setAttribute(k, String(v));
  }
  if (text != null) e.textContent = text;
  return e;
}
