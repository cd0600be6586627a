import { t } from '../i18n/i18n.js';
import { $, button, sectionId } from './dom.js';
import { focusTarget } from './focus.js';

// A notice is a group (one event: a link's problems are one notice), with its own dismiss button,
// shown where the user is looking: in the control bar's box by default, in an experiment's
// section's (experiment: its name), or in another box.
// Information goes by itself after a while; an error stays until dismissed. Older notices give
// way to newer ones, so they never pile up. `details` (text for the curious, such as the core's
// exact message) goes in a fold under the notice.
const MAX_NOTICES = 3;
const INFO_MS = 8000;

export function notice(text, kind = 'info', { items = [], details = '', experiment = '', box = experiment ? $(`#${sectionId(experiment)} .section-notices`) : $('#notices') } = {}) {
  for (const old of box.querySelectorAll('.notice')) if (old.dataset.text === text) old.remove();
  const group = document.createElement('div');
  group.className = `notice ${kind}`;
  group.dataset.text = text;
  group.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  const body = document.createElement('div');
  body.className = 'notice-text';
  const p = document.createElement('p');
  p.textContent = text;
  body.appendChild(p);
  if (items.length) {
    const list = document.createElement('ul');
    for (const item of items) list.appendChild(document.createElement('li')).textContent = item;
    body.appendChild(list);
  }
  if (details) {
    const fold = document.createElement('details');
    fold.className = 'notice-details';
    fold.appendChild(document.createElement('summary')).textContent = t('noticeDetails');
    fold.appendChild(document.createElement('p')).textContent = details;
    body.appendChild(fold);
  }
  const close = button('dismiss small', () => dismiss(group));
  close.textContent = '×';
  close.setAttribute('aria-label', t('dismiss'));
  group.append(body, close);
  box.appendChild(group);
  while (box.children.length > MAX_NOTICES) box.firstElementChild.remove();
  if (kind === 'info') setTimeout(() => dismiss(group), INFO_MS);
}

// Removes a notice; focus on it moves to the next notice, or back to the page's Run button.
function dismiss(group) {
  const had = group.contains(document.activeElement);
  const next = group.nextElementSibling || group.previousElementSibling;
  group.remove();
  if (had) (next ? $('.dismiss', next) : focusTarget()).focus();
}
