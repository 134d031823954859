// Closing a session's tab without waiting on its page.
//
// chrome.tabs.remove runs the page's beforeunload handlers first. A page that asks
// "leave this page?" (any form a person or an agent typed into, once the page has seen
// a trusted gesture) then holds the removal until someone answers the dialog, and the
// promise does not settle: before this, ending such a session waited for good while
// holding the sessions lock, so the next run never started and the run's fence stayed.
// chrome.windows.remove is no better: it resolves while the window stays open.
//
// So the tab's page is closed over the debugger with Target.closeTarget, which closes
// it without running beforeunload (its unload handlers still run; measured on Chromium
// 156: the tab is gone at once and no dialog shows). Closing first the plain way and
// forcing only when a dialog held it is worse: a "leave this page?" shown and then
// closed under it leaves a DevTools client such as the runner's Playwright unable to
// close its browser. Where the debugger cannot reach the tab (the attach refused), the
// tab is removed the plain way, given a short while; a page that still holds it is
// discarded (no handler runs either; Chrome replaces it with an empty tab) and that
// one removed.

import { attach, send } from '../cdp/cdp.js';

/** How long a plain removal may take before the tab is discarded. */
const CLOSE_PATIENCE_MS = 1_500;
/** How long each other way gets before the next is tried. */
const FORCE_BOUND_MS = 3_000;

/**
 * Closes the tab; resolves once it is gone (or the last way failed, which is logged).
 * Never waits on the page longer than the bounds of the ways it tries.
 * @param {number} tabId
 * @returns {Promise<'closed' | 'removed' | 'discarded' | 'gone' | 'left open'>} how it went
 */
export async function closeTabNow(tabId) {
  if (!(await exists(tabId))) return 'gone';
  try {
    await within(closeTarget(tabId), FORCE_BOUND_MS);
    if (await goneSoon(tabId)) return 'closed';
  } catch (error) {
    // "Detached while handling command" is the close itself tearing the session down.
    if (!(await exists(tabId))) return 'closed';
    console.warn(`hopbench: closing tab ${tabId} over the debugger failed; removing it instead:`, error);
  }
  const removal = chrome.tabs.remove(tabId).then(
    () => true,
    // A tab gone meanwhile has nothing left to close.
    () => false,
  );
  if ((await within(removal, CLOSE_PATIENCE_MS)) !== undefined || !(await exists(tabId))) return 'removed';
  try {
    const replaced = await within(chrome.tabs.discard(tabId), FORCE_BOUND_MS);
    const id = replaced?.id ?? tabId;
    await within(chrome.tabs.remove(id), FORCE_BOUND_MS);
    if (await goneSoon(id)) return 'discarded';
  } catch (error) {
    console.error(`hopbench: tab ${tabId} could not be closed (its page holds it):`, error);
  }
  return 'left open';
}

/** @param {number} tabId */
async function closeTarget(tabId) {
  await attach(tabId);
  const target = (await chrome.debugger.getTargets()).find((t) => t.tabId === tabId && t.type === 'page');
  if (!target) throw new Error(`tab ${tabId} has no page target`);
  await send(tabId, 'Target.closeTarget', { targetId: target.id });
}

/** @param {number} tabId */
async function exists(tabId) {
  return (await chrome.tabs.get(tabId).catch(() => null)) !== null;
}

/**
 * Whether the tab is gone within a moment (Chrome answers a close before its tab list
 * has caught up).
 * @param {number} tabId
 */
async function goneSoon(tabId) {
  for (let i = 0; i < 20; i += 1) {
    if (!(await exists(tabId))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/**
 * `work`'s value, or undefined once `ms` have passed (the work goes on unwatched; its
 * late failure is handled).
 * @template T
 * @param {Promise<T>} work
 * @param {number} ms
 * @returns {Promise<T | undefined>}
 */
function within(work, ms) {
  work.catch(() => undefined);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return /** @type {Promise<T | undefined>} */ (Promise.race([work, late]).finally(() => clearTimeout(timer)));
}
