// The per-layer panels of experiments 3 and 4: a panel is made the first time its layer is drawn
// and kept (charts and all) across renders; panels past the shown run's layer count are hidden.
import { t } from '../i18n/i18n.js';

export class LayerPanels {
  // build(el, layer) adds the panel's content to el (after its heading) and returns its parts.
  constructor(container, build) {
    this.container = container;
    this.build = build;
    this.panels = [];  // { el, h, ...build's parts } per layer
  }

  // The panel of `layer`, its heading in the current language.
  get(layer) {
    while (this.panels.length <= layer) {
      const el = document.createElement('div');
      el.className = 'layer-panel';
      const h = document.createElement('h3');
      el.appendChild(h);
      this.container.appendChild(el);
      this.panels.push({ el, h, ...this.build(el, this.panels.length) });
    }
    const panel = this.panels[layer];
    panel.h.textContent = t('heatLayer', { layer });
    return panel;
  }

  show(layers) {
    this.panels.forEach((p, i) => { p.el.hidden = i >= layers; });
  }
}
