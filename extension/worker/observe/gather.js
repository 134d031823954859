// Gathers what the observation core needs from one tab over CDP: for the tab and
// each out-of-process iframe (a child session), the accessibility tree of every frame
// and a DOM snapshot; the owner element of each such iframe; the viewport; the main
// document's MIME type (a PDF shows in Chrome's viewer: observe/no-content.js).
//
// A size probe comes first, beside the frame tree: a target whose page has more than
// BOUND_ELEMENTS elements is read near the viewport only (observe/nearby.js), since
// its whole tree would cost the browser gigabytes. The others' commands then go out
// at once: the renderer answers them one after another, but the browser-side transfer
// and the worker's decoding of one overlap the next.

import { attach, childSessions, send } from '../cdp/cdp.js';
import { SNAPSHOT_PARAMS, childFrameIds, targetInput, viewportOf } from './input.js';
import { BOUND_ELEMENTS, gatherNearby, pageElements } from './nearby.js';

/**
 * @typedef {{ wholePage: boolean | Promise<boolean> }} Reading whether the observation
 *   shows the whole page (a big page is then read further beyond the viewport)
 */

/**
 * @param {number} tabId
 * @param {{attached?: boolean, wholePage?: boolean | Promise<boolean>}} [how] `attached:
 *   true` when the caller just attached; `wholePage`: the setting, which may still be
 *   read from storage meanwhile
 * @returns {Promise<{targets: TargetInput[], viewport: ReturnType<typeof viewportOf>, axMs: number,
 *   mimeType: string | null}>}
 */
export async function gatherTab(tabId, { attached = false, wholePage = false } = {}) {
  if (!attached) await attach(tabId);
  const children = await childSessions(tabId);
  const sessionTarget = new Map(children.map((c) => [c.sessionId, c.targetId]));
  /** @type {Reading} */
  const reading = { wholePage };
  const [main, metrics, ...frames] = await Promise.all([
    gatherTarget(tabId, undefined, reading),
    send(tabId, 'Page.getLayoutMetrics'),
    ...children.map((child) => gatherChild(tabId, child, sessionTarget, reading)),
  ]);
  // A child that vanished mid-observation (its frame navigated or closed) is skipped.
  const targets = [main, ...frames.filter((frame) => frame !== null)];
  return {
    targets: targets.map((t) => t.input),
    viewport: viewportOf(metrics),
    axMs: Math.max(...targets.map((t) => t.axMs)),
    mimeType: main.mimeType,
  };
}

/** One target: its snapshot, then the AX tree of each of its frames. */
/**
 * @typedef {ReturnType<typeof targetInput> | ReturnType<typeof import('./input.js').nearbyInput>} TargetInput
 * @param {number} tabId
 * @param {string | undefined} sessionId
 * @param {Reading} reading
 * @param {string | null} [targetId]
 * @param {import('./input.js').Owner | null} [owner]
 * @returns {Promise<{ input: TargetInput, axMs: number, mimeType: string | null }>}
 *   `mimeType`: the target's main document's, from the frame tree read anyway
 */
async function gatherTarget(tabId, sessionId, reading, targetId = null, owner = null) {
  const started = performance.now();
  const frameTreeP = send(tabId, 'Page.getFrameTree', {}, sessionId);
  // Not left unhandled while the probe runs; awaited (and throwing) below.
  frameTreeP.catch(() => undefined);
  const elements = await pageElements(tabId, sessionId);
  if (elements > BOUND_ELEMENTS) {
    const { frame } = (await frameTreeP).frameTree;
    const nearby = await gatherNearby(tabId, sessionId, { targetId, owner, frameId: frame.id, elements, wholePage: await reading.wholePage });
    return { ...nearby, mimeType: frame.mimeType ?? null };
  }
  const snapshotP = send(tabId, 'DOMSnapshot.captureSnapshot', SNAPSHOT_PARAMS, sessionId);
  const mainAxP = send(tabId, 'Accessibility.getFullAXTree', {}, sessionId);
  // Same-process child frames; out-of-process ones are not in this session's tree.
  const childAxP = frameTreeP.then((tree) =>
    Promise.all(
      childFrameIds(tree).map((frameId) =>
        send(tabId, 'Accessibility.getFullAXTree', { frameId }, sessionId).catch((error) => {
          // A frame removed between the two calls: observe the rest of the page.
          console.warn(`hopbench: frame ${frameId} left before its tree was read:`, error);
          return null;
        }),
      ),
    ),
  );
  const [mainAx, childAx] = await Promise.all([mainAxP, childAxP]);
  const axMs = performance.now() - started;
  const snapshot = await snapshotP;
  const axTrees = [mainAx, ...childAx.filter((tree) => tree !== null)];
  const mimeType = (await frameTreeP).frameTree.frame.mimeType ?? null;
  return { input: targetInput({ targetId, axTrees, snapshot, owner }), axMs, mimeType };
}

/** An out-of-process iframe: its owner element in the parent target, then its content. */
/**
 * @param {number} tabId
 * @param {import('../cdp/cdp.js').ChildSession} child
 * @param {Map<string, string>} sessionTarget
 * @param {Reading} reading
 */
async function gatherChild(tabId, child, sessionTarget, reading) {
  const parentSession = child.parentSessionId ?? undefined;
  try {
    const [{ backendNodeId }, gathered] = await Promise.all([
      send(tabId, 'DOM.getFrameOwner', { frameId: child.targetId }, parentSession),
      gatherTarget(tabId, child.sessionId, reading, child.targetId),
    ]);
    const ownerTarget = parentSession ? (sessionTarget.get(parentSession) ?? null) : null;
    gathered.input.owner = { targetId: ownerTarget, backendNodeId };
    return gathered;
  } catch (error) {
    console.warn(`hopbench: iframe ${child.url} skipped (session gone?):`, error);
    return null;
  }
}
