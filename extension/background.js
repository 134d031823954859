// Service worker: owns the wasm core and answers extension pages.
//
// MV3 rules (see README): no top-level await in a module worker (it dies), listeners
// registered synchronously at top level, and no run state in module variables because
// the worker is stopped when idle. The only module-level value is the core's init
// promise (worker/core-ready.js), started by the first call that needs the core.

import * as core from './pkg/hopbench.js';
import { readyCore, withPanicMessage } from './worker/core-ready.js';
import { CORE_CALLS } from './core-calls.js';
import { registerCdpListeners } from './worker/cdp.js';
import { duelHandlers } from './worker/duel.js';
import { registerFenceListeners } from './worker/fence.js';
import { observeForPage, registerObserveListeners } from './worker/observe.js';
import { registerHopListeners } from './worker/hops.js';
import { humanHandlers, registerHumanListeners } from './worker/human-session.js';
import { registerHumanTabListeners } from './worker/human-tabs.js';
import { registerPageErrorListeners } from './worker/page-errors.js';
import { isWorkerGoingAway } from './worker/run-driver.js';
import { registerRunListeners, resumeRuns, runHandlers } from './worker/run-handlers.js';
import { sessionHandlers } from './worker/session-handlers.js';
import { restrictStorageToExtension, settingsHandlers } from './worker/settings-handlers.js';
import { registerSessionListeners } from './worker/session.js';
import {
  PAGE_TO_WORKER,
  isObserveTab,
  POPUP_TO_WORKER,
  errorReply,
  isCoreCall,
  isFromExtensionPage,
  isGetCoreStatus,
  okReply,
} from './messages.js';

/**
 * The initialised core module, for handlers and listeners outside this file.
 * @returns {Promise<import('./worker/types.js').Core>}
 */
async function coreModule() {
  await readyCore();
  return withPanicGuard(core);
}

/**
 * The core module with every export wrapped by withPanicMessage, so modules that call
 * the core directly (hops.js) report panics with their message too.
 * @template {object} M
 * @param {M} module
 * @returns {M}
 */
function withPanicGuard(module) {
  return new Proxy(module, {
    get(target, name) {
      const value = /** @type {Record<string | symbol, unknown>} */ (target)[name];
      if (typeof value !== 'function') return value;
      return (/** @type {unknown[]} */ ...args) => withPanicMessage(() => value(...args));
    },
  });
}

// Handlers keyed by message type: each validates its message, then does one thing.
/** @type {Readonly<import('./messages.js').Handlers>} */
const HANDLERS = Object.freeze({
  [POPUP_TO_WORKER.GET_CORE_STATUS]: {
    isValid: isGetCoreStatus,
    handle: async () => {
      const { initMs, initStartedMs } = await readyCore();
      return okReply({ version: withPanicMessage(() => core.core_version()), initMs, initStartedMs });
    },
  },
  [POPUP_TO_WORKER.CORE_CALL]: {
    isValid: isCoreCall,
    handle: async (/** @type {import('./messages.js').CoreCall} */ msg) => {
      const call = Object.hasOwn(CORE_CALLS, msg.fn) ? CORE_CALLS[msg.fn] : undefined;
      if (!call) throw new Error(`core function not callable from pages: ${msg.fn}`);
      await readyCore();
      return okReply({ value: withPanicMessage(() => call(core, msg.args)) });
    },
  },
  // --- observation ---
  [PAGE_TO_WORKER.OBSERVE_TAB]: {
    isValid: isObserveTab,
    // observeTab awaits the core beside the trees it reads.
    handle: async (/** @type {import('./messages.js').ObserveTab} */ msg) => {
      return okReply({ observation: await observeForPage(msg.tabId, msg.options) });
    },
  },
  ...sessionHandlers(coreModule),
  ...runHandlers(coreModule),
  ...humanHandlers(coreModule),
  ...duelHandlers(coreModule),
  ...settingsHandlers(coreModule),
});

// Listeners that must wake a stopped worker: registered synchronously, at top level.
registerCdpListeners();
registerFenceListeners();
registerSessionListeners();
// Before the hop listeners: a person's Back, Forward or typed URL takes its step in
// the same webNavigation event the tracker is fed from, and must do so first.
registerHumanTabListeners(coreModule);
registerHopListeners(coreModule);
registerHumanListeners(coreModule);
registerPageErrorListeners();
registerObserveListeners();
registerRunListeners(coreModule);

// A run the previous worker was driving goes on from its saved record (docs/agent-run.md
// "Resuming"). Also on every message below, since a message may be what woke us.
const resume = () =>
  resumeRuns(coreModule).catch((error) => {
    // A worker being stopped cannot resume anything; the next one will.
    if (isWorkerGoingAway(error)) console.warn('hopbench: not resuming runs, the worker is stopping');
    else console.error('hopbench: resuming runs failed:', error);
  });
resume();
// Listening is what makes Chrome start the worker when the browser starts, so a run the
// browser's exit interrupted ends at once (run-interrupt.js) rather than when a page
// or the backstop alarm (which may not outlive the browser) happens to wake us.
chrome.runtime.onStartup.addListener(resume);
restrictStorageToExtension().then((access) => {
  // Settings shows this and refuses to store keys until it is fixed.
  if (!access.restricted) console.warn(`hopbench: API keys will not be stored: ${access.error}`);
});

chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  // hasOwn: a type such as "constructor" must not reach Object.prototype.
  const handler = Object.hasOwn(HANDLERS, msg?.type ?? '') ? HANDLERS[msg.type] : undefined;
  if (!handler) return false; // Not ours: leave it for other listeners.
  if (!isFromExtensionPage(sender)) {
    console.warn('hopbench: ignored message from untrusted sender', sender);
    sendResponse(errorReply('sender is not a page of this extension'));
    return false;
  }
  resume();
  if (!handler.isValid(msg)) {
    sendResponse(errorReply(`malformed ${msg.type} message`));
    return false;
  }
  handler
    .handle(msg)
    .then(sendResponse, (error) => sendResponse(errorReply(error)));
  return true; // Keeps the channel open for the async reply.
});
