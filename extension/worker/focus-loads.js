// What a page loads because a field got the focus, waited for before the first key.
//
// Some pages fetch the code behind a widget only when it is focused: MediaWiki's
// search box loads its suggestion script on focus (50-200 ms here), and only that
// script makes Enter open the article instead of the full-text results. A person
// clicks, then starts typing a few hundred milliseconds later, by which time it has
// arrived; typing at machine speed right after the click would reach a different page
// than the person does. So: watch the requests from just before the focus; if the
// focus started any, wait (bounded) until they are done and no new one follows. A
// focus that loads nothing costs one short quiet window.

import { send } from './cdp.js';

/** How long after the focus (or the last request) a new request still counts. */
export const FOCUS_QUIET_MS = 60;
/** The longest the typing waits for what the focus loads. */
export const FOCUS_LOADS_MAX_MS = 1500;

// Long-lived connections never finish (as in settle.js).
const IGNORED_TYPES = new Set(['WebSocket', 'EventSource', 'Ping']);

/**
 * Starts watching the tab's requests (call before focusing); `wait()` after the focus
 * returns `{requests, ms, timedOut}`.
 * @param {number} tabId
 * @returns {Promise<{ wait(): Promise<{ requests: number, ms: number, timedOut: boolean }> }>}
 */
export async function watchFocusLoads(tabId) {
  /** @type {Set<string>} */
  const inflight = new Set();
  let requests = 0;
  let lastActivity = performance.now();
  /**
   * @param {chrome.debugger.DebuggerSession} source
   * @param {string} method
   * @param {{ requestId?: string, type?: string } | undefined} params
   */
  const onEvent = (source, method, params) => {
    if (source.tabId !== tabId) return;
    const key = `${source.sessionId ?? ''}/${params?.requestId}`;
    if (method === 'Network.requestWillBeSent' && !IGNORED_TYPES.has(params?.type ?? '')) {
      inflight.add(key);
      requests += 1;
      lastActivity = performance.now();
    } else if ((method === 'Network.loadingFinished' || method === 'Network.loadingFailed') && inflight.delete(key)) {
      lastActivity = performance.now();
    }
  };
  chrome.debugger.onEvent.addListener(onEvent);
  try {
    await send(tabId, 'Network.enable');
  } catch (error) {
    chrome.debugger.onEvent.removeListener(onEvent);
    throw error;
  }
  return {
    async wait() {
      const started = performance.now();
      try {
        for (;;) {
          const now = performance.now();
          if (now - started >= FOCUS_LOADS_MAX_MS) return { requests, ms: Math.round(now - started), timedOut: true };
          if (inflight.size === 0 && now - Math.max(lastActivity, started) >= FOCUS_QUIET_MS) {
            return { requests, ms: Math.round(now - started), timedOut: false };
          }
          await new Promise((resolve) => setTimeout(resolve, 15));
        }
      } finally {
        chrome.debugger.onEvent.removeListener(onEvent);
      }
    },
  };
}
