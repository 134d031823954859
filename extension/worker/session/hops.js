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
//
// A page may flood its history (10,000 pushState calls on load): each report is still
// fed to the core, in order, but reports that come one after another with nobody else
// asking for the lock between them are fed under one lock request, with one read and
// one write of the tracker (a write per report rewrote the whole log each time, and
// held every other user of the lock for minutes). The log is appended, not rewritten:
// the stored entry keeps only its tail, sealed parts of HOP_LOG_CHUNK entries go to
// slots of their own; and a run of history changes that complete nothing is kept as its
// first and latest entry, the latter counting the ones between (`skipped`).

import { hopLogChunk, hopTracker } from '../../store/keys.js';
import { read, remove, writeAll } from '../../store/store.js';
import { publishSessionChange } from '../../store/views.js';
import { loadedCore } from '../core/core.js';
import { isPageChange, onPageChangeReports, pageOf } from '../page/changes.js';
import { elapsedMs, lockTicket, pickSession, sessionOfTab, withSessions } from './sessions.js';

/**
 * @typedef {import('../core/types.js').Core} Core
 * @typedef {import('../core/core-types.js').TrackerFed} TrackerFed
 * @typedef {{ kind: string, step: number, timeMs: number, tab?: number, url?: string,
 *   change?: string, text?: string }} TrackerEntry
 * @typedef {TrackerEntry & { completedHop: number | null, completedHops: number[], skipped?: number }} LoggedEvent
 *   `skipped`: history changes fed between the entry before and this one, left out of the log
 * @typedef {{ state: string, tail: LoggedEvent[], sealed: number, pages: Record<string, import('../page/changes.js').Page> }} Tracker
 *   the stored entry: the core's state, the log's last entries (`sealed` parts before
 *   them in hopLogChunk slots), and what each tab showed
 */

/** Entries per sealed part of the log. */
export const HOP_LOG_CHUNK = 200;

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
    entry: /** @type {[import('../../store/store.js').Slot<any>, unknown][]} */ ([[hopTracker(sessionId), { state: started.state, tail: [], sealed: 0, pages: {} }]]),
  };
}

/**
 * @param {string} sessionId
 * @returns {Promise<Tracker>}
 */
async function readTracker(sessionId) {
  const tracker = await read(hopTracker(sessionId));
  if (!tracker) throw new Error(`session ${sessionId} has no hop tracker`);
  // A tracker a worker before this layout stored: its whole log is the tail.
  const older = /** @type {Tracker & { log?: LoggedEvent[] }} */ (tracker);
  if (!Array.isArray(tracker.tail)) return { ...tracker, tail: older.log ?? [], sealed: 0 };
  return tracker;
}

/**
 * Feeds one event through `feed(state)` into `tracker` (the stored entry, read by the
 * caller) and logs it; the caller stores the tracker (storeTracker).
 * @param {Tracker} tracker
 * @param {TrackerEntry} entry
 * @param {(state: string) => TrackerFed} feed
 * @returns {{ fed: TrackerFed, sealed: LoggedEvent[] | null }} `sealed`: a part of the
 *   log that is full and goes to its own slot
 */
function feedInto(tracker, entry, feed) {
  const fed = feed(tracker.state);
  tracker.state = fed.state;
  // completedHops: every hop this event completed (a Kiwix hop passes its page on to
  // the next hop, so one event can complete two); completedHop: the last of them.
  const completedHops = fed.outcome.completed_hops ?? [];
  return { fed, sealed: appendLogged(tracker, { ...entry, completedHop: fed.outcome.completed_hop ?? null, completedHops }) };
}

/**
 * Appends to the log's tail, or, for the third history change in a row of one tab and
 * step that completes nothing, replaces the second with it (counting it in `skipped`).
 * Returns the tail when it is full: the caller seals it.
 * @param {Tracker} tracker
 * @param {LoggedEvent} entry
 * @returns {LoggedEvent[] | null}
 */
function appendLogged(tracker, entry) {
  const tail = tracker.tail;
  const [before, last] = [tail.at(-2), tail.at(-1)];
  const quiet = (/** @type {LoggedEvent | undefined} */ e) =>
    e !== undefined && e.kind === 'navigation' && e.change !== 'load' && e.completedHops.length === 0 && e.tab === entry.tab && e.step === entry.step;
  if (quiet(entry) && quiet(last) && quiet(before)) {
    tail[tail.length - 1] = { ...entry, skipped: (last?.skipped ?? 0) + 1 };
    return null;
  }
  tail.push(entry);
  if (tail.length < HOP_LOG_CHUNK) return null;
  tracker.tail = [];
  tracker.sealed += 1;
  return tail;
}

/**
 * Stores the tracker, and the parts of its log sealed meanwhile, in one write; then
 * tells the pages (a hop done between two steps shows in the run's view at once).
 * @param {string} sessionId
 * @param {Tracker} tracker
 * @param {LoggedEvent[][]} sealed the parts sealed since it was read, oldest first
 */
async function storeTracker(sessionId, tracker, sealed) {
  const first = tracker.sealed - sealed.length;
  await writeAll('session', [
    ...sealed.map((part, i) => /** @type {[import('../../store/store.js').Slot<any>, unknown]} */ ([hopLogChunk(sessionId, first + i), part])),
    [hopTracker(sessionId), tracker],
  ]);
  await publishSessionChange(sessionId);
}

/**
 * Feeds one event and stores the tracker; returns the core's result.
 * @param {string} sessionId
 * @param {TrackerEntry} entry
 * @param {(state: string) => TrackerFed} feed
 * @returns {Promise<TrackerFed>}
 */
async function feedTracker(sessionId, entry, feed) {
  const tracker = await readTracker(sessionId);
  const { fed, sealed } = feedInto(tracker, entry, feed);
  await storeTracker(sessionId, tracker, sealed ? [sealed] : []);
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
  const tracker = await readTracker(sessionId);
  const parts = await Promise.all(Array.from({ length: tracker.sealed }, (_, n) => read(hopLogChunk(sessionId, n))));
  return [...parts.flatMap((part) => part ?? []), ...tracker.tail];
}

/** @param {string} sessionId */
export async function forgetTracker(sessionId) {
  const tracker = await read(hopTracker(sessionId));
  const sealed = typeof tracker?.sealed === 'number' ? tracker.sealed : 0;
  await remove(hopTracker(sessionId), ...Array.from({ length: sealed }, (_, n) => hopLogChunk(sessionId, n)));
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

/**
 * The reports waiting for the lock request made for them, while nobody else has asked
 * for the lock since (`ticket`): a report that comes now joins them, and is fed in the
 * same order as if it had asked for the lock itself.
 * @type {{ reports: [import('../page/changes.js').ChangeDetails, import('../page/changes.js').ChangeKind][], ticket: number, done: Promise<void> } | null}
 */
let waiting = null;

// The lock is requested at once (then the core awaited inside it), so URL changes are
// queued in the order Chrome reported them even while the core is still starting.
/**
 * @param {import('../page/changes.js').ChangeDetails} details
 * @param {import('../page/changes.js').ChangeKind} change
 * @returns {Promise<void>}
 */
function onPageChange(details, change) {
  if (waiting && waiting.ticket === lockTicket()) {
    waiting.reports.push([details, change]);
    return waiting.done;
  }
  /** @type {NonNullable<typeof waiting>} */
  const batch = { reports: [[details, change]], ticket: 0, done: Promise.resolve() };
  batch.done = withSessions(async (sessions) => {
    if (waiting === batch) waiting = null;
    await feedReports(sessions, batch.reports);
  });
  batch.ticket = lockTicket();
  waiting = batch;
  return batch.done;
}

/**
 * Feeds the reports of session tabs, in order: each session's tracker read once and
 * stored once.
 * @param {Record<string, import('./sessions.js').Session>} sessions
 * @param {[import('../page/changes.js').ChangeDetails, import('../page/changes.js').ChangeKind][]} reports
 */
async function feedReports(sessions, reports) {
  /** @type {Map<string, { tracker: Tracker, sealed: LoggedEvent[][] }>} */
  const touched = new Map();
  /** @type {Core | undefined} */
  let core;
  for (const [details, change] of reports) {
    const session = sessionOfTab(sessions, details.tabId);
    if (!session) continue; // Not a session tab: the person's own browsing.
    let open = touched.get(session.id);
    if (!open) {
      open = { tracker: await readTracker(session.id), sealed: [] };
      touched.set(session.id, open);
    }
    const { tracker } = open;
    tracker.pages ??= {};
    if (!isPageChange(tracker.pages[details.tabId], details)) continue;
    tracker.pages[details.tabId] = pageOf(details);
    core ??= await loadedCore();
    const feeder = core;
    const tab = session.tabIds.indexOf(details.tabId);
    const step = session.step;
    const timeMs = elapsedMs(session);
    const { url } = details;
    const { sealed } = feedInto(tracker, { kind: 'navigation', change, step, timeMs, tab, url }, (state) =>
      feeder.tracker_navigation(state, step, timeMs, tab, url),
    );
    if (sealed) open.sealed.push(sealed);
  }
  for (const [sessionId, { tracker, sealed }] of touched) await storeTracker(sessionId, tracker, sealed);
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
