// The theme: light, dark, or the browser's.
import { app } from '../state/app-state.js';
import { applyTheme } from '../views/charts.js';
import { applyHeatTheme } from '../views/heatmap.js';

// ?theme= forces one; otherwise style.css follows prefers-color-scheme, and a change of it
// recolours the charts and heatmaps, and redraw() draws the page anew.
export function setUpTheme(redraw) {
  if (app.theme) document.documentElement.dataset.theme = app.theme;
  applyTheme();
  applyHeatTheme();
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    applyTheme();
    applyHeatTheme();
    redraw();
  });
}
