// Pure helpers that shape raw CDP results into the core's observation input.
// No chrome.* here: tests/fixtures/cdp/capture.mjs uses the same functions under
// Node, so the native fixtures have exactly the shape the worker sends.

/** Snapshot options: no computed styles (the core needs none); DOM rects give an
 * iframe's client rect, i.e. where its content box sits inside its border. */
export const SNAPSHOT_PARAMS = Object.freeze({ computedStyles: [], includeDOMRects: true });

/**
 * Keeps only what the core reads from `DOMSnapshot.captureSnapshot`, so the JSON
 * handed to wasm is smaller (attributes, text boxes and paint order are dropped).
 */
export function trimSnapshot(snapshot) {
  return {
    strings: snapshot.strings,
    documents: snapshot.documents.map((doc) => ({
      frameId: doc.frameId,
      scrollOffsetX: doc.scrollOffsetX ?? 0,
      scrollOffsetY: doc.scrollOffsetY ?? 0,
      nodes: {
        backendNodeId: doc.nodes.backendNodeId,
        contentDocumentIndex: doc.nodes.contentDocumentIndex,
        currentSourceURL: doc.nodes.currentSourceURL,
      },
      layout: {
        nodeIndex: doc.layout.nodeIndex,
        bounds: doc.layout.bounds,
        clientRects: doc.layout.clientRects,
      },
    })),
  };
}

/** Ids of every frame below the root of a `Page.getFrameTree` result. */
export function childFrameIds(frameTree) {
  const ids = [];
  const visit = (node) => {
    for (const child of node.childFrames ?? []) {
      ids.push(child.frame.id);
      visit(child);
    }
  };
  visit(frameTree.frameTree);
  return ids;
}

/** The main frame's viewport from `Page.getLayoutMetrics`, in CSS pixels. */
export function viewportOf(metrics) {
  const v = metrics.cssLayoutViewport;
  return { pageX: v.pageX, pageY: v.pageY, clientWidth: v.clientWidth, clientHeight: v.clientHeight };
}

/**
 * @param {{targetId: string|null, axTrees: object[], snapshot: object,
 *          owner?: {targetId: string|null, backendNodeId: number}}} target
 */
export function targetInput({ targetId, axTrees, snapshot, owner }) {
  return {
    targetId: targetId ?? null,
    frames: axTrees.map((tree) => ({ nodes: tree.nodes })),
    snapshot: trimSnapshot(snapshot),
    owner: owner ?? null,
  };
}
