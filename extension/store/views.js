// The view records the worker publishes for pages to watch. A page never watches the
// worker's own records (the driver's record, the trackers, the sessions): those change
// shape with the worker. It watches these small records instead, which say only that
// something a page shows has changed, and then asks the worker (GET_RUN, GET_DUEL) for
// the view itself.

import { read, slot, watch, write } from './store.js';

/**
 * @template T
 * @typedef {import('./store.js').Slot<T>} Slot
 */
/**
 * A published change: when, and a counter that makes two changes in one millisecond
 * two writes.
 * @typedef {{ at: number, seq: number }} Change
 */

/** The run the side panel and the popup show: the one started last. */
export const CURRENT_RUN = /** @type {Slot<string>} */ (slot('local', 'runs.current'));

const RUN_VIEW = 'view.run.';
const SESSION_VIEW = 'view.session.';
const SETTINGS_VIEW = /** @type {Slot<Change>} */ (slot('local', 'view.settings'));

const runView = (/** @type {string} */ runId) => /** @type {Slot<Change>} */ (slot('local', `${RUN_VIEW}${runId}`));
const sessionView = (/** @type {string} */ sessionId) => /** @type {Slot<Change>} */ (slot('session', `${SESSION_VIEW}${sessionId}`));

let seq = 0;
const change = () => ({ at: Date.now(), seq: ++seq });

/** @param {string} runId */
export const publishRunChange = (runId) => write(runView(runId), change());
/** A session's hops or pages changed (its run's view reads them live). @param {string} sessionId */
export const publishSessionChange = (sessionId) => write(sessionView(sessionId), change());
/** The settings were saved. */
export const publishSettingsChange = () => write(SETTINGS_VIEW, change());

/** @param {string} runId */
export async function setCurrentRun(runId) {
  await write(CURRENT_RUN, runId);
}

/** @returns {Promise<string | null>} */
export async function currentRun() {
  return (await read(CURRENT_RUN)) ?? null;
}

/**
 * Calls `onChange()` when the current run changes, or anything of a run for which
 * `shows(runId)` is true, or (`sessions`) any session's hops: what the side panel and
 * the popup redraw on.
 * @param {{ shows: (runId: string) => boolean, sessions?: boolean }} what
 * @param {() => void} onChange
 * @returns {() => void} stops watching
 */
export function watchRuns({ shows, sessions = false }, onChange) {
  const stops = [
    watch('local', (key) => key === CURRENT_RUN.key || (key.startsWith(RUN_VIEW) && shows(key.slice(RUN_VIEW.length))), onChange),
  ];
  if (sessions) stops.push(watch('session', (key) => key.startsWith(SESSION_VIEW), onChange));
  return () => stops.forEach((stop) => stop());
}

/**
 * Calls `onChange()` when the settings were saved (by the options page, or the runner).
 * @param {() => void} onChange
 * @returns {() => void}
 */
export function watchSettings(onChange) {
  return watch('local', (key) => key === SETTINGS_VIEW.key, onChange);
}
