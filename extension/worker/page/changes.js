// What counts as a page change of a tab: the one rule hop tracking (session/hops.js) and
// settling (act/settle.js) share.
//
// MMInA credits hops from the URL the browser shows after each step, so a URL the page
// sets itself counts like a page load. Chrome reports a main-frame URL change through
// one of three webNavigation events:
//   onCommitted                 a new document (link, form, goto, reload, back/forward)
//   onHistoryStateUpdated       history.pushState / replaceState, or back/forward
//                               between such entries (same document)
//   onReferenceFragmentUpdated  a #fragment change (same document): hash routers, the
//                               Kiwix viewer's /viewer#book/A/Article
// (No onBeforeNavigate and no onCompleted accompany the two same-document events.)
//
// Chrome also reports things that are not changes: replaceState with the URL the page
// is already on (routers store view state that way, often right after a load or a
// pushState), pushState to the same URL, back/forward between two entries of one URL.
// A report is a change when it names a (document, URL) pair other than the last one
// taken for that tab: a new document is always one, even at the same URL (a reload
// shows the page again), and within a document only a different URL is.

/** [webNavigation event name, change kind] for every event that reports a URL change. */
/**
 * @typedef {chrome.webNavigation.WebNavigationTransitionCallbackDetails} ChangeDetails
 *   what the three events report (each event's details have these fields)
 * @typedef {'onCommitted' | 'onHistoryStateUpdated' | 'onReferenceFragmentUpdated'} ChangeEvent
 * @typedef {'load' | 'history' | 'fragment'} ChangeKind
 * @typedef {{ documentId: string | null, url: string }} Page
 */

/** @type {ReadonlyArray<readonly [ChangeEvent, ChangeKind]>} */
export const PAGE_CHANGE_EVENTS = Object.freeze([
  ['onCommitted', 'load'],
  ['onHistoryStateUpdated', 'history'],
  ['onReferenceFragmentUpdated', 'fragment'],
]);

/**
 * Registers `listener(details, kind)` on the three events; returns a function that
 * removes them again. Reports of subframes and of prerendered documents (pages the
 * person has not seen yet) never reach the listener.
 * @param {(details: ChangeDetails, kind: ChangeKind) => void} listener
 * @returns {() => void}
 */
export function onPageChangeReports(listener) {
  const registered = PAGE_CHANGE_EVENTS.map(([name, kind]) => {
    const fn = (/** @type {ChangeDetails} */ details) => {
      if (details.frameId !== 0 || details.documentLifecycle === 'prerender') return;
      listener(details, kind);
    };
    chrome.webNavigation[name].addListener(fn);
    return /** @type {const} */ ([chrome.webNavigation[name], fn]);
  });
  return () => {
    for (const [event, fn] of registered) event.removeListener(fn);
  };
}

/**
 * What a report says the tab shows: `{documentId, url}` (storable as JSON).
 * @param {{ documentId?: string, url: string }} details
 * @returns {Page}
 */
export function pageOf(details) {
  return { documentId: details.documentId ?? null, url: details.url };
}

/**
 * Whether `details` reports something other than `last` (a `pageOf` value or null).
 * @param {Page | null | undefined} last
 * @param {{ documentId?: string, url: string }} details
 */
export function isPageChange(last, details) {
  if (!last) return true;
  return last.url !== details.url || last.documentId !== (details.documentId ?? null);
}
