// The page side of the bounded observation (observe/nearby.js): run in the page, in an
// isolated world, it finds the DOM nodes in and near the viewport without visiting the
// rest of a huge page, and returns them for the worker to ask their accessibility
// nodes one by one. Serialised with toString(): it may use nothing from outside itself.
//
// The walk goes down the flat tree (shadow roots, slots) from the document element and
// leaves a subtree out when the element's box lies outside the band around the
// viewport. Children are normally all looked at; a long list of children (a list of
// 100,000 rows) is searched by position instead: in normal flow an element's children
// are laid out top to bottom in order, so the first child in the band is found by
// bisection and the walk stops a few children below the band. The first and last
// children of such a list are looked at too: a dialog or a fixed bar is often the last
// child of its container, wherever it is drawn. Elements without a box of their own
// (`display: contents`, an empty wrapper of floats) are walked into; those not
// rendered (`display: none`) are not, as their nodes are ignored by accessibility.
// A `<select>`'s options are read with it, though a closed one has no boxes for them.
// Frames are read as their element only.

/**
 * @typedef {{ margin: number, maxVisits: number, maxRead: number }} NearbyLimits
 *   `margin`: how far beyond the viewport the band reaches, in viewport heights
 *   (and widths) on each side; `maxVisits`: elements whose box the walk may look at;
 *   `maxRead`: nodes it may return
 * @typedef {{ rects: (number[] | null)[], clients: (number[] | null)[], sources: (string | null)[],
 *   whole: boolean[], scrollX: number, scrollY: number, visits: number, cut: boolean }} NearbyMeta
 *   per node read (in order): its box in document coordinates (null for text), an
 *   iframe's client rect (border widths and inner size), an image's current source,
 *   whether every child of it was read or is not rendered (so a child of its
 *   accessibility node that was not read has no node of its own in the DOM walk: a
 *   list marker, a `::before`); `cut`: a cap stopped the walk
 */

/**
 * @param {NearbyLimits} limits
 * @returns {[string, Document, ...Node[]]} the meta as JSON, the document, then the
 *   nodes read in document order; the caller reads the meta by value and the rest as
 *   handles
 */
export function nearbyNodes({ margin, maxVisits, maxRead }) {
  /** Children lists longer than this are searched by position. */
  const LONG_LIST = 64;
  /** The ends of a long list looked at, and the children below the band it takes to stop. */
  const ENDS = 8;
  const PAST_BAND = 8;
  const width = window.innerWidth;
  const height = window.innerHeight;
  const band = {
    top: -margin * height,
    bottom: height + margin * height,
    left: -margin * width,
    right: width + margin * width,
  };
  /** @type {Node[]} */
  const nodes = [];
  /** @type {NearbyMeta} */
  const meta = { rects: [], clients: [], sources: [], whole: [], scrollX: window.scrollX, scrollY: window.scrollY, visits: 0, cut: false };

  /** @param {DOMRect} r */
  const inBand = (r) => r.bottom >= band.top && r.top <= band.bottom && r.right >= band.left && r.left <= band.right;

  /**
   * @param {Node} node
   * @param {DOMRect | null} r
   */
  const read = (node, r) => {
    nodes.push(node);
    meta.rects.push(r ? [r.left + meta.scrollX, r.top + meta.scrollY, r.width, r.height] : null);
    const frame = node instanceof HTMLIFrameElement || node instanceof HTMLFrameElement;
    meta.clients.push(frame ? [node.clientLeft, node.clientTop, node.clientWidth, node.clientHeight] : null);
    meta.sources.push(node instanceof HTMLImageElement && node.currentSrc ? node.currentSrc : null);
    meta.whole.push(false);
    if (nodes.length >= maxRead) meta.cut = true;
  };

  /**
   * The children in the flat tree: a shadow root's, or the nodes assigned to a slot.
   * @param {Element} el
   * @returns {ArrayLike<Node>}
   */
  const childrenOf = (el) => {
    if (el.shadowRoot) return el.shadowRoot.childNodes;
    if (el instanceof HTMLSlotElement) {
      const assigned = el.assignedNodes({ flatten: true });
      if (assigned.length > 0) return assigned;
    }
    return el.childNodes;
  };

  /**
   * Index of the first child whose box reaches the band's top, by bisection over the
   * element children (texts between them are found from their neighbours).
   * @param {ArrayLike<Node>} list
   */
  const firstInBand = (list) => {
    let lo = 0;
    let hi = list.length;
    while (lo < hi && !meta.cut) {
      const mid = (lo + hi) >> 1;
      let probe = mid;
      while (probe < hi && !(list[probe] instanceof Element)) probe += 1;
      const el = list[probe];
      if (!(el instanceof Element)) {
        hi = mid;
        continue;
      }
      meta.visits += 1;
      if (el.getBoundingClientRect().bottom < band.top) lo = probe + 1;
      else hi = mid;
    }
    return lo;
  };

  /**
   * @param {Node} node
   * @returns {boolean} whether the node was read, or is not rendered
   */
  const visitChild = (node) => {
    if (node instanceof Element) return visit(node);
    if (node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '') read(node, null);
    return true;
  };

  /**
   * @param {Element} el
   * @returns {boolean} whether every child was read (or is not rendered)
   */
  const visitChildren = (el) => {
    const list = childrenOf(el);
    let whole = true;
    /**
     * @param {number} from
     * @param {number} to
     */
    const visitRange = (from, to) => {
      for (let i = from; i < to; i += 1) whole = !meta.cut && visitChild(list[i]) && whole;
    };
    if (list.length <= LONG_LIST) {
      visitRange(0, list.length);
      return whole;
    }
    // The text just before the first child in the band may be in it too.
    const start = Math.max(firstInBand(list) - 1, 0);
    visitRange(0, Math.min(ENDS, start));
    let past = 0;
    let i = start;
    for (; i < list.length && past < PAST_BAND && !meta.cut; i += 1) {
      const node = list[i];
      visitChild(node);
      if (node instanceof Element) past = node.getBoundingClientRect().top > band.bottom ? past + 1 : 0;
    }
    visitRange(Math.max(i, list.length - ENDS), list.length);
    return false;
  };

  /**
   * @param {Element} el
   * @returns {boolean} whether it was read, or is not rendered
   */
  const visit = (el) => {
    if (meta.cut) return false;
    meta.visits += 1;
    if (meta.visits > maxVisits) {
      meta.cut = true;
      return false;
    }
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) {
      // No box: not rendered at all (nothing of it is in the accessibility tree), or
      // rendered only through its children.
      if (el.getClientRects().length === 0 && getComputedStyle(el).display !== 'contents') return true;
    } else if (!inBand(r)) {
      return false;
    }
    read(el, r);
    const at = nodes.length - 1;
    if (el instanceof HTMLSelectElement) {
      for (const option of el.querySelectorAll('option, optgroup')) {
        if (meta.cut) return true;
        read(option, null);
        for (const text of option.childNodes) if (!meta.cut && text.nodeType === Node.TEXT_NODE) read(text, null);
      }
      return true;
    }
    if (el instanceof HTMLIFrameElement || el instanceof HTMLFrameElement || el instanceof HTMLObjectElement) return true;
    meta.whole[at] = visitChildren(el);
    return true;
  };

  visit(document.documentElement);
  return [JSON.stringify(meta), document, ...nodes];
}
