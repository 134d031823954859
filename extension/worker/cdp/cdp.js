// The one wrapper around chrome.debugger, shared by observation and actions.
//
// Chrome allows one attach per extension and tab, so every module goes through
// `attach`, which tolerates "already attached" (the worker may have been restarted
// while Chrome kept the debugger attached). Out-of-process iframes are reached through
// flat child sessions (Chrome 125+): commands carry `sessionId` in the debuggee.
// The child sessions of each tab are persisted in the store (store/keys.js cdpChildren), because the
// worker may be stopped between an attach event and the next observation.

import { cdpChildren } from '../../store/keys.js';
import { read, remove, write } from '../../store/store.js';

/**
 * @typedef {import('./cdp-protocol.js').CommandParameters} CommandParameters
 * @typedef {import('./cdp-protocol.js').CommandReturnValues} CommandReturnValues
 * @typedef {keyof CommandReturnValues} Method
 * @typedef {{ sessionId: string, targetId: string, url: string, parentSessionId: string | null }} ChildSession
 *   an out-of-process iframe's flat session
 */

const PROTOCOL_VERSION = '1.3';

/** Chrome's words for a debugger refused because of another extension's frame. */
const FOREIGN_FRAME = /Cannot access a chrome-extension:\/\/ URL/i;
/** Chrome's words for a command sent after it detached the debugger. */
const NOT_ATTACHED = /Debugger is not attached/i;
/** Chrome's words for a command in flight when it detached the debugger. */
const DETACHED_MIDWAY = /Detached while handling command/i;
/** Attaches tried while other extensions' frames are taken out between them. */
const ATTACH_TRIES = 4;

/**
 * Takes other extensions' frames out of a tab; null when it may not (the tab is
 * someone's own, not a session's). Set once by the worker (whenForeignFramesRefuse),
 * so this module needs nothing above it.
 * @type {(tabId: number) => Promise<number | null>}
 */
let clearForeignFrames = async () => null;

/**
 * What to do when Chrome refuses the debugger because of another extension's frame.
 * @param {(tabId: number) => Promise<number | null>} clear
 */
export function whenForeignFramesRefuse(clear) {
  clearForeignFrames = clear;
}

/**
 * How long one DevTools command (or an attach) may take. A page that loops in a script
 * or waits on a dialog no one answers holds every command sent to it; unbounded, that
 * held the step, and the run, for good. Past the bound the command fails with a
 * `timeout:` error naming it, which ends the step (its error is what the agent reads
 * next) or the observation, and the run goes on or ends saying why.
 */
export const COMMAND_BOUND_MS = 20_000;


/**
 * Tabs this worker attached to (and set auto-attach in) and has not seen detached:
 * attaching again is then a no-op, so the two round trips are skipped on every
 * observation and action. Memory only: a restarted worker attaches once again, which
 * tolerates "already attached".
 * @type {Set<number>}
 */
const attachedTabs = new Set();

/**
 * The child sessions as stored, kept in memory too so that each observation need not
 * read storage; every change goes through updateChildren or forgetChildren.
 * @type {Map<number, ChildSession[]>}
 */
const childCache = new Map();

/**
 * Attaches to a tab (idempotent) and auto-attaches its out-of-process frames.
 * @param {number} tabId
 */
export async function attach(tabId) {
  if (attachedTabs.has(tabId)) {
    await childWrites;
    return;
  }
  for (let tries = 1; ; tries += 1) {
    try {
      await attachOnce(tabId);
      break;
    } catch (error) {
      if (error instanceof CommandTimeout) throw error;
      const message = messageOf(error);
      // Another extension's frame in the page (or one of ours, which Chrome shows as
      // chrome-extension://invalid/), there from the start or shown while we attached:
      // in a session's tab it is taken out, then the attach is tried again
      // (page/foreign-frames.js).
      const lost = FOREIGN_FRAME.test(message) || NOT_ATTACHED.test(message) || DETACHED_MIDWAY.test(message);
      if (lost && tries < ATTACH_TRIES && (await clearForeignFrames(tabId)) !== null) continue;
      const why = FOREIGN_FRAME.test(message)
        ? `the page shows a frame of another extension (a password manager's or translator's menu?), and Chrome lets no extension's debugger into such a page${tries > 1 ? '; taking it out did not help' : ''}`
        : message;
      throw new Error(`cannot attach the debugger to tab ${tabId}: ${why}`, { cause: error });
    }
  }
  // Chrome sends Target.attachedToTarget for existing frames before it answers
  // setAutoAttach; wait until the listener has stored them, so the caller's next
  // childSessions() already lists every out-of-process iframe.
  await childWrites;
  attachedTabs.add(tabId);
}

/**
 * One attach, with its auto-attach and the Page domain; a debugger attached already
 * (by a worker before this one) is used as it is.
 * @param {number} tabId
 */
async function attachOnce(tabId) {
  try {
    await bounded(chrome.debugger.attach({ tabId }, PROTOCOL_VERSION), `attaching the debugger to tab ${tabId}`);
  } catch (error) {
    if (!/already attached/i.test(messageOf(error))) throw error;
  }
  // sendOnce: a detach right now fails this attach (which attach tries again), rather
  // than attaching again inside it.
  await sendOnce(tabId, 'Target.setAutoAttach', {
    autoAttach: true,
    waitForDebuggerOnStart: false,
    flatten: true,
  }, undefined);
  // The Page domain on: Chrome then reports each JavaScript dialog to us before it
  // blocks the page (page/notices.js answers or records it), and of downloads.
  await sendOnce(tabId, 'Page.enable', {}, undefined);
}

/** @param {number} tabId */
export async function detach(tabId) {
  attachedTabs.delete(tabId);
  await forgetChildren(tabId);
  try {
    await chrome.debugger.detach({ tabId });
  } catch (error) {
    // Detaching a tab that is gone or not attached is what we wanted anyway.
    if (!/not attached|no tab/i.test(messageOf(error))) throw error;
  }
}

/**
 * Sends one CDP command to the tab, or to one of its child sessions.
 * @param {number} tabId
 * @template {Method} M
 * @param {M} method e.g. 'Accessibility.getFullAXTree'
 * @param {NoInfer<CommandParameters[M]>} [params]
 * @param {string} [sessionId] a child session (out-of-process iframe)
 * @returns {Promise<CommandReturnValues[M]>}
 */
export async function send(tabId, method, params = /** @type {CommandParameters[M]} */ ({}), sessionId = undefined) {
  try {
    return await sendOnce(tabId, method, params, sessionId);
  } catch (error) {
    // Chrome detached the debugger (another extension's frame appeared in the page)
    // before the command reached it: attach again, which takes that frame out, and send
    // it once more. A command to an out-of-process frame's session is not repeated: that
    // session died with the attach.
    //
    // Chrome may also detach it while the command was being handled: input that focused
    // a field whose focus made another extension show its inline menu there. The input
    // was delivered (its effect is what detached us), so it is not sent again; any other
    // command is, once attached again. A tab that is gone is the caller's to handle
    // (act/input.js: a click whose page closed its own tab).
    const message = error instanceof Error ? error.message : '';
    const detachedMidway = DETACHED_MIDWAY.test(message);
    if (sessionId !== undefined || !(NOT_ATTACHED.test(message) || FOREIGN_FRAME.test(message) || detachedMidway)) throw error;
    if (!(await chrome.tabs.get(tabId).catch(() => null))) throw error;
    attachedTabs.delete(tabId);
    await attach(tabId);
    if (detachedMidway && method.startsWith('Input.')) return /** @type {CommandReturnValues[M]} */ ({});
    return sendOnce(tabId, method, params, sessionId);
  }
}

/**
 * @param {number} tabId
 * @template {Method} M
 * @param {M} method
 * @param {NoInfer<CommandParameters[M]>} params
 * @param {string | undefined} sessionId
 * @returns {Promise<CommandReturnValues[M]>}
 */
async function sendOnce(tabId, method, params, sessionId) {
  const target = sessionId ? { tabId, sessionId } : { tabId };
  const where = sessionId ? `tab ${tabId} session ${sessionId}` : `tab ${tabId}`;
  try {
    // The reply is the protocol's for this method (Chrome answers in its shape).
    return /** @type {CommandReturnValues[M]} */ (await bounded(chrome.debugger.sendCommand(target, method, params), `${method} on ${where}`));
  } catch (error) {
    if (error instanceof CommandTimeout) throw error;
    throw new Error(`${method} failed on ${where}: ${messageOf(error)}`, { cause: error });
  }
}

/** A DevTools command that did not answer within COMMAND_BOUND_MS. */
export class CommandTimeout extends Error {}

/**
 * `work`, or a CommandTimeout naming `what` once the bound has passed. Chrome's own
 * command keeps waiting; its late answer is dropped.
 * @template T
 * @param {Promise<T>} work
 * @param {string} what
 * @returns {Promise<T>}
 */
function bounded(work, what) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new CommandTimeout(`timeout: ${what} gave no answer in ${COMMAND_BOUND_MS / 1000} s (the page is busy or blocked)`));
    }, COMMAND_BOUND_MS);
  });
  // The losing side's rejection is handled, so a late failure is not "unhandled".
  work.catch(() => null);
  return /** @type {Promise<T>} */ (Promise.race([work, late]).finally(() => clearTimeout(timer)));
}

/**
 * The message of what chrome.debugger threw (an Error, or in old versions a string).
 * @param {unknown} error
 */
function messageOf(error) {
  const message = typeof error === 'object' && error !== null && 'message' in error ? error.message : undefined;
  return String(message ?? error);
}

/**
 * Child sessions (out-of-process iframes) currently attached in a tab.
 * @param {number} tabId
 * @returns {Promise<ChildSession[]>}
 */
export async function childSessions(tabId) {
  const cached = childCache.get(tabId);
  if (cached) return cached;
  const children = (await read(cdpChildren(tabId))) ?? [];
  // A write may have landed while storage was read; it filled the cache first.
  if (!childCache.has(tabId)) childCache.set(tabId, children);
  return childCache.get(tabId) ?? children;
}

/** @param {number} tabId */
function forgetChildren(tabId) {
  childCache.delete(tabId);
  return remove(cdpChildren(tabId));
}

/**
 * Tail of the queue of child-list writes. Writes are read-modify-write on one storage
 * key, so two iframes attaching at once would otherwise lose one of them. Only a
 * transient lock lives here; the list itself is in the store.
 */
let childWrites = Promise.resolve();

/**
 * @param {number} tabId
 * @param {(list: ChildSession[]) => ChildSession[]} change
 */
function updateChildren(tabId, change) {
  const stored = childWrites.then(async () => {
    const children = change(await childSessions(tabId));
    childCache.set(tabId, children);
    await write(cdpChildren(tabId), children);
  });
  // The queue continues after a failed write; the caller still sees the failure.
  childWrites = stored.catch(() => undefined);
  return stored;
}

/** Registers the debugger listeners; call once, synchronously, at the worker's top level. */
export function registerCdpListeners() {
  chrome.debugger.onEvent.addListener((source, method, raw) => {
    const params = /** @type {{ sessionId?: string, targetInfo?: { type: string, targetId: string, url: string } } | undefined} */ (raw);
    if (source.tabId === undefined) return;
    if (method === 'Target.attachedToTarget' && params?.targetInfo?.type === 'iframe' && params.sessionId !== undefined) {
      /** @type {ChildSession} */
      const child = {
        sessionId: params.sessionId,
        targetId: params.targetInfo.targetId,
        url: params.targetInfo.url,
        parentSessionId: source.sessionId ?? null,
      };
      updateChildren(source.tabId, (list) => [
        ...list.filter((c) => c.targetId !== child.targetId),
        child,
      ]).catch((error) => console.error('hopbench: recording an iframe session failed:', error));
      // Nested out-of-process frames: auto-attach inside the child as well; and its
      // dialogs reported like the tab's own (page/notices.js).
      send(source.tabId, 'Target.setAutoAttach', {
        autoAttach: true,
        waitForDebuggerOnStart: false,
        flatten: true,
      }, params.sessionId).catch((error) =>
        console.warn('hopbench: auto-attach inside an iframe failed:', error),
      );
      send(source.tabId, 'Page.enable', {}, params.sessionId).catch((error) =>
        console.warn('hopbench: dialogs of an iframe will not be reported:', error),
      );
    } else if (method === 'Target.detachedFromTarget') {
      updateChildren(source.tabId, (list) =>
        list.filter((c) => c.sessionId !== params?.sessionId),
      ).catch((error) => console.error('hopbench: forgetting an iframe session failed:', error));
    }
  });
  chrome.debugger.onDetach.addListener((source) => {
    if (source.tabId !== undefined) {
      attachedTabs.delete(source.tabId);
      forgetChildren(source.tabId).catch((error) =>
        console.error('hopbench: clearing iframe sessions failed:', error),
      );
    }
  });
}
