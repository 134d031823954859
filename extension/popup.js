// Popup: core status, choosing a task, Run and Stop, and links to the options page,
// the runs page and the run view. Module script loaded from popup.html (the extension
// CSP forbids inline scripts). Works the same when opened as a tab.

import { ask } from './ask.js';
import { CURRENT_RUN_KEY, RUN_RECORD_KEY, errorText, getCoreStatus, getRun, startRun, stopRun } from './messages.js';
import { runStatusText } from './run-status.js';
import { setupTaskPicker } from './task-picker.js';

const $ = (id) => document.getElementById(id);

function show(state, message) {
  $('core-status').dataset.state = state;
  $('core-status-text').textContent = message;
}

async function refreshCoreStatus() {
  try {
    const reply = await ask(getCoreStatus());
    show('ready', `Ready: ${reply.version} (init ${reply.initMs} ms)`);
  } catch (error) {
    show('error', errorText(error));
  }
}

// --- tasks ---------------------------------------------------------------------------

let runRunning = false;

const picker = setupTaskPicker({
  isBusy: () => runRunning,
  onError: (text) => showRunError(text),
});

// --- the run -------------------------------------------------------------------------

/** This window, read at load: the side panel must open inside the click's gesture. */
const thisWindow = chrome.windows.getCurrent();
let windowId;
thisWindow.then((w) => (windowId = w.id), (error) => console.warn('hopbench: no current window:', error));

function openSidePanel() {
  if (windowId === undefined) return;
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
  if (problem) {
    showRunError(problem);
    return;
  }
  $('run').disabled = true;
  const started = ask(startRun({ taskText: chosen.taskText, fileName: chosen.fileName, overrides: picker.overrides() }));
  openSidePanel();
  started.catch((error) => {
    showRunError(`Cannot run: ${errorText(error)}`);
    picker.showChoice();
  });
}

function showRunError(text) {
  $('run-status').textContent = text;
  $('run-status').className = 'error';
}

let currentRunId = null;

async function refreshRun() {
  currentRunId = (await chrome.storage.local.get(CURRENT_RUN_KEY))[CURRENT_RUN_KEY] ?? null;
  if (!currentRunId) return;
  const { run } = await ask(getRun({ runId: currentRunId }));
  // The same words as the side panel's, step numbers included.
  $('run-status').textContent = run.status === 'running' ? runStatusText(run) : `Last run: ${runStatusText(run)}`;
  $('run-status').className = '';
  $('stop').disabled = run.status !== 'running';
  runRunning = run.status === 'running';
  picker.showChoice();
}

async function stop() {
  $('stop').disabled = true;
  try {
    await ask(stopRun({ runId: currentRunId }));
  } catch (error) {
    $('run-status').textContent = `Cannot stop: ${errorText(error)}`;
  }
}

const report = (what) => (error) => {
  $('run-status').textContent = `${what}: ${errorText(error)}`;
  $('run-status').className = 'error';
};

chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== 'local') return;
  if (CURRENT_RUN_KEY in changes || (currentRunId && RUN_RECORD_KEY(currentRunId) in changes)) {
    refreshRun().catch(report('cannot show the run'));
  }
});

// --- wiring --------------------------------------------------------------------------

$('run').addEventListener('click', run);
$('stop').addEventListener('click', stop);

const openTab = (path) => (event) => {
  event.preventDefault();
  chrome.tabs.create({ url: chrome.runtime.getURL(path) }).catch(report(`cannot open ${path}`));
};
$('open-runs').addEventListener('click', openTab('runs.html'));
$('open-panel').addEventListener('click', openTab('sidepanel.html'));

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

refreshCoreStatus();
picker.ready.then(() => refreshRun()).catch(report('cannot show the run'));
