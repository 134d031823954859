// Gathers what the observation core needs from one tab over CDP: for the tab and
// each out-of-process iframe (a child session), the accessibility tree of every frame
// and a DOM snapshot; the owner element of each such iframe; the viewport.
//
// All commands go out at once: the renderer answers them one after another, but the
// browser-side transfer and the worker's decoding of one overlap the next.

import { attach, childSessions, send } from '../cdp/cdp.js';
import { SNAPSHOT_PARAMS, childFrameIds, targetInput, viewportOf } from './input.js';

/**
 * @param {number} tabId
 * @param {{attached?: boolean}} [how] `attached: true` when the caller just attached
 * @returns {Promise<{targets: TargetInput[], viewport: ReturnType<typeof viewportOf>, axMs: number}>}
 */
export async function gatherTab(tabId, { attached = false } = {}) {
  if (!attached) await attach(tabId);
  const children = await childSessions(tabId);
  const sessionTarget = new Map(children.map((c) => [c.sessionId, c.targetId]));
  const [main, metrics, ...frames] = await Promise.all([
    gatherTarget(tabId, undefined),
    send(tabId, 'Page.getLayoutMetrics'),
    ...children.map((child) => gatherChild(tabId, child, sessionTarget)),
  ]);
  // A child that vanished mid-observation (its frame navigated or closed) is skipped.
  const targets = [main, ...frames.filter((frame) => frame !== null)];
  return {
    targets: targets.map((t) => t.input),
    viewport: viewportOf(metrics),
    axMs: Math.max(...targets.map((t) => t.axMs)),
  };
}

/** One target: its snapshot, then the AX tree of each of its frames. */
/**
 * @typedef {ReturnType<typeof targetInput>} TargetInput
 * @param {number} tabId
 * @param {string | undefined} sessionId
 * @param {string | null} [targetId]
 * @param {import('./input.js').Owner | null} [owner]
 */
async function gatherTarget(tabId, sessionId, targetId = null, owner = null) {
  const started = performance.now();
  const frameTreeP = send(tabId, 'Page.getFrameTree', {}, sessionId);
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
  return { input: targetInput({ targetId, axTrees, snapshot, owner }), axMs };
}

/** An out-of-process iframe: its owner element in the parent target, then its content. */
/**
 * @param {number} tabId
 * @param {import('../cdp/cdp.js').ChildSession} child
 * @param {Map<string, string>} sessionTarget
 */
async function gatherChild(tabId, child, sessionTarget) {
  const parentSession = child.parentSessionId ?? undefined;
  try {
    const [{ backendNodeId }, gathered] = await Promise.all([
      send(tabId, 'DOM.getFrameOwner', { frameId: child.targetId }, parentSession),
      gatherTarget(tabId, child.sessionId, child.targetId),
    ]);
    const ownerTarget = parentSession ? (sessionTarget.get(parentSession) ?? null) : null;
    gathered.input.owner = { targetId: ownerTarget, backendNodeId };
    return gathered;
  } catch (error) {
    console.warn(`hopbench: iframe ${child.url} skipped (session gone?):`, error);
    return null;
  }
}
