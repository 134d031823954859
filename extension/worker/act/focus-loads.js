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

import { send } from '../cdp/cdp.js';
import { trackRequest } from '../page/requests.js';
import { wakeable } from './wakeable.js';

/** How long after the focus (or the last request) a new request still counts. */
export const FOCUS_QUIET_MS = 60;
/** The longest the typing waits for what the focus loads. */
export const FOCUS_LOADS_MAX_MS = 1500;

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
  const waiting = wakeable();
  /**
   * @param {chrome.debugger.DebuggerSession} source
   * @param {string} method
   * @param {{ requestId?: string, type?: string, initiator?: { type?: string } } | undefined} params
   */
  const onEvent = (source, method, params) => {
    if (source.tabId !== tabId) return;
    const change = trackRequest(inflight, source, method, params);
    if (change === 'started') requests += 1;
    if (change) {
      lastActivity = performance.now();
      waiting.wake();
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
          const quietFor = now - Math.max(lastActivity, started);
          if (inflight.size === 0 && quietFor >= FOCUS_QUIET_MS) {
            return { requests, ms: Math.round(now - started), timedOut: false };
          }
          // Until the quiet window ends, the next request event or the limit.
          const limit = FOCUS_LOADS_MAX_MS - (now - started);
          await waiting.sleep(inflight.size > 0 ? limit : Math.min(FOCUS_QUIET_MS - quietFor, limit));
        }
      } finally {
        chrome.debugger.onEvent.removeListener(onEvent);
      }
    },
  };
}
