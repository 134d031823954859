// The site fence of a run in the person's browser: top-level navigations of the run's
// tabs to origins outside the task's sites are blocked before the request leaves the
// browser (declarativeNetRequest session rules, fence/rules.js), and the agent is told.
//
// Lifecycle (run/service.js, run/finish.js): `installFence` before the session
// window opens (so even its first tabs are fenced), `bindFence` once the session
// exists, `removeFence` when the run ends. Tabs are classified as they are created: a
// tab opened by one of the run's tabs is the run's, and so is one the run creates
// itself (`claimTab`, the agent's new_tab); any other, even one the person opens in the
// run's window, is someone else's and is excluded from the rules. Until then a new tab
// is fenced too; a navigation of someone else's tab blocked in that moment is replayed
// once the tab is classified (so the person's own browsing is not held up).
//
// State lives in the store's session area (store/keys.js FENCES) under one Web Lock
// (the worker may be stopped between events; the rules themselves persist in Chrome
// for the browser session).
//
// A worker stopped between `installFence` and the run's start (its window, its record
// among the active runs) leaves a fence no run will remove. So every worker start
// sweeps (`sweepFences`, called at the top level, which takes the lock before any
// message can start a run): a fence whose session has no active run is removed with
// its rules (after the window that run had opened, if any, is closed), the navigations
// it held are given back, and session rules no fence owns go too. Install and bind are
// thereby one step as far as the person can tell: either the run starts, or the next
// worker start lifts the fence.

import { FENCES, FENCES_GONE } from '../../store/keys.js';
import { read, write } from '../../store/store.js';
import { blockedMessage, fenceAllows, fenceRules } from './rules.js';

const LOCK = 'hopbench.fences';
const BLOCKED_BY_CLIENT = 'net::ERR_BLOCKED_BY_CLIENT';
/** Blocked navigations kept per fence for the step results (the last few suffice). */
const MAX_BLOCKED = 20;
/** Replays remembered (to replay each navigation once); older ones are long settled. */
const MAX_REPLAYED = 100;
/**
 * How long after a fence went a "blocked" event may still be its doing: Chrome reports
 * a blocked navigation a moment after blocking it, and the fence may go in between.
 */
const LATE_BLOCK_MS = 10_000;

/**
 * Remembers the fences just removed (under the fences' lock): when, and the tabs that
 * were their runs'. Kept in the store, not in this worker: a page may end a fence too,
 * and the worker may stop in between.
 * @param {Fence[]} removed
 */
async function rememberRemoved(removed) {
  const at = Date.now();
  const last = await read(FENCES_GONE);
  const recent = last && at - last.at <= LATE_BLOCK_MS ? last : { at, runTabs: [], replayed: [] };
  await write(FENCES_GONE, {
    at,
    runTabs: [...recent.runTabs, ...removed.flatMap((f) => f.own)].slice(-MAX_REPLAYED),
    replayed: recent.replayed,
  });
}

/**
 * @typedef {{ sessionId: string, origins: string[], ruleIds: number[], windowId: number|null,
 *   own: number[], excluded: number[], blocked: Blocked[], held: Blocked[],
 *   replayed: string[] }} Fence
 *   `own`: the run's tabs; `excluded`: everyone else's (the rules skip them); `blocked`:
 *   navigations of the run's tabs the fence stopped, for the step result; `held`:
 *   blocked navigations whose tab is not classified yet; `replayed`: `tabId url` of
 *   navigations given back to someone else's tab.
 * @typedef {{ tabId: number, url: string, at: number }} Blocked
 * @typedef {{ at: number, runTabs: number[], replayed: string[] }} Gone the fences removed
 *   last: when, their runs' tabs, and the late blocks given back (`tabId url`).
 */

/**
 * @template T
 * @param {(fences: Record<string, Fence>) => T | Promise<T>} fn
 * @returns {Promise<T>}
 */
function withFences(fn) {
  return navigator.locks.request(LOCK, async () => {
    /** @type {Record<string, Fence>} */
    const stored = (await read(FENCES)) ?? {};
    const result = await fn(stored);
    await write(FENCES, stored);
    return result;
  });
}

/** @returns {Promise<Record<string, Fence>>} */
async function readFences() {
  return (await read(FENCES)) ?? {};
}

/**
 * Writes the fence's rules, replacing its previous ones (one atomic update).
 * @param {Fence} fence
 */
async function writeRules(fence) {
  const current = await chrome.declarativeNetRequest.getSessionRules();
  const others = current.filter((r) => !fence.ruleIds.includes(r.id));
  const firstId = Math.max(0, ...others.map((r) => r.id)) + 1;
  const rules = fenceRules(firstId, fence.origins, fence.excluded);
  await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: fence.ruleIds, addRules: rules });
  fence.ruleIds = rules.map((r) => r.id);
}

/**
 * Fences every tab but the ones open now, before the session window exists.
 * @param {string} sessionId the session the run is about to open
 * @param {string[]} origins allowed origins (the core's `site_fence`)
 */
export async function installFence(sessionId, origins) {
  const canonical = [...new Set(origins.map((o) => new URL(o).origin))];
  await withFences(async (fences) => {
    // Listed under the lock: a tab created meanwhile is then either listed here or
    // classified by its onCreated handler, which waits for the lock.
    const existing = tabIdsOf(await chrome.tabs.query({}));
    /** @type {Fence} */
    const fence = { sessionId, origins: canonical, ruleIds: [], windowId: null, own: [], excluded: existing, blocked: [], held: [], replayed: [] };
    await writeRules(fence);
    fences[sessionId] = fence;
  });
}

/**
 * The session's window and tabs are the run's; every other tab is excluded.
 * @param {import('../session/sessions.js').Session} session
 */
export async function bindFence(session) {
  const replays = await withFences(async (fences) => {
    const fence = fences[session.id];
    if (!fence) return [];
    const all = tabIdsOf(await chrome.tabs.query({}));
    fence.windowId = session.windowId;
    fence.own = [...session.tabIds];
    fence.excluded = [...new Set([...fence.excluded, ...all.filter((id) => !fence.own.includes(id))])];
    await writeRules(fence);
    return settleHeld(fences);
  });
  await replay(replays);
}

/**
 * A tab the run itself created (the agent's new_tab) is the run's, whatever the order
 * in which its onCreated and this call are handled.
 * @param {string} sessionId
 * @param {number} tabId
 */
export async function claimTab(sessionId, tabId) {
  if (!(await fenceOf(sessionId))) return;
  await withFences(async (fences) => {
    const fence = fences[sessionId];
    if (!fence) return;
    if (!fence.own.includes(tabId)) fence.own.push(tabId);
    if (fence.excluded.includes(tabId)) {
      fence.excluded = fence.excluded.filter((id) => id !== tabId);
      await writeRules(fence);
    }
  });
}

/**
 * Removes the run's rules; safe to repeat.
 * @param {string} sessionId
 */
export async function removeFence(sessionId) {
  const replays = await withFences(async (fences) => {
    const fence = fences[sessionId];
    if (!fence) return [];
    await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: fence.ruleIds });
    delete fences[sessionId];
    await rememberRemoved([fence]);
    // Someone else's navigations it held still deserve their replay.
    const orphans = fence.held.filter((h) => !fence.own.includes(h.tabId));
    const next = Object.values(fences)[0];
    if (!next) return orphans;
    next.held = [...next.held, ...orphans];
    return settleHeld(fences);
  });
  await replay(replays);
}

/**
 * Removes every fence whose session has no live run, and every session rule no fence
 * owns (see the header). Call once, synchronously, at the worker's top level: the lock
 * is requested before any message handler runs, so no run can be starting meanwhile.
 * A window such a run had already opened is closed first, while its fence still holds
 * it (`closeSession`): nothing the run opened may go on without its fence.
 * @param {() => Promise<Set<string>>} liveSessions the sessions of the active runs
 * @param {(sessionId: string) => Promise<unknown>} closeSession closes what the session opened, if it is still there
 * @returns {Promise<string[]>} the sessions whose fence was removed
 */
export function sweepFences(liveSessions, closeSession) {
  return navigator.locks
    .request(LOCK, async () => {
      /** @type {Record<string, Fence>} */
      const fences = (await read(FENCES)) ?? {};
      const rules = await chrome.declarativeNetRequest.getSessionRules();
      if (Object.keys(fences).length === 0 && rules.length === 0) return { removed: [], replays: [] };
      const live = await liveSessions();
      const removed = Object.keys(fences).filter((id) => !live.has(id));
      // The tabs of a run that did start stay as they are: what its fence blocked there
      // was the run's doing, and is not given back.
      const runTabs = new Set(Object.values(fences).flatMap((f) => f.own));
      /** @type {Blocked[]} */
      const replays = [];
      for (const id of removed) {
        await closeSession(id).catch((error) => console.warn(`hopbench: closing the session of a run that never started (${id}):`, error));
        replays.push(...fences[id].held.filter((h) => !runTabs.has(h.tabId)));
        await rememberRemoved([fences[id]]);
        delete fences[id];
      }
      const owned = new Set(Object.values(fences).flatMap((f) => f.ruleIds));
      const stale = rules.map((r) => r.id).filter((id) => !owned.has(id));
      if (stale.length > 0) await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: stale });
      await write(FENCES, fences);
      // A navigation the orphaned rules blocked before this worker heard of it (the
      // event that woke it may be that very navigation): any other tab showing the
      // blocked page is given its navigation back.
      if (stale.length > 0) replays.push(...(await blockedPages(runTabs)));
      return { removed, replays };
    })
    .then(async ({ removed, replays }) => {
      await replay(replays);
      return removed;
    });
}

/**
 * The fence of a session, or undefined when its run goes anywhere.
 * @param {string} sessionId
 * @returns {Promise<Fence | undefined>}
 */
export async function fenceOf(sessionId) {
  return (await readFences())[sessionId];
}

/**
 * `null` when `url` may be opened by the session's agent, else the refusal the agent
 * is shown (`blocked: ORIGIN is outside this task's sites`).
 * @param {string} sessionId
 * @param {string} url
 */
export async function fenceRefusal(sessionId, url) {
  const fence = await fenceOf(sessionId);
  if (!fence || fenceAllows(fence.origins, url)) return null;
  return blockedMessage(url);
}

/**
 * The navigations the fence blocked in the session's tabs since `since` (ms, an
 * action's start), each with the message the agent is shown. Older ones (a page's own
 * redirect between steps) are dropped: no action of the agent caused them.
 * @param {string} sessionId
 * @param {number} since
 * @returns {Promise<(Blocked & { message: string })[]>}
 */
export async function takeBlocked(sessionId, since) {
  if (!(await fenceOf(sessionId))) return [];
  return withFences((fences) => {
    const fence = fences[sessionId];
    if (!fence) return [];
    const taken = fence.blocked.filter((b) => b.at >= since);
    fence.blocked = [];
    return taken.map((b) => ({ ...b, message: blockedMessage(b.url) }));
  });
}

// --- listeners ---------------------------------------------------------------------

/** Call once, synchronously, at the worker's top level. */
export function registerFenceListeners() {
  chrome.tabs.onCreated.addListener((tab) => {
    classify(tab).catch((error) => console.error('hopbench: fencing a new tab failed:', error));
  });
  chrome.tabs.onRemoved.addListener((tabId) => {
    forgetTab(tabId).catch((error) => console.error('hopbench: forgetting a closed tab in the fence failed:', error));
  });
  // Memory Saver (or chrome.tabs.discard) replaces a tab under a new id, with no
  // onCreated: the id is followed, so the person's tab stays theirs and a run's stays
  // fenced.
  chrome.tabs.onReplaced.addListener((addedTabId, removedTabId) => {
    followReplaced(addedTabId, removedTabId).catch((error) => console.error('hopbench: following a replaced tab in the fence failed:', error));
  });
  chrome.webNavigation.onErrorOccurred.addListener((details) => {
    if (details.frameId !== 0 || details.error !== BLOCKED_BY_CLIENT) return;
    blocked(details).catch((error) => console.error('hopbench: recording a blocked navigation failed:', error));
  });
}

/**
 * The ids of Chrome's tabs (every tab of a window has one).
 * @param {chrome.tabs.Tab[]} tabs
 * @returns {number[]}
 */
function tabIdsOf(tabs) {
  return tabs.flatMap((t) => (t.id === undefined ? [] : [t.id]));
}

/** Cheap check first: no fence, nothing to do (the common case outside fenced runs). */
async function anyFence() {
  return Object.keys(await readFences()).length > 0;
}

/** @param {chrome.tabs.Tab} tab */
async function classify(tab) {
  if (!(await anyFence())) return;
  const replays = await withFences(async (fences) => {
    for (const fence of Object.values(fences)) {
      if (fence.windowId === null) continue; // bindFence classifies every tab then
      if (tab.id === undefined || fence.own.includes(tab.id) || fence.excluded.includes(tab.id)) continue;
      // Only a tab one of the run's pages opened; one the person opened in the run's
      // window is theirs. The agent's own new_tab is claimed by the run (`claimTab`).
      const runs = tab.openerTabId !== undefined && fence.own.includes(tab.openerTabId);
      if (runs) {
        fence.own.push(tab.id);
      } else {
        fence.excluded.push(tab.id);
        await writeRules(fence);
      }
    }
    return settleHeld(fences);
  });
  await replay(replays);
}

/** @param {number} tabId */
async function forgetTab(tabId) {
  if (!(await anyFence())) return;
  await withFences(async (fences) => {
    for (const fence of Object.values(fences)) {
      fence.own = fence.own.filter((id) => id !== tabId);
      if (fence.excluded.includes(tabId)) {
        fence.excluded = fence.excluded.filter((id) => id !== tabId);
        await writeRules(fence);
      }
      fence.held = fence.held.filter((h) => h.tabId !== tabId);
    }
  });
}

/**
 * A tab replaced under a new id keeps its place: the run's stays the run's, someone
 * else's stays excluded (its rules rewritten), and its held navigations are settled
 * (a blocked reload of the person's tab is given back).
 * @param {number} addedTabId
 * @param {number} removedTabId
 */
async function followReplaced(addedTabId, removedTabId) {
  if (!(await anyFence())) return;
  const swap = (/** @type {number} */ id) => (id === removedTabId ? addedTabId : id);
  const replays = await withFences(async (fences) => {
    for (const fence of Object.values(fences)) {
      fence.own = fence.own.map(swap);
      fence.held = fence.held.map((h) => ({ ...h, tabId: swap(h.tabId) }));
      if (fence.excluded.includes(removedTabId)) {
        fence.excluded = fence.excluded.map(swap);
        await writeRules(fence);
      }
    }
    return settleHeld(fences);
  });
  await replay(replays);
}

/**
 * A top-level navigation was blocked: held until every fence has classified its tab
 * (this event and the tab's onCreated may be handled in either order), then settled.
 * @param {{ tabId: number, url: string }} details
 */
async function blocked({ tabId, url }) {
  const at = Date.now();
  const replays = await withFences((fences) => {
    const first = Object.values(fences)[0];
    if (!first) return lateBlock({ tabId, url, at });
    first.held = [...first.held, { tabId, url, at }];
    return settleHeld(fences);
  });
  await replay(replays);
}

/**
 * A navigation reported blocked when no fence is left. Just after a fence went (a
 * run ended, or the sweep lifted one a stopped worker left) it was that fence's block,
 * reported late: someone else's tab gets its navigation back, once; the run's own tabs
 * do not (what the agent was stopped from doing stays undone). Any other time it is
 * another extension's block, not ours to undo. Called under the fences' lock.
 * @param {Blocked} navigation
 * @returns {Promise<Blocked[]>}
 */
async function lateBlock(navigation) {
  const gone = await read(FENCES_GONE);
  if (!gone || navigation.at - gone.at > LATE_BLOCK_MS || gone.runTabs.includes(navigation.tabId)) return [];
  const key = `${navigation.tabId} ${navigation.url}`;
  if (gone.replayed.includes(key)) return [];
  await write(FENCES_GONE, { ...gone, replayed: [...gone.replayed, key].slice(-MAX_REPLAYED) });
  return [navigation];
}

/**
 * Settles the held blocked navigations whose tab every fence has classified. In a
 * fenced run's own tab, outside its sites: recorded for the step result. Otherwise it
 * was someone else's tab caught before it was classified: replayed, once (blocked
 * again after that, it is another extension's block, not ours to undo).
 * Returns the navigations to replay.
 * @param {Record<string, Fence>} fences
 * @returns {Blocked[]}
 */
function settleHeld(fences) {
  const list = Object.values(fences);
  if (list.some((f) => f.windowId === null)) return []; // bindFence settles them
  const classified = (/** @type {number} */ tabId) => list.every((f) => f.own.includes(tabId) || f.excluded.includes(tabId));
  /** @type {Blocked[]} */
  const replays = [];
  for (const fence of list) {
    /** @type {Blocked[]} */
    const keep = [];
    for (const held of fence.held) {
      if (!classified(held.tabId)) {
        keep.push(held);
        continue;
      }
      const owner = list.find((f) => f.own.includes(held.tabId));
      const key = `${held.tabId} ${held.url}`;
      if (owner && !fenceAllows(owner.origins, held.url)) {
        owner.blocked = [...owner.blocked, held].slice(-MAX_BLOCKED);
      } else if (!list.some((f) => f.replayed.includes(key))) {
        fence.replayed = [...fence.replayed, key].slice(-MAX_REPLAYED);
        replays.push(held);
      }
    }
    fence.held = keep;
  }
  return replays;
}

/**
 * The tabs (not in `skip`) whose page is the browser's "blocked" error: their main
 * frame's last navigation failed, and the URL it was going to.
 * @param {Set<number>} skip
 * @returns {Promise<Blocked[]>}
 */
async function blockedPages(skip) {
  const at = Date.now();
  const tabs = (await chrome.tabs.query({})).filter((t) => t.id !== undefined && !skip.has(t.id));
  const frames = await Promise.all(
    tabs.map((t) => chrome.webNavigation.getFrame({ tabId: /** @type {number} */ (t.id), frameId: 0 }).catch(() => null)),
  );
  return tabs.flatMap((t, i) => {
    const frame = frames[i];
    return frame?.errorOccurred && /^https?:/.test(frame.url) ? [{ tabId: /** @type {number} */ (t.id), url: frame.url, at }] : [];
  });
}

/** @param {Blocked[]} navigations */
async function replay(navigations) {
  for (const { tabId, url } of navigations) {
    await chrome.tabs.update(tabId, { url }).catch((error) =>
      // The tab was closed in the meantime: nothing left to restore.
      console.warn(`hopbench: could not restore the navigation of tab ${tabId} to ${url}:`, /** @type {Error} */ (error).message),
    );
  }
}
