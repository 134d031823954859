// JavaScript dialogs (alert, confirm, prompt, beforeunload) opened by a session's pages.
//
// A dialog blocks its page: every DevTools command to it waits, so before this a click
// whose handler called alert() held the run's step for good. With the Page domain on
// (cdp/cdp.js attach), Chrome tells the debugger of each dialog before it shows it:
// - in an agent's session the dialog is answered at once, dismissed as MMInA's
//   harness (Playwright's default) does, and the agent is told in its next
//   observation what the dialog said and what was done with it;
// - in a person's session it is left to the person (Chrome shows it as usual) and
//   only recorded, with how the person answered once it closes.
// Either way each one is kept per session in the store (store/keys.js pageDialogs),
// with the step it came in, for the step's record and the next observation.

import { pageDialogs } from '../../store/keys.js';
import { read, remove, write } from '../../store/store.js';
import { send } from '../cdp/cdp.js';
import { readSessions, sessionOfTab, withSessions } from '../session/sessions.js';

/**
 * @typedef {'alert' | 'confirm' | 'prompt' | 'beforeunload'} DialogType
 * @typedef {{ tabId: number, type: DialogType, message: string, url: string, step: number,
 *   answer: 'dismissed' | 'accepted' | 'left to the person', at: number }} PageDialog
 *   `step`: the session's step when it opened (0: before any action, a start page);
 *   `answer` for a person's dialog becomes 'accepted' or 'dismissed' once it closes
 */

/** @type {ReadonlySet<string>} */
const TYPES = new Set(['alert', 'confirm', 'prompt', 'beforeunload']);

/** Registers the listener; call once, synchronously, at the worker's top level. */
export function registerDialogListeners() {
  chrome.debugger.onEvent.addListener((source, method, raw) => {
    const tabId = source.tabId;
    if (tabId === undefined) return;
    const params = /** @type {{ type?: string, message?: string, url?: string, result?: boolean } | undefined} */ (raw);
    if (method === 'Page.javascriptDialogOpening') {
      track(opened(tabId, source.sessionId, params).catch((error) => console.error('hopbench: handling a page dialog failed:', error)));
    } else if (method === 'Page.javascriptDialogClosed') {
      track(closed(tabId, params?.result === true).catch((error) => console.error('hopbench: recording a closed dialog failed:', error)));
    }
  });
}

/**
 * The dialogs being handled: a reader waits for them, because another debugger client
 * (the runner's Playwright) may answer a dialog, and the page go on, before this
 * worker has written it down; the step that set it off must still find it.
 * @type {Set<Promise<unknown>>}
 */
const handling = new Set();

/** @param {Promise<unknown>} work */
function track(work) {
  handling.add(work);
  work.finally(() => handling.delete(work));
}

/**
 * @param {number} tabId
 * @param {string | undefined} childSession the out-of-process frame it came from, if any
 * @param {{ type?: string, message?: string, url?: string } | undefined} params
 */
async function opened(tabId, childSession, params) {
  const type = /** @type {DialogType} */ (TYPES.has(params?.type ?? '') ? params?.type : 'alert');
  // Looked up without the lock first: the page waits until the dialog is answered,
  // so the answer must not queue behind whoever holds the lock. A tab not found yet
  // may be a start tab whose session is being opened: the lock waits for that.
  const found = sessionOfTab(await readSessions(), tabId) ?? (await withSessions(async (sessions) => sessionOfTab(sessions, tabId)));
  if (!found) return; // A tab of the person's own browsing: not ours to answer.
  const human = found.human !== undefined;
  if (!human) {
    // Dismissed: an alert is closed, a confirm or prompt answers "cancel", a
    // beforeunload keeps the page (the navigation is then the agent's to retry).
    try {
      await send(tabId, 'Page.handleJavaScriptDialog', { accept: false }, childSession);
    } catch (error) {
      // Another debugger client (the runner's Playwright dismisses dialogs too) may
      // have answered first: the dialog is gone either way.
      if (!/no dialog is showing/i.test(String(error))) throw error;
    }
  }
  await withSessions(async (sessions) => {
    const session = sessionOfTab(sessions, tabId) ?? found;
    /** @type {PageDialog} */
    const dialog = {
      tabId,
      type,
      message: String(params?.message ?? ''),
      url: String(params?.url ?? ''),
      step: session.step,
      answer: human ? 'left to the person' : 'dismissed',
      at: Date.now(),
    };
    const list = (await read(pageDialogs(session.id))) ?? [];
    await write(pageDialogs(session.id), [...list, dialog]);
  });
}

/**
 * A person's dialog closed: how they answered it.
 * @param {number} tabId
 * @param {boolean} accepted
 */
async function closed(tabId, accepted) {
  await withSessions(async (sessions) => {
    const session = sessionOfTab(sessions, tabId);
    if (!session?.human) return;
    const list = (await read(pageDialogs(session.id))) ?? [];
    const open = list.findLastIndex((d) => d.tabId === tabId && d.answer === 'left to the person');
    if (open < 0) return;
    list[open] = { ...list[open], answer: accepted ? 'accepted' : 'dismissed' };
    await write(pageDialogs(session.id), list);
  });
}

/**
 * The session's dialogs, oldest first, once those being handled are written, read
 * under the session lock (a dialog Chrome reported before this call is in the list).
 * @param {string} sessionId
 * @returns {Promise<PageDialog[]>}
 */
export async function dialogsOf(sessionId) {
  await Promise.all([...handling]);
  return withSessions(async () => (await read(pageDialogs(sessionId))) ?? []);
}

/** @param {string} sessionId */
export function forgetDialogs(sessionId) {
  return remove(pageDialogs(sessionId));
}

/**
 * A dialog in words, for the agent's next observation and the step's record:
 * `an alert saying "Saved." (dismissed)`.
 * @param {PageDialog} dialog
 */
export function dialogWords(dialog) {
  const what = dialog.type === 'beforeunload' ? 'a "leave this page?" dialog' : `a${dialog.type === 'alert' ? 'n' : ''} ${dialog.type} dialog`;
  const said = dialog.message ? ` saying ${JSON.stringify(dialog.message)}` : '';
  return `${what}${said} (${dialog.answer})`;
}
