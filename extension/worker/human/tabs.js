// What a person does outside the page, seen from chrome.tabs and webNavigation, as
// actions of a recording session: a new tab (new_tab), switching tabs (tab_focus),
// closing one (close_tab), a URL typed in the address bar (goto), Back and Forward
// (go_back, go_forward). Tabs that only follow from another action are not actions: a
// tab a link opened, the tab Chrome activates after a new tab or a close.
//
// Also keeps the recorder and the standing observation up to date: a tab joining a
// recording session gets the recorder; a page change or a tab switch means the
// session's current tab is observed again.

import { recordAction } from './session.js';
import { scheduleObservation } from './record.js';
import { send } from '../cdp/cdp.js';
import { onPageChangeReports } from '../page/changes.js';
import { installRecorder } from './recorder.js';
import { readSessions, sessionOfTab } from '../session/sessions.js';

/** Activations within this time of a tab's creation or of a close are Chrome's, not the person's. */
const FOLLOW_MS = 1000;
/** tabId → when it was created; windowId → when one of its tabs was closed. */
/** @type {Map<number, number>} */
const created = new Map();
/** @type {Map<number, number>} */
const closed = new Map();
/** tabId → the index of its current history entry, to tell Back from Forward. */
/** @type {Map<number, number>} */
const historyIndex = new Map();

/**
 * @typedef {import('../session/sessions.js').Session} Session
 */

/**
 * @param {Record<string, Session>} sessions
 * @param {number} tabId
 */
const humanSession = (sessions, tabId) => {
  const session = sessionOfTab(sessions, tabId);
  return session?.human ? session : null;
};
/**
 * @param {Record<string, Session>} sessions
 * @param {number} windowId
 */
const humanSessionInWindow = (sessions, windowId) =>
  Object.values(sessions).find((s) => s.windowId === windowId && s.human) ?? null;

/** @param {number} tabId */
async function currentHistoryIndex(tabId) {
  const { currentIndex } = await send(tabId, 'Page.getNavigationHistory');
  return currentIndex;
}

const logFailure = (/** @type {string} */ what) => (/** @type {unknown} */ error) => console.error(`hopbench: ${what} failed:`, error);

/**
 * Call once, synchronously, at the worker's top level (after the session listeners).
 */
export function registerHumanTabListeners() {
  chrome.tabs.onCreated.addListener((tab) => {
    if (tab.id !== undefined) created.set(tab.id, Date.now());
    // A tab a page opened (a link, window.open) follows from that action.
    if (tab.openerTabId === undefined) {
      recordAction({ windowId: tab.windowId }, { kind: 'new_tab', t: Date.now() }).catch(logFailure('recording a new tab'));
    }
    joinRecording(tab).catch(logFailure('recording in a new tab'));
  });

  chrome.tabs.onActivated.addListener(({ tabId, windowId }) => {
    const followsCreation = Date.now() - (created.get(tabId) ?? 0) < FOLLOW_MS;
    const followsClose = Date.now() - (closed.get(windowId) ?? 0) < FOLLOW_MS;
    readSessions()
      .then((sessions) => {
        const session = humanSession(sessions, tabId) ?? humanSessionInWindow(sessions, windowId);
        if (!session) return null;
        scheduleObservation(session.id, 300);
        if (followsCreation || followsClose) return null;
        // The index the agent's tab_focus would use: the session's tab order.
        const index = session.tabIds.indexOf(tabId);
        if (index < 0) return null;
        return recordAction({ windowId }, { kind: 'tab_focus', index, t: Date.now() });
      })
      .catch(logFailure('recording a tab switch'));
  });

  chrome.tabs.onRemoved.addListener((tabId, { windowId, isWindowClosing }) => {
    closed.set(windowId, Date.now());
    created.delete(tabId);
    historyIndex.delete(tabId);
    if (isWindowClosing) return; // The whole window: the session's end (human/session.js).
    recordAction({ windowId }, { kind: 'close_tab', t: Date.now() }).catch(logFailure('recording a closed tab'));
  });

  onPageChangeReports((details, change) => {
    onNavigation(details, change).catch(logFailure('recording a navigation'));
  });

}

/**
 * A tab opened in a person's session window, or by one of its pages, gets the
 * recorder. Looked up by window and opener: the session listeners may not have added
 * the tab to the session yet.
 * @param {chrome.tabs.Tab} tab
 */
async function joinRecording(tab) {
  const session = Object.values(await readSessions()).find(
    (s) =>
      s.human && s.human.phase !== 'ended' && !s.closed &&
      (s.windowId === tab.windowId || (tab.openerTabId !== undefined && s.tabIds.includes(tab.openerTabId))),
  );
  if (session && tab.id !== undefined) await installRecorder(tab.id);
}

/**
 * A URL change of a session tab: the person's own navigation if they typed the URL
 * (goto) or went Back or Forward; any change means observing again. The person's
 * navigation takes its step in this listener, before any await: the hop tracker's
 * listener for the same event (registered after this one) must see the new step.
 * @param {import('../page/changes.js').ChangeDetails} details
 * @param {import('../page/changes.js').ChangeKind} change
 */
function onNavigation(details, change) {
  const qualifiers = details.transitionQualifiers ?? [];
  const backOrForward = qualifiers.includes('forward_back');
  const typed =
    change === 'load' &&
    (['typed', 'generated', 'keyword', 'auto_bookmark'].includes(details.transitionType) || qualifiers.includes('from_address_bar'));
  const where = { tabId: details.tabId };
  const recorded =
    backOrForward || typed
      ? recordAction(where, backOrForward ? backOrForwardReport(details.tabId) : { kind: 'goto', url: details.url, t: Date.now() })
      : Promise.resolve(null);
  return Promise.all([recorded, observeAfter(details.tabId, backOrForward)]);
}

/**
 * Back or Forward: which one, from the history index before and after.
 * @param {number} tabId
 * @returns {Promise<import('./recorder.js').Report>}
 */
async function backOrForwardReport(tabId) {
  const before = historyIndex.get(tabId);
  const now = await currentHistoryIndex(tabId).catch(() => undefined);
  if (now !== undefined) historyIndex.set(tabId, now);
  const kind = before !== undefined && now !== undefined && now > before ? 'go_forward' : 'go_back';
  return { kind, t: Date.now() };
}

/**
 * @param {number} tabId
 * @param {boolean} indexRead
 */
async function observeAfter(tabId, indexRead) {
  const session = humanSession(await readSessions(), tabId);
  if (!session) return;
  if (session.currentTabId === tabId) scheduleObservation(session.id, 300);
  if (!indexRead) {
    const index = await currentHistoryIndex(tabId).catch(() => undefined);
    if (index !== undefined) historyIndex.set(tabId, index);
  }
}
