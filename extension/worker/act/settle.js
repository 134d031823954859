// Waiting until a page settles after an action, on what the action caused rather than
// on fixed quiet periods.
//
// Settled means, all at once: no main-frame navigation in flight in the watched tabs
// (started → committed → load event or failure, seen through webNavigation; URL changes
// the page makes itself, pushState and #fragment, are recorded too), no network
// request in flight and none started for a short window (CDP Network events), and no
// DOM mutation for a short window (MutationObserver in content/act.js, started in a new
// document as soon as it commits). The DOM check runs alongside the network window, not
// after it. Last, the page must have caught up with the worker's clock (its timers
// already due have run, and their requests are reported: `pageCaughtUp`). An action
// that caused none of these returns after the first windows; a timeout bounds the wait.
//
// The windows depend on the action (`WINDOWS`): a click or a navigation shows its
// effect at once (a request, a navigation, a mutation within a few ms), so 40 ms of
// calm is enough; keys typed without Enter feed widgets that wait before they react (a
// suggestion list debounced by ~100 ms, MediaWiki's jquery.suggestions waits 120 ms),
// so they get 150 ms windows. Typing that ends with Enter submits: the navigation or
// the request it starts is waited for like a click's. The result says which signal
// ended the wait (`endedBy`), for the step's record.
//
// The listeners here are added for one wait and removed after it. That is safe in an
// MV3 worker: an ACT message is being answered, which keeps the worker alive, and no
// state outlives the wait. (Listeners that must wake the worker are the top-level
// ones in session/sessions.js and session/hops.js.)

import { attach, childSessions, send } from '../cdp/cdp.js';
import { isPageChange, onPageChangeReports, pageOf } from '../page/changes.js';
import { callActScriptIn, injectActScript } from './page-script.js';
import { requestKey, trackRequest } from '../page/requests.js';
import { wakeable } from './wakeable.js';

export const DEFAULT_SETTLE_TIMEOUT_MS = 5000;
/**
 * Quiet windows by kind of action: `quick` for actions whose effects start at once,
 * `typing` for keys (widgets debounce them).
 * @typedef {{ networkQuietMs: number, domQuietMs: number }} Windows
 * @type {Readonly<Record<'quick' | 'typing', Windows>>}
 */
export const WINDOWS = Object.freeze({
  quick: Object.freeze({ networkQuietMs: 40, domQuietMs: 40 }),
  typing: Object.freeze({ networkQuietMs: 150, domQuietMs: 150 }),
});
/**
 * Both windows once a navigation's load event was the last signal. By then the document
 * is parsed, its subresources are in and its load handlers have run; what they start
 * (a request, a mutation, a 0 ms timer's work) shows within a few ms, so waiting the
 * action's whole window again after the load would only add time to every page change.
 */
export const AFTER_LOAD_MS = 20;
/**
 * How long before the network window ends the DOM check is asked for: about its round
 * trips to the page (a tab lookup and an executeScript: 8–20 ms measured). Earlier, a
 * page sending a request every few ms would have a check started (and left behind) for
 * each one.
 */
const DOM_CHECK_LEAD_MS = 15;

/**
 * The longest the last check waits for the page to catch up (`pageCaughtUp`): a page
 * busier than that is left as it is, as before the check.
 */
const CATCH_UP_MAX_MS = 500;

/**
 * @typedef {import('../page/changes.js').ChangeDetails} ChangeDetails
 * @typedef {{ tabId: number, url: string, change: string, transition: string }} Navigation
 * @typedef {{ checked: boolean, quiet: boolean, waitedMs: number, alongsideMs: number, sawMutation?: boolean,
 *   note?: string }} DomCheck `waitedMs`: how long the page waited for quiet; `alongsideMs`: how
 *   much of the network window was still to run when the check started
 * @typedef {'nothing' | 'load' | 'url' | 'network' | 'dom' | 'timeout'} EndedBy what ended the
 *   wait: `nothing` (the action caused no navigation, request or mutation), `load` (a
 *   navigation's load event or failure), `url` (a same-document URL change), `network`
 *   (the last request finished), `dom` (the DOM went quiet), `timeout`
 * @typedef {{ ms: number, totalMs: number, waitedFor: string[], endedBy: EndedBy,
 *   windows: Windows, navigations: Navigation[], requests: number, timedOut: boolean,
 *   pending?: { requests: number, navigations: number[], domQuiet: boolean }, note?: string,
 *   sinceArmedMs: number, signalMs: number | null }} Settle `signalMs`: when the last
 *   signal (load event, request end, URL change) came, after the action; the rest of
 *   `ms` went to the quiet windows and the DOM check. `null`: nothing came.
 * @typedef {{ finish(options?: { timeoutMs?: number, domTabId?: number,
 *   windows?: Windows }): Promise<Settle> }} Settler
 */

/**
 * A listener on one chrome event, added and removed together.
 * @template F
 * @param {{ addListener(fn: F): void, removeListener(fn: F): void }} event
 * @param {F} fn
 * @returns {{ add(): void, remove(): void }}
 */
function listening(event, fn) {
  return { add: () => event.addListener(fn), remove: () => event.removeListener(fn) };
}

/**
 * Starts watching a tab before the action, so requests and navigations the action
 * starts are all seen. Call `finish()` after the action.
 * @param {number} tabId
 * @returns {Promise<Settler>}
 */
export async function beginSettle(tabId) {
  const started = performance.now();
  const watched = new Set([tabId]);
  /** @type {Set<string>} */
  const inflight = new Set();
  /** When each document request in flight started (keys as inflight's). */
  /** @type {Map<string, number>} */
  const documentsStarted = new Map();
  /** The time of each watched tab's last main-frame load event (or load failure). */
  /** @type {Map<number, number>} */
  const loadedAt = new Map();
  /** @type {Set<number>} */
  const pendingNavigations = new Set();
  /** @type {Navigation[]} */
  const navigations = [];
  let requestsSeen = 0;
  let lastActivity = started;
  /** @type {Exclude<EndedBy, 'dom' | 'timeout'>} */
  let lastKind = 'nothing';
  // The wait in finish() sleeps until its window ends or a signal comes.
  const waiting = wakeable();
  /** @param {Exclude<EndedBy, 'nothing' | 'dom' | 'timeout'>} kind */
  const touch = (kind) => {
    lastActivity = performance.now();
    lastKind = kind;
    waiting.wake();
  };

  /**
   * @param {chrome.debugger.DebuggerSession} source
   * @param {string} method
   * @param {{ requestId?: string, type?: string, initiator?: { type?: string } } | undefined} params
   */
  const onCdpEvent = (source, method, params) => {
    if (source.tabId === undefined || !watched.has(source.tabId)) return;
    const change = trackRequest(inflight, source, method, params);
    if (!change) return;
    if (change === 'started') {
      requestsSeen += 1;
      if (params?.type === 'Document') documentsStarted.set(requestKey(source, params), performance.now());
    } else if (endedBeforeItsLoad(requestKey(source, params), source.tabId)) {
      return;
    }
    touch('network');
  };
  /**
   * Whether the request that ended is a document whose tab had a load event after the
   * document started: the debugger's events and webNavigation's come on separate
   * channels, and that load event already said the document was complete, so its
   * late report is not a new signal (a plain page's settle would otherwise end "by
   * the network").
   * @param {string} key
   * @param {number} tabId
   */
  const endedBeforeItsLoad = (key, tabId) => {
    const startedAt = documentsStarted.get(key);
    if (startedAt === undefined) return false;
    documentsStarted.delete(key);
    return (loadedAt.get(tabId) ?? -Infinity) >= startedAt;
  };
  /**
   * Starts a new document's mutation watch as soon as it commits, so the watch sees
   * the page build itself and load: by its load event the DOM window measures the
   * page's own last change. (Started at the load event instead, the watch only knew
   * its own injection time, and the DOM window ran 20 ms from that, after the load.)
   * @param {number} tabId
   * @param {string} url
   */
  const watchNewDocument = (tabId, url) => {
    if (!isScriptable(url)) return;
    injectActScript(tabId, [0]).catch((error) =>
      // Replaced again already, or not scriptable: the final check injects it.
      console.debug('hopbench: early DOM watch not started:', /** @type {Error} */ (error).message),
    );
  };
  const isWatchedMainFrame = (/** @type {{ tabId: number, frameId: number }} */ d) => watched.has(d.tabId) && d.frameId === 0;
  const onBefore = (/** @type {chrome.webNavigation.WebNavigationBaseCallbackDetails} */ d) => {
    if (!isWatchedMainFrame(d)) return;
    pendingNavigations.add(d.tabId);
    touch('load');
  };
  // Every URL change (page/changes.js): loads, pushState, #fragment. Same-document
  // changes have no onBeforeNavigate/onCompleted, so they are never pending; the page
  // reacts to them in place (new content, requests), which the network and DOM
  // windows below wait for. A report of the page the tab already shows (replaceState
  // to the same URL) is activity, not a change.
  /** @type {Map<number, import('../page/changes.js').Page>} */
  const pages = new Map();
  /**
   * @param {ChangeDetails} d
   * @param {import('../page/changes.js').ChangeKind} change
   */
  const onPageChange = (d, change) => {
    if (!watched.has(d.tabId)) return;
    // A committed load is waited for to its load event (onDone); a same-document
    // change is complete when reported.
    touch(pendingNavigations.has(d.tabId) ? 'load' : 'url');
    if (change === 'load') watchNewDocument(d.tabId, d.url);
    if (!isPageChange(pages.get(d.tabId), d)) return;
    pages.set(d.tabId, pageOf(d));
    navigations.push({ tabId: d.tabId, url: d.url, change, transition: d.transitionType });
  };
  const onDone = (/** @type {{ tabId: number, frameId: number, url: string }} */ d) => {
    if (!isWatchedMainFrame(d)) return;
    pendingNavigations.delete(d.tabId);
    loadedAt.set(d.tabId, performance.now());
    touch('load');
  };
  // A tab the action opens (target=_blank, window.open) is waited for too.
  const onNewTarget = (/** @type {chrome.webNavigation.WebNavigationSourceCallbackDetails} */ d) => {
    if (!watched.has(d.sourceTabId)) return;
    watched.add(d.tabId);
    pendingNavigations.add(d.tabId);
    touch('load');
  };
  const listeners = [
    listening(chrome.debugger.onEvent, onCdpEvent),
    listening(chrome.webNavigation.onBeforeNavigate, onBefore),
    listening(chrome.webNavigation.onCompleted, onDone),
    listening(chrome.webNavigation.onErrorOccurred, onDone),
    listening(chrome.webNavigation.onCreatedNavigationTarget, onNewTarget),
  ];
  for (const listener of listeners) listener.add();
  const removePageListeners = onPageChangeReports(onPageChange);
  const removeListeners = () => {
    for (const listener of listeners) listener.remove();
    removePageListeners();
  };
  try {
    // What the tab shows now, so a report of the same page is not taken for a change.
    const shown = await chrome.webNavigation.getFrame({ tabId, frameId: 0 });
    if (shown && !pages.has(tabId)) pages.set(tabId, pageOf(shown));
    await attach(tabId);
    await enableNetwork(tabId);
  } catch (error) {
    removeListeners(); // No wait follows: nothing else would remove them.
    throw error;
  }
  const sinceStart = () => performance.now() - started;

  return {
    /**
     * Waits until settled or `timeoutMs` after the action; `tabId` is the tab whose
     * DOM must be quiet (the acted tab, or the tab an action switched to).
     */
    async finish({ timeoutMs = DEFAULT_SETTLE_TIMEOUT_MS, domTabId = tabId, windows = WINDOWS.quick } = {}) {
      const actionDone = performance.now();
      const deadline = actionDone + timeoutMs;
      /** @type {DomCheck} */
      let dom = { checked: false, quiet: false, waitedMs: 0, alongsideMs: 0 };
      const busy = () => inflight.size > 0 || pendingNavigations.size > 0;
      try {
        for (;;) {
          const now = performance.now();
          if (now >= deadline) break;
          if (busy()) {
            // In flight: until the next signal.
            await waiting.sleep(deadline - now);
            continue;
          }
          const current = windowsAfter(windows, lastKind, lastActivity > actionDone);
          const networkLeftMs = (/** @type {number} */ at) =>
            current.networkQuietMs - (at - Math.max(lastActivity, actionDone));
          if (networkLeftMs(now) > DOM_CHECK_LEAD_MS) {
            // Until the DOM check is due (or a signal comes).
            await waiting.sleep(Math.min(networkLeftMs(now) - DOM_CHECK_LEAD_MS, deadline - now));
            continue;
          }
          // The DOM check starts now and runs alongside what is left of the network
          // window, so its round trips to the page do not come after that window.
          const before = lastActivity;
          const alongsideMs = Math.max(0, networkLeftMs(now));
          const domP = domQuiet(domTabId, current.domQuietMs, deadline - now);
          for (;;) {
            const at = performance.now();
            const left = Math.min(networkLeftMs(at), deadline - at);
            if (lastActivity !== before || busy() || left <= 0) break;
            await waiting.sleep(left);
          }
          // A signal came during the window: this check says nothing about what follows
          // (and one in a document being replaced may take a while to fail), so it is
          // left to end by itself and the wait goes on from the signal. It never rejects.
          if (lastActivity !== before || busy()) continue;
          dom = { ...(await domP), alongsideMs };
          // Settled only if the network stayed quiet through its window and the DOM check,
          if (lastActivity !== before || busy() || networkLeftMs(performance.now()) > 0) continue;
          // and once the page has caught up with the worker's clock.
          await pageCaughtUp(tabId, Math.min(CATCH_UP_MAX_MS, deadline - performance.now()));
          if (lastActivity === before && !busy()) break;
        }
      } finally {
        removeListeners();
      }
      const end = performance.now();
      const timedOut =
        end >= deadline && (inflight.size > 0 || pendingNavigations.size > 0 || !dom.quiet);
      return {
        ms: Math.round(end - actionDone),
        totalMs: Math.round(end - started),
        waitedFor: [
          ...(navigations.length > 0 ? ['navigation'] : []),
          ...(requestsSeen > 0 ? ['network'] : []),
          ...(dom.checked ? ['dom'] : []),
        ],
        endedBy: endedBy(timedOut, dom, lastKind, lastActivity > actionDone),
        windows,
        navigations,
        requests: requestsSeen,
        timedOut,
        ...(timedOut
          ? { pending: { requests: inflight.size, navigations: [...pendingNavigations], domQuiet: dom.quiet } }
          : {}),
        ...(dom.note ? { note: dom.note } : {}),
        sinceArmedMs: Math.round(sinceStart()),
        signalMs: lastActivity > actionDone ? Math.round(lastActivity - actionDone) : null,
      };
    },
  };
}

/**
 * The windows that apply now: the action's, or the shorter ones once a load event
 * was the last signal after the action (AFTER_LOAD_MS).
 * @param {Windows} windows
 * @param {Exclude<EndedBy, 'dom' | 'timeout'>} lastKind
 * @param {boolean} activeAfterAction
 * @returns {Windows}
 */
function windowsAfter(windows, lastKind, activeAfterAction) {
  if (!activeAfterAction || lastKind !== 'load') return windows;
  return {
    networkQuietMs: Math.min(windows.networkQuietMs, AFTER_LOAD_MS),
    domQuietMs: Math.min(windows.domQuietMs, AFTER_LOAD_MS),
  };
}

/**
 * Which signal ended the wait: the DOM check when it had to wait for mutations to
 * stop, else the last activity seen (if any came after the action).
 * @param {boolean} timedOut
 * @param {DomCheck} dom
 * @param {Exclude<EndedBy, 'dom' | 'timeout'>} lastKind
 * @param {boolean} activeAfterAction
 * @returns {EndedBy}
 */
function endedBy(timedOut, dom, lastKind, activeAfterAction) {
  if (timedOut) return 'timeout';
  // The DOM check runs alongside the network window: it ended the wait only if it
  // went on more than a moment past that window, and waited for mutations to stop
  // only if it saw one (a script injected just before counts its own injection as
  // the last change).
  if (dom.checked && dom.waitedMs - dom.alongsideMs > 5 && dom.sawMutation) return 'dom';
  return activeAfterAction ? lastKind : 'nothing';
}

/**
 * Waits until the page has run the timers already due and its events have come: a
 * 0 ms timer set from the debugger fires after every timer due before it, and the
 * debugger's reply comes after the events the page sent before it. The windows are
 * timed by the worker's clock, and the page's can be behind: a long task after the
 * load event delays a timer the load handler set, and the DOM check's answer comes on
 * another channel than the debugger's events. Without this, a request the page starts
 * late from such a timer could be missed, and the observation taken before its data.
 * A page that cannot be reached, or is still busy after `maxMs`, is left as it is.
 * @param {number} tabId
 * @param {number} maxMs
 */
async function pageCaughtUp(tabId, maxMs) {
  const waiting = wakeable();
  send(tabId, 'Runtime.evaluate', {
    expression: 'new Promise((resolve) => setTimeout(resolve, 0))',
    awaitPromise: true,
    returnByValue: true,
    silent: true,
  })
    .catch((error) => {
      // A tab closed or navigating: the navigation listeners see the rest.
      console.debug('hopbench: settle could not reach the page:', /** @type {Error} */ (error).message);
    })
    .finally(() => waiting.wake());
  await waiting.sleep(maxMs);
}

/** Network events for the tab and its out-of-process frames. */
/** @param {number} tabId */
async function enableNetwork(tabId) {
  await send(tabId, 'Network.enable');
  for (const child of await childSessions(tabId)) {
    await send(tabId, 'Network.enable', {}, child.sessionId).catch((error) =>
      // A frame that went away since it was recorded has no requests to wait for.
      console.debug('hopbench: Network.enable in an iframe session failed:', /** @type {Error} */ (error).message),
    );
  }
}

/**
 * DOM quiet in the tab's main frame for `quietMs`; pages the extension cannot script
 * are skipped.
 * @param {number} tabId
 * @param {number} quietMs
 * @param {number} maxMs
 * @returns {Promise<Omit<DomCheck, 'alongsideMs'>>}
 */
async function domQuiet(tabId, quietMs, maxMs) {
  let tab;
  try {
    tab = await chrome.tabs.get(tabId);
  } catch {
    return { checked: false, quiet: true, waitedMs: 0, note: `tab ${tabId} closed` };
  }
  if (!isScriptable(tab.url)) {
    return { checked: false, quiet: true, waitedMs: 0, note: `no DOM check on ${tab.url || 'a blank tab'}` };
  }
  try {
    const result = await callActScriptIn(tabId, 0, 'quietFor', [quietMs, Math.max(0, maxMs)]);
    return { checked: true, quiet: result.quiet, waitedMs: result.waitedMs ?? 0, sawMutation: result.sawMutation };
  } catch (error) {
    // The document was replaced during the check: the navigation listeners saw it, and
    // the loop checks the new document next.
    return { checked: false, quiet: false, waitedMs: 0, note: `DOM check interrupted: ${/** @type {Error} */ (error).message}` };
  }
}

/**
 * Pages the act script can run in: the extension scripts http(s) pages only.
 * @param {string | undefined} url
 */
function isScriptable(url) {
  return /^https?:/.test(url ?? '');
}

