// The page's boot and its top-level events. The first paint (header, control bar, texts) needs
// no engine; the settings form and the experiments come from the core's tables once the module
// has loaded. Views draw from run records in the results schema, so a live run, a recorded run
// and an imported CLI file all go through the same drawing code.
import { applyStatic, detectLang, lang, setLang, t } from './i18n/i18n.js';
import { experimentInfos, readQueryChrome, readSettings, setCoreTables, settingsFromConfig } from './state/state.js';
import { $, app, errorText } from './state/app-state.js';
import { loadWolab } from './wasm/wasm.js';
import { poolSize, Runner } from './runs/runner.js';
import { warmUp } from './views/charts.js';
import { reportHeight } from './controls/frame-height.js';
import { renderClaims, setUpClaims } from './lesson/claims-panel.js';
import { startAnalysis } from './results/analysis.js';
import { notice } from './controls/notices.js';
import { buildForm, listenToForm, settingsFromLink, showErrors, writeUrl } from './controls/settings-form.js';
import { LOAD_SPEED_DELAY_MS, scheduleSpeed } from './runs/estimate.js';
import { makeExperiment } from './views/experiment-section.js';
import { onWorker, requestRun, runExperiments, stopAll, togglePause } from './runs/live-runs.js';
import { importFile, showRecorded } from './results/results-shown.js';
import { overall, trackBarHeight } from './controls/control-bar.js';
import { copyLink } from './controls/share.js';
import { setUpTheme } from './controls/theme.js';
import { setRunCodes } from './state/run-status.js';
import { setUpLinkLanding } from './controls/link-landing.js';

// Resolves in a task of its own, after whatever else is queued (input, rendering).
const nextTask = () => new Promise((resolve) => setTimeout(resolve));

// Every text and view anew: after a change of language or theme.
function renderAll() {
  applyStatic();
  $('#lang').value = lang();
  showErrors();
  for (const exp of app.exps.values()) exp.renderNow();
  overall.renderNow();
  renderClaims();
  if (app.wolab) showEngine();
}

function showEngine() {
  $('#engine').textContent = t('engineReady', {
    version: app.wolab.version(), build: t(app.engine.script === 'wolab.js' ? 'buildSimd' : 'buildPlain'), workers: app.runner.size,
  });
}

async function boot() {
  const query = readQueryChrome(location.search);
  app.langChosen = query.lang;
  app.embed = query.embed;
  app.theme = query.theme;
  setLang(query.lang || detectLang(navigator.languages));
  setUpTheme(renderAll);
  const embedClasses = [document.documentElement.classList, document.body.classList];
  if (app.embed) {
    for (const list of embedClasses) list.add('embed');
    reportHeight();
  }
  trackBarHeight();
  // Leaving or reloading mid-run would lose the runs: the browser asks first.
  window.addEventListener('beforeunload', (e) => {
    if (app.runner && app.runner.busy) e.preventDefault();
  });
  renderAll();

  listenToForm();
  $('#lang').addEventListener('change', (e) => {
    app.langChosen = e.target.value;
    setLang(app.langChosen);
    renderAll();
    writeUrl();
  });
  $('#copy-link').addEventListener('click', copyLink);
  $('#run-all').addEventListener('click', (e) => {
    app.lastRun = e.currentTarget;
    requestRun('all');
  });
  $('#pause').addEventListener('click', togglePause);
  $('#stop').addEventListener('click', stopAll);
  // Several files at once: `wolab run --experiment all` writes one per experiment.
  $('#import-file').addEventListener('change', async (e) => {
    const files = [...e.target.files];
    e.target.value = '';
    if (!app.wolab) return;
    for (const file of files) await importFile(file);
  });

  // The engine's tables, then the sections, the form and Chart.js's first use, each in a task
  // of its own (nextTask), so that no step of the boot is one long task. Runs asked for before
  // the pool exists (app.runner) wait for it (live-runs.js).
  let codes;
  try {
    const { module, engine } = await loadWolab();
    app.wolab = module;
    app.engine = engine;
    app.presets = JSON.parse(module.presets());
    app.presetNames = module.presetNames();
    setCoreTables(JSON.parse(module.settings()), JSON.parse(module.experiments()));
    codes = JSON.parse(module.codes());
    setRunCodes(codes);
  } catch (e) {
    app.engineFailed = true;
    $('#engine').textContent = t('engineFailed', { message: errorText(e) });
    $('#engine').classList.add('error');
    // An embed hides the control bar and its engine line; without the core there is no section.
    if (app.embed) notice($('#engine').textContent, 'error', { box: $('#experiments') });
    showErrors();
    return;
  }
  await nextTask();
  const link = readSettings(location.search);
  if (app.embed && !experimentInfos().some((e) => e.name === app.embed)) {  // the whole page, with the link's other values
    link.problems.push({ key: 'embed', text: app.embed, error: 'errEnum', allowed: experimentInfos().map((e) => e.name) });
    app.embed = null;
    for (const list of embedClasses) list.remove('embed');
  }
  for (const info of experimentInfos()) {
    const exp = makeExperiment(info);
    exp.section.hidden = Boolean(app.embed) && info.name !== app.embed;
    $('#experiments').appendChild(exp.section);
    app.exps.set(info.name, exp);
  }
  await nextTask();
  app.base = settingsFromConfig(app.presets[app.presetNames[0]]);
  buildForm();
  await nextTask();
  warmUp();
  await nextTask();
  app.runner = new Runner(app.engine, poolSize(), onWorker);
  startAnalysis(app.engine);
  settingsFromLink({ settings: link.settings, problems: [...query.problems, ...link.problems], unknown: link.unknown });
  renderAll();  // with the engine's experiments and the settings that apply
  setUpLinkLanding();
  document.body.dataset.ready = 'true';
  let shown = Promise.resolve();
  if (app.pending) runExperiments(app.pending);
  // Results recorded with the preset the settings match; settings of one's own (a link) start
  // empty.
  else if ($('#preset').value !== 'custom') shown = showRecorded($('#preset').value);
  setUpClaims(codes, shown);
  // The estimate's timing of this device once the recordings are shown (web/runs/estimate.js).
  shown.finally(() => scheduleSpeed(LOAD_SPEED_DELAY_MS));
}

boot();

