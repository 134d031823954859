// Hop tracking: every URL change of a session tab's main frame is fed to the core's
// hop-queue evaluator (src/tracker, src/evaluator), with the tab's index in the
// session, the URL, the time since the session started and the current step. A URL
// change is a page load or one the page makes itself (pushState, #fragment routes):
// MMInA credits hops from the URL the browser shows, however it got there. Each change
// is fed once; page/changes.js says what a change is.
//
// The tracker is an opaque JSON string from the core, kept per session in the store
// (store/keys.js hopTracker) and updated under the session lock, so changes are fed one
// at a time and in the order Chrome reported them, even across worker restarts.
// Beside it, `pages` holds what each tab showed when last fed (`pageOf`), so a report
// of the same page again (the same URL in the same document) is not fed twice.

import { hopTracker } from '../../store/keys.js';
import { read, remove, write } from '../../store/store.js';
import { publishSessionChange } from '../../store/views.js';
import { loadedCore } from '../core/core.js';
import { isPageChange, onPageChangeReports, pageOf } from '../page/changes.js';
import { elapsedMs, pickSession, sessionOfTab, withSessions } from './sessions.js';

/**
 * @typedef {import('../core/types.js').Core} Core
 * @typedef {import('../core/core-types.js').TrackerFed} TrackerFed
 * @typedef {{ kind: string, step: number, timeMs: number, tab?: number, url?: string,
 *   change?: string, text?: string }} TrackerEntry
 * @typedef {TrackerEntry & { completedHop: number | null, completedHops: number[] }} LoggedEvent
 * @typedef {{ state: string, log: LoggedEvent[], pages: Record<string, import('../page/changes.js').Page> }} Tracker
 *   the stored entry: the core's state, every event fed, and what each tab showed
 */

/**
 * Reads a task and creates its tracker. Returns the slot to write with the session
 * (see session/sessions.js openSession) and what the core made of the task.
 * @param {Core} core
 * @param {string} sessionId
 * @param {string} taskText
 * @param {string} fileName
 */
export function createTracker(core, sessionId, taskText, fileName) {
  const started = core.tracker_start(taskText, fileName);
  return {
    task: started.task,
    progress: started.progress,
    entry: /** @type {[import('../../store/store.js').Slot<any>, unknown][]} */ ([[hopTracker(sessionId), { state: started.state, log: [], pages: {} }]]),
  };
}

/**
 * @param {string} sessionId
 * @returns {Promise<Tracker>}
 */
async function readTracker(sessionId) {
  const tracker = await read(hopTracker(sessionId));
  if (!tracker) throw new Error(`session ${sessionId} has no hop tracker`);
  return tracker;
}

/**
 * Feeds one event through `feed(state)` and stores the new state; returns the result.
 * `tracker` is the stored entry when the caller has read it already.
 * @param {string} sessionId
 * @param {TrackerEntry} entry
 * @param {(state: string) => TrackerFed} feed
 * @param {Tracker} [tracker]
 * @returns {Promise<TrackerFed>}
 */
async function feedTracker(sessionId, entry, feed, tracker = undefined) {
  tracker ??= await readTracker(sessionId);
  const fed = feed(tracker.state);
  tracker.state = fed.state;
  // completedHops: every hop this event completed (a Kiwix hop passes its page on to
  // the next hop, so one event can complete two); completedHop: the last of them.
  const completedHops = fed.outcome.completed_hops ?? [];
  tracker.log.push({ ...entry, completedHop: fed.outcome.completed_hop ?? null, completedHops });
  await write(hopTracker(sessionId), tracker);
  // A hop done between two steps shows in the run's view at once.
  await publishSessionChange(sessionId);
  return fed;
}

/**
 * @param {Core} core
 * @param {string} sessionId
 */
export async function progressOf(core, sessionId) {
  return core.tracker_progress((await readTracker(sessionId)).state);
}

/**
 * @param {Core} core
 * @param {string} sessionId
 */
export async function verdictOf(core, sessionId) {
  return core.tracker_verdict((await readTracker(sessionId)).state);
}

/**
 * Every event fed so far: `[{kind, step, timeMs, tab?, url?, change?, text?,
 * completedHop, completedHops}]`; `change` says how a navigation's URL came: 'load', 'history'
 * (pushState/replaceState) or 'fragment'.
 * @param {string} sessionId
 * @returns {Promise<LoggedEvent[]>}
 */
export async function eventLogOf(sessionId) {
  return (await readTracker(sessionId)).log;
}

/** @param {string} sessionId */
export function forgetTracker(sessionId) {
  return remove(hopTracker(sessionId));
}

/**
 * The judge questions the answer `text` would raise now (`[{answer, reference}]`,
 * empty unless a fuzzy reference applies): asked before `recordAnswer`.
 * @param {Core} core
 * @param {string} sessionId
 * @param {string} text
 */
export async function judgeRequestsOf(core, sessionId, text) {
  return core.tracker_judge_requests((await readTracker(sessionId)).state, text);
}

/**
 * The answer of `stop [answer]`; scored by the core with `judgements` (the verdicts
 * gathered for judgeRequestsOf's questions). Runs under the session lock.
 * @param {Core} core
 * @param {string} sessionId
 * @param {string} text
 * @param {import('../core/core-types.js').Judgement[]} [judgements]
 * @returns {Promise<TrackerFed>}
 */
export function recordAnswer(core, sessionId, text, judgements = []) {
  return withSessions(async (sessions) => {
    const session = pickSession(sessions, sessionId);
    const step = session.step;
    const timeMs = elapsedMs(session);
    session.answer = { text, step };
    return feedTracker(sessionId, { kind: 'answer', step, timeMs, text }, (state) =>
      core.tracker_answer(state, step, timeMs, text, judgements),
    );
  });
}

// The lock is requested first (then the core awaited inside it), so URL changes are
// queued in the order Chrome reported them even while the core is still starting.
/**
 * @param {import('../page/changes.js').ChangeDetails} details
 * @param {import('../page/changes.js').ChangeKind} change
 */
function onPageChange(details, change) {
  return withSessions(async (sessions) => {
    const session = sessionOfTab(sessions, details.tabId);
    if (!session) return; // Not a session tab: the person's own browsing.
    const tracker = await readTracker(session.id);
    tracker.pages ??= {};
    if (!isPageChange(tracker.pages[details.tabId], details)) return;
    tracker.pages[details.tabId] = pageOf(details);
    const core = await loadedCore();
    const tab = session.tabIds.indexOf(details.tabId);
    const step = session.step;
    const timeMs = elapsedMs(session);
    const { url } = details;
    const entry = { kind: 'navigation', change, step, timeMs, tab, url };
    await feedTracker(
      session.id,
      entry,
      (state) => core.tracker_navigation(state, step, timeMs, tab, url),
      tracker,
    );
  });
}

/**
 * Registers the URL-change listeners; call once, synchronously, at the worker's top
 * level.
 */
export function registerHopListeners() {
  onPageChangeReports((details, change) => {
    onPageChange(details, change).catch((error) =>
      console.error(`hopbench: feeding a URL change (${change}) failed:`, error),
    );
  });
}
