// Popup: core status, choosing a task, Run and Stop, and links to the options page,
// the runs page and the run view. Module script loaded from popup.html (the extension
// CSP forbids inline scripts). Works the same when opened as a tab.

import { ask } from './ask.js';
import { CURRENT_RUN_KEY, RUN_RECORD_KEY, errorText, getCoreStatus, getRun, startRun, stopRun } from './messages.js';
import { bundledTaskText, bundledTasks, importFiles, importedTasks } from './popup-tasks.js';
import { outcomeLabel } from './run-view.js';

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

/** Fills the task list: bundled tasks, then imported ones; keeps the selection. */
async function listTasks() {
  const select = $('task');
  const previous = select.value;
  const [bundled, imported] = await Promise.all([bundledTasks(), importedTasks()]);
  const group = (label, options) => {
    const g = document.createElement('optgroup');
    g.label = label;
    g.append(...options.map(([value, text]) => new Option(text, value)));
    return g;
  };
  select.replaceChildren(
    ...(bundled.length ? [group('Bundled', bundled.map((t) => [`bundled:${t.path}`, t.path]))] : []),
    ...(imported.length ? [group('Imported', imported.map((t, i) => [`imported:${i}`, t.fileName]))] : []),
  );
  if ([...select.options].some((o) => o.value === previous)) select.value = previous;
  $('run').disabled = select.options.length === 0;
  if (select.options.length === 0) {
    note('No task yet: import a task file or a folder of tasks (ours, MMInA or WebArena).');
  }
}

/** `{taskText, fileName}` of the selected task. */
async function selectedTask() {
  const value = $('task').value;
  if (value.startsWith('bundled:')) {
    const path = value.slice('bundled:'.length);
    return { taskText: await bundledTaskText(path), fileName: path };
  }
  if (value.startsWith('imported:')) {
    const task = (await importedTasks())[Number(value.slice('imported:'.length))];
    if (task) return { taskText: task.text, fileName: task.fileName };
  }
  throw new Error('choose a task first');
}

function note(text, isError = false) {
  $('task-note').textContent = text;
  $('task-note').className = isError ? 'error' : 'note';
}

async function onImport(event) {
  try {
    const count = await importFiles(event.target.files);
    await listTasks();
    $('task').selectedIndex = $('task').options.length - count;
    note(`Imported ${count} file(s).`);
  } catch (error) {
    note(`Import failed: ${errorText(error)}`, true);
  } finally {
    event.target.value = '';
  }
}

// --- the run -------------------------------------------------------------------------

/** This window, read at load: the side panel must open inside the click's gesture. */
const thisWindow = chrome.windows.getCurrent();
let windowId;
thisWindow.then((w) => (windowId = w.id), (error) => console.warn('hopbench: no current window:', error));

function openSidePanel() {
  if (windowId === undefined) return;
  // Called before any await: Chrome allows it only in response to the click.
  chrome.sidePanel.open({ windowId }).catch((error) => {
    $('run-status').textContent = `(side panel not opened: ${errorText(error)}; use "Run view")`;
  });
}

async function run() {
  openSidePanel();
  $('run').disabled = true;
  try {
    const task = await selectedTask();
    const overrides = {};
    if ($('agent').value === 'replay') overrides.provider = 'replay';
    if ($('keep-window').checked) overrides.keep_window = true;
    await ask(startRun({ ...task, overrides }));
  } catch (error) {
    $('run-status').textContent = `Cannot run: ${errorText(error)}`;
    $('run-status').className = 'error';
  } finally {
    $('run').disabled = false;
  }
}

let currentRunId = null;

async function refreshRun() {
  currentRunId = (await chrome.storage.local.get(CURRENT_RUN_KEY))[CURRENT_RUN_KEY] ?? null;
  if (!currentRunId) return;
  const { run } = await ask(getRun({ runId: currentRunId }));
  const hops = run.progress ? `, ${run.progress.done}/${run.progress.total} hops` : '';
  $('run-status').textContent =
    run.status === 'running' ? `Running: step ${run.step}${hops}` : `Last run: ${outcomeLabel(run)}${hops} (${run.status})`;
  $('run-status').className = '';
  $('stop').disabled = run.status !== 'running';
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

$('import-files').addEventListener('change', onImport);
$('import-folder').addEventListener('change', onImport);
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
listTasks().catch((error) => note(`cannot list the tasks: ${errorText(error)}`, true));
refreshRun().catch(report('cannot show the run'));
