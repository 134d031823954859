// The task and agent choice, shared by the popup and the side panel: the task list
// (bundled and imported tasks, each with the core's overview: intent, hops, sites;
// popup-tasks.js), the agent (model or replay), the window option, and whether Run can
// start. Both pages use the same element ids (#task-search, #task-count, #task, #task-intent, #task-facts,
// #import-files, #import-folder, #task-note, #agent, #agent-note, #keep-window, #run)
// and the same stored choices, so a task picked in one is picked in the other.

import { ask } from './ask.js';
import { errorText, getSettings } from './messages.js';
import { bundledTaskText, bundledTasks, importFiles, importedTasks, taskOverviews } from './popup-tasks.js';
import { PICKER_CHOICES } from './store/keys.js';
import { read, watch, write } from './store/store.js';
import { watchSettings } from './store/views.js';
import { byId } from './dom.js';

/**
 * @typedef {import('./worker/core/core-types.js').TaskOverview} TaskOverview
 * @typedef {{ taskText: string, fileName: string, overview?: TaskOverview, error?: string }} ListedTask
 * @typedef {{ task?: string, agent?: string, keepWindow?: boolean }} Choices
 * @typedef {{ ready: Promise<unknown>, chosen: () => ListedTask | undefined, runProblem: () => string | null,
 *   showChoice: () => void, overrides: () => import('./messages.js').RunOverrides }} TaskPicker
 */


const $ = (/** @type {string} */ id) => byId(id);
const select = (/** @type {string} */ id) => byId(id, HTMLSelectElement);
const input = (/** @type {string} */ id) => byId(id, HTMLInputElement);
const truncate = (/** @type {string} */ text, /** @type {number} */ max) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);
export const hopsText = (/** @type {number} */ n) => `${n} hop${n === 1 ? '' : 's'}`;
const siteText = (/** @type {import('./worker/core/core-types.js').Site} */ site) => site.label ?? site.host;

/**
 * "3 hops · Wiki, 127.0.0.1:8601": the facts line under a task's intent.
 * @param {Pick<TaskOverview, 'hops' | 'sites'>} overview
 */
export function taskFacts(overview) {
  return `${hopsText(overview.hops)} · ${overview.sites.map(siteText).join(', ') || 'no site named'}`;
}

/** @returns {Promise<Choices>} */
export async function storedChoices() {
  return (await read(PICKER_CHOICES)) ?? {};
}

/**
 * Wires the picker elements of this page. `isBusy()` says whether a run is going (Run
 * is then disabled); `onError(text)` shows what went wrong; `onChange()` runs after
 * every change of the choice. Returns the picker.
 * @param {{ isBusy?: () => boolean, onError: (text: string) => void, onChange?: () => void }} hooks
 * @returns {TaskPicker}
 */
export function setupTaskPicker({ isBusy = () => false, onError, onChange = () => undefined }) {
  /** Listed tasks by option value: `{taskText, fileName, overview?, error?}`. */
  /** @type {Map<string, ListedTask>} */
  const tasks = new Map();
  /** Why a model run cannot start now (`[{field, message}]`), from the worker. */
  /** @type {import('./agent-settings.js').Problem[]} */
  let modelProblems = [];

  const note = (/** @type {string} */ text, isError = false) => {
    $('task-note').textContent = text;
    $('task-note').className = isError ? 'error' : 'note';
  };

  /** Every listed file, in list order (bundled first), for the search to filter. */
  /** @type {{ value: string, fileName: string, text: string }[]} */
  let files = [];

  async function listTasks() {
    const [bundled, imported] = await Promise.all([bundledTasks(), importedTasks()]);
    files = [
      ...(await Promise.all(
        bundled.map(async (t) => ({ value: `bundled:${t.path}`, fileName: t.path, text: await bundledTaskText(t.path) })),
      )),
      ...imported.map((t) => ({ value: `imported:${t.fileName}`, fileName: t.fileName, text: t.text })),
    ];
    const checked = await taskOverviews(files.map(({ fileName, text }) => ({ fileName, text })));
    tasks.clear();
    files.forEach((f, i) => tasks.set(f.value, { taskText: f.text, fileName: f.fileName, ...checked[i] }));
    const previous = select('task').value || (await storedChoices()).task;
    showMatches(previous);
    if (files.length === 0) {
      note('No task yet: import a task file or a folder of tasks (ours, MMInA or WebArena).');
    }
    showChoice();
  }

  /**
   * Fills the task list with the tasks the search words match (every word, in the
   * intent, the id or the file name, any case), grouped bundled / imported, each
   * labelled with its intent, hops and id; keeps `keep` chosen when it still shows,
   * else the first match.
   * @param {string | undefined} keep
   */
  function showMatches(keep) {
    const words = input('task-search').value.toLowerCase().split(/\s+/).filter(Boolean);
    /** @typedef {{ value: string, fileName: string, text: string }} File */
    const haystack = (/** @type {File} */ f) => {
      const overview = tasks.get(f.value)?.overview;
      return `${overview?.intent ?? ''} ${overview?.id ?? ''} ${f.fileName}`.toLowerCase();
    };
    const shown = files.filter((f) => words.every((w) => haystack(f).includes(w)));
    const option = (/** @type {File} */ f) => {
      const { overview, error } = tasks.get(f.value) ?? {};
      const label = overview ? `${truncate(overview.intent, 56)} · ${hopsText(overview.hops)} · ${overview.id}` : `${f.fileName} (cannot be read)`;
      const o = new Option(label, f.value);
      o.title = overview ? `${overview.id} (${f.fileName})\n${overview.intent}` : (error ?? '');
      o.disabled = !overview;
      return o;
    };
    const group = (/** @type {string} */ label, /** @type {File[]} */ list) => {
      const g = document.createElement('optgroup');
      g.label = label;
      g.append(...list.map(option));
      return g;
    };
    const ofKind = (/** @type {string} */ kind) => shown.filter((f) => f.value.startsWith(kind));
    // A task made by "New task by doing" keeps its `authored/` id when imported back.
    const isAuthored = (/** @type {File} */ f) => tasks.get(f.value)?.overview?.id.startsWith('authored/') === true;
    const imported = ofKind('imported:');
    const groups = [
      { label: 'Bundled', list: ofKind('bundled:') },
      { label: 'Imported', list: imported.filter((f) => !isAuthored(f)) },
      { label: 'Authored by you', list: imported.filter(isAuthored) },
    ];
    const taskSelect = select('task');
    taskSelect.replaceChildren(...groups.filter((g) => g.list.length > 0).map((g) => group(`${g.label} (${g.list.length})`, g.list)));
    const readable = shown.filter((f) => tasks.get(f.value)?.overview);
    if (keep !== undefined && readable.some((f) => f.value === keep)) taskSelect.value = keep;
    else if (readable.length > 0) taskSelect.value = readable[0].value;
    $('task-count').textContent = words.length === 0
      ? `${files.length} task${files.length === 1 ? '' : 's'}`
      : `${shown.length} of ${files.length} tasks match`;
  }

  /** Task, agent and window choice are kept, so the next page opens as this one was left. */
  function saveChoices() {
    const choices = { task: select('task').value, agent: select('agent').value, keepWindow: input('keep-window').checked };
    write(PICKER_CHOICES, choices).catch((error) => onError(`cannot keep your choices: ${errorText(error)}`));
  }

  /** The selected task's details and whether Run can start it with the chosen agent. */
  function showChoice() {
    const overview = chosen()?.overview;
    $('task-intent').textContent = overview?.intent ?? '';
    $('task-intent').title = overview?.intent ?? '';
    $('task-facts').textContent = overview ? taskFacts(overview) : '';
    const problem = runProblem();
    $('agent-note').textContent = problem ?? '';
    byId('run', HTMLButtonElement).disabled = isBusy() || !overview || problem !== null;
    onChange();
  }

  function chosen() {
    return tasks.get(select('task').value);
  }

  /** Why Run cannot start the chosen task with the chosen agent, or null. */
  function runProblem() {
    const task = chosen();
    if (!task?.overview) return null;
    if (select('agent').value === 'replay') {
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

  /** @param {{ restoreChoices: boolean }} how */
  async function loadModelState({ restoreChoices }) {
    const reply = await ask(getSettings);
    modelProblems = reply.modelProblems ?? [];
    if (!restoreChoices) {
      showChoice();
      return;
    }
    const choices = await storedChoices();
    // A first page with no model set would otherwise offer a run that can only fail.
    select('agent').value = choices.agent ?? (modelProblems.length === 0 ? 'model' : 'replay');
    input('keep-window').checked = choices.keepWindow === true;
  }

  /** @param {Event} event */
  async function onImport(event) {
    const target = /** @type {HTMLInputElement} */ (event.target);
    try {
      const { imported, refused } = await importFiles(target.files ?? []);
      await listTasks();
      if (imported.length > 0) {
        select('task').value = `imported:${imported[imported.length - 1]}`;
        saveChoices();
        showChoice();
      }
      const refusedText = refused.map((r) => r.error).join('\n');
      if (refused.length === 0) note(`Imported ${imported.length} file(s).`);
      else note(`Imported ${imported.length} file(s); refused ${refused.length}:\n${refusedText}`, true);
    } catch (error) {
      note(`Import failed: ${errorText(error)}`, true);
    } finally {
      target.value = '';
    }
  }

  $('task-search').addEventListener('input', () => {
    const before = select('task').value;
    showMatches(before);
    if (select('task').value !== before) saveChoices();
    showChoice();
  });
  $('import-files').addEventListener('change', onImport);
  $('import-folder').addEventListener('change', onImport);
  for (const id of ['task', 'agent']) {
    $(id).addEventListener('change', () => {
      saveChoices();
      showChoice();
    });
  }
  $('keep-window').addEventListener('change', saveChoices);
  // Choices made in the other page (the popup while this panel stays open, or the
  // reverse) are followed here at once; else a panel opened earlier offered its stale
  // agent on "New run" although the popup had just run with another.
  watch(PICKER_CHOICES.area, (key) => key === PICKER_CHOICES.key, (_key, value) => {
    const choices = /** @type {Choices | undefined} */ (value);
    if (!choices) return;
    let changed = false;
    if (choices.agent && choices.agent !== select('agent').value) {
      select('agent').value = choices.agent;
      changed = true;
    }
    if (typeof choices.keepWindow === 'boolean' && choices.keepWindow !== input('keep-window').checked) {
      input('keep-window').checked = choices.keepWindow;
    }
    const listed = [...select('task').options].some((o) => o.value === choices.task);
    if (choices.task && listed && choices.task !== select('task').value) {
      select('task').value = choices.task;
      changed = true;
    }
    if (changed) showChoice();
  });
  // Settings saved in the options page meanwhile: Run follows them at once.
  watchSettings(() => {
    loadModelState({ restoreChoices: false }).catch((error) => onError(`cannot read the model settings: ${errorText(error)}`));
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
      /** @type {import('./messages.js').RunOverrides} */
      const overrides = {};
      if (select('agent').value === 'replay') overrides.provider = 'replay';
      if (input('keep-window').checked) overrides.keep_window = true;
      return overrides;
    },
  };
}
