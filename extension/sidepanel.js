// Side panel (also works as a tab, and `?run=ID` shows one run): choose a task and
// Run it, then follow the run live: status, Pause / Stop, verdict and hop queue in a
// sticky header, the task, and the step stream. The worker publishes a change of the
// run's view after every transition (store/views.js; and the current run when one
// starts); each change triggers one GET_RUN, coalesced while one is in flight.

import { ask } from './ask.js';
import { duelView } from './panel-duel.js';
import { doItMyself, giveUp, pauseHuman, showHumanControls } from './panel-human.js';
import { showAuthoring, startAuthoring } from './panel-author.js';
import { errorText, getMedia, getRun, pauseRun, startDuel, startRun, stopRun } from './messages.js';
import { currentRun, watchRuns } from './store/views.js';
import { clockText, runStatusText } from './run-status.js';
import { el, hopQueue, markedHops, summary, taskCard, verdictView } from './run-view.js';
import { StepList, shotOf } from './step-view.js';
import { setupTaskPicker } from './task-picker.js';
import { byId } from './dom.js';

/**
 * @typedef {import('./types.js').RunView} RunView
 * @typedef {import('./types.js').StepView} StepView
 */

const $ = (/** @type {string} */ id) => byId(id);
const button = (/** @type {string} */ id) => byId(id, HTMLButtonElement);
/**
 * A part of the run view built by render (it is there once a run was shown).
 * @param {string} selector
 * @returns {HTMLElement}
 */
function slot(selector) {
  const found = $('run-slot').querySelector(selector);
  if (!(found instanceof HTMLElement)) throw new Error(`the run view has no ${selector}`);
  return found;
}
const fixedRunId = new URLSearchParams(location.search).get('run');

/** The run last shown, and the one the person put aside with "New run". */
/** @type {string | null} */
let shown = null;
/** Runs whose changes refresh the view: the shown one, and a duel's agent. */
/** @type {Set<string>} */
let watched = new Set();
/** @type {string | null} */
let dismissed = null;
/** @type {RunView | null} the last GET_RUN view of the shown run */
let lastRun = null;
let stepList = new StepList();
/** media id → data URL of the screenshots already fetched */
/** @type {Map<string, string>} */
const media = new Map();

/** From Run's click until START_RUN's reply: no re-render may enable Run meanwhile. */
let starting = false;

const picker = setupTaskPicker({
  isBusy: () => starting || (lastRun?.status === 'running' && shown !== dismissed),
  onError: (text) => setupStatus(text, true),
});

/**
 * The run to show: fixed by the URL, else the last one started.
 * @returns {Promise<string | null>}
 */
async function shownRunId() {
  if (fixedRunId) return fixedRunId;
  return currentRun();
}

/** @type {Promise<void> | null} The drawing under way, if any. */
let refreshing = null;
/** @type {Promise<void> | null} The one drawing after it, which every refresh asked for meanwhile waits for. */
let queued = null;

/**
 * Redraws the run. Resolves once a drawing that started after this call is done: a
 * drawing already under way may have read the run before the change that asked for
 * this one (a hop just marked), so the caller waits for the next one, not that one.
 * @returns {Promise<void>}
 */
function refresh() {
  if (!refreshing) {
    refreshing = draw();
    return refreshing;
  }
  queued ??= refreshing.then(() => {
    queued = null;
    refreshing = draw();
    return refreshing;
  });
  return queued;
}

/** @returns {Promise<void>} */
function draw() {
  return render()
    .catch((error) => showStatus(`cannot show the run: ${errorText(error)}`, true))
    .finally(() => {
      // A drawing queued meanwhile takes over as soon as this one is done.
      if (!queued) refreshing = null;
    });
}

async function render() {
  const runId = await shownRunId();
  if (!runId || runId === dismissed) {
    showSetup();
    return;
  }
  const reply = await ask(getRun, { runId, withSteps: true });
  const { run } = reply;
  const steps = reply.steps ?? [];
  if (runId !== shown) {
    shown = runId;
    stepList = new StepList();
    $('run-slot').replaceChildren(
      el('div', { class: 'task-slot' }),
      el('h2', {}, 'Steps'),
      stepList.root,
      el('details', { class: 'run-details' }, el('summary', {}, 'Details'), el('div', { class: 'summary-slot' })),
    );
  }
  lastRun = run;
  watched = new Set([runId]);
  $('setup').hidden = true;
  if (run.duelId) {
    await renderDuel(run);
    return;
  }
  $('run-slot').hidden = false;
  const atBottom = isScrolledToBottom();
  // While running, the status line says so; the verdict takes its place at the end.
  $('verdict-slot').replaceChildren(...(run.status === 'running' ? [] : [verdictView(run)]));
  $('hops-slot').replaceChildren(run.authoring ? markedHops(run.authoring) : hopQueue(run.progress));
  slot('.task-slot').replaceChildren(taskCard(run));
  slot('.summary-slot').replaceChildren(summary(run));
  stepList.update(steps, media, run.progress);
  if (atBottom && run.status === 'running') window.scrollTo({ top: document.body.scrollHeight });
  showControls(run);
  showStatus(runStatusText(run, { withCause: false }));
  await showAuthoring(run, { showError: (text) => showStatus(text, true), showStatus: (text) => showStatus(text), refresh });
  picker.showChoice();
  await loadScreenshots(run.id, steps);
}

/**
 * Human vs agent: both sides in the header, the hop table and both steps below.
 * @param {RunView} run
 */
async function renderDuel(run) {
  const duel = await duelView(run);
  $('author-bar').hidden = true;
  watched = new Set(duel.runIds);
  $('verdict-slot').replaceChildren(duel.header);
  $('hops-slot').replaceChildren();
  $('run-slot').hidden = false;
  $('run-slot').replaceChildren(duel.body);
  shown = run.id;
  stepList = new StepList();
  showControls(run);
  const { human, agent } = duel.reply;
  const ended = human.status !== 'running' && agent.status !== 'running';
  showStatus(ended ? 'Both runs ended.' : `You vs the agent · ${runStatusText(run)}`);
  picker.showChoice();
}

function isScrolledToBottom() {
  return window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
}

function showSetup() {
  shown = null;
  lastRun = null;
  $('setup').hidden = false;
  $('run-slot').hidden = true;
  $('verdict-slot').replaceChildren();
  $('hops-slot').replaceChildren();
  $('pause').hidden = true;
  $('new-run').hidden = true;
  $('stop').hidden = true;
  $('clock').hidden = true;
  $('start').hidden = true;
  $('answer-form').hidden = true;
  $('author-bar').hidden = true;
  showStatus('Choose a task and an agent, then press Run.');
  picker.showChoice();
}

/** @param {RunView} run */
function showControls(run) {
  const running = run.status === 'running';
  $('stop').hidden = false;
  button('stop').disabled = !running;
  $('stop').textContent = 'Stop';
  $('pause').hidden = !running;
  $('pause').textContent = run.paused ? 'Resume' : 'Pause';
  $('pause').dataset.paused = String(Boolean(run.paused));
  $('new-run').hidden = running || Boolean(fixedRunId);
  $('clock').hidden = true;
  if (!running && run.startedAt && run.finishedAt) {
    $('clock').hidden = false;
    $('clock').textContent = clockText(run.activeMs ?? run.finishedAt - run.startedAt);
  }
  showHumanControls(run, { refresh, showError: (text) => showStatus(text, true) });
}

/**
 * Fetches the screenshots of steps not loaded yet and shows them as thumbnails.
 * @param {string} runId
 * @param {StepView[]} steps
 */
async function loadScreenshots(runId, steps) {
  const missing = steps.map(shotOf).filter((id) => id !== null).filter((id) => !media.has(id));
  for (let i = 0; i < missing.length; i += 50) {
    const reply = await ask(getMedia, { runId, mediaIds: missing.slice(i, i + 50) });
    for (const [id, dataUrl] of Object.entries(reply.media)) media.set(id, dataUrl);
  }
  if (missing.length > 0) stepList.fillThumbnails(media);
}

/**
 * @param {string} text
 * @param {boolean} [isError]
 */
function showStatus(text, isError = false) {
  $('status').textContent = text;
  $('status').className = isError ? 'error' : 'note';
}

/**
 * @param {string} text
 * @param {boolean} [isError]
 */
function setupStatus(text, isError = false) {
  $('setup-status').textContent = text;
  $('setup-status').className = isError ? 'error' : 'note';
}

// The current run, the runs shown (a duel's agent too), and any session's hops: a hop
// completed by a navigation between two steps (a person's session records no step for it).
watchRuns({ shows: (runId) => watched.has(runId), sessions: true }, () => refresh());

// --- controls --------------------------------------------------------------------

/** Run: disabled at once, so a double click starts one run. */
$('run').addEventListener('click', async () => {
  const chosen = picker.chosen();
  const problem = chosen ? picker.runProblem() : 'choose a task first';
  if (problem || !chosen) {
    setupStatus(problem ?? 'choose a task first', true);
    return;
  }
  starting = true;
  button('run').disabled = true;
  setupStatus('Starting…');
  try {
    const { runId } = await ask(startRun, { taskText: chosen.taskText, fileName: chosen.fileName, overrides: picker.overrides() });
    starting = false;
    dismissed = null;
    setupStatus('');
    if (runId) refresh();
  } catch (error) {
    starting = false;
    setupStatus(`Cannot run: ${errorText(error)}`, true);
    picker.showChoice();
  }
});

$('stop').addEventListener('click', async () => {
  button('stop').disabled = true;
  try {
    // Stop is shown only with a run shown.
    const runId = shown ?? '';
    if (lastRun?.provider === 'human') await giveUp(runId);
    else await ask(stopRun, { runId });
  } catch (error) {
    showStatus(`cannot stop the run: ${errorText(error)}`, true);
  }
  refresh();
});

$('pause').addEventListener('click', async () => {
  const paused = $('pause').dataset.paused !== 'true';
  button('pause').disabled = true;
  try {
    const runId = shown ?? '';
    if (lastRun?.provider === 'human') await pauseHuman(runId, paused);
    else await ask(pauseRun, { runId, paused });
  } catch (error) {
    showStatus(`cannot ${paused ? 'pause' : 'resume'} the run: ${errorText(error)}`, true);
  } finally {
    button('pause').disabled = false;
  }
  refresh();
});

$('author-start-button').addEventListener('click', async () => {
  button('author-start-button').disabled = true;
  setupStatus('Opening the start page…');
  try {
    await startAuthoring({ keepWindow: byId('keep-window', HTMLInputElement).checked });
    dismissed = null;
    setupStatus('');
    refresh();
  } catch (error) {
    setupStatus(`Cannot start authoring: ${errorText(error)}`, true);
  } finally {
    button('author-start-button').disabled = false;
  }
});

$('do-it-myself').addEventListener('click', async () => {
  const chosen = picker.chosen();
  if (!chosen?.overview) {
    setupStatus('choose a task first', true);
    return;
  }
  button('do-it-myself').disabled = true;
  setupStatus('Opening the task…');
  try {
    await doItMyself(chosen, { keepWindow: byId('keep-window', HTMLInputElement).checked });
    dismissed = null;
    setupStatus('');
    refresh();
  } catch (error) {
    setupStatus(`Cannot open the task: ${errorText(error)}`, true);
  } finally {
    button('do-it-myself').disabled = false;
  }
});

/**
 * Human vs agent: the agent's window on the left of the screen, the person's on the
 * right with room for this panel (worker/duel/layout.js), both at the task's start;
 * the agent waits for the person's Start. The panel then tries to open in the
 * person's window, where they work (Chrome may refuse without a fresh click: the note
 * says where to find it).
 */
$('versus').addEventListener('click', async () => {
  const chosen = picker.chosen();
  const problem = chosen ? picker.runProblem() : 'choose a task first';
  if (problem || !chosen) {
    setupStatus(problem ?? 'choose a task first', true);
    return;
  }
  button('versus').disabled = true;
  setupStatus('Opening both windows…');
  try {
    const { id: windowId } = await chrome.windows.getCurrent();
    const reply = await ask(startDuel, { taskText: chosen.taskText, fileName: chosen.fileName, overrides: picker.overrides(), windowId });
    dismissed = null;
    setupStatus('');
    chrome.sidePanel.open({ windowId: reply.humanWindowId }).catch((error) => {
      console.warn('hopbench: the side panel did not open in your window:', /** @type {Error} */ (error).message);
    });
    refresh();
  } catch (error) {
    setupStatus(`Cannot start: ${errorText(error)}`, true);
  } finally {
    button('versus').disabled = false;
  }
});

$('new-run').addEventListener('click', () => {
  dismissed = shown;
  showSetup();
});

$('open-settings').addEventListener('click', (event) => {
  event.preventDefault();
  chrome.runtime.openOptionsPage().catch((error) => showStatus(`cannot open the settings: ${errorText(error)}`, true));
});

// While the model is called or a command runs, the status line counts the wait each
// second (only the line: the page is redrawn when the worker publishes a change).
setInterval(() => {
  if (lastRun?.status === 'running' && (lastRun.call || lastRun.doing) && !lastRun.duelId && shown === lastRun.id) showStatus(runStatusText(lastRun));
}, 1000);

picker.ready.then(refresh);
