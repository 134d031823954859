// Discarding a tab as Chrome's Memory Saver does (chrome.tabs.discard): the tab is
// replaced under a new id. For the tests of who a replaced tab belongs to.

import assert from 'node:assert/strict';

/**
 * Discards the tab showing `url` (exactly) and returns its new id, asserting Chrome
 * gave one. `where`: an extension page or the worker, to call chrome.tabs from.
 * @param {{ evaluate: (fn: (url: string) => Promise<(number | undefined)[]>, arg: string) => Promise<(number | undefined)[]> }} where
 * @param {string} url
 * @returns {Promise<number>}
 */
export async function discardTab(where, url) {
  const [before, after] = await where.evaluate(async (wanted) => {
    const tab = (await chrome.tabs.query({})).find((t) => t.url === wanted);
    const discarded = await chrome.tabs.discard(/** @type {number} */ (tab?.id));
    return [tab?.id, discarded?.id];
  }, url);
  assert.equal(typeof after, 'number', 'Chrome discarded the tab');
  assert.notEqual(after, before, 'Chrome gave the discarded tab a new id');
  return /** @type {number} */ (after);
}
