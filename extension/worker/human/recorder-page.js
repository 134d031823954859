// The in-page half of recording a person's session (worker/human/recorder.js installs it).
//
// It runs in an isolated world of its own, created over CDP (Page.addScriptToEvaluate-
// OnNewDocument with a worldName, and Page.createIsolatedWorld for documents already
// open): it shares the page's DOM but not its JavaScript, so the page cannot see it.
// It only listens: capture-phase, passive listeners on window, never preventDefault or
// stopPropagation, no element, attribute or style added, nothing focused or scrolled.
// A MutationObserver watches the DOM (observers change nothing).
//
// What it reports, through the CDP binding the worker added (Runtime.addBinding), as
// JSON: the person's actions in the agent's action space, each naming its element by
// the [id] the agent would see. The worker hands the recorder the element of every id
// of each new observation (`assign`), so the id is known here, at the moment of the
// event, even if the click then unloads the page. Only trusted events count: what the
// page's own scripts dispatch is not the person.
//
// `pageRecorder` is serialised with Function.prototype.toString: it must not use
// anything from this module's scope.

export const RECORDER_WORLD = 'hopbench-recorder';
export const RECORDER_BINDING = '__hopbenchRecord';

/**
 * @typedef {HTMLElement & { value?: string, labels?: NodeListOf<HTMLLabelElement> | null }} PageElement
 *   an element of an event's path, typed as an HTML element: what others (SVG) lack is
 *   read optionally
 * @typedef {{ kind: string } & Record<string, unknown>} Payload
 */

/** @param {string} bindingName */
function pageRecorder(bindingName) {
  if (globalThis.__hopbenchRecorder) {
    // The worker evaluates the recorder again in documents that run it already (after
    // adding the binding, after a restart): the binding may have arrived since.
    globalThis.__hopbenchRecorder.announce();
    return 'present';
  }
  // The binding is looked up at every report, not once: a document can start before
  // the binding reaches its world (the worker adds it to every context of the world,
  // also later). Without it, nothing is reported and nothing is thrown into the page.
  const bindingNow = () => {
    const binding = Reflect.get(globalThis, bindingName);
    return typeof binding === 'function' ? /** @type {(payload: string) => void} */ (binding) : null;
  };
  let announced = false;
  let lastSentAt = 0;
  /** @param {Payload} payload */
  const deliver = (payload) => {
    const binding = bindingNow();
    if (!binding) return false;
    binding(JSON.stringify({ ...payload, t: Date.now() }));
    return true;
  };
  /** Tells the worker this document records (once, as soon as the binding is there). */
  const announce = () => {
    if (!announced) announced = deliver({ kind: 'ready' });
  };
  const send = (/** @type {Payload} */ payload) => {
    if (payload.kind !== 'dom') lastSentAt = performance.now();
    announce();
    if (announced) deliver(payload);
  };
  /**
   * @template {keyof WindowEventMap} K
   * @param {K} type
   * @param {(event: WindowEventMap[K]) => void} fn
   */
  const listen = (type, fn, target = window) =>
    target.addEventListener(type, (event) => event.isTrusted && fn(event), { capture: true, passive: true });

  /** element → the [id] the worker's last observation gave it. */
  /** @type {WeakMap<object, number>} */
  const ids = new WeakMap();
  /** Paths of reported events whose id was unknown, kept for the worker to ask again. */
  /** @type {Map<number, PageElement[]>} */
  const held = new Map();
  let seq = 0;

  const TEXT_INPUTS = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number']);
  const VALUE_INPUTS = new Set(['date', 'time', 'month', 'week', 'datetime-local', 'color', 'range']);
  const isTextField = (/** @type {PageElement | undefined} */ el) =>
    (el instanceof HTMLInputElement && TEXT_INPUTS.has(el.type)) || el instanceof HTMLTextAreaElement || el?.isContentEditable === true;
  const isSelect = (/** @type {PageElement | undefined} */ el) => el instanceof HTMLSelectElement;
  const elementsOf = (/** @type {Event} */ event) =>
    /** @type {PageElement[]} */ (event.composedPath().filter((n) => n instanceof Element));

  /** The nearest element of the path that has an id: `{id, depth}` or null. */
  /** @param {PageElement[]} path */
  function nearestId(path) {
    for (let i = 0; i < path.length; i++) {
      const id = ids.get(path[i]);
      if (id !== undefined) return { id, depth: i };
    }
    return null;
  }

  const INTERACTIVE = 'a[href], button, input, select, textarea, summary, label, [role], [contenteditable]';
  const squash = (/** @type {string | null | undefined} */ text) => (text ?? '').replace(/\s+/g, ' ').trim().slice(0, 120);

  /** A description to find the element by name if its id is unknown. */
  /** @param {PageElement[]} path */
  function describe(path) {
    const el = path.find((e) => e.matches?.(INTERACTIVE)) ?? path[0];
    if (!el) return null;
    const name = el.getAttribute('aria-label') || (el.labels?.[0] && squash(el.labels[0].textContent)) || squash(el.textContent) || el.getAttribute('title') || el.getAttribute('placeholder') || '';
    return { tag: el.tagName.toLowerCase(), name: squash(name) };
  }

  /** The element part of a report: its id, or a handle the worker can ask about later. */
  /** @param {PageElement[]} path */
  function target(path) {
    const found = nearestId(path);
    // The element the person meant is the first interactive one on the path. An id
    // further up is an ancestor's: right after a scroll brought a link into view, the
    // last observation knew <main> but not the link, and the click was recorded as
    // "Clicked main ''". Then the worker looks for the element itself (observing again).
    const meant = path.findIndex((e) => e.matches?.(INTERACTIVE));
    if (found && (meant === -1 || found.depth <= meant)) return { id: found.id };
    const handle = ++seq;
    held.set(handle, path);
    if (held.size > 50) held.delete(/** @type {number} */ (held.keys().next().value));
    return { id: null, handle, describe: describe(path) };
  }

  // --- typing: one `type` per field edit ------------------------------------------

  /** @type {{ field: PageElement, path: PageElement[] } | null} */
  let edit = null;
  const valueOf = (/** @type {PageElement} */ field) => (field.isContentEditable && !('value' in field) ? field.innerText : field.value);

  /** @param {boolean} enter */
  function flushEdit(enter) {
    if (!edit) return;
    const { field, path } = edit;
    edit = null;
    send({ kind: 'type', ...target(path), text: valueOf(field), enter });
  }

  // A click into a field or list only focuses it: it is kept back, and dropped if the
  // person then edits that field (the agent's `type` clicks the field itself).
  /** @type {{ el: PageElement, path: PageElement[] } | null} */
  let focusClick = null;
  function flushFocusClick() {
    if (focusClick) send({ kind: 'click', ...target(focusClick.path) });
    focusClick = null;
  }

  /** A rich editor's whole editable region (the event's target may be a <p> inside it). */
  /** @param {PageElement} el */
  function editingHost(el) {
    let host = el;
    while (host.parentElement?.isContentEditable) host = host.parentElement;
    return host;
  }

  listen('input', (event) => {
    const path = elementsOf(event);
    if (!path[0] || !isTextField(path[0])) return;
    const field = path[0].isContentEditable ? editingHost(path[0]) : path[0];
    if (edit?.field !== field) {
      flushEdit(false);
      edit = { field, path: path.slice(path.indexOf(field)) };
    }
    if (focusClick?.el === field) focusClick = null;
  });

  listen('change', (event) => {
    const path = elementsOf(event);
    const [el] = path;
    if (!el) return;
    if (isSelect(el)) {
      flushEdit(false);
      if (focusClick?.el === el) focusClick = null;
      const option = el.selectedOptions[0];
      send({ kind: 'type', ...target(path), text: option ? squash(option.text) : el.value, enter: false });
    } else if (el instanceof HTMLInputElement && VALUE_INPUTS.has(el.type)) {
      flushEdit(false);
      send({ kind: 'type', ...target(path), text: el.value, enter: false });
    } else if (edit?.field === el) {
      flushEdit(false);
    }
  });

  window.addEventListener('focusout', (event) => {
    if (edit && event.composedPath()[0] === edit.field) flushEdit(false);
  }, { capture: true, passive: true });

  // --- keys ------------------------------------------------------------------------

  const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'AltGraph']);
  let lastKeyAt = 0;

  /** @param {KeyboardEvent} event */
  function combo(event) {
    const parts = [];
    if (event.ctrlKey) parts.push('Control');
    if (event.altKey) parts.push('Alt');
    if (event.metaKey) parts.push('Meta');
    // Shift is part of a typed character already ('A'), not of a named key.
    if (event.shiftKey && event.key.length > 1) parts.push('Shift');
    parts.push(event.key === ' ' ? 'Space' : event.key);
    return parts.join('+');
  }

  listen('keydown', (event) => {
    if (MODIFIERS.has(event.key) || event.isComposing) return;
    const [el] = elementsOf(event);
    const plain = !event.ctrlKey && !event.altKey && !event.metaKey;
    lastKeyAt = performance.now();
    // Enter ends an edit of a one-line field: `type ... [1]`, read before the page's
    // own handlers (this listener comes first) can clear the field.
    if (event.key === 'Enter' && plain && edit && el === edit.field && !(el instanceof HTMLTextAreaElement) && !el.isContentEditable) {
      flushEdit(true);
      return;
    }
    // Keys that edit a field or move in a list belong to the edit, not to `press`.
    const editing = el && (isTextField(el) || isSelect(el));
    if (editing && plain && event.key !== 'Enter' && event.key !== 'Escape' && event.key !== 'Tab') return;
    if (editing && event.key === 'Enter' && isSelect(el)) return;
    // Back and forward are recorded from the navigation they cause (go_back, go_forward).
    if (event.altKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) return;
    flushEdit(false);
    flushScroll();
    flushFocusClick();
    send({ kind: 'press', key: combo(event) });
  });

  // --- pointer: click and hover ------------------------------------------------------

  /** @type {{ path: PageElement[], at: number } | null} */
  let pressed = null; // the primary button went down here
  // Cleared after the click this release may cause (dispatched in the same task), so
  // a press that ends as a drag does not stop hover detection.
  listen('pointerup', () => setTimeout(() => (pressed = null), 0));
  let lastMoveAt = 0;
  listen('pointermove', (event) => {
    if (event.movementX !== 0 || event.movementY !== 0) lastMoveAt = performance.now();
  });
  listen('pointerdown', (event) => {
    if (event.button !== 0) return;
    const path = elementsOf(event);
    flushScroll();
    if (!edit || !path.includes(edit.field)) flushEdit(false);
    if (!focusClick || !path.includes(focusClick.el)) flushFocusClick();
    pressed = { path, at: performance.now() };
    hover = null;
  });

  listen('click', (event) => {
    // Only a click the pointer made: keyboard activation (recorded as press) and the
    // click a <label> forwards to its control come without a pointer press of their own.
    if (!pressed || event.detail === 0) return;
    const { path } = pressed;
    pressed = null;
    if (edit && path.includes(edit.field)) return; // Moving the caret in the field being edited.
    const [el] = path;
    if (el && (isTextField(el) || isSelect(el))) {
      const field = el.isContentEditable ? editingHost(el) : el;
      flushFocusClick();
      focusClick = { el: field, path: path.slice(path.indexOf(field)) };
      return;
    }
    send({ kind: 'click', ...target(path) });
  });

  // Hover: the pointer entered an element and the page answered by changing its DOM
  // (a menu opening) within HOVER_MS, with no press in between. A pure CSS :hover
  // changes no DOM and is not seen.
  const HOVER_MS = 400;
  /** @type {{ path: PageElement[], at: number } | null} */
  let hover = null;
  /** @type {PageElement | null} */
  let lastHovered = null;
  listen('mouseover', (event) => {
    // Chrome also sends mouseover when content moves under a still pointer (after a
    // click re-rendered the page): only a pointer that moved counts as the person's.
    const now = performance.now();
    if (event.buttons !== 0 || now - lastMoveAt > 100) return;
    hover = { path: elementsOf(event), at: now };
  });

  // --- scroll: wheel gestures, one `scroll` per viewport height moved -----------------

  /** @typedef {Window | PageElement} Scroller */
  /** @type {{ scroller: Scroller, start: number, timer: ReturnType<typeof setTimeout> | number } | null} */
  let gesture = null;
  const positionOf = (/** @type {Scroller} */ scroller) => (scroller === window ? window.scrollY : /** @type {PageElement} */ (scroller).scrollTop);
  // Where each scroller rested before the gesture: the wheel event may be dispatched
  // after the compositor has scrolled already (no listener blocks it: ours are passive),
  // so the position at the first wheel event can be the new one.
  /** @type {WeakMap<Scroller, number>} */
  const rest = new WeakMap([[window, window.scrollY]]);
  const restOf = (/** @type {Scroller} */ scroller) => rest.get(scroller) ?? positionOf(scroller);

  /**
   * @param {PageElement[]} path
   * @returns {Scroller}
   */
  function scrollerOf(path) {
    for (const el of path) {
      const style = getComputedStyle(el);
      if (/(auto|scroll)/.test(style.overflowY) && el.scrollHeight > el.clientHeight) return el;
    }
    return window;
  }

  function flushScroll() {
    if (!gesture) return;
    const { scroller, start, timer } = gesture;
    gesture = null;
    clearTimeout(timer);
    const moved = positionOf(scroller) - start;
    rest.set(scroller, positionOf(scroller));
    const height = scroller === window ? window.innerHeight : /** @type {PageElement} */ (scroller).clientHeight;
    if (Math.abs(moved) < 1) return;
    const times = Math.min(5, Math.max(1, Math.round(Math.abs(moved) / height)));
    send({ kind: 'scroll', direction: moved > 0 ? 'down' : 'up', times });
  }

  listen('wheel', (event) => {
    if (event.deltaY === 0) return;
    if (!gesture) {
      flushEdit(false);
      flushFocusClick();
      const scroller = scrollerOf(elementsOf(event));
      gesture = { scroller, start: restOf(scroller), timer: 0 };
    }
    clearTimeout(gesture.timer);
    clearTimeout(quietTimer); // The scroll report comes first (see the scroll listener).
    gesture.timer = setTimeout(flushScroll, 300);
  });

  // --- the page changing -------------------------------------------------------------

  const QUIET_MS = 250;
  /** @type {ReturnType<typeof setTimeout> | number} */
  let quietTimer = 0;
  new MutationObserver(() => {
    const now = performance.now();
    // Not when the change follows the person's last action (a click's new page).
    const calm = now - lastKeyAt > HOVER_MS && now - lastSentAt > HOVER_MS;
    if (hover && now - hover.at < HOVER_MS && !pressed && calm) {
      const [el] = hover.path;
      if (el && el !== lastHovered) {
        lastHovered = el;
        send({ kind: 'hover', ...target(hover.path) });
      }
      hover = null;
    }
    // Once the page is quiet again, the worker observes it, as the agent would.
    clearTimeout(quietTimer);
    quietTimer = setTimeout(() => send({ kind: 'dom' }), QUIET_MS);
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  // Scrolling shows other elements (the agent's observation is of the viewport): once
  // it stops, the worker observes again too.
  /** @type {ReturnType<typeof setTimeout> | number} */
  let restTimer = 0;
  window.addEventListener('scroll', (event) => {
    // A wheel gesture ends in its `scroll` report, after which the worker observes
    // anyway; observing before the report would give it the page after the scroll.
    if (gesture) return;
    clearTimeout(quietTimer);
    quietTimer = setTimeout(() => send({ kind: 'dom' }), QUIET_MS);
    // Outside a wheel gesture (keys, the scrollbar, the page itself): the new rest.
    const scroller = event.target === document ? window : /** @type {PageElement} */ (event.target);
    clearTimeout(restTimer);
    restTimer = setTimeout(() => {
      if (!gesture) rest.set(scroller, positionOf(scroller));
    }, QUIET_MS);
  }, { capture: true, passive: true });

  window.addEventListener('pagehide', () => {
    flushScroll();
    flushEdit(false);
    flushFocusClick();
  }, { capture: true, passive: true });

  globalThis.__hopbenchRecorder = {
    announce,
    /** The worker's ids for the elements of its last observation (args: id, el, id, el...). */
    assign(...pairs) {
      for (let i = 0; i + 1 < pairs.length; i += 2) ids.set(/** @type {object} */ (pairs[i + 1]), /** @type {number} */ (pairs[i]));
      return pairs.length / 2;
    },
    /** The id of a held path once the worker has observed again; null if still none. */
    idOf(handle) {
      const path = held.get(handle);
      return path ? (nearestId(path)?.id ?? null) : null;
    },
  };
  announce();
  return 'installed';
}

/** The script installed in the recorder's world of every frame of a session tab. */
export const RECORDER_SOURCE = `(${pageRecorder.toString()})(${JSON.stringify(RECORDER_BINDING)})`;
