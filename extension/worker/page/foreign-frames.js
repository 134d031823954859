// Other extensions' frames in a session's tab (content/foreign-frames.js says why they
// must go): taken out before the tab is observed, and whenever Chrome refuses the
// debugger because of one (cdp/cdp.js asks through `whenForeignFramesRefuse`). Only a
// session's tabs: the person's own tabs keep every frame their extensions show, and a
// debugger refused there says why.

import { CommandTimeout } from '../cdp/cdp.js';
import { readSessions, sessionOfTab } from '../session/sessions.js';

const SCRIPT = 'content/foreign-frames.js';
/** How long the frames' sweep may take before the caller goes on without it. */
const SWEEP_BOUND_MS = 2_000;

/**
 * Takes the frames of other extensions out of every frame of a session's tab; returns
 * how many its documents have lost so far, or null for a tab outside every session (or
 * one whose page no extension may script: nothing was changed there). Throws a
 * CommandTimeout for a loaded page too busy to run the script.
 * @param {number} tabId
 * @returns {Promise<number | null>}
 */
export async function takeOutForeignFrames(tabId) {
  if (!sessionOfTab(await readSessions(), tabId)) return null;
  try {
    const injected = chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: [SCRIPT], injectImmediately: true });
    const results = await Promise.race([injected, new Promise((resolve) => setTimeout(() => resolve(null), SWEEP_BOUND_MS))]);
    if (!Array.isArray(results)) {
      injected.catch(() => undefined);
      // A tab whose next document has not arrived (a server that never answers) holds
      // the injection until it does: there is nothing to take out yet. A loaded page
      // that does not run it is busy, as every DevTools command to it would find.
      const tab = await chrome.tabs.get(tabId).catch(() => null);
      if (tab?.status === 'complete') throw new CommandTimeout(`timeout: tab ${tabId} did not run a script in ${SWEEP_BOUND_MS / 1000} s (the page is busy or blocked)`);
      return null;
    }
    return results.reduce((sum, r) => sum + (typeof r.result === 'number' ? r.result : 0), 0);
  } catch (error) {
    if (error instanceof CommandTimeout) throw error;
    // A page no extension may script (chrome://, the Web Store, a blank tab not yet
    // committed) holds no frame this could take out.
    console.debug(`hopbench: no frames taken out of tab ${tabId}:`, /** @type {Error} */ (error).message);
    return null;
  }
}

/**
 * The observation's line for frames taken out of the page, or '' when none were.
 * @param {number | null} count
 */
export function foreignFramesLine(count) {
  if (!count) return '';
  return count === 1
    ? '(1 frame of another extension: not observed)'
    : `(${count} frames of other extensions: not observed)`;
}
