// The task and agent choice, shared by the popup and the side panel: the task list
// (bundled and imported tasks, each with the core's overview: intent, hops, sites;
// popup-tasks.js), the agent (model or replay), the window option, and whether Run can
// start. Both pages use the same element ids (#task, #task-intent, #task-facts,
// #import-files, #import-folder, #task-note, #agent, #agent-note, #keep-window, #run)
// and the same stored choices, so a task picked in one is picked in the other.

import { AGENT_SETTINGS_KEY } from './agent-settings.js';
import { ask } from './ask.js';
import { errorText, getSettings } from './messages.js';
import { bundledTaskText, bundledTasks, importFiles, importedTasks, taskOverviews } from './popup-tasks.js';

export const CHOICES_KEY = 'popup.choices';

const $ = (id) => document.getElementById(id);
const truncate = (text, max) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);
export const hopsText = (n) => `${n} hop${n === 1 ? '' : 's'}`;
const siteText = (site) => site.label ?? site.host;

/** "3 hops · Wiki, 127.0.0.1:8601": the facts line under a task's intent. */
export function taskFacts(overview) {
  return `${hopsText(overview.hops)} · ${overview.sites.map(siteText).join(', ') || 'no site named'}`;
}

export async function storedChoices() {
  return (await chrome.storage.local.get(CHOICES_KEY))[CHOICES_KEY] ?? {};
}

/**
 * Wires the picker elements of this page. `isBusy()` says whether a run is going (Run
 * is then disabled); `onError(text)` shows what went wrong; `onChange()` runs after
 * every change of the choice. Returns the picker.
 */
export function setupTaskPicker({ isBusy = () => false, onError, onChange = () => undefined }) {
  /** Listed tasks by option value: `{taskText, fileName, overview?, error?}`. */
  const tasks = new Map();
  /** Why a model run cannot start now (`[{field, message}]`), from the worker. */
  let modelProblems = [];

  const note = (text, isError = false) => {
    $('task-note').textContent = text;
    $('task-note').className = isError ? 'error' : 'note';
  };

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

  /** Task, agent and window choice are kept, so the next page opens as this one was left. */
  function saveChoices() {
    const choices = { task: $('task').value, agent: $('agent').value, keepWindow: $('keep-window').checked };
    chrome.storage.local.set({ [CHOICES_KEY]: choices }).catch((error) => onError(`cannot keep your choices: ${errorText(error)}`));
  }

  /** The selected task's details and whether Run can start it with the chosen agent. */
  function showChoice() {
    const overview = chosen()?.overview;
    $('task-intent').textContent = overview?.intent ?? '';
    $('task-intent').title = overview?.intent ?? '';
    $('task-facts').textContent = overview ? taskFacts(overview) : '';
    const problem = runProblem();
    $('agent-note').textContent = problem ?? '';
    $('run').disabled = isBusy() || !overview || problem !== null;
    onChange();
  }

  function chosen() {
    return tasks.get($('task').value);
  }

  /** Why Run cannot start the chosen task with the chosen agent, or null. */
  function runProblem() {
    const task = chosen();
    if (!task?.overview) return null;
    if ($('agent').value === 'replay') {
      return task.overview.replayable
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
    // A first page with no model set would otherwise offer a run that can only fail.
    $('agent').value = choices.agent ?? (modelProblems.length === 0 ? 'model' : 'replay');
    $('keep-window').checked = choices.keepWindow === true;
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

  $('import-files').addEventListener('change', onImport);
  $('import-folder').addEventListener('change', onImport);
  for (const id of ['task', 'agent']) {
    $(id).addEventListener('change', () => {
      saveChoices();
      showChoice();
    });
  }
  $('keep-window').addEventListener('change', saveChoices);
  chrome.storage.onChanged.addListener((changes, area) => {
    // Settings saved in the options page meanwhile: Run follows them at once.
    if (area === 'local' && AGENT_SETTINGS_KEY in changes) {
      loadModelState({ restoreChoices: false }).catch((error) => onError(`cannot read the model settings: ${errorText(error)}`));
    }
  });

  // The agent choice first: the task list's Run check reads it.
  const ready = loadModelState({ restoreChoices: true })
    .catch((error) => onError(`cannot read the model settings: ${errorText(error)}`))
    .then(listTasks)
    .catch((error) => note(`cannot list the tasks: ${errorText(error)}`, true));

  return {
    ready,
    chosen,
    runProblem,
    showChoice,
    /** START_RUN overrides for the chosen agent and window option. */
    overrides() {
      const overrides = {};
      if ($('agent').value === 'replay') overrides.provider = 'replay';
      if ($('keep-window').checked) overrides.keep_window = true;
      return overrides;
    },
  };
}
