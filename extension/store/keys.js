// Every storage slot of the extension, with the type of what it holds and who writes
// it. Nothing else spells a storage key: a module reads and writes through these slots
// (store.js), and pages watch only the view records the worker publishes
// (store/views.js), never the worker's own records.

import { slot } from './store.js';

/**
 * @template T
 * @typedef {import('./store.js').Slot<T>} Slot
 */

// --- Settings: written by the worker (SAVE_SETTINGS), read by it and by pages for
// their defaults. The agent settings hold the API keys: pages never read them.

export const AGENT_SETTINGS = /** @type {Slot<Record<string, unknown>>} */ (slot('local', 'settings.agent'));
export const OBSERVATION_SETTINGS = /** @type {Slot<Record<string, unknown>>} */ (slot('local', 'settings.observation'));
export const SITE_SETTINGS = /** @type {Slot<Record<string, unknown>>} */ (slot('local', 'settings.sites'));

// --- Runs (worker/run/): the driver's record of each running run and the requests
// beside it, kept apart so the driver's next save cannot lose a Stop or a Pause.

/** The ids of the runs a driver owes work to, oldest first. */
export const ACTIVE_RUNS = /** @type {Slot<string[]>} */ (slot('local', 'runs.active'));
/** The driver's record of a running run (run/state.js). */
export const runRecord = (/** @type {string} */ runId) =>
  /** @type {Slot<import('../worker/core/types.js').RunRecord>} */ (slot('local', `run.${runId}`));
export const runStop = (/** @type {string} */ runId) =>
  /** @type {Slot<{ reason: string, at: number }>} */ (slot('local', `run.${runId}.stop`));
export const runPause = (/** @type {string} */ runId) =>
  /** @type {Slot<{ at: number, held: number | null }>} */ (slot('local', `run.${runId}.pause`));
/** The model call a run waits for: `{step, try, of, since, trySince}` (ms since the epoch). */
export const runCall = (/** @type {string} */ runId) =>
  /** @type {Slot<{ step: number, try: number, of: number, since: number, trySince: number }>} */ (slot('local', `run.${runId}.call`));
/** What a run's driver is doing now: `{kind, step, since, action?}` (run/driver.js). */
export const runDoing = (/** @type {string} */ runId) =>
  /** @type {Slot<import('../worker/run/state.js').Doing>} */ (slot('local', `run.${runId}.doing`));
/** A person's session: the phase and the clock (human/session.js). */
export const humanState = (/** @type {string} */ runId) =>
  /** @type {Slot<import('../types.js').HumanView>} */ (slot('local', `run.${runId}.human`));
/** Human vs agent: which two runs (duel/duel.js). */
export const duelRecord = (/** @type {string} */ duelId) =>
  /** @type {Slot<{ id: string, agentRunId: string, humanRunId: string, taskId: string, createdAt: number }>} */ (slot('local', `duel.${duelId}`));

// --- The worker's memory between restarts (session area: gone with the browser).

/** Every open task session (session/sessions.js), changed under its lock. */
export const SESSIONS = /** @type {Slot<Record<string, import('../worker/session/sessions.js').Session>>} */ (slot('session', 'hopbench.sessions'));
/** Each session's hop tracker (session/hops.js). */
export const hopTracker = (/** @type {string} */ sessionId) =>
  /** @type {Slot<import('../worker/session/hops.js').Tracker>} */ (slot('session', `hopbench.hops.${sessionId}`));
/** A sealed part of a session's hop log: entries `n * HOP_LOG_CHUNK` on (session/hops.js). */
export const hopLogChunk = (/** @type {string} */ sessionId, /** @type {number} */ n) =>
  /** @type {Slot<import('../worker/session/hops.js').LoggedEvent[]>} */ (slot('session', `hopbench.hopLog.${sessionId}.${n}`));
/** The main-frame navigations of a session that failed (page/errors.js). */
export const pageErrors = (/** @type {string} */ sessionId) =>
  /** @type {Slot<import('../worker/page/errors.js').PageError[]>} */ (slot('session', `hopbench.pageErrors.${sessionId}`));
/** What a session's pages did that the agent is told of: dialogs, downloads, file choosers (page/notices.js). */
export const pageNotices = (/** @type {string} */ sessionId) =>
  /** @type {Slot<import('../worker/page/notices.js').PageNotice[]>} */ (slot('session', `hopbench.pageNotices.${sessionId}`));
/** The site fences of fenced runs, by session (fence/fence.js). */
export const FENCES = /** @type {Slot<Record<string, import('../worker/fence/fence.js').Fence>>} */ (slot('session', 'hopbench.fences'));
/** The fences removed last: when, their runs' tabs, the late blocks given back (fence/fence.js). */
export const FENCES_GONE = /** @type {Slot<import('../worker/fence/fence.js').Gone>} */ (slot('session', 'hopbench.fencesGone'));
/** A tab's id registry, `[id]` ↔ node, as the core's JSON (observe/observe.js). */
export const idRegistry = (/** @type {number} */ tabId) => /** @type {Slot<string>} */ (slot('session', `observe.registry.${tabId}`));
/** A tab's out-of-process iframes' debugger sessions (cdp/cdp.js). */
export const cdpChildren = (/** @type {number} */ tabId) =>
  /** @type {Slot<import('../worker/cdp/cdp.js').ChildSession[]>} */ (slot('session', `cdp.children.${tabId}`));
/** The identifier of the recorder's script in a tab (human/recorder.js). */
export const recorderScript = (/** @type {number} */ tabId) => /** @type {Slot<string>} */ (slot('session', `recorder.script.${tabId}`));
/** An id for this browser life: a run from another one cannot resume (run/interrupt.js). */
export const BROWSER_LIFE = /** @type {Slot<string>} */ (slot('session', 'hopbench.browserLife'));

// --- Pages' own state.

/** The popup's and panel's task and agent choice (task-picker.js). */
export const PICKER_CHOICES = /** @type {Slot<{ task?: string, agent?: string, keepWindow?: boolean }>} */ (slot('local', 'popup.choices'));
/** Task files imported in the popup or panel, kept for the browser session (popup-tasks.js). */
export const IMPORTED_TASKS = /** @type {Slot<{ fileName: string, text: string }[]>} */ (slot('session', 'popup.imported'));
/** The study under way (study.js). */
export const STUDY = /** @type {Slot<import('../study.js').Study>} */ (slot('local', 'study.current'));
/** The hops a person marked while authoring a task by doing it (panel-author.js). */
export const authoringMarks = (/** @type {string} */ runId) =>
  /** @type {Slot<import('../authoring.js').HopProposal[]>} */ (slot('local', `authoring.${runId}`));
/** The task file an authoring session was saved as, once it was (panel-author.js). */
export const authoringSaved = (/** @type {string} */ runId) =>
  /** @type {Slot<{ fileName: string, hops: number, referenceSteps: number, at: number }>} */ (slot('local', `authoring.${runId}.saved`));
