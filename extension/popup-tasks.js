// The popup's task list: tasks bundled with the extension (tasks/index.json, written by
// build.sh) and task files the person imported, one file or a whole folder. Any format
// the core imports (ours, MMInA, WebArena) is listed, each with the core's overview
// (intent, hops, sites). A file the core refuses is refused at import, with the
// core's message, instead of being listed and failing at Run. Imported files are kept
// for the browser session (store/keys.js IMPORTED_TASKS), so they are still listed
// when the popup is opened again (it closes when it loses focus).

import { ask } from './ask.js';
import { coreCall } from './messages.js';
import { IMPORTED_TASKS } from './store/keys.js';
import { read, write } from './store/store.js';

/**
 * @typedef {{ fileName: string, text: string }} TaskFile
 * @typedef {{ overview?: import('./worker/core/core-types.js').TaskOverview, error?: string }} OverviewOrError
 */

export const BUNDLED_INDEX = 'tasks/index.json';

/**
 * `[{path}]` of the bundled tasks; empty when the build bundled none.
 * @returns {Promise<{ path: string }[]>}
 */
export async function bundledTasks() {
  if (!(await packageHasFile(BUNDLED_INDEX))) return [];
  const response = await fetch(chrome.runtime.getURL(BUNDLED_INDEX));
  if (!response.ok) throw new Error(`${BUNDLED_INDEX} could not be read (HTTP ${response.status}): rebuild the extension`);
  const index = await response.json();
  if (!Array.isArray(index.tasks)) throw new Error(`${BUNDLED_INDEX} has no "tasks" list: rebuild the extension`);
  return index.tasks;
}

/**
 * Whether the extension's folder holds `path`. Asked of the package directory rather
 * than by fetching, because Chrome logs a fetch of a missing extension file as an
 * error, and having no bundled tasks is normal.
 * @param {string} path
 * @returns {Promise<boolean>}
 */
function packageHasFile(path) {
  return new Promise((resolve) => {
    chrome.runtime.getPackageDirectoryEntry((root) =>
      root.getFile(path, {}, () => resolve(true), () => resolve(false)),
    );
  });
}

/** @param {string} path */
export async function bundledTaskText(path) {
  const response = await fetch(chrome.runtime.getURL(`tasks/${path}`));
  if (!response.ok) throw new Error(`bundled task ${path} is missing from the build (HTTP ${response.status})`);
  return response.text();
}

/**
 * `[{fileName, text}]` imported so far in this browser session.
 * @returns {Promise<TaskFile[]>}
 */
export async function importedTasks() {
  return (await read(IMPORTED_TASKS)) ?? [];
}

/**
 * The core's overview of each `{fileName, text}`: `{overview}` (id, intent, hops,
 * sites, replayable, format) or `{error}` naming the file and the problem.
 * @param {TaskFile[]} files
 * @returns {Promise<OverviewOrError[]>}
 */
export async function taskOverviews(files) {
  if (files.length === 0) return [];
  // core-calls.js task_overviews: one `{overview}` or `{error}` per file.
  return /** @type {OverviewOrError[]} */ ((await ask(coreCall, 'task_overviews', [files])).value);
}

/**
 * Reads the chosen JSON files, checks each with the core and lists the good ones
 * (replacing earlier imports of the same name). `fileName` keeps the folder path
 * (`normal/3.json`): MMInA takes the subset from it. Returns `{imported, refused}`:
 * the fileNames listed, and `[{fileName, error}]` for the files the core refused.
 * @param {FileList | File[]} fileList
 * @returns {Promise<{ imported: string[], refused: { fileName: string, error: string }[] }>}
 */
export async function importFiles(fileList) {
  const files = [...fileList].filter((f) => f.name.toLowerCase().endsWith('.json'));
  if (files.length === 0) throw new Error('no .json file among the chosen files');
  const opened = await Promise.all(
    files.map(async (file) => ({ fileName: file.webkitRelativePath || file.name, text: await file.text() })),
  );
  const checked = await taskOverviews(opened);
  const good = opened.filter((_, i) => checked[i].overview);
  const refused = opened.flatMap((file, i) => (checked[i].error ? [{ fileName: file.fileName, error: checked[i].error }] : []));
  if (good.length > 0) {
    const names = new Set(good.map((t) => t.fileName));
    const kept = (await importedTasks()).filter((t) => !names.has(t.fileName));
    try {
      await write(IMPORTED_TASKS, [...kept, ...good]);
    } catch (error) {
      throw new Error(`cannot keep ${good.length} imported files (${/** @type {Error} */ (error).message}): import a smaller folder`, { cause: error });
    }
  }
  return { imported: good.map((t) => t.fileName), refused };
}
