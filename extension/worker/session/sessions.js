// Sessions: a task runs in a window the extension opened, one tab per start URL.
//
// Only a session's tabs are acted on, observed and tracked; the person's other tabs
// are never touched. Tabs opened by session pages (target=_blank, window.open) and
// tabs opened in the session window join it. All state lives in the store's session
// area (store/keys.js SESSIONS; the worker is stopped when idle) and every change goes
// through one Web Lock, so
// events handled concurrently (a tab created while a navigation commits) cannot lose
// each other's writes. Locks are granted in request order, and listeners request the
// lock as they are called, so updates apply in the order Chrome dispatched the events.

import { sessionClosed } from '../events.js';
import { closeTabNow } from './close-tab.js';
import { SESSIONS } from '../../store/keys.js';
import { read, write, writeAll } from '../../store/store.js';

const LOCK = 'hopbench.sessions';

/**
 * @typedef {{ id: string, windowId: number, tabIds: number[], currentTabId: number|null,
 *   step: number, startedAt: number, taskId: string, closed: boolean,
 *   answer: {text: string, step: number}|null, pausedMs?: number, pausedAt?: number | null,
 *   human?: HumanState }} Session
 *   `tabIds` is the session's tab order (tab_focus indexes into it); `step` counts the
 *   actions started; `startedAt` is wall-clock ms (survives worker restarts); `human`
 *   marks a person's session (human/session.js).
 * @typedef {{ runId: string, phase: 'ready' | 'recording' | 'paused' | 'ended', keepWindow: boolean,
 *   endedFrom?: string }} HumanState
 */

/**
 * How many times the lock has been asked for in this worker's life: a caller that
 * batches work under one request (session/hops.js) knows by it whether anyone asked in
 * between, whose turn then falls between its items. Memory only, like the lock queue.
 */
let lockRequests = 0;

/** The number of lock requests so far (withSessions calls). */
export const lockTicket = () => lockRequests;

/**
 * Runs `fn(sessions)` under the lock; `fn` may mutate the map, which is then saved.
 * @template T
 * @param {(sessions: Record<string, Session>) => T | Promise<T>} fn
 * @returns {Promise<T>}
 */
export function withSessions(fn) {
  lockRequests += 1;
  return navigator.locks.request(LOCK, async () => {
    /** @type {Record<string, Session>} */
    const sessions = (await read(SESSIONS)) ?? {};
    const before = JSON.stringify(sessions);
    const result = await fn(sessions);
    if (JSON.stringify(sessions) !== before) {
      await write(SESSIONS, sessions);
    }
    return result;
  });
}

/**
 * A snapshot of every open session (read without the lock: for lookups only).
 * @returns {Promise<Record<string, Session>>}
 */
export async function readSessions() {
  return (await read(SESSIONS)) ?? {};
}

/**
 * The named session, or the only one when `sessionId` is undefined. Throws otherwise.
 * @param {Record<string, Session>} sessions
 * @param {string | undefined} sessionId
 * @returns {Session}
 */
export function pickSession(sessions, sessionId) {
  if (sessionId !== undefined) {
    const session = sessions[sessionId];
    if (!session) throw new Error(`no session ${sessionId} (it ended, or never started)`);
    return session;
  }
  const all = Object.values(sessions);
  if (all.length === 1) return all[0];
  throw new Error(
    all.length === 0
      ? 'no session is open: start one with a task first'
      : `${all.length} sessions are open: say which one (sessionId)`,
  );
}

/**
 * @param {Record<string, Session>} sessions
 * @param {number | undefined} tabId
 * @returns {Session | undefined}
 */
export function sessionOfTab(sessions, tabId) {
  return tabId === undefined ? undefined : Object.values(sessions).find((s) => s.tabIds.includes(tabId));
}

/**
 * Milliseconds since the session started, less the time it was paused (a person's
 * session: `pausedMs` so far, and the pause going on since `pausedAt`).
 * @param {Session} session
 * @param {number} [now]
 */
export function elapsedMs(session, now = Date.now()) {
  const paused = (session.pausedMs ?? 0) + (session.pausedAt ? now - session.pausedAt : 0);
  return Math.max(0, now - session.startedAt - paused);
}

/**
 * Opens the session window: one tab per start URL, the first focused. `extra` slots
 * (the hop tracker) are written with the session, under the same lock, so the
 * start pages' navigations (which may commit before windows.create returns) find both.
 * `bounds` (`{left, top, width, height}`) places the window, e.g. half of the screen.
 * @param {{ id: string, startUrls: string[], taskId: string, extra?: [import('../../store/store.js').Slot<any>, unknown][],
 *   bounds?: { left?: number, top?: number, width?: number, height?: number } }} spec
 * @returns {Promise<Session>}
 */
export function openSession({ id, startUrls, taskId, extra = [], bounds = {} }) {
  return withSessions(async (sessions) => {
    const window = await chrome.windows.create({ url: startUrls, focused: true, ...bounds });
    if (!window || window.id === undefined) throw new Error('Chrome opened no session window');
    const windowId = window.id;
    const tabIds = (window.tabs ?? []).flatMap((t) => (t.id === undefined ? [] : [t.id]));
    if (tabIds.length === 0) throw new Error('the session window opened without tabs');
    await chrome.tabs.update(tabIds[0], { active: true });
    /** @type {Session} */
    const session = {
      id,
      windowId,
      tabIds,
      currentTabId: tabIds[0],
      step: 0,
      startedAt: Date.now(),
      taskId,
      closed: false,
      answer: null,
    };
    sessions[id] = session;
    await writeAll('session', extra);
    return session;
  });
}

/**
 * Forgets the session and closes its tabs: those in its window unless `keepWindow`,
 * and in any case those in other windows (a popup window a page opened, a tab it
 * opened elsewhere). Nothing the session opened outlives it but the window the person
 * asked to keep, so a page left open cannot go on where the run's fence no longer
 * reaches. A tab the person opened in the window is not the session's and stays (the
 * window closes with its last tab). Returns the last record.
 * @param {string | undefined} sessionId
 * @param {{ keepWindow?: boolean }} [options]
 * @returns {Promise<Session>}
 */
export function closeSession(sessionId, { keepWindow = false } = {}) {
  return withSessions(async (sessions) => {
    const session = pickSession(sessions, sessionId);
    delete sessions[session.id];
    const closeWindow = !keepWindow && !session.closed;
    // A tab already closed (by the person, or by its page) reads as null.
    const tabs = await Promise.all(session.tabIds.map((id) => chrome.tabs.get(id).catch(() => null)));
    const toClose = tabs.flatMap((t) => (t?.id !== undefined && (closeWindow || t.windowId !== session.windowId) ? [t.id] : []));
    // One by one: a list with a tab that went meanwhile would be refused whole. Each
    // close is bounded (close-tab.js): a page asking "leave this page?" cannot hold the
    // lock, and with it the next run and the fence's removal.
    await Promise.all(toClose.map((tabId) => closeTabNow(tabId)));
    return session;
  });
}

/**
 * Closes an agent's session left without its run (the worker stopped while starting
 * it), if it is still there: every tab it opened goes. A person's session is theirs and
 * is never closed this way. Returns whether one was closed.
 * @param {string} sessionId
 * @returns {Promise<boolean>}
 */
export async function closeLeftSession(sessionId) {
  const session = (await readSessions())[sessionId];
  if (!session || session.human) return false;
  await closeSession(sessionId);
  return true;
}

/**
 * The tabs of a session in session order, with what Chrome knows of each. A tab whose
 * first navigation has not committed yet has an empty `url` and its target in
 * `pendingUrl`; that target is the tab's URL as far as anyone reading the list cares.
 * @param {Session} session
 */
export async function describeTabs(session) {
  const tabs = await Promise.all(
    session.tabIds.map((tabId) => chrome.tabs.get(tabId).catch(() => null)),
  );
  return session.tabIds.map((tabId, index) => ({
    index,
    tabId,
    url: tabs[index]?.url || tabs[index]?.pendingUrl || '',
    title: tabs[index]?.title ?? '',
    current: tabId === session.currentTabId,
  }));
}

/**
 * What a page sees of a session (no internal bookkeeping).
 * @param {Session} session
 */
export function sessionView(session) {
  const { id, windowId, tabIds, currentTabId, step, startedAt, taskId, closed, answer } = session;
  return { id, windowId, tabIds, currentTabId, step, startedAt, taskId, closed, answer };
}

// --- Membership changes (idempotent: several events may report the same tab) --------

/**
 * @param {Session} session
 * @param {number | undefined} tabId
 */
export function addTab(session, tabId) {
  if (tabId !== undefined && !session.tabIds.includes(tabId)) session.tabIds.push(tabId);
}

/**
 * @param {Session} session
 * @param {number} tabId
 */
function removeTab(session, tabId) {
  session.tabIds = session.tabIds.filter((id) => id !== tabId);
  if (session.currentTabId === tabId) session.currentTabId = session.tabIds.at(-1) ?? null;
}

/**
 * @param {number} sourceTabId
 * @param {number} tabId
 */
function joinByOpener(sourceTabId, tabId) {
  return withSessions((sessions) => {
    const session = sessionOfTab(sessions, sourceTabId);
    if (session) addTab(session, tabId);
  });
}

const logFailure = (/** @type {string} */ what) => (/** @type {unknown} */ error) => console.error(`hopbench: ${what} failed:`, error);

/** Registers the session listeners; call once, synchronously, at the worker's top level. */
export function registerSessionListeners() {
  // target=_blank links and window.open, including popups in a window of their own.
  chrome.webNavigation.onCreatedNavigationTarget.addListener(({ sourceTabId, tabId }) => {
    joinByOpener(sourceTabId, tabId).catch(logFailure('adding an opened tab'));
  });
  chrome.tabs.onCreated.addListener((tab) => {
    withSessions((sessions) => {
      // A tab one of the session's pages opened is the session's. A tab opened in the
      // session's window by nobody's page is the person's doing: in a person's session
      // it is theirs to record (their new_tab); in an agent's run it is not the run's
      // (the agent's own new_tab adds its tab itself, act/actions.js), so it is neither
      // fenced nor closed with the run.
      const session =
        (tab.openerTabId !== undefined ? sessionOfTab(sessions, tab.openerTabId) : undefined) ??
        Object.values(sessions).find((s) => s.human && s.windowId === tab.windowId && !s.closed);
      if (session) addTab(session, tab.id);
    }).catch(logFailure('adding a created tab'));
  });
  chrome.tabs.onActivated.addListener(({ tabId, windowId }) => {
    withSessions(async (sessions) => {
      const session = sessionOfTab(sessions, tabId);
      if (!session) return;
      // Events wait for the lock, so this one may be stale: windows.create activates
      // each start tab in turn before openSession makes the first one current. The
      // window's active tab now is the truth; the event only says to look.
      const [active] = await chrome.tabs.query({ active: true, windowId });
      const current = active?.id ?? tabId;
      if (session.tabIds.includes(current)) session.currentTabId = current;
    }).catch(logFailure('following the active tab'));
  });
  // Chrome swaps a tab it discards (Memory Saver, tabs.discard) or prerenders for one
  // under a new id: the run's tab keeps its place, so it is still the run's to act in
  // and to close at the end (the fence follows it too: fence.js).
  chrome.tabs.onReplaced.addListener((addedTabId, removedTabId) => {
    withSessions((sessions) => {
      const session = sessionOfTab(sessions, removedTabId);
      if (!session) return;
      session.tabIds = session.tabIds.map((id) => (id === removedTabId ? addedTabId : id));
      if (session.currentTabId === removedTabId) session.currentTabId = addedTabId;
    }).catch(logFailure('following a replaced tab'));
  });
  chrome.tabs.onRemoved.addListener((tabId) => {
    withSessions((sessions) => {
      const session = sessionOfTab(sessions, tabId);
      if (!session) return null;
      removeTab(session, tabId);
      if (session.tabIds.length > 0 || session.closed) return null;
      session.closed = true;
      return session.id;
    })
      // Announced once the session is stored closed, outside the sessions' lock.
      .then((closedId) => (closedId ? sessionClosed.emit({ sessionId: closedId }) : undefined))
      .catch(logFailure('removing a closed tab'));
  });
}
