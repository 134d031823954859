// Runs page: every recorded run (LIST_RUNS), one run's steps (`?run=ID`), export as
// one JSON file, delete (steps and media go too).

import { ask } from './ask.js';
import { savedMessage, withRecording } from './authoring.js';
import { coreCall, deleteRun, errorText, exportRun, getMedia, getRun, listRuns } from './messages.js';
import { outcomeOf } from './run-outcome.js';
import { el, formatTime, outcomeLabel, runView } from './run-view.js';
import { shotOf } from './step-view.js';
import { byId } from './dom.js';

/**
 * @typedef {import('./types.js').RunView} RunView
 * @typedef {import('./types.js').StepView} StepView
 * @typedef {import('./types.js').Trajectory} Trajectory
 */

const $ = (/** @type {string} */ id) => byId(id);
const openRunId = new URLSearchParams(location.search).get('run');

/**
 * @param {string} text
 * @param {boolean} [isError]
 */
function showStatus(text, isError = false) {
  $('status').textContent = text;
  $('status').className = isError ? 'error' : 'note';
}

/** Runs `fn`, showing its error instead of losing it. */
/**
 * @template {unknown[]} A
 * @param {string} what
 * @param {(...args: A) => Promise<unknown>} fn
 */
const guarded = (what, fn) => async (/** @type {A} */ ...args) => {
  try {
    await fn(...args);
  } catch (error) {
    showStatus(`${what}: ${errorText(error)}`, true);
  }
};

async function showList() {
  const { runs } = await ask(listRuns);
  byId('runs', HTMLTableElement).tBodies[0].replaceChildren(...runs.map(row));
  showStatus(runs.length === 0 ? 'No runs recorded yet.' : `${runs.length} run(s).`);
}

/** @param {RunView} run */
function row(run) {
  const hops = run.progress ? `${run.progress.done}/${run.progress.total}` : '—';
  return el(
    'tr',
    { dataset: { runId: run.id, status: run.status } },
    el('td', {}, formatTime(run.startedAt)),
    el('td', {}, el('a', { href: `runs.html?run=${encodeURIComponent(run.id)}`, class: 'open' }, run.taskId)),
    el('td', {}, run.provider),
    el('td', { class: 'status' }, run.status),
    el('td', { class: 'outcome', dataset: { outcome: outcomeOf(run).kind }, title: outcomeOf(run).cause }, outcomeLabel(run)),
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

/**
 * @param {string} label
 * @param {string} kind
 * @param {() => Promise<unknown>} onClick
 */
function button(label, kind, onClick) {
  const b = el('button', { type: 'button', class: kind }, label);
  b.addEventListener('click', guarded(`${label} failed`, onClick));
  return b;
}

/** @param {string} runId */
async function download(runId) {
  const { trajectory } = await ask(exportRun, { runId });
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

/**
 * Offers `text` as a file download named `name`.
 * @param {string} name
 * @param {string} text
 */
function saveFile(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Authoring by doing: the run's task file (our format) with the run's steps as its
 * `reference_trajectory`, or as one more of its `alternative_trajectories` when it
 * has a reference already (authoring.js; `[id]` written as `{role 'name'}` by the
 * core). Refused,
 * saying which steps and why, when a step cannot be written so that a replay finds it.
 * @param {string} runId
 */
async function saveAsTask(runId) {
  const { trajectory } = await ask(exportRun, { runId });
  /** @type {import('./authoring.js').TaskFile & { hops?: unknown }} */
  let task;
  try {
    task = JSON.parse(trajectory.task.text);
  } catch (error) {
    throw new Error(`the run's task file is not JSON (${/** @type {Error} */ (error).message})`, { cause: error });
  }
  if (!Array.isArray(task.hops)) throw new Error('only task files in hopbench format take a reference_trajectory here; this one is MMInA or WebArena');
  const recorded = trajectory.steps.flatMap((s) => (s.action?.text ? [{ action: s.action.text, observation: s.observation?.text ?? '' }] : []));
  // src/agent/to_reference.rs: the steps as reference_trajectory steps, and what is wrong.
  const { value } = await ask(coreCall, 'reference_of', [recorded]);
  if (value.problems.length > 0) {
    throw new Error(`not saved: ${value.problems.map((/** @type {{ step: number, message: string }} */ p) => `step ${p.step}: ${p.message}`).join('; ')}`);
  }
  const name = `${trajectory.task.id.replace(/[^\w.-]+/g, '_')}.json`;
  const placed = withRecording(task, value.reference);
  saveFile(name, `${JSON.stringify(placed.task, null, 2)}\n`);
  showStatus(savedMessage(name, placed, value.reference.length));
}

/**
 * @param {string} runId
 * @param {() => Promise<unknown>} then
 */
async function remove(runId, then) {
  if (!confirm('Delete this run with its steps and images? This cannot be undone.')) return;
  await ask(deleteRun, { runId });
  showStatus(`Deleted run ${runId}.`);
  await then();
}

/** @param {string} runId */
async function showDetail(runId) {
  $('list-section').hidden = true;
  $('detail-section').hidden = false;
  const reply = await ask(getRun, { runId, withSteps: true });
  const { run } = reply;
  const steps = reply.steps ?? [];
  const shots = steps.map(shotOf).filter((shot) => shot !== null);
  /** @type {Map<string, string>} */
  const media = new Map();
  for (let i = 0; i < shots.length; i += 50) {
    const reply = await ask(getMedia, { runId, mediaIds: shots.slice(i, i + 50) });
    for (const [id, dataUrl] of Object.entries(reply.media)) media.set(id, dataUrl);
  }
  $('detail').replaceChildren(runView(run, steps, media));
  showStatus(`Run of ${run.taskId}: ${outcomeLabel(run)}.`);
}

// The detail buttons are shown only with a run open (`?run=ID`).
$('detail-export').addEventListener('click', guarded('export failed', () => download(openRunId ?? '')));
$('detail-as-task').addEventListener('click', guarded('save as task failed', () => saveAsTask(openRunId ?? '')));
$('detail-delete').addEventListener(
  'click',
  guarded('delete failed', () => remove(openRunId ?? '', async () => location.assign('runs.html'))),
);

guarded('cannot list the runs', () => (openRunId ? showDetail(openRunId) : showList()))();
