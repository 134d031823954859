// Pages the browser could not load, as the browser itself says (docs/agent-run.md
// "Pages that do not load"). A refused connection, an unknown host or a timeout shows
// Chrome's error page, which an agent would otherwise observe, fail on and be blamed
// for. webNavigation.onErrorOccurred reports the failure of every main-frame
// navigation with Chrome's own net error (`net::ERR_CONNECTION_REFUSED`); the failures
// of session tabs are kept per session in the store (store/keys.js pageErrors), and the run driver
// ends the run as `error` with that text.
//
// Asking the browser rather than resolving names ourselves is the point: Chromium maps
// every `*.localhost` name to loopback, and a person's proxy, PAC file or VPN DNS
// decides what loads; only the browser knows.

import { pageErrors } from '../../store/keys.js';
import { read, remove, write } from '../../store/store.js';
import { sessionOfTab, withSessions } from '../session/sessions.js';
import { addNotice } from './notices.js';

/**
 * Navigation errors that are not a page failing to load:
 * - `net::ERR_ABORTED`: the navigation was replaced or cancelled (another navigation,
 *   a download, a 204 answer, Chrome's own retry of an error page);
 * - `net::ERR_HTTP_RESPONSE_CODE_FAILURE`: the server answered with an error status
 *   and no body; it answered, so the page is the agent's to deal with, like any 404;
 * - `net::ERR_BLOCKED_BY_CLIENT`: an extension blocked the request on purpose.
 */
const NOT_UNREACHABLE = new Set(['net::ERR_ABORTED', 'net::ERR_HTTP_RESPONSE_CODE_FAILURE', 'net::ERR_BLOCKED_BY_CLIENT']);

/**
 * Failures that say the site itself is not answering (nothing listens, the connection
 * broke, the name or the network is gone): the run cannot go on there, and ends saying
 * so. Any other failure after the first action (a redirect loop, a broken response, a
 * certificate the browser refuses) is the page's, shown as the browser's error page: the
 * agent is told, sees what a person sees, and goes on (go_back, another link).
 */
const SITE_DOWN = new Set([
  'net::ERR_CONNECTION_REFUSED',
  'net::ERR_CONNECTION_RESET',
  'net::ERR_CONNECTION_CLOSED',
  'net::ERR_CONNECTION_FAILED',
  'net::ERR_CONNECTION_TIMED_OUT',
  'net::ERR_TIMED_OUT',
  'net::ERR_ADDRESS_UNREACHABLE',
  'net::ERR_NAME_NOT_RESOLVED',
  'net::ERR_INTERNET_DISCONNECTED',
  'net::ERR_NETWORK_CHANGED',
]);

/**
 * Whether the failure ends the run: any failure of a start page (step 0: there is no
 * page to go on from), else only the site not answering.
 * @param {PageError} failure
 */
export function endsRun(failure) {
  return failure.step === 0 || SITE_DOWN.has(failure.error);
}

/**
 * @typedef {{ tabId: number, url: string, error: string, step: number, at: number }} PageError
 *   `step`: the session's step when it happened (0: before any action, a start page)
 */

/** Registers the listener; call once, synchronously, at the worker's top level. */
export function registerPageErrorListeners() {
  chrome.webNavigation.onErrorOccurred.addListener((details) => {
    if (details.frameId !== 0 || details.documentLifecycle === 'prerender') return;
    if (NOT_UNREACHABLE.has(details.error)) return;
    // Under the session lock, requested now: the failure is stored before any later
    // reader of the lock (pageErrorsOf) looks, and a start tab that fails before
    // windows.create returns finds its session once openSession releases the lock.
    withSessions(async (sessions) => {
      const session = sessionOfTab(sessions, details.tabId);
      if (!session) return; // The person's own browsing.
      const errors = (await read(pageErrors(session.id))) ?? [];
      /** @type {PageError} */
      const failure = { tabId: details.tabId, url: details.url, error: details.error, step: session.step, at: Date.now() };
      errors.push(failure);
      await write(pageErrors(session.id), errors);
      // One the run goes on from is told to the agent with the next observation.
      if (!endsRun(failure)) await addNotice(session, { kind: 'load_failed', url: failure.url, error: failure.error, tabId: failure.tabId });
    }).catch((error) => console.error('hopbench: recording a page that did not load failed:', error));
  });
}

/**
 * The session's failed page loads, oldest first. Read under the session lock, so a
 * failure Chrome reported before this call is in the list.
 * @param {string} sessionId
 * @returns {Promise<PageError[]>}
 */
export function pageErrorsOf(sessionId) {
  return withSessions(async () => {
    return (await read(pageErrors(sessionId))) ?? [];
  });
}

/** @param {string} sessionId */
export function forgetPageErrors(sessionId) {
  return remove(pageErrors(sessionId));
}

/**
 * The run's error for a failed load: `start URL unreachable: <url> (<net error>)` before
 * any action, else `page unreachable: <url> (<net error>) after the action of step N`.
 * @param {PageError} failure
 */
export function unreachableText(failure) {
  return failure.step === 0
    ? `start URL unreachable: ${failure.url} (${failure.error})`
    : `page unreachable: ${failure.url} (${failure.error}) after the action of step ${failure.step}`;
}
