// The bounded observation of a target too big to read whole (docs/observation.md,
// "The bound"): the page finds its nodes in and near the viewport (nearby-page.js),
// then each one's accessibility node is asked for on its own
// (`Accessibility.getPartialAXTree` without relatives), so no reply grows with the
// page. `getFullAXTree` and `DOMSnapshot.captureSnapshot` of a 200,000-node page are
// a hundred megabytes of JSON that the browser process parses and copies on its way to
// this worker; that, not the page, took the browser to gigabytes.
//
// What still grows with the page: the renderer builds its accessibility tree of the
// whole document on the first Accessibility command (about a second per 200,000
// nodes, measured in docs/observation.md), once per document while the debugger stays
// attached.

import { CommandTimeout, send } from '../cdp/cdp.js';
import { nearbyNodes } from './nearby-page.js';
import { nearbyInput, unwalked } from './input.js';

/** Pages with more elements than this are read near the viewport only. */
export const BOUND_ELEMENTS = 10_000;

/**
 * The walk's caps (nearby-page.js): the band reaches a quarter of the viewport beyond
 * it (whole-page observations: two viewports), at most `maxVisits` boxes are looked at
 * and `maxRead` nodes read, each one a DevTools command of about half a millisecond.
 */
const LIMITS = Object.freeze({ margin: 0.25, maxVisits: 20_000, maxRead: 2_000 });
const WHOLE_PAGE_MARGIN = 2;

/** The isolated world the walk runs in: the page's own scripts cannot change what it sees. */
const WORLD = 'hopbench-observe';
const OBJECT_GROUP = 'hopbench-observe-nearby';

/**
 * The number of elements of the target's document and of the same-origin frames in
 * it: what decides between the whole tree and the part near the viewport. A few
 * milliseconds on a 200,000-node page (the count is a live collection Chrome caches).
 * Frames of another origin in the same process are not counted: they cannot be reached
 * from the page.
 */
const SIZE_PROBE = `(() => {
  let elements = 0;
  const count = (doc, depth) => {
    elements += doc.getElementsByTagName('*').length;
    if (depth > 4) return;
    for (const frame of doc.querySelectorAll('iframe, frame')) {
      let inner = null;
      try { inner = frame.contentDocument; } catch { inner = null; }
      if (inner) count(inner, depth + 1);
    }
  };
  count(document, 0);
  return elements;
})()`;

/**
 * @param {number} tabId
 * @param {string | undefined} sessionId
 * @returns {Promise<number>}
 */
export async function pageElements(tabId, sessionId) {
  const { result, exceptionDetails } = await send(tabId, 'Runtime.evaluate', { expression: SIZE_PROBE, returnByValue: true }, sessionId);
  if (exceptionDetails) throw new Error(`the page size probe failed: ${exceptionDetails.text}`);
  return Number(result.value);
}

/**
 * @param {number} tabId
 * @param {string | undefined} sessionId
 * @param {{ targetId: string | null, owner: import('./input.js').Owner | null, frameId: string,
 *   elements: number, wholePage: boolean }} target `frameId`: the target's main frame
 */
export async function gatherNearby(tabId, sessionId, { targetId, owner, frameId, elements, wholePage }) {
  const started = performance.now();
  const { executionContextId } = await send(tabId, 'Page.createIsolatedWorld', { frameId, worldName: WORLD }, sessionId);
  try {
    const limits = { ...LIMITS, ...(wholePage ? { margin: WHOLE_PAGE_MARGIN } : {}) };
    const { result, exceptionDetails } = await send(tabId, 'Runtime.evaluate', {
      expression: `(${nearbyNodes})(${JSON.stringify(limits)})`,
      contextId: executionContextId,
      objectGroup: OBJECT_GROUP,
    }, sessionId);
    if (exceptionDetails || !result.objectId) throw new Error(`the walk near the viewport failed: ${exceptionDetails?.text ?? result.type}`);
    const { result: entries } = await send(tabId, 'Runtime.getProperties', { objectId: result.objectId, ownProperties: true }, sessionId);
    const items = entries.filter((p) => /^\d+$/.test(p.name)).sort((a, b) => Number(a.name) - Number(b.name));
    const meta = JSON.parse(String(items[0]?.value?.value));
    const handles = items.slice(1).map((p) => p.value?.objectId);
    const axNodes = await Promise.all(handles.map((objectId) => axNodeOf(tabId, sessionId, { objectId })));
    const more = await Promise.all(unwalked(axNodes, meta, LIMITS.maxRead).map((backendNodeId) => axNodeOf(tabId, sessionId, { backendNodeId })));
    const input = nearbyInput({ targetId, owner, frameId, meta, axNodes, more, elements });
    return { input, axMs: performance.now() - started };
  } finally {
    await send(tabId, 'Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }, sessionId).catch((error) =>
      // A page that navigated away took the handles with it.
      console.debug('hopbench: releasing the walk handles:', error instanceof Error ? error.message : error),
    );
  }
}

/**
 * One node's accessibility node, or null when the node left the page meanwhile.
 * @param {number} tabId
 * @param {string | undefined} sessionId
 * @param {{ objectId?: string, backendNodeId?: number }} node
 */
async function axNodeOf(tabId, sessionId, node) {
  if (node.objectId === undefined && node.backendNodeId === undefined) return null;
  try {
    const { nodes } = await send(tabId, 'Accessibility.getPartialAXTree', { ...node, fetchRelatives: false }, sessionId);
    return nodes[0] ?? null;
  } catch (error) {
    // A renderer that does not answer at all ends the observation, as on every page.
    if (error instanceof CommandTimeout) throw error;
    console.debug('hopbench: a node near the viewport left before it was read:', error instanceof Error ? error.message : error);
    return null;
  }
}
