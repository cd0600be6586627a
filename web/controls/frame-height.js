// In embed mode, tells the page that frames this one how tall the content is, whenever that
// changes, so that the host's embed.js can make the iframe exactly that tall (docs/embed.md).
// A height is no secret, so it goes to whatever origin the parent has ('*'); the parent is the
// one that checks where a message came from.
export function reportHeight() {
  if (window.parent === window) return;
  let sent = -1;
  const send = () => {
    const height = document.documentElement.getBoundingClientRect().height;
    if (height === sent) return;
    sent = height;
    window.parent.postMessage({ type: 'wolab:height', version: 1, height }, '*');
  };
  new ResizeObserver(send).observe(document.documentElement);
  send();
}
