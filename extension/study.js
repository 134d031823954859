// Study mode: one participant does a list of tasks, one recorded session after another,
// in a fixed or a seeded shuffled order, with breaks whenever they like (the study's
// state is in the store, store/keys.js STUDY, so closing this page or a stopped worker
// loses nothing). Each session is a person's run tagged with the study (`run.study`); Export
// writes one file with every run of the participant, which `./build.sh import` reads.

import { ask } from './ask.js';
import { el } from './dom.js';
import { openPanelIn } from './panel-human.js';
import { coreCall, errorText, exportRun, getRun, humanControl, humanFinish, startHuman } from './messages.js';
import { STUDY } from './store/keys.js';
import { read, remove, write } from './store/store.js';
import { watchRuns } from './store/views.js';
import { seedOf, studyOrder } from './study-order.js';

export const STUDY_FORMAT = 'hopbench-study';

/**
 * @typedef {{ fileName: string, text: string, intent: string }} StudyTask
 * @typedef {{ id: string, participant: string, order: 'fixed' | 'shuffled', seed: number,
 *   tasks: StudyTask[], position: number, runId: string | null, runIds: string[] }} Study
 */

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const input = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** @type {StudyTask[]} */
let chosen = [];
/** The run of the session open now, whose changes redraw the page. @type {string | null} */
let openRunId = null;

/** @returns {Promise<Study | null>} */
async function load() {
  const study = (await read(STUDY)) ?? null;
  openRunId = study?.runId ?? null;
  return study;
}

/** @param {Study | null} study */
async function save(study) {
  if (study) await write(STUDY, study);
  else await remove(STUDY);
}

/** @param {string} text @param {boolean} [isError] */
function showStatus(text, isError = false) {
  // The same words again are not written again: the line is aria-live, and a screen
  // reader would read it out on every redraw.
  setIfChanged($('status'), 'textContent', text);
  setIfChanged($('status'), 'className', isError ? 'error' : 'note');
}

/** Reads the chosen task files through the core; a bad file is refused, naming it. */
async function readTasks(/** @type {FileList} */ files) {
  const list = await Promise.all([...files].map(async (f) => ({ fileName: f.name, text: await f.text() })));
  const { value } = await ask(coreCall, 'task_overviews', [list]);
  /** @type {Array<{ overview?: { intent: string }, error?: string }>} */
  const overviews = /** @type {Array<{ overview?: { intent: string }, error?: string }>} */ (value);
  const bad = overviews.map((o, i) => (o.error ? `${list[i].fileName}: ${o.error}` : null)).filter(Boolean);
  if (bad.length > 0) throw new Error(bad.join('; '));
  chosen = list.map((f, i) => ({ ...f, intent: overviews[i].overview?.intent ?? '' }));
  $('task-list').replaceChildren(...chosen.map((t) => el('li', {}, `${t.fileName}: ${t.intent}`)));
}

async function beginStudy() {
  const participant = input('participant').value.trim();
  if (!participant) throw new Error('give the participant id first');
  if (chosen.length === 0) throw new Error('choose the task files first');
  const order = /** @type {'fixed' | 'shuffled'} */ (/** @type {HTMLSelectElement} */ ($('order')).value);
  const id = `study-${new Date().toISOString().slice(0, 10)}-${participant}`;
  const seed = seedOf(`${id}:${participant}`);
  await save({ id, participant, order, seed, tasks: studyOrder(chosen, order, seed), position: 0, runId: null, runIds: [] });
}

/** Opens the current task's window as a person's session tagged with the study. */
async function beginTask() {
  const study = await load();
  if (!study) return;
  const task = study.tasks[study.position];
  const { runId, windowId } = await ask(
    startHuman, {
      taskText: task.text,
      fileName: task.fileName,
      study: { id: study.id, participant: study.participant, position: study.position + 1 },
    },
  );
  openPanelIn(windowId);
  await save({ ...study, runId });
}

/** One file with the study's settings and every run of the participant. */
async function exportStudy() {
  const study = await load();
  if (!study) return;
  const runs = [];
  for (const runId of study.runIds) runs.push((await ask(exportRun, { runId })).trajectory);
  const file = {
    format: STUDY_FORMAT,
    version: 1,
    study: { id: study.id, participant: study.participant, order: study.order, seed: study.seed, tasks: study.tasks.map((t) => t.fileName) },
    runs,
  };
  const name = `${study.id.replace(/[^\w.-]+/g, '_')}.json`;
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(file, null, 1)}\n`], { type: 'application/json' }));
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
  showStatus(`Exported ${runs.length} runs of ${study.participant} to ${name}.`);
}

/**
 * What the page shows, worked out before anything on it changes.
 * @typedef {{ section: 'setup' | 'progress' | 'done', position?: string, intent?: string,
 *   buttons?: { beginTask: boolean, start: boolean, giveUp: boolean, answer: boolean },
 *   status?: string }} StudyScreen
 */

/**
 * Reads the study (and the open session's run), moving the study on when that session
 * has ended, and says what the page should show.
 * @returns {Promise<StudyScreen>}
 */
async function screenOf() {
  let study = await load();
  if (!study) return { section: 'setup' };
  const heading = (/** @type {Study} */ s) => ({
    position: `Task ${s.position + 1} of ${s.tasks.length} · ${s.participant}`,
    intent: s.tasks[s.position].intent,
  });
  if (study.runId) {
    const { run } = await ask(getRun, { runId: study.runId });
    if (run.status === 'running') {
      const ready = (run.human?.phase ?? 'ready') === 'ready';
      return {
        section: 'progress',
        ...heading(study),
        buttons: { beginTask: false, start: ready, giveUp: !ready, answer: !ready },
        status: ready ? 'The task is open: press Start when you are ready.' : 'Recording: do the task in its window, then answer here.',
      };
    }
    // The session ended: it counts, and the next task waits for the participant.
    study = { ...study, runIds: [...study.runIds, study.runId], runId: null, position: study.position + 1 };
    await save(study);
  }
  if (study.position >= study.tasks.length) {
    const n = study.runIds.length;
    return { section: 'done', status: `Study done: ${n} ${n === 1 ? 'task' : 'tasks'} by ${study.participant}.` };
  }
  return {
    section: 'progress',
    ...heading(study),
    buttons: { beginTask: true, start: false, giveUp: false, answer: false },
    status: study.position === 0 ? 'Open the first task when the participant is ready.' : 'A break, if wanted: open the next task when ready.',
  };
}

/**
 * Sets a property only when it differs. Every redraw used to hide the answer block and
 * show it again a moment later, across an await: the hidden field lost the focus, and
 * the participant's next keystrokes with it ("15 minues"). Nothing that stays on screen
 * is touched now.
 * @template {HTMLElement} E
 * @template {keyof E} K
 * @param {E} element
 * @param {K} key
 * @param {E[K]} value
 */
function setIfChanged(element, key, value) {
  if (element[key] !== value) element[key] = value;
}

/** Shows `screen` in one synchronous pass, with no await between its changes. */
function apply(/** @type {StudyScreen} */ screen) {
  setIfChanged($('setup'), 'hidden', screen.section !== 'setup');
  setIfChanged($('progress'), 'hidden', screen.section !== 'progress');
  setIfChanged($('done'), 'hidden', screen.section !== 'done');
  if (screen.section === 'setup') {
    if (!$('status').className.includes('error')) showStatus('Set up a study: the participant, the tasks and their order.');
    return;
  }
  if (screen.position !== undefined) setIfChanged($('position'), 'textContent', screen.position);
  if (screen.intent !== undefined) setIfChanged($('intent'), 'textContent', screen.intent);
  if (screen.buttons) {
    setIfChanged($('begin-task'), 'hidden', !screen.buttons.beginTask);
    setIfChanged($('start'), 'hidden', !screen.buttons.start);
    setIfChanged($('give-up'), 'hidden', !screen.buttons.giveUp);
    setIfChanged($('answer-form'), 'hidden', !screen.buttons.answer);
  }
  if (screen.status !== undefined) showStatus(screen.status);
}

async function render() {
  apply(await screenOf());
}

/**
 * @param {string} what
 * @param {(event: Event) => Promise<void>} fn
 */
const guarded = (what, fn) => async (/** @type {Event} */ event) => {
  event.preventDefault();
  try {
    await fn(event);
  } catch (error) {
    showStatus(`cannot ${what}: ${errorText(error)}`, true);
    return;
  }
  await render();
};

/** The current run's id, or an error when no session is open. */
async function currentRunId() {
  const study = await load();
  if (!study?.runId) throw new Error('no task is open');
  return study.runId;
}

$('study-tasks').addEventListener('change', guarded('read the task files', async () => {
  const files = input('study-tasks').files;
  if (files) await readTasks(files);
}));
$('begin-study').addEventListener('click', guarded('start the study', beginStudy));
$('begin-task').addEventListener('click', guarded('open the task', beginTask));
$('start').addEventListener('click', guarded('start', async () => {
  await ask(humanControl, { runId: await currentRunId(), command: 'start' });
}));
$('give-up').addEventListener('click', guarded('give up', async () => {
  await ask(humanFinish, { runId: await currentRunId(), answer: null });
}));
$('answer-form').addEventListener('submit', guarded('answer', async () => {
  const answer = input('answer').value.trim();
  if (!answer) throw new Error('type the answer first (N/A if the task cannot be done)');
  await ask(humanFinish, { runId: await currentRunId(), answer });
  input('answer').value = '';
}));
$('export').addEventListener('click', guarded('export', exportStudy));
$('new-study').addEventListener('click', guarded('start a new study', async () => {
  if (!confirm('Start a new study? Export this one first: its runs stay in Runs, but this page forgets it.')) return;
  await save(null);
}));

// While a session is open, its end (an answer, a give-up, a closed window) moves the
// study on: the page redraws when the worker says that run changed.
watchRuns({ shows: (runId) => runId === openRunId }, () => {
  render().catch((error) => showStatus(errorText(error), true));
});
render().catch((error) => showStatus(`cannot show the study: ${errorText(error)}`, true));
