// Discarding a tab as Chrome's Memory Saver does (chrome.tabs.discard). In the browsers
// the runner starts (runner/browser.mjs, WebContentsDiscard) the tab keeps its id;
// where Chrome replaces it, it has a new one. For the tests of who a discarded tab
// belongs to.

import assert from 'node:assert/strict';

/**
 * Discards the tab showing `url` (exactly) and returns its id after the discard,
 * asserting Chrome discarded it. `where`: an extension page or the worker, to call
 * chrome.tabs from.
 * @param {{ evaluate: (fn: (url: string) => Promise<{ id?: number, discarded?: boolean } | null>, arg: string) => Promise<{ id?: number, discarded?: boolean } | null> }} where
 * @param {string} url
 * @returns {Promise<number>}
 */
export async function discardTab(where, url) {
  const after = await where.evaluate(async (wanted) => {
    const tab = (await chrome.tabs.query({})).find((t) => t.url === wanted);
    const discarded = await chrome.tabs.discard(/** @type {number} */ (tab?.id));
    return discarded ? { id: discarded.id, discarded: discarded.discarded } : null;
  }, url);
  assert.equal(typeof after?.id, 'number', `Chrome discarded the tab showing ${url}`);
  assert.equal(after?.discarded, true, `Chrome says the tab showing ${url} is discarded`);
  return /** @type {number} */ (after?.id);
}
