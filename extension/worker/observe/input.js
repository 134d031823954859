// Pure helpers that shape raw CDP results into the core's observation input.
// No chrome.* here: tests/fixtures/cdp/capture.mjs uses the same functions under
// Node, so the native fixtures have exactly the shape the worker sends.

/**
 * Snapshot options. The only computed styles the core needs are an iframe's top and
 * left border widths, to find where its content starts. (`includeDOMRects` gives the
 * same through client rects but costs ~200 ms more renderer time on a 3,000-element
 * page, measured on Chromium 156.) The core reads the styles in this order.
 */
/**
 * @typedef {import('../cdp/cdp-protocol.js').AXNode} AXNode
 * @typedef {import('../cdp/cdp-protocol.js').FrameTree} FrameTree
 * @typedef {import('../cdp/cdp-protocol.js').CaptureSnapshotReturn} Snapshot
 * @typedef {import('../cdp/cdp-protocol.js').LayoutMetrics} LayoutMetrics
 * @typedef {{ targetId: string | null, backendNodeId: number }} Owner
 */

export const SNAPSHOT_PARAMS = Object.freeze({
  computedStyles: ['border-left-width', 'border-top-width'],
});

/**
 * Keeps only what the core reads from `DOMSnapshot.captureSnapshot`, so the JSON
 * handed to wasm is smaller (attributes, text boxes and paint order are dropped).
 * @param {Snapshot} snapshot
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
        styles: doc.layout.styles,
      },
    })),
  };
}

/**
 * Keeps the fields of each AX node the core reads, and drops InlineTextBox nodes
 * (never printed: each repeats its StaticText parent). On a 3,000-element page this
 * shrinks the JSON handed to wasm from 7.2 MB to 2.7 MB for ~2 ms of work; Chromium's
 * `name.sources` lists alone are a third of the raw size.
 * @param {AXNode[]} nodes
 */
export function trimAxNodes(nodes) {
  /** @type {Record<string, unknown>[]} */
  const kept = [];
  for (const n of nodes) {
    if (n.role?.value === 'InlineTextBox') continue;
    kept.push({
      nodeId: n.nodeId,
      ignored: n.ignored,
      role: n.role,
      name: n.name ? { value: n.name.value } : undefined,
      properties: n.properties,
      childIds: n.childIds,
      backendDOMNodeId: n.backendDOMNodeId,
      frameId: n.frameId,
    });
  }
  return kept;
}

/** Ids of every frame below the root of a `Page.getFrameTree` result. */
/**
 * @param {{ frameTree: FrameTree }} frameTree
 * @returns {string[]}
 */
export function childFrameIds(frameTree) {
  /** @type {string[]} */
  const ids = [];
  const visit = (/** @type {FrameTree} */ node) => {
    for (const child of node.childFrames ?? []) {
      ids.push(child.frame.id);
      visit(child);
    }
  };
  visit(frameTree.frameTree);
  return ids;
}

/** The main frame's viewport from `Page.getLayoutMetrics`, in CSS pixels. */
/** @param {LayoutMetrics} metrics */
export function viewportOf(metrics) {
  const v = metrics.cssLayoutViewport;
  return { pageX: v.pageX, pageY: v.pageY, clientWidth: v.clientWidth, clientHeight: v.clientHeight };
}

/**
 * @param {{targetId: string|null, axTrees: { nodes: AXNode[] }[], snapshot: Snapshot,
 *          owner?: Owner | null}} target
 */
export function targetInput({ targetId, axTrees, snapshot, owner }) {
  return {
    targetId: targetId ?? null,
    frames: axTrees.map((tree) => ({ nodes: trimAxNodes(tree.nodes) })),
    snapshot: trimSnapshot(snapshot),
    owner: owner ?? null,
  };
}
