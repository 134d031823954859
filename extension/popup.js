// Popup: core status, choosing a task, Run and Stop, and links to the options page,
// the runs page and the run view. Module script loaded from popup.html (the extension
// CSP forbids inline scripts). Works the same when opened as a tab.

import { AGENT_SETTINGS_KEY } from './agent-settings.js';
import { ask } from './ask.js';
import { CURRENT_RUN_KEY, RUN_RECORD_KEY, errorText, getCoreStatus, getRun, getSettings, startRun, stopRun } from './messages.js';
import { bundledTaskText, bundledTasks, importFiles, importedTasks, taskOverviews } from './popup-tasks.js';
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

const CHOICES_KEY = 'popup.choices';

/** Listed tasks by option value: `{taskText, fileName, overview?, error?}`. */
const tasks = new Map();
/** Why a model run cannot start now (`[{field, message}]`), from the worker. */
let modelProblems = [];
let runRunning = false;

const truncate = (text, max) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);
const hopsText = (n) => `${n} hop${n === 1 ? '' : 's'}`;
const siteText = (site) => site.label ?? site.host;

/** Fills the task list: bundled tasks, then imported ones, each with its overview. */
async function listTasks() {
  const [bundled, imported] = await Promise.all([bundledTasks(), importedTasks()]);
  const files = [
    ...(await Promise.all(
      bundled.map(async (t) => ({ value: `bundled:${t.path}`, fileName: t.path, text: await bundledTaskText(t.path) })),
    )),
    ...imported.map((t) => ({ value: `imported:${t.fileName}`, fileName: t.fileName, text: t.text })),
  ];
  const checked = await taskOverviews(files.map(({ fileName, text }) => ({ fileName, text })));
  tasks.clear();
  files.forEach((f, i) => tasks.set(f.value, { taskText: f.text, fileName: f.fileName, ...checked[i] }));
  const option = (f) => {
    const { overview, error } = tasks.get(f.value);
    const label = overview ? `${truncate(overview.intent, 64)} · ${hopsText(overview.hops)}` : `${f.fileName} (cannot be read)`;
    const o = new Option(label, f.value);
    o.title = overview ? `${f.fileName}\n${overview.intent}` : error;
    o.disabled = !overview;
    return o;
  };
  const group = (label, list) => {
    const g = document.createElement('optgroup');
    g.label = label;
    g.append(...list.map(option));
    return g;
  };
  const select = $('task');
  const previous = select.value || (await storedChoices()).task;
  const ofKind = (kind) => files.filter((f) => f.value.startsWith(kind));
  select.replaceChildren(
    ...(bundled.length ? [group('Bundled', ofKind('bundled:'))] : []),
    ...(imported.length ? [group('Imported', ofKind('imported:'))] : []),
  );
  if (tasks.get(previous)?.overview) select.value = previous;
  if (files.length === 0) {
    note('No task yet: import a task file or a folder of tasks (ours, MMInA or WebArena).');
  }
  showChoice();
}

async function storedChoices() {
  return (await chrome.storage.local.get(CHOICES_KEY))[CHOICES_KEY] ?? {};
}

/** Task, agent and window choice are kept, so the next popup opens as this one was left. */
function saveChoices() {
  const choices = { task: $('task').value, agent: $('agent').value, keepWindow: $('keep-window').checked };
  chrome.storage.local.set({ [CHOICES_KEY]: choices }).catch(report('cannot keep your choices'));
}

/** The selected task's details and whether Run can start it with the chosen agent. */
function showChoice() {
  const chosen = tasks.get($('task').value);
  const overview = chosen?.overview;
  $('task-intent').textContent = overview?.intent ?? '';
  $('task-intent').title = overview?.intent ?? '';
  $('task-facts').textContent = overview
    ? `${hopsText(overview.hops)} · ${overview.sites.map(siteText).join(', ') || 'no site named'}`
    : '';
  const problem = runProblem(chosen);
  $('agent-note').textContent = problem ?? '';
  $('run').disabled = runRunning || !overview || problem !== null;
}

/** Why Run cannot start the chosen task with the chosen agent, or null. */
function runProblem(chosen) {
  if (!chosen?.overview) return null;
  if ($('agent').value === 'replay') {
    return chosen.overview.replayable
      ? null
      : 'This task has no reference trajectory, so the replay agent cannot run it: choose Model.';
  }
  if (modelProblems.length > 0) {
    const what = modelProblems.map((p) => `${p.field}: ${p.message}`).join('; ');
    return `No model is ready (${what}). Set one in Settings, or choose Replay.`;
  }
  return null;
}

async function loadModelState({ restoreChoices }) {
  const reply = await ask(getSettings());
  modelProblems = reply.modelProblems ?? [];
  if (!restoreChoices) {
    showChoice();
    return;
  }
  const choices = await storedChoices();
  // A first popup with no model set would otherwise offer a run that can only fail.
  $('agent').value = choices.agent ?? (modelProblems.length === 0 ? 'model' : 'replay');
  $('keep-window').checked = choices.keepWindow === true;
}

function note(text, isError = false) {
  $('task-note').textContent = text;
  $('task-note').className = isError ? 'error' : 'note';
}

async function onImport(event) {
  try {
    const { imported, refused } = await importFiles(event.target.files);
    await listTasks();
    if (imported.length > 0) {
      $('task').value = `imported:${imported[imported.length - 1]}`;
      saveChoices();
      showChoice();
    }
    const refusedText = refused.map((r) => r.error).join('\n');
    if (refused.length === 0) note(`Imported ${imported.length} file(s).`);
    else note(`Imported ${imported.length} file(s); refused ${refused.length}:\n${refusedText}`, true);
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
  const chosen = tasks.get($('task').value);
  const problem = chosen ? runProblem(chosen) : 'choose a task first';
  if (problem) {
    showRunError(problem);
    return;
  }
  $('run').disabled = true;
  const overrides = {};
  if ($('agent').value === 'replay') overrides.provider = 'replay';
  if ($('keep-window').checked) overrides.keep_window = true;
  const started = ask(startRun({ taskText: chosen.taskText, fileName: chosen.fileName, overrides }));
  openSidePanel();
  started.catch((error) => {
    showRunError(`Cannot run: ${errorText(error)}`);
    showChoice();
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
  const hops = run.progress ? `, ${run.progress.done}/${run.progress.total} hops` : '';
  $('run-status').textContent =
    run.status === 'running' ? `Running: step ${run.step}${hops}` : `Last run: ${outcomeLabel(run)}${hops} (${run.status})`;
  $('run-status').className = '';
  $('stop').disabled = run.status !== 'running';
  runRunning = run.status === 'running';
  showChoice();
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
  // Settings saved in the options page meanwhile: Run follows them at once.
  if (AGENT_SETTINGS_KEY in changes) loadModelState({ restoreChoices: false }).catch(report('cannot read the model settings'));
  if (CURRENT_RUN_KEY in changes || (currentRunId && RUN_RECORD_KEY(currentRunId) in changes)) {
    refreshRun().catch(report('cannot show the run'));
  }
});

// --- wiring --------------------------------------------------------------------------

$('import-files').addEventListener('change', onImport);
$('import-folder').addEventListener('change', onImport);
$('run').addEventListener('click', run);
$('task').addEventListener('change', () => {
  saveChoices();
  showChoice();
});
$('agent').addEventListener('change', () => {
  saveChoices();
  showChoice();
});
$('keep-window').addEventListener('change', saveChoices);
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
// The agent choice first: the task list's Run check reads it.
loadModelState({ restoreChoices: true })
  .catch(report('cannot read the model settings'))
  .then(listTasks)
  .catch((error) => note(`cannot list the tasks: ${errorText(error)}`, true))
  .then(() => refreshRun())
  .catch(report('cannot show the run'));
