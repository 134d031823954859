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

/**
 * The input of a target read near the viewport only (observe/nearby.js), in the shape
 * of a whole one: its accessibility nodes as one frame's tree (the document's first;
 * the nodes link up through their childIds, and the children not read are left out by
 * the core), and a snapshot of one document holding only their boxes.
 * @param {{ targetId: string | null, owner: Owner | null, frameId: string,
 *   meta: import('./nearby-page.js').NearbyMeta, axNodes: (AXNode | null)[], more: (AXNode | null)[],
 *   elements: number }} read `axNodes`: the document's, then one per node of the walk,
 *   null for a node gone meanwhile; `more`: nodes the walk could not reach (nearby.js
 *   `unwalked`), which have no box of their own and are shown where their parent is
 */
export function nearbyInput({ targetId, owner, frameId, meta, axNodes, more, elements }) {
  /** @type {AXNode[]} */
  const kept = [];
  const strings = [frameId];
  /** @type {number[]} */ const backendNodeId = [];
  /** @type {number[]} */ const nodeIndex = [];
  /** @type {number[][]} */ const bounds = [];
  /** @type {number[][]} */ const clientRects = [];
  /** @type {number[]} */ const sourceIndex = [];
  /** @type {number[]} */ const sourceValue = [];
  axNodes.forEach((node, i) => {
    if (!node) return;
    kept.push(node);
    // The walk's facts are per node read; the document (first) has none.
    const rect = meta.rects[i - 1];
    const source = meta.sources[i - 1];
    if (i === 0 || node.backendDOMNodeId === undefined || (!rect && !source)) return;
    backendNodeId.push(node.backendDOMNodeId);
    const at = backendNodeId.length - 1;
    if (rect) {
      nodeIndex.push(at);
      bounds.push(rect);
      clientRects.push(meta.clients[i - 1] ?? []);
    }
    if (source) {
      sourceIndex.push(at);
      sourceValue.push(strings.push(source) - 1);
    }
  });
  for (const node of more) if (node) kept.push(node);
  // Children not read are left out: a list of 100,000 items names them all.
  const ids = new Set(kept.map((node) => node.nodeId));
  const nodes = trimAxNodes(kept.map((node) => ({ ...node, childIds: node.childIds?.filter((id) => ids.has(id)) })));
  return {
    targetId,
    frames: [{ nodes }],
    snapshot: {
      strings,
      documents: [{
        frameId: 0,
        scrollOffsetX: meta.scrollX,
        scrollOffsetY: meta.scrollY,
        nodes: { backendNodeId, currentSourceURL: { index: sourceIndex, value: sourceValue } },
        layout: { nodeIndex, bounds, clientRects },
      }],
    },
    owner,
    cut: { elements, read: kept.length },
  };
}

/**
 * The children of the accessibility nodes read that the DOM walk cannot reach: a list
 * item's marker, a `::before` with text. They are DOM nodes too (pseudo-elements), and
 * Chromium's accessibility ids are the nodes' own ids, so each is asked for by its
 * backendNodeId. Only children of an element all of whose DOM children were read are
 * taken: another element's missing children are the ones the walk left out.
 * @param {(AXNode | null)[]} axNodes the document's, then the walk's
 * @param {import('./nearby-page.js').NearbyMeta} meta
 * @param {number} max how many to take at most
 * @returns {number[]}
 */
export function unwalked(axNodes, meta, max) {
  const read = new Set(axNodes.map((node) => node?.nodeId));
  /** @type {Set<number>} */
  const ids = new Set();
  axNodes.forEach((node, i) => {
    if (!node || i === 0 || !meta.whole[i - 1]) return;
    // Nodes without a DOM node of their own (text runs) have negative ids.
    for (const child of node.childIds ?? []) if (!read.has(child) && /^\d+$/.test(child)) ids.add(Number(child));
  });
  return [...ids].slice(0, max);
}
