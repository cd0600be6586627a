// The page's boot and its top-level events. The first paint (header, control bar, texts) needs
// no engine; the settings form and the experiments come from the core's tables once the module
// has loaded. Views draw from run records in the results schema, so a live run, a recorded run
// and an imported CLI file all go through the same drawing code. Owns the engine, the pool, the
// chrome (language, embed, theme) and the list of experiments (state/).
import { applyStatic, detectLang, lang, languageName, languages, setLang, t } from './i18n/i18n.js';
import { experimentInfos, readQueryChrome, readSettings, setCoreTables } from './state/state.js';
import { $, errorText } from './base/dom.js';
import { chrome } from './state/chrome.js';
import { core, pool } from './state/engine.js';
import { loadWolab, ModuleNotBuiltYet } from './wasm/wasm.js';
import { poolSize, Runner } from './runs/runner.js';
import { warmUp } from './views/charts.js';
import { reportHeight } from './controls/frame-height.js';
import { renderClaims, setUpClaims } from './lesson/claims-panel.js';
import { startAnalysis } from './results/analysis.js';
import { notice } from './base/notices.js';
import { buildForm, listenToForm, settingsFromLink, showErrors, showHelp, writeUrl } from './controls/settings-form.js';
import { LOAD_SPEED_DELAY_MS, scheduleSpeed } from './runs/estimate.js';
import { addSection, renderSections } from './sections/experiment-section.js';
import { onWorker, requestRun, runPending, stopAll, togglePause } from './runs/live-runs.js';
import { importFile, showRecorded } from './results/results-shown.js';
import { overall, trackBarHeight } from './controls/control-bar.js';
import { copyLink } from './controls/share.js';
import { setUpTheme } from './controls/theme.js';
import { setRunCodes } from './state/run-status.js';
import { setUpLinkLanding } from './controls/link-landing.js';
import { renderDiagram, setUpDiagram } from './lesson/block-diagram.js';
import { renderFusion, setUpFusion } from './lesson/fusion-figure.js';
import { renderPurpose, setUpPurpose } from './lesson/purpose-figure.js';

// Resolves in a task of its own, after whatever else is queued (input, rendering).
const nextTask = () => new Promise((resolve) => setTimeout(resolve));

// Every text and view anew: after a change of language or theme.
function renderAll() {
  applyStatic();
  $('#lang').value = lang();
  showHelp();
  showErrors();
  renderSections();
  overall.renderNow();
  renderDiagram();
  renderFusion();
  renderPurpose();
  renderClaims();
  if (core.get().wolab) showEngine();
}

function showEngine() {
  const { wolab, engine } = core.get();
  $('#engine').textContent = t('engineReady', {
    version: wolab.version(), build: t(engine.script === 'wolab.js' ? 'buildSimd' : 'buildPlain'), workers: pool.get().size,
  });
}

async function boot() {
  const query = readQueryChrome(location.search);
  chrome.set({ lang: query.lang, embed: query.embed, theme: query.theme });
  setLang(query.lang || detectLang(navigator.languages));
  for (const code of languages()) $('#lang').add(new Option(languageName(code), code));
  setUpTheme(renderAll);
  const embedClasses = [document.documentElement.classList, document.body.classList];
  if (query.embed) {
    for (const list of embedClasses) list.add('embed');
    reportHeight();
  }
  trackBarHeight();
  // Leaving or reloading mid-run would lose the runs: the browser asks first.
  window.addEventListener('beforeunload', (e) => {
    if (pool.get() && pool.get().busy) e.preventDefault();
  });
  renderAll();

  listenToForm();
  $('#lang').addEventListener('change', (e) => {
    chrome.update({ lang: e.target.value });
    setLang(e.target.value);
    renderAll();
    writeUrl();
  });
  $('#copy-link').addEventListener('click', copyLink);
  $('#run-all').addEventListener('click', (e) => requestRun('all', e.currentTarget));
  $('#pause').addEventListener('click', togglePause);
  $('#stop').addEventListener('click', stopAll);
  // Several files at once: `wolab run --experiment all` writes one per experiment.
  $('#import-file').addEventListener('change', async (e) => {
    const files = [...e.target.files];
    e.target.value = '';
    if (!core.get().wolab) return;
    for (const file of files) await importFile(file);
  });

  // The engine's tables, then the sections, the form and Chart.js's first use, each in a task
  // of its own (nextTask), so that no step of the boot is one long task. Runs asked for before
  // the pool exists wait for it (live-runs.js, runPending).
  let codes;
  try {
    const { module, engine } = await loadWolab();
    setCoreTables(JSON.parse(module.settings()), JSON.parse(module.experiments()));
    codes = JSON.parse(module.codes());
    setRunCodes(codes);
    core.set({ wolab: module, engine, failed: false, presets: JSON.parse(module.presets()), presetNames: module.presetNames() });
  } catch (e) {
    $('#engine').textContent = e instanceof ModuleNotBuiltYet ? t('engineNoSimdYet') : t('engineFailed', { message: errorText(e) });
    $('#engine').classList.add('error');
    // An embed hides the control bar and its engine line; without the core there is no section.
    if (chrome.get().embed) notice($('#engine').textContent, 'error', { box: $('#experiments') });
    core.update({ failed: true });
    showErrors();
    return;
  }
  await nextTask();
  const link = readSettings(location.search);
  const { embed } = chrome.get();
  if (embed && !experimentInfos().some((e) => e.name === embed)) {  // the whole page, with the link's other values
    link.problems.push({ key: 'embed', text: embed, error: 'errEnum', allowed: experimentInfos().map((e) => e.name) });
    chrome.update({ embed: null });
    for (const list of embedClasses) list.remove('embed');
  }
  for (const info of experimentInfos()) {
    const section = addSection(info);
    section.hidden = Boolean(chrome.get().embed) && info.name !== chrome.get().embed;
    $('#experiments').appendChild(section);
  }
  if (!chrome.get().embed) setUpDiagram(experimentInfos(), codes.claim_sources);
  await nextTask();
  buildForm();
  await nextTask();
  warmUp();
  await nextTask();
  const { engine } = core.get();
  pool.set(new Runner(engine, poolSize(), onWorker));
  startAnalysis(engine);
  if (!chrome.get().embed) setUpFusion(experimentInfos(), core.get().presetNames[0]);
  if (!chrome.get().embed) setUpPurpose(experimentInfos(), core.get().presetNames[0]);
  settingsFromLink({ settings: link.settings, problems: [...query.problems, ...link.problems], unknown: link.unknown });
  renderAll();  // with the engine's experiments and the settings that apply
  setUpLinkLanding();
  document.body.dataset.ready = 'true';
  let shown = Promise.resolve();
  // Unless Run was pressed meanwhile: results recorded with the preset the settings match;
  // settings of one's own (a link) start empty.
  if (!runPending() && $('#preset').value !== 'custom') shown = showRecorded($('#preset').value);
  setUpClaims(codes, shown);
  // The estimate's timing of this device once the recordings are shown (web/runs/estimate.js).
  shown.finally(() => scheduleSpeed(LOAD_SPEED_DELAY_MS));
}

boot();

