// The worker's one door: every message a page sends comes in here, is checked against
// its declaration (messages.js), goes to the service that does the work, and goes back
// as a reply. This table is the only place that builds replies: services return their
// values, and throw to refuse (a Refusal names the fields at fault).

import * as messages from '../messages.js';
import { errorReply, isFromExtensionPage, okReply, requestOfType } from '../messages.js';
import { loadedCore, readyCore } from './core/core.js';
import { CORE_CALLS } from '../core-calls.js';
import { startDuel, getDuel } from './duel/duel.js';
import { humanControl, humanFinish, startHuman } from './human/session.js';
import { observeForPage } from './observe/observe.js';
import {
  deleteRunOf,
  exportRunOf,
  getRunOf,
  listRunViews,
  mediaOf,
  pauseRunOf,
  startRunFromPage,
  stopRunOf,
} from './run/service.js';
import { actFromPage, endSession, sessionProgress, sessionTabs, sessionVerdict, startSession } from './session/service.js';
import { saveSettings, settingsView, testConnection } from './settings/service.js';

/**
 * @typedef {import('../messages.js').AnyRequest} AnyRequest
 * @typedef {{ declared: AnyRequest, answer: (msg: any) => Promise<Record<string, unknown>> }} Entry
 */

/**
 * One row of the table: the message, and what answers it with the reply's fields.
 * @template {AnyRequest} D
 * @param {D} declared
 * @param {(msg: import('../messages.js').MessageOf<D>) => Promise<import('../messages.js').ReplyOf<D>>} answer
 * @returns {Entry}
 */
const row = (declared, answer) => ({ declared, answer });

/** @type {readonly Entry[]} */
const TABLE = Object.freeze([
  // The core: whether it is ready (starting its init if nothing has), and one call of
  // an export pages may use (core-calls.js).
  row(messages.getCoreStatus, async () => {
    const { initMs, initStartedMs } = await readyCore();
    return { version: (await loadedCore()).core_version(), initMs, initStartedMs };
  }),
  row(messages.coreCall, async (msg) => {
    const call = Object.hasOwn(CORE_CALLS, msg.fn) ? CORE_CALLS[msg.fn] : undefined;
    if (!call) throw new Error(`core function not callable from pages: ${msg.fn}`);
    return { value: call(await loadedCore(), msg.args) };
  }),
  row(messages.observeTab, async (msg) => ({ observation: await observeForPage(msg.tabId, msg.options) })),
  // Sessions and actions.
  row(messages.startSession, startSession),
  row(messages.endSession, endSession),
  row(messages.listSessionTabs, sessionTabs),
  row(messages.act, actFromPage),
  row(messages.getProgress, sessionProgress),
  row(messages.getVerdict, sessionVerdict),
  // Agent runs.
  row(messages.startRun, startRunFromPage),
  row(messages.stopRun, async (msg) => ({ run: await stopRunOf(msg.runId) })),
  row(messages.getRun, getRunOf),
  row(messages.listRuns, async (msg) => ({ runs: await listRunViews(msg.latest) })),
  row(messages.exportRun, async (msg) => ({ trajectory: await exportRunOf(msg.runId) })),
  row(messages.deleteRun, async (msg) => ({ runId: await deleteRunOf(msg.runId) })),
  row(messages.pauseRun, async (msg) => ({ run: await pauseRunOf(msg.runId, msg.paused) })),
  row(messages.getMedia, async (msg) => ({ media: await mediaOf(msg.mediaIds) })),
  // A person's session, and human vs agent.
  row(messages.startHuman, startHuman),
  row(messages.humanControl, humanControl),
  row(messages.humanFinish, humanFinish),
  row(messages.startDuel, startDuel),
  row(messages.getDuel, getDuel),
  // Settings.
  row(messages.getSettings, settingsView),
  row(messages.saveSettings, saveSettings),
  row(messages.testConnection, testConnection),
]);

/** @type {Map<string, Entry>} */
const BY_TYPE = new Map(TABLE.map((entry) => [entry.declared.type, entry]));

// Every declared message has its row: a message without one would go unanswered.
const unanswered = messages.REQUESTS.filter((declared) => !BY_TYPE.has(declared.type)).map((d) => d.type);
if (unanswered.length > 0) throw new Error(`worker/door.js answers no ${unanswered.join(', ')}`);

/**
 * Listens for the pages' messages; call once, synchronously, at the worker's top level.
 * `onEveryMessage` runs for each message of ours (a message may be what woke the worker).
 * @param {() => void} onEveryMessage
 */
export function openDoor(onEveryMessage) {
  chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
    const declared = requestOfType(msg?.type);
    const entry = declared && BY_TYPE.get(declared.type);
    if (!entry) return false; // Not ours: leave it for other listeners.
    if (!isFromExtensionPage(sender)) {
      console.warn('hopbench: ignored message from untrusted sender', sender);
      sendResponse(errorReply('sender is not a page of this extension'));
      return false;
    }
    onEveryMessage();
    if (!entry.declared.is(msg)) {
      sendResponse(errorReply(`malformed ${msg.type} message`));
      return false;
    }
    entry
      .answer(msg)
      .then((fields) => sendResponse(okReply(fields)), (error) => sendResponse(errorReply(error)));
    return true; // Keeps the channel open for the async reply.
  });
}
