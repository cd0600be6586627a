// Links within the page (#exp-…, #claims, #experiments) land where they point. The browser jumps
// at once, but the sections grow as their results and charts draw, and a section the page has
// not laid out yet (content-visibility: auto) holds only a placeholder height: once the sections
// around the target are laid out, it would no longer be at the top. So after a jump the target is
// put back at the top (below the sticky control bar: style.css's scroll-margin-top) whenever the
// page's blocks change size, until the reader scrolls, types, clicks or touches.

let target = null;
const resized = new ResizeObserver(() => {
  if (target) target.scrollIntoView({ block: 'start' });
});

function land(el) {
  target = el;
  el.scrollIntoView({ block: 'start' });
}

const linked = (hash) => (hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null);

// Called once the experiments' sections are in the page: observes the blocks whose size moves a
// target (the page's top-level blocks and each section), lands on the URL's #fragment, which did
// not exist when the browser loaded the page, and on every in-page link followed from now on.
export function setUpLinkLanding() {
  for (const el of [...document.body.children, ...document.querySelectorAll('section.experiment')]) resized.observe(el);
  // The reader's own move ends the landing; capture: before the page's handlers act on it. A
  // click on a link lets go first and lands again in its click handler below. A click inside the
  // target (Show the recorded result, a chip) keeps it: the reader is still reading there, and a
  // block above may still grow afterwards (once, in a test, by 94 px after such a click).
  const letGo = () => { target = null; };
  const early = { capture: true, passive: true };
  for (const type of ['wheel', 'touchstart', 'keydown']) window.addEventListener(type, letGo, early);
  window.addEventListener('pointerdown', (e) => { if (!(target && target.contains(e.target))) letGo(); }, early);
  document.addEventListener('click', (e) => {
    const a = e.target.closest('a[href^="#"]');
    const el = a && linked(a.hash);
    // After the browser's own jump (and focus move), in the next frame.
    if (el) requestAnimationFrame(() => land(el));
  });
  const el = linked(location.hash);
  if (el) land(el);
}
