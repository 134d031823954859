// What a session's pages did that an agent cannot see in the page itself, and that
// would otherwise hold or puzzle it: JavaScript dialogs (alert, confirm, prompt,
// beforeunload), downloads, and file choosers. Each is a "notice", kept per session in
// the store (store/keys.js pageNotices) with the step it came in, for the step's
// record (`notices`) and the agent's next observation (in words).
//
// Dialogs block their page: every DevTools command to it waits, so before this a click
// whose handler called alert() held the run's step for good. With the Page domain on
// (cdp/cdp.js attach), Chrome tells the debugger of each dialog before it shows it:
// - in an agent's session the dialog is answered at once: dismissed as MMInA's
//   harness (Playwright's default) does, but "leave this page?", which is accepted
//   (the agent's navigation leaves, as that harness leaves);
// - in a person's session it is left to the person (Chrome shows it as usual) and
//   recorded with how they answered once it closes.
// A file chooser is intercepted in an agent's session (an agent cannot pick a file,
// and a native chooser would wait for someone who is not there); a person's opens as
// usual. A download goes where the browser puts downloads, and is noted (from the
// downloads API: DevTools' download events are not an extension's to have).

import { pageNotices } from '../../store/keys.js';
import { read, remove, write } from '../../store/store.js';
import { attach, send } from '../cdp/cdp.js';
import { readSessions, sessionOfTab, withSessions } from '../session/sessions.js';

/**
 * @typedef {'alert' | 'confirm' | 'prompt' | 'beforeunload'} DialogType
 * @typedef {{ kind: 'dialog', type: DialogType, message: string,
 *   answer: 'dismissed' | 'accepted' | 'left to the person' }
 *   | { kind: 'download', file: string }
 *   | { kind: 'file_chooser', answer: 'closed' | 'left to the person' }
 *   | { kind: 'tab_closed' }
 *   | { kind: 'load_failed', error: string }
 *   | { kind: 'print' }} NoticeKind
 * @typedef {NoticeKind & { tabId: number, url: string, step: number, at: number, told?: boolean }} PageNotice
 *   `step`: the session's step when it came (0: before any action, a start page);
 *   a person's dialog's `answer` becomes 'accepted' or 'dismissed' once it closes;
 *   `told`: an observation has told the agent of it (takeUntold)
 */

/** @type {ReadonlySet<string>} */
const TYPES = new Set(['alert', 'confirm', 'prompt', 'beforeunload']);

/**
 * The notices being handled: a reader waits for them, because the page may go on (a
 * dialog answered, a download started) before this worker has written the notice
 * down; the step that set it off must still find it.
 * @type {Set<Promise<unknown>>}
 */
const handling = new Set();

/** @param {Promise<unknown>} work @param {string} what */
function track(work, what) {
  const logged = work.catch((error) => console.error(`hopbench: ${what} failed:`, error));
  handling.add(logged);
  logged.finally(() => handling.delete(logged));
}

/**
 * Tabs an agent's close_tab is closing: their removal is its action, not news.
 * @type {Set<number>}
 */
const closingByAction = new Set();

/** close_tab marks the tab it is about to close (act/actions.js). @param {number} tabId */
export function closingTab(tabId) {
  closingByAction.add(tabId);
}

/**
 * A tab of an agent's session that closed without its close_tab: its own page called
 * window.close(), or a person closed it. The agent finds another tab current and is
 * told why. Must be registered before the session listeners (session/sessions.js),
 * whose own onRemoved takes the tab out of its session: this one's lock request then
 * comes first and still finds the tab there. (A person's closed tab is their
 * close_tab action, human/tabs.js; a whole window closing is the run stopping.)
 */
function registerTabListeners() {
  chrome.tabs.onRemoved.addListener((tabId, info) => {
    if (closingByAction.delete(tabId) || info.isWindowClosing) return;
    track(
      withSessions(async (sessions) => {
        const session = sessionOfTab(sessions, tabId);
        if (!session || session.human !== undefined || session.tabIds.length <= 1) return;
        await addNotice(session, { kind: 'tab_closed', url: '', tabId });
      }),
      'recording a closed tab',
    );
  });
}

/** Registers the listeners; call once, synchronously, at the worker's top level, before registerSessionListeners. */
export function registerNoticeListeners() {
  registerTabListeners();
  // What a tab was prepared with lives as long as the debugger's attach: Chrome may
  // detach it (another extension's frame appeared), and the next action prepares the
  // tab again.
  chrome.debugger.onDetach.addListener((source) => {
    if (source.tabId !== undefined) prepared.delete(source.tabId);
  });
  registerDownloadListeners();
  chrome.debugger.onEvent.addListener((source, method, raw) => {
    const tabId = source.tabId;
    if (tabId === undefined) return;
    const params = /** @type {{ type?: string, message?: string, url?: string, result?: boolean } | undefined} */ (raw);
    if (method === 'Page.javascriptDialogOpening') {
      track(dialogOpened(tabId, source.sessionId, params), 'handling a page dialog');
    } else if (method === 'Page.javascriptDialogClosed') {
      track(dialogClosed(tabId, params?.result === true), 'recording a closed dialog');
    } else if (method === 'Runtime.bindingCalled' && (/** @type {{ name?: string }} */ (raw))?.name === PRINT_BINDING) {
      track(note(tabId, () => ({ kind: 'print', url: '' })), 'recording a print dialog');
    } else if (method === 'Page.fileChooserOpened') {
      // Only an agent's tabs intercept choosers (prepareAgentTab), so this is one.
      track(note(tabId, () => ({ kind: 'file_chooser', answer: 'closed', url: '' })), 'recording a file chooser');
    }
  });
}

/**
 * Downloads: the downloads API does not say which tab a download came from, so it is
 * given to the session whose tab shows the page it was started from (its referrer).
 * Noted as it is created, so the step that started it has it: its file name is
 * settled later (and under Playwright is a random one), so the URL's last part names
 * it. Needs the "downloads" permission; DevTools' download events are browser-level,
 * which an extension's debugger may not use.
 */
function registerDownloadListeners() {
  chrome.downloads.onCreated.addListener((item) => {
    track(noteDownload(item.finalUrl || item.url, item.referrer ?? ''), 'recording a download');
  });
}

/**
 * @param {string} url what is downloaded
 * @param {string} referrer the page it was started from
 */
async function noteDownload(url, referrer) {
  if (!referrer) return;
  const page = referrer.split('#')[0];
  const tabIds = Object.values(await readSessions()).flatMap((s) => s.tabIds);
  const tabs = await Promise.all(tabIds.map((id) => chrome.tabs.get(id).catch(() => null)));
  const tab = tabs.find((t) => t?.url?.split('#')[0] === page);
  if (tab?.id === undefined) return; // The person's own browsing.
  let file = '';
  try {
    file = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    // A URL that does not parse (a blob: or data: URL's odd cases) names no file.
  }
  await note(tab.id, () => ({ kind: 'download', file, url }));
}

/**
 * The session a tab is in, looked up without the lock first: a page waits until its
 * dialog is answered, so the answer must not queue behind whoever holds the lock. A
 * tab not found yet may be a start tab whose session is being opened: the lock waits
 * for that.
 * @param {number} tabId
 */
async function sessionFor(tabId) {
  return sessionOfTab(await readSessions(), tabId) ?? (await withSessions(async (sessions) => sessionOfTab(sessions, tabId)));
}

/**
 * Adds a notice to the session of `tabId` (none for a tab outside every session).
 * @param {number} tabId
 * @param {(human: boolean) => NoticeKind & { url: string }} make
 */
async function note(tabId, make) {
  await withSessions(async (sessions) => {
    const session = sessionOfTab(sessions, tabId);
    if (!session) return;
    /** @type {PageNotice} */
    const notice = { ...make(session.human !== undefined), tabId, step: session.step, at: Date.now() };
    const list = (await read(pageNotices(session.id))) ?? [];
    await write(pageNotices(session.id), [...list, notice]);
  });
}

/**
 * Adds a notice to `session` (the caller holds the session lock and found it): a page
 * of the session that did not load (page/errors.js).
 * @param {import('../session/sessions.js').Session} session
 * @param {NoticeKind & { url: string, tabId: number }} kind
 */
export async function addNotice(session, kind) {
  /** @type {PageNotice} */
  const notice = { ...kind, step: session.step, at: Date.now() };
  await write(pageNotices(session.id), [...((await read(pageNotices(session.id))) ?? []), notice]);
}

/**
 * @param {number} tabId
 * @param {string | undefined} childSession the out-of-process frame it came from, if any
 * @param {{ type?: string, message?: string, url?: string } | undefined} params
 */
async function dialogOpened(tabId, childSession, params) {
  const type = /** @type {DialogType} */ (TYPES.has(params?.type ?? '') ? params?.type : 'alert');
  const found = await sessionFor(tabId);
  if (!found) return; // A tab of the person's own browsing: not ours to answer.
  const human = found.human !== undefined;
  // An agent's "leave this page?" is accepted: the agent's own navigation (a goto, a
  // link, go_back) leaves the page, as MMInA's Playwright harness leaves it. Dismissing
  // it kept the agent on the page for good (every goto met the same dialog) and held
  // the close of the run's tabs. Every other dialog is dismissed: an alert is closed, a
  // confirm or prompt answers "cancel".
  const accept = type === 'beforeunload';
  if (!human) {
    try {
      await send(tabId, 'Page.handleJavaScriptDialog', { accept }, childSession);
    } catch (error) {
      // Another debugger client (the runner's Playwright dismisses dialogs too) may
      // have answered first: the dialog is gone either way.
      if (!/no dialog is showing/i.test(String(error))) throw error;
    }
  }
  await note(tabId, () => ({
    kind: 'dialog',
    type,
    message: String(params?.message ?? ''),
    url: String(params?.url ?? ''),
    answer: human ? 'left to the person' : accept ? 'accepted' : 'dismissed',
  }));
}

/**
 * A person's dialog closed: how they answered it.
 * @param {number} tabId
 * @param {boolean} accepted
 */
async function dialogClosed(tabId, accepted) {
  await withSessions(async (sessions) => {
    const session = sessionOfTab(sessions, tabId);
    if (!session?.human) return;
    const list = (await read(pageNotices(session.id))) ?? [];
    const open = list.findLastIndex((n) => n.tabId === tabId && n.kind === 'dialog' && n.answer === 'left to the person');
    const dialog = list[open];
    if (dialog?.kind !== 'dialog') return;
    list[open] = { ...dialog, answer: accepted ? 'accepted' : 'dismissed' };
    await write(pageNotices(session.id), list);
  });
}

/** The binding an agent's page calls instead of opening the print dialog. */
const PRINT_BINDING = 'hopbenchPrintAsked';

/**
 * Runs in an agent's page (every document, before its scripts): window.print() tells
 * the worker instead of opening the print preview, which in a person's Chrome blocks
 * the page until someone closes it. The binding is taken off the window, so the
 * page's own scripts meet it only through print().
 */
const PRINT_SOURCE = `(() => {
  const tell = globalThis.${PRINT_BINDING};
  if (typeof tell !== 'function') return;
  delete globalThis.${PRINT_BINDING};
  Object.defineProperty(window, 'print', { configurable: true, writable: true, value: function print() { tell('print'); } });
})();`;

/**
 * Tabs prepared in this worker's life (memory only: a restarted worker prepares a tab
 * once more, which repeats harmless, idempotent steps).
 * @type {Set<number>}
 */
const prepared = new Set();

/**
 * An agent's tab, before each action on its page: a file chooser the action opens is
 * reported instead of shown (no one is there to pick a file), and window.print() is
 * reported instead of opening the print preview. Chrome then opens neither.
 * @param {number} tabId
 */
export async function prepareAgentTab(tabId) {
  await attach(tabId);
  await send(tabId, 'Page.setInterceptFileChooserDialog', { enabled: true });
  if (prepared.has(tabId)) return;
  await send(tabId, 'Runtime.enable');
  await send(tabId, 'Runtime.addBinding', { name: PRINT_BINDING });
  await send(tabId, 'Page.addScriptToEvaluateOnNewDocument', { source: PRINT_SOURCE });
  // The document already there gets it too.
  await send(tabId, 'Runtime.evaluate', { expression: PRINT_SOURCE });
  prepared.add(tabId);
}

/**
 * The session's notices, oldest first, once those being handled are written, read
 * under the session lock (what Chrome reported before this call is in the list).
 * @param {string} sessionId
 * @returns {Promise<PageNotice[]>}
 */
export async function noticesOf(sessionId) {
  await Promise.all([...handling]);
  return withSessions(async () => (await read(pageNotices(sessionId))) ?? []);
}

/**
 * The notices no observation has told yet, now marked told: each is told once, in the
 * first observation after it came, however late it came (a download Chrome creates
 * after the action that started it has settled is told one observation later).
 * @param {string} sessionId
 * @returns {Promise<PageNotice[]>}
 */
export async function takeUntold(sessionId) {
  await Promise.all([...handling]);
  return withSessions(async () => {
    const list = (await read(pageNotices(sessionId))) ?? [];
    const untold = list.filter((n) => !n.told);
    if (untold.length > 0) await write(pageNotices(sessionId), list.map((n) => ({ ...n, told: true })));
    return untold;
  });
}

/** @param {string} sessionId */
export function forgetNotices(sessionId) {
  return remove(pageNotices(sessionId));
}

/**
 * A notice in words, for the agent's next observation:
 * `The page opened an alert dialog saying "Saved." (dismissed).`
 * @param {PageNotice} notice
 */
export function noticeWords(notice) {
  switch (notice.kind) {
    case 'dialog': {
      if (notice.type === 'beforeunload' && notice.answer === 'accepted') {
        return 'The page asked "leave this page?" (it had changes not saved); it was left, and what was typed there is gone.';
      }
      const what = notice.type === 'beforeunload' ? 'a "leave this page?" dialog' : `a${notice.type === 'alert' ? 'n' : ''} ${notice.type} dialog`;
      const said = notice.message ? ` saying ${JSON.stringify(notice.message)}` : '';
      return `The page opened ${what}${said} (${notice.answer}).`;
    }
    case 'download':
      return `The page started a download${notice.file ? ` of ${JSON.stringify(notice.file)}` : ''} (${notice.url}); downloaded files are not shown to you.`;
    case 'file_chooser':
      return 'The page opened a file chooser; no file can be chosen here, so it was closed.';
    case 'print':
      return 'The page asked to print; printing is not available here, so no print dialog was opened.';
    case 'load_failed':
      return `The page ${notice.url} did not load (${notice.error}); the browser shows its error page instead.`;
    case 'tab_closed':
      return 'A tab of this task was closed, not by your actions (its page closed itself, or a person closed it); the tabs line shows the tabs left.';
  }
}

/**
 * The record's form of a notice: what it was and the step whose action set it off,
 * without the bookkeeping.
 * @param {PageNotice} notice
 */
export function noticeRecord(notice) {
  /** @type {Record<string, unknown>} */
  const record = { ...notice };
  for (const key of ['tabId', 'at', 'told']) delete record[key];
  return record;
}
