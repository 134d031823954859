// Content script, injected on demand into the frames of a session's tab only (never a
// manifest content script): takes other extensions' frames out of the page and keeps
// them out while the document lives.
//
// Why: Chrome refuses an extension's debugger on any page that shows a frame of
// another extension ("Cannot access a chrome-extension:// URL of different
// extension"), and detaches it when such a frame appears later. Password managers,
// translators and wallets put their inline menus in such frames, often inside a
// closed shadow root of their own. Nothing can stop their frame from starting to load
// (Chrome detaches at its navigation, measured on Chromium 156 even when the frame was
// removed in the same task), so the worker attaches again after this script has taken
// it out; the page's own content is untouched, and the other extension is neither
// disabled nor changed. A frame that points at this extension's own pages is taken out
// too: a page may not show them (they are not web-accessible), so Chrome turns them
// into chrome-extension://invalid/, which is refused the same way.
//
// Returns the number of frames taken out of this document so far (the worker sums the
// frames' counts for the observation's "not observed" line).
(() => {
  /** @type {typeof globalThis & { __hopbenchForeignFrames?: { removed: number, sweep: () => void } }} */
  const g = globalThis;
  if (g.__hopbenchForeignFrames) {
    g.__hopbenchForeignFrames.sweep();
    return g.__hopbenchForeignFrames.removed;
  }
  const FRAMES = 'iframe, frame, embed, object';
  /** @type {WeakSet<Node>} */
  const watched = new WeakSet();
  const state = { removed: 0, sweep: () => sweep(document) };
  g.__hopbenchForeignFrames = state;

  /** @param {Element} el */
  const isForeign = (el) => {
    const url = el.getAttribute('src') ?? el.getAttribute('data') ?? '';
    return /^\s*chrome-extension:/i.test(url);
  };

  /**
   * Open shadow roots, and closed ones through the extension-only chrome.dom API (which
   * takes HTML elements only: an SVG element throws there).
   * @param {Element} el
   * @returns {ShadowRoot | null}
   */
  const shadowOf = (el) => (el instanceof HTMLElement ? (chrome.dom?.openOrClosedShadowRoot?.(el) ?? el.shadowRoot) : el.shadowRoot);

  /** @param {Document | ShadowRoot | Element} root */
  function sweep(root) {
    if (root instanceof Element && root.matches(FRAMES) && isForeign(root)) {
      root.remove();
      state.removed += 1;
      return;
    }
    for (const frame of root.querySelectorAll(FRAMES)) {
      if (isForeign(frame)) {
        frame.remove();
        state.removed += 1;
      }
    }
    const hosts = root instanceof Element ? [root, ...root.querySelectorAll('*')] : root.querySelectorAll('*');
    for (const host of hosts) {
      const shadow = shadowOf(host);
      if (shadow) {
        watch(shadow);
        sweep(shadow);
      }
    }
  }

  /** @param {Document | ShadowRoot} root */
  function watch(root) {
    if (watched.has(root)) return;
    watched.add(root);
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'attributes') {
          if (record.target instanceof Element) sweep(record.target);
          continue;
        }
        for (const node of record.addedNodes) if (node instanceof Element) sweep(node);
      }
    }).observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['src', 'data'] });
  }

  watch(document);
  sweep(document);
  return state.removed;
})();
