// One request from an extension page to the service worker: `ask(startRun, fields)`
// resolves to the reply that message gets (messages.js declares its shape, so the
// caller reads it typed, without a cast), or rejects with an Error carrying the
// worker's message (which says what to fix).

import { errorText, isReply } from './messages.js';

/**
 * @template {import('./messages.js').AnyRequest} D
 * @param {D} declared the message's declaration (messages.js)
 * @param {Parameters<D>} args what the declaration builds the message from
 * @returns {Promise<import('./messages.js').ReplyOf<D> & { ok: true }>}
 */
export async function ask(declared, ...args) {
  // Parameters<D> are D's own arguments; the cast only lets the spread through.
  const message = /** @type {(...a: unknown[]) => unknown} */ (declared)(...args);
  let reply;
  try {
    reply = await chrome.runtime.sendMessage(message);
  } catch (error) {
    // No worker answered (it failed to start or register its listener).
    throw new Error(`the service worker did not answer: ${errorText(error)}`, { cause: error });
  }
  if (!isReply(reply)) throw new Error(`unexpected reply from the service worker: ${JSON.stringify(reply)}`);
  if (!reply.ok) throw new Error(reply.error);
  return /** @type {import('./messages.js').ReplyOf<D> & { ok: true }} */ (reply);
}
