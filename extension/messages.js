// The one message protocol between the service worker and extension pages.
//
// Every message is `{ type, ...fields }`; `type` names the direction so a handler can
// never mistake who sent it. Each message has a constructor (senders use it, so shapes
// stay in one place) and a guard (receivers validate before acting). Every reply is
// `{ ok: true, ...fields }` or `{ ok: false, error }`.

/** Messages sent by extension pages (the popup, later the options/report pages). */
export const POPUP_TO_WORKER = Object.freeze({
  GET_CORE_STATUS: 'popup-to-worker/get-core-status',
  CORE_CALL: 'popup-to-worker/core-call',
});

const isPlainObject = (value) =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// --- GET_CORE_STATUS: is the wasm core initialised? -------------------------------

/** @returns {{type: string}} */
export function getCoreStatus() {
  return { type: POPUP_TO_WORKER.GET_CORE_STATUS };
}

export function isGetCoreStatus(msg) {
  return isPlainObject(msg) && msg.type === POPUP_TO_WORKER.GET_CORE_STATUS;
}

// --- CORE_CALL: call one whitelisted core export --------------------------------

/**
 * @param {string} fn name of a core export listed in core-calls.js
 * @param {unknown[]} args JSON-serialisable arguments
 */
export function coreCall(fn, args = []) {
  return { type: POPUP_TO_WORKER.CORE_CALL, fn, args };
}

export function isCoreCall(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === POPUP_TO_WORKER.CORE_CALL &&
    typeof msg.fn === 'string' &&
    Array.isArray(msg.args)
  );
}

// === Observation (extension pages → worker) ========================================

/** Messages of the observation feature, sent by extension pages. */
export const PAGE_TO_WORKER = Object.freeze({
  OBSERVE_TAB: 'page-to-worker/observe-tab',
});

const OBSERVE_OPTION_CHECKS = Object.freeze({
  mode: (v) => typeof v === 'string',
  wholePage: (v) => typeof v === 'boolean',
  linkUrls: (v) => typeof v === 'boolean',
  imageMaxSide: (v) => Number.isInteger(v),
  tabIds: (v) => Array.isArray(v) && v.every(Number.isInteger),
});

/**
 * Observe one tab as a model would see it. Reply: `{ ok, observation }` with
 * `observation = { text, url, title, mode, images, screenshot?, som?, marks, stats, timings }`.
 * @param {number} tabId
 * @param {{mode?: string, wholePage?: boolean, linkUrls?: boolean,
 *          imageMaxSide?: number, tabIds?: number[]}} [options] override the settings
 */
export function observeTab(tabId, options = {}) {
  return { type: PAGE_TO_WORKER.OBSERVE_TAB, tabId, options };
}

export function isObserveTab(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === PAGE_TO_WORKER.OBSERVE_TAB &&
    Number.isInteger(msg.tabId) &&
    isPlainObject(msg.options) &&
    Object.entries(msg.options).every(
      ([key, value]) => Object.hasOwn(OBSERVE_OPTION_CHECKS, key) && OBSERVE_OPTION_CHECKS[key](value),
    )
  );
}

// --- Replies -----------------------------------------------------------------------

export function okReply(fields = {}) {
  return { ...fields, ok: true };
}

export function errorReply(error) {
  return { ok: false, error: errorText(error) };
}

export function isReply(reply) {
  return (
    isPlainObject(reply) &&
    (reply.ok === true || (reply.ok === false && typeof reply.error === 'string'))
  );
}

/** Readable text for anything thrown: a JsError from the core arrives as an Error. */
export function errorText(error) {
  if (error instanceof Error) return error.message || String(error);
  return String(error);
}

// --- Senders -----------------------------------------------------------------------

/**
 * True when a message comes from one of this extension's own pages. Content scripts
 * share the extension id but run in web pages, so the sender's origin is checked too.
 * @param {chrome.runtime.MessageSender} sender
 */
export function isFromExtensionPage(sender) {
  if (!sender || sender.id !== chrome.runtime.id) return false;
  const ownOrigin = new URL(chrome.runtime.getURL('')).origin;
  const origin = sender.origin ?? (sender.url ? new URL(sender.url).origin : '');
  return origin === ownOrigin;
}
