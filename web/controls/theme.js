// The theme: light, dark, or the browser's.
import { chrome } from '../state/chrome.js';
import { applyTheme } from '../views/charts.js';
import { applyHeatTheme } from '../views/heatmap.js';

// ?theme= forces one; otherwise style.css follows prefers-color-scheme, and a change of it
// recolours the charts and heatmaps, and redraw() draws the page anew.
export function setUpTheme(redraw) {
  const { theme } = chrome.get();
  if (theme) document.documentElement.dataset.theme = theme;
  applyTheme();
  applyHeatTheme();
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    applyTheme();
    applyHeatTheme();
    redraw();
  });
}
