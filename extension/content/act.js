// Content script for actions, injected on demand into a session tab's frames with
// chrome.scripting.executeScript (never a manifest content script, so the person's
// other tabs are never touched). It runs in the extension's isolated world, which
// shares the page's DOM but not its JS objects.
//
// The worker marks the target element with a one-off attribute through CDP
// (worker/act/element.js); this script finds it in its frame, including inside shadow
// roots, and acts on it. The worker calls the functions below through
// `globalThis.__hopbenchAct[name](...args)`; each returns plain data.
//
/**
 * @typedef {import('./act-api.js').ActApi} ActApi
 * @typedef {import('./act-api.js').Typer} Typer
 * @typedef {HTMLElement & { value?: string }} Field an element a person may type into
 */
// Injected again for each action: the guard keeps one instance per document.
(() => {
  if (globalThis.__hopbenchAct) return;

  const MARK = 'data-hopbench-target';

  // --- DOM quiet: last mutation time, watched from injection on -------------------
  // Until the observer sees a mutation, the injection itself counts as the last one
  // (what changed before it is unknown); `sawMutation` tells the two apart, so a wait
  // that only sat out the injection time is not reported as the page changing.
  let lastMutation = performance.now();
  let sawMutation = false;
  new MutationObserver(() => {
    lastMutation = performance.now();
    sawMutation = true;
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });

  // --- Finding the marked element -------------------------------------------------

  /**
   * Open shadow roots, and closed ones through the extension-only chrome.dom API. That
   * API takes HTML elements only: handed an SVG element (an icon inside a design
   * system's button) it throws, which failed every search for an element marked inside
   * a shadow root of a page that had any SVG. Other elements have no closed root to find.
   */
  const shadowOf = (/** @type {Element} */ el) =>
    el instanceof HTMLElement ? (chrome.dom?.openOrClosedShadowRoot?.(el) ?? el.shadowRoot) : el.shadowRoot;

  /**
   * @param {Document | ShadowRoot} root
   * @param {string} token
   * @returns {Element | null}
   */
  function findMarked(root, token) {
    const direct = root.querySelector(`[${MARK}="${CSS.escape(token)}"]`);
    if (direct) return direct;
    for (const el of root.querySelectorAll('*')) {
      const shadow = shadowOf(el);
      const inner = shadow && findMarked(shadow, token);
      if (inner) return inner;
    }
    return null;
  }

  /**
   * @param {string} token
   * @returns {Field}
   */
  function marked(token) {
    const el = findMarked(document, token);
    if (!el) throw new Error('marked element not in this frame');
    return /** @type {Field} */ (el);
  }

  /**
   * `el` or a node inside it, crossing shadow boundaries (composed tree).
   * @param {Element} el
   * @param {Node} node
   */
  function composedContains(el, node) {
    /** @type {Node | null} */
    let n = node;
    for (; n; n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null)) if (n === el) return true;
    return false;
  }

  /**
   * The innermost element at a point, looking inside shadow roots.
   * @param {number} x
   * @param {number} y
   */
  function deepElementFromPoint(x, y) {
    let hit = document.elementFromPoint(x, y);
    for (let shadow = hit && shadowOf(hit); shadow; shadow = hit && shadowOf(hit)) {
      const inner = shadow.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  }

  /**
   * Offset of this frame's viewport in the top frame's viewport, or null when an
   * ancestor frame is cross-origin (its frameElement is hidden from us).
   */
  function frameOffset() {
    let x = 0;
    let y = 0;
    for (let w = /** @type {Window} */ (window); w !== w.top; w = w.parent) {
      const owner = w.frameElement;
      if (!owner) return null;
      const box = owner.getBoundingClientRect();
      x += box.left + owner.clientLeft;
      y += box.top + owner.clientTop;
    }
    return { x, y };
  }

  /** @param {Element} el */
  function describe(el) {
    const name = (el.getAttribute('aria-label') || el.textContent || /** @type {Field} */ (el).value || '').trim();
    return `<${el.tagName.toLowerCase()}>${name ? ` "${name.slice(0, 40)}"` : ''}`;
  }

  // --- Synthetic events, in the order a real pointer produces them ----------------

  /** @param {Element} el */
  function pointerInit(el) {
    const box = el.getBoundingClientRect();
    const clientX = box.left + box.width / 2;
    const clientY = box.top + box.height / 2;
    return { bubbles: true, cancelable: true, composed: true, view: window, clientX, clientY };
  }

  /**
   * @param {Element} el
   * @param {typeof MouseEvent | typeof PointerEvent} Type
   * @param {string} type
   * @param {MouseEventInit} init
   * @param {PointerEventInit} [extra]
   */
  function fire(el, Type, type, init, extra = {}) {
    // mouseenter/pointerenter do not bubble (UI Events spec).
    const bubbles = !type.endsWith('enter') && !type.endsWith('leave');
    return el.dispatchEvent(new Type(type, { ...init, ...extra, bubbles }));
  }

  /** @param {Element} el */
  function syntheticHover(el) {
    const init = pointerInit(el);
    const pointer = { pointerId: 1, pointerType: 'mouse', isPrimary: true };
    fire(el, PointerEvent, 'pointerover', init, pointer);
    fire(el, PointerEvent, 'pointerenter', init, pointer);
    fire(el, MouseEvent, 'mouseover', init);
    fire(el, MouseEvent, 'mouseenter', init);
    fire(el, PointerEvent, 'pointermove', init, pointer);
    fire(el, MouseEvent, 'mousemove', init);
    return init;
  }

  /** @param {Field} el */
  function syntheticClick(el) {
    const init = syntheticHover(el);
    const pointer = { pointerId: 1, pointerType: 'mouse', isPrimary: true };
    const down = { button: 0, buttons: 1, detail: 1 };
    fire(el, PointerEvent, 'pointerdown', init, { ...pointer, ...down });
    const proceed = fire(el, MouseEvent, 'mousedown', init, down);
    // A cancelled mousedown does not move focus (UI Events default action).
    if (proceed && typeof el.focus === 'function') el.focus({ preventScroll: true });
    const up = { button: 0, buttons: 0, detail: 1 };
    fire(el, PointerEvent, 'pointerup', init, { ...pointer, ...up });
    fire(el, MouseEvent, 'mouseup', init, up);
    // The click event's default action follows links, toggles checkboxes, submits.
    fire(el, MouseEvent, 'click', init, up);
  }

  // --- Typing ---------------------------------------------------------------------
  // Text fields and rich editors are typed into by the worker, key by key (trusted
  // input, worker/act/keyboard.js); this script only focuses them and reads them back.
  // Selects, checkboxes and picker fields (date, colour, ...) are set here.

  /**
   * For picker fields: the native `value` setter from the element's prototype chain. Framework-controlled
   * inputs (React and alike) wrap `value` on the instance to track what they set; a
   * change made through the native setter is seen by them as a user edit.
   * https://github.com/facebook/react/issues/10135
   * @param {Field} el
   * @param {string} value
   */
  function setNativeValue(el, value) {
    for (let proto = Object.getPrototypeOf(el); proto; proto = Object.getPrototypeOf(proto)) {
      const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
      if (setter) return setter.call(el, value);
    }
    el.value = value;
    return undefined;
  }

  /**
   * @param {Element} el
   * @param {string | null} data
   */
  function fireInputAndChange(el, data) {
    el.dispatchEvent(
      new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data }),
    );
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }

  const TRUTHY = new Set(['1', 'true', 'on', 'yes', 'check', 'checked', 'x']);
  // Fields a person fills by typing: the worker types into them key by key.
  const TYPED_INPUTS = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', '']);
  // Fields whose text keys do not map onto (date and time segments, colour, range):
  // a person uses their picker; the value is set as a picker sets it.
  const PICKED_INPUTS = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);

  /**
   * @param {HTMLSelectElement} el
   * @param {string} text
   */
  function typeIntoSelect(el, text) {
    const wanted = text.trim().toLowerCase();
    const options = [...el.options];
    const option =
      options.find((o) => o.text.trim().toLowerCase() === wanted) ??
      options.find((o) => o.value.toLowerCase() === wanted) ??
      options.find((o) => o.text.trim().toLowerCase().includes(wanted));
    if (!option) {
      const names = options.map((o) => `"${o.text.trim()}"`).join(', ');
      throw new Error(`no option "${text}" in ${describe(el)}; options: ${names}`);
    }
    el.focus({ preventScroll: true });
    option.selected = true;
    fireInputAndChange(el, null);
    return { kind: 'select', value: el.value, text: option.text.trim() };
  }

  /**
   * @param {HTMLInputElement} el
   * @param {string} text
   */
  function typeIntoToggle(el, text) {
    const want = TRUTHY.has(text.trim().toLowerCase());
    // A click toggles it with every event a user's click produces (click, input, change).
    if (el.checked !== want && !(el.type === 'radio' && !want)) syntheticClick(el);
    return { kind: el.type, checked: el.checked };
  }

  // Typers the content script carries out itself; 'keys' fields are typed by the
  // worker with trusted key events (worker/act/keyboard.js) after focusField.
  /** @type {Record<string, (el: Field, text: string) => import('./act-api.js').Typed>} */
  const typers = {
    select: (el, text) => typeIntoSelect(/** @type {HTMLSelectElement} */ (/** @type {unknown} */ (el)), text),
    toggle: (el, text) => typeIntoToggle(/** @type {HTMLInputElement} */ (el), text),
    picked(el, text) {
      el.focus({ preventScroll: true });
      setNativeValue(el, text);
      fireInputAndChange(el, text);
      const input = /** @type {HTMLInputElement} */ (el);
      return { kind: input.type, value: input.value };
    },
  };

  /**
   * @param {Field} el
   * @returns {Typer | null}
   */
  function typerFor(el) {
    if (el instanceof HTMLSelectElement) return 'select';
    if (el instanceof HTMLTextAreaElement) return 'keys';
    if (el instanceof HTMLInputElement) {
      if (el.type === 'checkbox' || el.type === 'radio') return 'toggle';
      if (TYPED_INPUTS.has(el.type)) return 'keys';
      if (PICKED_INPUTS.has(el.type)) return 'picked';
      return null;
    }
    return el.isContentEditable ? 'keys' : null;
  }

  /** The focused element, looking into shadow roots (open or closed). */
  function deepActiveElement() {
    let active = document.activeElement;
    for (let root = active && shadowOf(active); root?.activeElement; root = shadowOf(active)) {
      active = root.activeElement;
    }
    return active;
  }

  /**
   * Keys go to the focused element: the field itself, or inside a rich editor.
   * @param {Field} el
   */
  function hasTypingFocus(el) {
    const active = deepActiveElement();
    return active === el || (el.isContentEditable && !!active && composedContains(el, active));
  }

  const fieldKind = (/** @type {Field} */ el) => (el.isContentEditable ? 'contenteditable' : el.tagName.toLowerCase());
  const fieldText = (/** @type {Field} */ el) => (el.isContentEditable ? el.textContent : el.value);
  // --- Scrolling ------------------------------------------------------------------

  /**
   * The nearest ancestor of the viewport's centre that can scroll vertically.
   * @param {number} dy
   */
  function scrollerAtCentre(dy) {
    for (let el = deepElementFromPoint(innerWidth / 2, innerHeight / 2); el; el = el.parentElement) {
      const style = getComputedStyle(el);
      const scrollable = /(auto|scroll|overlay)/.test(style.overflowY);
      const room = dy > 0 ? el.scrollHeight - el.clientHeight - el.scrollTop : el.scrollTop;
      if (scrollable && room > 0) return el;
    }
    return null;
  }

  /** @type {ActApi} */
  const api = {
    /** Scrolls the element into view and says whether a pointer at its centre hits it. */
    prepare(token) {
      const el = marked(token);
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      const box = el.getBoundingClientRect();
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      const hitEl = box.width > 0 && box.height > 0 ? deepElementFromPoint(x, y) : null;
      const hit = !!hitEl && composedContains(el, hitEl);
      const offset = frameOffset();
      return {
        element: describe(el),
        hit,
        hitElement: hitEl && !hit ? describe(hitEl) : null,
        point: offset ? { x: x + offset.x, y: y + offset.y } : null,
        typer: typerFor(el),
      };
    },
    click(token) {
      syntheticClick(marked(token));
      return true;
    },
    hover(token) {
      syntheticHover(marked(token));
      return true;
    },
    type(token, text) {
      const el = marked(token);
      const typer = typerFor(el);
      if (!typer) throw new Error(`${describe(el)} does not take text`);
      if (!typers[typer]) throw new Error(`${describe(el)} is typed with keys, not by the page script`);
      return typers[typer](el, text);
    },
    /**
     * Gives the field the focus keys need: kept if the worker's click gave it, else
     * focus() as a click would. Says whether it has it and whether it holds text.
     */
    focusField(token) {
      const el = marked(token);
      const clicked = hasTypingFocus(el);
      if (!clicked) el.focus({ preventScroll: true });
      return {
        field: fieldKind(el),
        focusedBy: clicked ? 'click' : 'focus',
        focused: hasTypingFocus(el),
        empty: fieldText(el) === '',
      };
    },
    /** What the field holds now (after typing). */
    fieldValue(token) {
      return fieldText(marked(token));
    },
    unmark(token) {
      findMarked(document, token)?.removeAttribute(MARK);
      return true;
    },
    /** Scrolls one viewport like WebArena's scroll action, the window first. */
    scroll(direction) {
      const dy = (direction === 'up' ? -1 : 1) * innerHeight;
      const before = scrollY;
      const page = document.scrollingElement ?? document.documentElement;
      const scrollable = page.scrollHeight > page.clientHeight;
      window.scrollBy({ top: dy, behavior: 'instant' });
      if (scrollY !== before) {
        return { moved: true, scroller: 'window', scrollable, before, after: scrollY };
      }
      const inner = scrollerAtCentre(dy);
      if (!inner) return { moved: false, scroller: null, scrollable, before, after: scrollY };
      const top = inner.scrollTop;
      inner.scrollBy({ top: dy, behavior: 'instant' });
      const after = inner.scrollTop;
      return { moved: after !== top, scroller: describe(inner), scrollable: true, before: top, after };
    },
    /** Resolves once no DOM mutation happened for `quietMs`, or after `maxMs`;
     * `sawMutation`: the last mutation is one the observer saw, not the injection. */
    quietFor(quietMs, maxMs) {
      const started = performance.now();
      return new Promise((resolve) => {
        const check = () => {
          const now = performance.now();
          const quietSince = now - lastMutation;
          if (quietSince >= quietMs) return resolve({ quiet: true, waitedMs: now - started, sawMutation });
          if (now - started >= maxMs) return resolve({ quiet: false, waitedMs: now - started, sawMutation });
          setTimeout(check, Math.min(quietMs - quietSince, maxMs - (now - started)) + 1);
        };
        check();
      });
    },
  };
  globalThis.__hopbenchAct = api;
})();
