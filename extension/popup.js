// Popup: core status, choosing a task, Run and Stop, and links to the options page,
// the runs page and the run view. Module script loaded from popup.html (the extension
// CSP forbids inline scripts). Works the same when opened as a tab.

import { ask } from './ask.js';
import { errorText, getCoreStatus, getRun, listRuns, startRun, stopRun } from './messages.js';
import { outcomeLabel, outcomeOf } from './run-outcome.js';
import { runStatusText } from './run-status.js';
import { currentRun, watchRuns } from './store/views.js';
import { setupTaskPicker } from './task-picker.js';
import { byId, el } from './dom.js';

const $ = (/** @type {string} */ id) => byId(id);
const button = (/** @type {string} */ id) => byId(id, HTMLButtonElement);

/**
 * @param {string} state
 * @param {string} message
 */
function show(state, message) {
  $('core-status').dataset.state = state;
  $('core-status-text').textContent = message;
}

async function refreshCoreStatus() {
  try {
    const reply = await ask(getCoreStatus, {});
    show('ready', `Ready: ${reply.version} (init ${reply.initMs} ms)`);
  } catch (error) {
    show('error', errorText(error));
  }
}

// --- tasks ---------------------------------------------------------------------------

let runRunning = false;
/**
 * From Run's click until the worker has answered START_RUN. Meanwhile a storage
 * change (the previous run's record, say) re-renders the picker from a run that is
 * not this one; Run must stay disabled through that, or a double click's second
 * press lands on it and starts a second run.
 */
let starting = false;

/** This window, read at load: the side panel must open inside the click's gesture. */
const thisWindow = chrome.windows.getCurrent();
/** @type {number | undefined} */
let windowId;

const picker = setupTaskPicker({
  // Until this window is known Run could start a run but not open its panel (the
  // first Run on a slow machine did just that): it waits, as Run view does.
  isBusy: () => runRunning || starting || windowId === undefined,
  onError: (text) => showRunError(text),
});

// --- the run -------------------------------------------------------------------------

thisWindow.then(
  (w) => {
    windowId = w.id;
    $('open-panel').removeAttribute('aria-disabled');
    document.documentElement.dataset.window = 'known';
    picker.showChoice();
  },
  (error) => {
    console.warn('hopbench: no current window:', error);
    $('run-status').textContent = `(this window is unknown, so no side panel can open: ${errorText(error)})`;
  },
);

function openSidePanel() {
  // Run and Run view wait for the window (see isBusy); a click before that is told.
  if (windowId === undefined) {
    $('run-status').textContent = '(the popup is still starting: press again)';
    return;
  }
  chrome.sidePanel.open({ windowId }).catch((error) => {
    $('run-status').textContent = `(side panel not opened: ${errorText(error)}; use "Run view")`;
  });
}

/**
 * Run: everything that matters happens before the first await. Opening the side panel
 * moves the focus, and Chrome then closes the popup and ends this page: a START_RUN
 * sent after an await would never leave (the first Run did nothing). So the task is
 * read beforehand (listTasks), the message goes out first, and the panel opens in the
 * same click. The button is disabled at once, so a double click starts one run.
 */
function run() {
  const chosen = picker.chosen();
  const problem = chosen ? picker.runProblem() : 'choose a task first';
  if (problem || !chosen) {
    showRunError(problem ?? 'choose a task first');
    return;
  }
  starting = true;
  button('run').disabled = true;
  const started = ask(startRun, { taskText: chosen.taskText, fileName: chosen.fileName, overrides: picker.overrides() });
  openSidePanel();
  started.then(
    () => {
      starting = false;
      // The run is stored as current before the reply: show it (Run stays disabled).
      return refreshRun();
    },
    (error) => {
      starting = false;
      showRunError(`Cannot run: ${errorText(error)}`);
      picker.showChoice();
    },
  ).catch(report('cannot show the run'));
}

/** @param {string} text */
function showRunError(text) {
  $('run-status').textContent = text;
  $('run-status').className = 'error';
}

/** @type {string | null} */
let currentRunId = null;

/** How many of the latest runs the popup lists. */
const RECENT_RUNS = 4;

/** The last few runs, each with its outcome; a click opens it on the runs page. */
async function showRecent() {
  const { runs } = await ask(listRuns, { latest: RECENT_RUNS });
  $('recent').hidden = runs.length === 0;
  $('recent-runs').replaceChildren(...runs.map((r) => {
    const outcome = outcomeOf(r);
    const link = el('a', { href: '#', title: `${r.intent}\n${outcome.cause}` }, r.taskId);
    link.addEventListener('click', (event) => {
      event.preventDefault();
      chrome.tabs.create({ url: chrome.runtime.getURL(`runs.html?run=${encodeURIComponent(r.id)}`) }).catch(report('cannot open the run'));
    });
    return el('li', { dataset: { runId: r.id } }, el('span', { class: 'outcome', dataset: { outcome: outcome.kind } }, outcomeLabel(r)), link);
  }));
}

async function refreshRun() {
  // The list is a convenience: a failure to read it must not hide the run's line.
  await showRecent().catch(report('cannot list the last runs'));
  currentRunId = await currentRun();
  if (!currentRunId) return;
  const { run } = await ask(getRun, { runId: currentRunId });
  // The same words as the side panel's, step numbers included.
  $('run-status').textContent = run.status === 'running' ? runStatusText(run) : `Last run: ${runStatusText(run)}`;
  $('run-status').className = '';
  button('stop').disabled = run.status !== 'running';
  runRunning = run.status === 'running';
  picker.showChoice();
}

async function stop() {
  button('stop').disabled = true;
  try {
    // Stop is enabled only while the current run runs.
    await ask(stopRun, { runId: currentRunId ?? '' });
  } catch (error) {
    $('run-status').textContent = `Cannot stop: ${errorText(error)}`;
  }
}

const report = (/** @type {string} */ what) => (/** @type {unknown} */ error) => {
  $('run-status').textContent = `${what}: ${errorText(error)}`;
  $('run-status').className = 'error';
};

watchRuns({ shows: (runId) => runId === currentRunId }, () => {
  refreshRun().catch(report('cannot show the run'));
});

// --- wiring --------------------------------------------------------------------------

$('run').addEventListener('click', run);
$('stop').addEventListener('click', stop);

const openTab = (/** @type {string} */ path) => (/** @type {Event} */ event) => {
  event.preventDefault();
  chrome.tabs.create({ url: chrome.runtime.getURL(path) }).catch(report(`cannot open ${path}`));
};
$('open-runs').addEventListener('click', openTab('runs.html'));
// Run view is the side panel of this window, beside the page, not another tab.
$('open-panel').addEventListener('click', (event) => {
  event.preventDefault();
  // The panel takes the focus, and Chrome closes the popup.
  openSidePanel();
});

// Opens what a model would see of the active tab of this window.
$('show-observation').addEventListener('click', async () => {
  try {
    const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
    if (!tab?.id) throw new Error('no active tab in this window');
    await chrome.tabs.create({ url: chrome.runtime.getURL(`observation.html?tab=${tab.id}`), index: tab.index + 1 });
  } catch (error) {
    show('error', `cannot show the observation: ${errorText(error)}`);
  }
});

// The options page: model provider, key, run settings, connection test.
$('open-settings').addEventListener('click', async () => {
  try {
    await chrome.runtime.openOptionsPage();
  } catch (error) {
    show('error', `cannot open the settings: ${errorText(error)}`);
  }
});

// Marked once the first drawing is done: until then the task's lines and the last runs
// still push the links below them down (a click aimed before lands elsewhere).
Promise.allSettled([
  refreshCoreStatus(),
  picker.ready.then(() => refreshRun()).catch(report('cannot show the run')),
]).then(() => {
  document.documentElement.dataset.loaded = 'yes';
});
