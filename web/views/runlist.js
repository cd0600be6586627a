// The table of one experiment's runs: variant, seed, the learning rate when the runs sweep
// several, a progress bar, status, and for runs trained here their steps/s and the trained
// model's download. Rows are built once per set of runs and then only updated. The table is
// folded under its title (until the reader opens it) when it is long (a learning-rate sweep) or
// holds recorded or imported runs, whose outcome the summary table below already gives.
import { lang, t, variantLabel } from '../i18n/i18n.js';
import { fitTable, headerCells, labelRow } from '../base/tables.js';
import { failed } from '../state/run-status.js';

const FOLD_ABOVE = 12;  // runs: a longer table of live runs starts folded

// A run's status for people, the one place it is worded: the record's typed status
// ({state, step}, docs/results.md) once the run has one, else the page's own queued, running
// or failed (run-status.js).
export function statusText(run) {
  const { state, step } = run.status;
  if (failed(run)) return t('statusError', { message: run.error });
  switch (state) {
    case 'queued': return t('statusQueued');
    case 'running':
      return run.rate > 0
        ? t('statusRunningEta', { s: Math.ceil((run.steps - run.stepsDone) / run.rate) })
        : t('statusRunning');
    case 'done': return t('statusDone');
    // A run stopped before a worker took it never trained a step, and has no record.
    case 'stopped': return run.finished ? t('statusStopped', { step }) : t('statusNotStarted');
    case 'diverged': return t('statusDiverged', { step });
    default: return state;
  }
}


export class RunList {
  // onModel(run): download the run's trained model.
  constructor(container, onModel) {
    this.onModel = onModel;
    this.ids = '';
    this.fold = document.createElement('details');
    this.fold.className = 'runs-fold';
    this.summary = document.createElement('summary');
    // Once the reader has opened or closed the table, it stays as they left it.
    this.chosen = false;
    this.summary.addEventListener('click', () => { this.chosen = true; });
    const wrap = document.createElement('div');
    wrap.className = 'table-wrap runs';
    this.table = document.createElement('table');
    this.table.className = 'runs-table';
    this.caption = this.table.createCaption();
    this.caption.className = 'visually-hidden';  // the summary shows it
    this.head = this.table.createTHead().insertRow();
    this.body = this.table.createTBody();
    wrap.appendChild(this.table);
    this.fold.append(this.summary, wrap);
    container.appendChild(this.fold);
    this.wrap = wrap;
    this.rows = [];
  }

  render(runs, source) {
    this.fold.hidden = runs.length === 0;
    const live = source === 'live';
    if (!this.chosen) this.fold.open = live && runs.length <= FOLD_ABOVE;
    this.caption.textContent = t({ import: 'runsImported', recorded: 'runsRecorded' }[source] || 'runsCaption');
    this.summary.textContent = t('runsSummary', { caption: this.caption.textContent, n: runs.length });
    const sweep = new Set(runs.map((r) => r.lr)).size > 1;
    // Imported and recorded runs have no rate measured here and no weights to download.
    const heads = ['colVariant', 'colSeed', ...(sweep ? ['colLr'] : []), 'colProgress', ...(live ? ['colRate'] : []), 'colStatus', ...(live ? ['colModel'] : [])];
    // Rows and header are made again only when the runs or the words change: rendered a few
    // times a second while runs train, the table otherwise only has its cells' texts updated
    // (a new header each time made the browser lay out every run table of the page anew).
    const ids = `${source}:${runs.map((r) => r.id).join(',')}`;
    const headKey = `${lang()}:${heads.join()}`;
    const rebuilt = ids !== this.ids;
    if (rebuilt) this.build(runs, sweep, live);
    this.ids = ids;
    if (rebuilt || headKey !== this.headKey) {
      this.headKey = headKey;
      this.head.replaceChildren(...headerCells(heads));
      for (const { tr } of this.rows) labelRow(tr);  // the header's words: of this language, these columns
    }
    runs.forEach((run, i) => this.update(this.rows[i], run));
    // New texts can widen the columns: measured again, once for all tables.
    fitTable(this.wrap);
  }

  build(runs, sweep, live) {
    this.rows = runs.map((run) => {
      const tr = this.body.insertRow();
      tr.dataset.run = run.id;
      const variant = tr.insertCell();
      tr.insertCell().textContent = String(run.seed);
      if (sweep) tr.insertCell().textContent = String(run.lr);
      const bar = tr.insertCell();
      const rate = live ? tr.insertCell() : null;
      const status = tr.insertCell();
      status.className = 'status';
      const progress = document.createElement('progress');
      progress.max = run.steps;
      const steps = document.createElement('span');
      steps.className = 'steps';
      bar.append(progress, steps);
      let button = null;
      if (live) {
        button = document.createElement('button');
        button.type = 'button';
        button.className = 'small';
        button.addEventListener('click', () => this.onModel(run));
        tr.insertCell().appendChild(button);
      }
      return { tr, variant, rate, status, progress, steps, button };
    });
    this.body.replaceChildren(...this.rows.map((r) => r.tr));
  }

  // Each value written only when it changed: a write of the same text still costs the page a
  // layout of the table.
  update(row, run) {
    const set = (node, text) => {
      if (node.textContent !== text) node.textContent = text;
    };
    if (row.progress.value !== run.stepsDone) row.progress.value = run.stepsDone;
    row.progress.setAttribute('aria-label', t('runProgress', { variant: run.variant, seed: run.seed }));
    set(row.steps, `${run.stepsDone}/${run.steps}`);
    set(row.variant, variantLabel(run.variant));
    set(row.status, statusText(run));
    if (row.tr.dataset.status !== run.status.state) row.tr.dataset.status = run.status.state;
    if (!row.button) return;
    // While running: its average so far; once finished: the run's average.
    set(row.rate, (run.status.state === 'running' || run.finished) && run.rate ? run.rate.toFixed(0) : '');
    set(row.button, t('modelButton'));
    row.button.setAttribute('aria-label', t('modelButtonLabel', { variant: run.variant, seed: run.seed }));
    if (row.button.disabled !== !run.finished) row.button.disabled = !run.finished;
  }
}
