// Runs page: every recorded run (LIST_RUNS), one run's steps (`?run=ID`), export as
// one JSON file, delete (steps and media go too).

import { ask } from './ask.js';
import { deleteRun, errorText, exportRun, getMedia, getRun, listRuns } from './messages.js';
import { el, formatTime, outcomeLabel, runView } from './run-view.js';

const $ = (id) => document.getElementById(id);
const openRunId = new URLSearchParams(location.search).get('run');

function showStatus(text, isError = false) {
  $('status').textContent = text;
  $('status').className = isError ? 'error' : 'note';
}

/** Runs `fn`, showing its error instead of losing it. */
const guarded = (what, fn) => async (...args) => {
  try {
    await fn(...args);
  } catch (error) {
    showStatus(`${what}: ${errorText(error)}`, true);
  }
};

async function showList() {
  const { runs } = await ask(listRuns());
  $('runs').tBodies[0].replaceChildren(...runs.map(row));
  showStatus(runs.length === 0 ? 'No runs recorded yet.' : `${runs.length} run(s).`);
}

function row(run) {
  const hops = run.progress ? `${run.progress.done}/${run.progress.total}` : '—';
  return el(
    'tr',
    { dataset: { runId: run.id, status: run.status } },
    el('td', {}, formatTime(run.startedAt)),
    el('td', {}, el('a', { href: `runs.html?run=${encodeURIComponent(run.id)}`, class: 'open' }, run.taskId)),
    el('td', {}, run.provider),
    el('td', { class: 'status' }, run.status),
    el('td', { class: 'outcome' }, outcomeLabel(run)),
    el('td', {}, hops),
    el('td', {}, String(run.step)),
    el(
      'td',
      {},
      button('Export JSON', 'export', () => download(run.id)),
      ' ',
      button('Delete', 'delete', () => remove(run.id, showList)),
    ),
  );
}

function button(label, kind, onClick) {
  const b = el('button', { type: 'button', class: kind }, label);
  b.addEventListener('click', guarded(`${label} failed`, onClick));
  return b;
}

async function download(runId) {
  const { trajectory } = await ask(exportRun({ runId }));
  const blob = new Blob([JSON.stringify(trajectory, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const stamp = new Date(trajectory.run.startedAt).toISOString().replace(/[:.]/g, '-');
  const a = el('a', { href: url, download: `hopbench-run-${trajectory.run.taskId.replace(/[^\w.-]+/g, '_')}-${stamp}.json` });
  document.body.append(a);
  a.click();
  a.remove();
  // The download has taken the blob by the next task; keeping the URL would leak it.
  setTimeout(() => URL.revokeObjectURL(url), 0);
  showStatus(`Exported run ${runId}.`);
}

async function remove(runId, then) {
  if (!confirm('Delete this run with its steps and images? This cannot be undone.')) return;
  await ask(deleteRun({ runId }));
  showStatus(`Deleted run ${runId}.`);
  await then();
}

async function showDetail(runId) {
  $('list-section').hidden = true;
  $('detail-section').hidden = false;
  const { run, steps } = await ask(getRun({ runId, withSteps: true }));
  const shots = steps.map((s) => s.observation?.screenshot).filter(Boolean);
  const media = new Map();
  for (let i = 0; i < shots.length; i += 50) {
    const reply = await ask(getMedia({ runId, mediaIds: shots.slice(i, i + 50) }));
    for (const [id, dataUrl] of Object.entries(reply.media)) media.set(id, dataUrl);
  }
  $('detail').replaceChildren(runView(run, steps, media));
  showStatus(`Run of ${run.taskId}: ${outcomeLabel(run)}.`);
}

$('detail-export').addEventListener('click', guarded('export failed', () => download(openRunId)));
$('detail-delete').addEventListener(
  'click',
  guarded('delete failed', () => remove(openRunId, async () => location.assign('runs.html'))),
);

guarded('cannot list the runs', () => (openRunId ? showDetail(openRunId) : showList()))();
