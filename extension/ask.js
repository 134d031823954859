// One request from an extension page to the service worker: the reply when it is ok,
// otherwise an Error carrying the worker's message (which says what to fix).

import { errorText, isReply } from './messages.js';

/**
 * The worker's reply, checked to be one; `ok` replies only (else the Error above).
 * Callers cast it to the reply their message gets (messages.js lists them).
 * @param {unknown} message
 * @returns {Promise<import('./messages.js').Reply>}
 */
export async function ask(message) {
  let reply;
  try {
    reply = await chrome.runtime.sendMessage(message);
  } catch (error) {
    // No worker answered (it failed to start or register its listener).
    throw new Error(`the service worker did not answer: ${errorText(error)}`, { cause: error });
  }
  if (!isReply(reply)) throw new Error(`unexpected reply from the service worker: ${JSON.stringify(reply)}`);
  if (!reply.ok) throw new Error(reply.error);
  return reply;
}
