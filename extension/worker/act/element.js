// Element references → the element, through CDP, then marked for the content script.
//
// A reference is `{ targetId, backendNodeId }` (targetId null = the tab's main target,
// else an out-of-process iframe's target). DOM.resolveNode in the right session gives
// a JS handle; Runtime.callFunctionOn puts a one-off marker attribute on it; the
// content script (which shares the DOM) finds the marked element in its frame. A node
// that is gone (navigated away, removed from the document) is a step error naming the
// reference, never an action on something else.

import { childSessions, send } from '../cdp/cdp.js';

export const MARK_ATTRIBUTE = 'data-hopbench-target';

/** @typedef {import('../../messages.js').ElementRef & { id?: number }} Ref an element reference, with the `[id]` the agent wrote when it wrote one */

export class StepError extends Error {}

/** @param {Ref} ref */
export function describeRef(ref) {
  // `[id]` is what the agent wrote; the node id is what the debugger knows it by.
  const name = ref.id !== undefined ? `element [${ref.id}]` : `element ${ref.backendNodeId}`;
  return `${name}${ref.targetId ? ` in frame target ${ref.targetId}` : ''}`;
}

/**
 * @param {number} tabId
 * @param {Ref} ref
 * @returns {Promise<string | undefined>}
 */
async function sessionFor(tabId, ref) {
  if (ref.targetId === null) return undefined;
  const child = (await childSessions(tabId)).find((c) => c.targetId === ref.targetId);
  if (!child) {
    throw new StepError(`${describeRef(ref)}: that frame is gone; observe the page again`);
  }
  return child.sessionId;
}

// Runs in the page on the resolved node: marks the element (a text node's parent) if
// it is still in the document.
const MARK_FN = `function (attribute, token) {
  const el = this.nodeType === Node.ELEMENT_NODE ? this : this.parentElement;
  if (!el || !el.isConnected) return 'detached';
  el.setAttribute(attribute, token);
  return 'marked';
}`;

/**
 * Resolves and marks the element; returns `{ token, release }`. `release` removes the
 * marker (if the page still has it) and frees the CDP handle.
 * @param {number} tabId
 * @param {Ref} ref
 * @returns {Promise<{ token: string, release: () => Promise<void> }>}
 */
export async function markElement(tabId, ref) {
  const sessionId = await sessionFor(tabId, ref);
  /** @type {string | undefined} */
  let objectId;
  try {
    const { object } = await send(tabId, 'DOM.resolveNode', { backendNodeId: ref.backendNodeId }, sessionId);
    objectId = object.objectId;
  } catch (error) {
    throw new StepError(`${describeRef(ref)} no longer exists (${/** @type {Error} */ (error).message}); observe the page again`);
  }
  // DOM.resolveNode always gives a node's handle; without one there is nothing to mark.
  if (objectId === undefined) throw new StepError(`${describeRef(ref)} has no handle; observe the page again`);
  const token = crypto.randomUUID();
  const { result } = await send(tabId, 'Runtime.callFunctionOn', {
    objectId,
    functionDeclaration: MARK_FN,
    arguments: [{ value: MARK_ATTRIBUTE }, { value: token }],
    returnByValue: true,
  }, sessionId);
  if (result?.value !== 'marked') {
    await releaseObject(tabId, objectId, sessionId);
    throw new StepError(`${describeRef(ref)} is no longer in the page; observe the page again`);
  }
  return { token, release: () => unmark(tabId, objectId, sessionId) };
}

/**
 * @param {number} tabId
 * @param {string} objectId
 * @param {string | undefined} sessionId
 */
async function unmark(tabId, objectId, sessionId) {
  try {
    await send(tabId, 'Runtime.callFunctionOn', {
      objectId,
      functionDeclaration: `function (a) { const el = this.nodeType === 1 ? this : this.parentElement; el?.removeAttribute(a); }`,
      arguments: [{ value: MARK_ATTRIBUTE }],
    }, sessionId);
  } catch (error) {
    // The action navigated the frame: its document, and the marker with it, are gone.
    console.debug('hopbench: marker not removed (document replaced):', /** @type {Error} */ (error).message);
  }
  await releaseObject(tabId, objectId, sessionId);
}

/**
 * @param {number} tabId
 * @param {string} objectId
 * @param {string | undefined} sessionId
 */
async function releaseObject(tabId, objectId, sessionId) {
  try {
    await send(tabId, 'Runtime.releaseObject', { objectId }, sessionId);
  } catch (error) {
    // Same case: handles die with their execution context.
    console.debug('hopbench: handle already released with its document:', /** @type {Error} */ (error).message);
  }
}
