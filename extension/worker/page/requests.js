// The page's requests in flight, as the waits for a page to settle (act/settle.js) and for
// what a focus loads (act/focus-loads.js) count them from CDP Network events.

// Long-lived connections never finish; waiting for them would always time out.
const NEVER_FINISH = new Set(['WebSocket', 'EventSource', 'Ping']);

/**
 * A request the page made and whose end is worth waiting for. Left out: connections
 * that never finish, and what the browser fetches by itself for the tab (the favicon,
 * requested just after the load event): it never changes the page, and on every first
 * visit of a site it would restart the quiet window after the load.
 * @param {{ type?: string, initiator?: { type?: string } } | undefined} params
 *   `Network.requestWillBeSent`'s
 */
export function isPageWork(params) {
  const type = params?.type ?? '';
  if (NEVER_FINISH.has(type)) return false;
  return !(type === 'Other' && params?.initiator?.type === 'other');
}

/**
 * A request's key: its session and id (ids repeat across iframe sessions).
 * @param {chrome.debugger.DebuggerSession} source
 * @param {{ requestId?: string } | undefined} params
 */
export function requestKey(source, params) {
  return `${source.sessionId ?? ''}/${params?.requestId}`;
}

/**
 * Feeds one `chrome.debugger.onEvent` event to `inflight`, the keys (requestKey) of
 * the page's requests in flight.
 * @param {Set<string>} inflight
 * @param {chrome.debugger.DebuggerSession} source
 * @param {string} method
 * @param {{ requestId?: string, type?: string, initiator?: { type?: string } } | undefined} params
 * @returns {'started' | 'ended' | null} what the event changed, if anything
 */
export function trackRequest(inflight, source, method, params) {
  const key = requestKey(source, params);
  if (method === 'Network.requestWillBeSent') {
    if (!isPageWork(params)) return null;
    inflight.add(key);
    return 'started';
  }
  if ((method === 'Network.loadingFinished' || method === 'Network.loadingFailed') && inflight.delete(key)) return 'ended';
  return null;
}
