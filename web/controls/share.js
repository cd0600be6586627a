// Sharing: the page's link, and an experiment's embed snippet (docs/embed.md).
import { t } from '../i18n/i18n.js';
import { writeQuery } from '../state/state.js';
import { $ } from '../base/dom.js';
import { chrome } from '../state/chrome.js';
import { settings } from '../state/settings.js';
import { notice } from '../base/notices.js';

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export async function copyLink() {
  const ok = await copyText(location.href);
  notice(ok ? t('linkCopied') : `${t('copyFailed')} ${location.href}`, ok ? 'info' : 'error');
}

// The snippet: an iframe, usable on its own at a fixed height, and embed.js, which keeps it as
// tall as its content (docs/embed.md).
export async function copyEmbed(exp, section) {
  const { lang, theme } = chrome.get();
  const url = new URL(location.pathname + writeQuery(settings.get().texts, { lang, embed: exp.name, theme }), location.href);
  const script = new URL('embed.js', location.href);
  const attr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const title = attr(`W_o Lab: ${t(`${exp.name}_title`)}`);
  const snippet = `<iframe src="${attr(url.href)}" title="${title}" style="width:100%;height:720px;border:0" loading="lazy"></iframe>\n`
    + `<script src="${attr(script.href)}" async></script>`;
  const dialog = $('#embed-dialog');
  $('.exp-head', section).after(dialog);
  dialog.hidden = false;
  const area = $('#embed-code');
  area.value = snippet;
  area.select();
  const ok = await copyText(snippet);
  notice(ok ? t('embedCopied') : t('copyFailed'), ok ? 'info' : 'error', { experiment: exp.name });
}
