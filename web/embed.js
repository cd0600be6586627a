// For the page that hosts a W_o Lab iframe: keeps each W_o Lab frame exactly as tall as its
// content. Load it from the W_o Lab site itself (the "Copy embed code" snippet does):
//   <iframe src="https://LAB/?embed=remove_wo&..." title="..." style="width:100%;height:720px;border:0"></iframe>
//   <script src="https://LAB/embed.js" async></script>
// The embedded page posts { type: 'wolab:height', version: 1, height } to its parent whenever
// its content height changes (docs/embed.md). A message counts only when it comes from the
// origin this script was loaded from and from a frame of this page; it sets that frame's
// height and nothing else. Loading the script twice is harmless: each copy sets the same height.
(() => {
  const script = document.currentScript;
  if (!script) return;  // not loaded through a <script src> tag: no origin to trust
  const labOrigin = new URL(script.src).origin;
  const MAX_HEIGHT = 100000;  // px: any real page is shorter; a larger value is not ours

  window.addEventListener('message', (event) => {
    if (event.origin !== labOrigin) return;
    const m = event.data;
    if (!m || typeof m !== 'object' || m.type !== 'wolab:height' || m.version !== 1) return;
    if (typeof m.height !== 'number' || !(m.height >= 0 && m.height <= MAX_HEIGHT)) return;
    for (const frame of document.querySelectorAll('iframe')) {
      if (frame.contentWindow === event.source) frame.style.height = `${Math.ceil(m.height)}px`;
    }
  });
})();
