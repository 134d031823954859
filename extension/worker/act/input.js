// Trusted input through the debugger (CDP Input domain): events the browser treats as
// the user's own. Used where synthetic DOM events cannot do the job: they carry user
// activation (popups, window.open), move the real pointer (CSS :hover), run the
// browser's default actions for keys (implicit form submission on Enter, editing
// commands) and reach editors that ignore untrusted input events.
// https://chromedevtools.github.io/devtools-protocol/tot/Input/

import { send } from '../cdp/cdp.js';

// CDP modifier bits (Input.dispatchKeyEvent `modifiers`).
/**
 * @typedef {'Alt' | 'Control' | 'Meta' | 'Shift'} Modifier
 * @typedef {{ key?: string, code: string, vk: number, text?: string }} KeySpec
 * @typedef {{ key: string, code: string, vk: number, text?: string }} Key
 * @typedef {{ x: number, y: number }} Point
 * @typedef {import('../cdp/cdp-protocol.js').CommandParameters['Input.dispatchKeyEvent']} KeyEventParams
 */

/** @type {Readonly<Record<Modifier, { bit: number, code: string, vk: number }>>} */
const MODIFIERS = Object.freeze({
  Alt: { bit: 1, code: 'AltLeft', vk: 18 },
  Control: { bit: 2, code: 'ControlLeft', vk: 17 },
  Meta: { bit: 4, code: 'MetaLeft', vk: 91 },
  Shift: { bit: 8, code: 'ShiftLeft', vk: 16 },
});

/** @type {Readonly<Record<string, Modifier>>} */
const MODIFIER_ALIASES = Object.freeze({
  alt: 'Alt', option: 'Alt', control: 'Control', ctrl: 'Control', meta: 'Meta',
  cmd: 'Meta', command: 'Meta', super: 'Meta', shift: 'Shift',
});

// Named keys: DOM `key` → `code`, Windows virtual key code and the text they type.
/** @type {Readonly<Record<string, KeySpec>>} */
const NAMED_KEYS = Object.freeze({
  Enter: { code: 'Enter', vk: 13, text: '\r' },
  Tab: { code: 'Tab', vk: 9 },
  Escape: { code: 'Escape', vk: 27 },
  Backspace: { code: 'Backspace', vk: 8 },
  Delete: { code: 'Delete', vk: 46 },
  Space: { key: ' ', code: 'Space', vk: 32, text: ' ' },
  ArrowUp: { code: 'ArrowUp', vk: 38 },
  ArrowDown: { code: 'ArrowDown', vk: 40 },
  ArrowLeft: { code: 'ArrowLeft', vk: 37 },
  ArrowRight: { code: 'ArrowRight', vk: 39 },
  Home: { code: 'Home', vk: 36 },
  End: { code: 'End', vk: 35 },
  PageUp: { code: 'PageUp', vk: 33 },
  PageDown: { code: 'PageDown', vk: 34 },
  Insert: { code: 'Insert', vk: 45 },
  ...Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [`F${i + 1}`, { code: `F${i + 1}`, vk: 112 + i }]),
  ),
});

/** @type {Readonly<Record<string, string>>} */
const KEY_ALIASES = Object.freeze({
  esc: 'Escape', return: 'Enter', del: 'Delete', up: 'ArrowUp', down: 'ArrowDown',
  left: 'ArrowLeft', right: 'ArrowRight', pgup: 'PageUp', pgdn: 'PageDown', ' ': 'Space',
});

/** @type {Readonly<Record<string, [string, number]>>} */
const PUNCTUATION = Object.freeze({
  '-': ['Minus', 189], '=': ['Equal', 187], '[': ['BracketLeft', 219], ']': ['BracketRight', 221],
  '\\': ['Backslash', 220], ';': ['Semicolon', 186], "'": ['Quote', 222], ',': ['Comma', 188],
  '.': ['Period', 190], '/': ['Slash', 191], '`': ['Backquote', 192],
});

/**
 * @param {string} name
 * @param {boolean} shift
 * @returns {Key | null}
 */
function describeKey(name, shift) {
  const lower = name.toLowerCase();
  const named = Object.keys(NAMED_KEYS).find((k) => k.toLowerCase() === lower) ?? KEY_ALIASES[lower];
  if (named) {
    const spec = NAMED_KEYS[named];
    return { key: spec.key ?? named, code: spec.code, vk: spec.vk, text: spec.text };
  }
  if (/^[a-z]$/i.test(name)) {
    const upper = name.toUpperCase();
    const key = shift ? upper : name.toLowerCase();
    return { key, code: `Key${upper}`, vk: upper.charCodeAt(0), text: key };
  }
  if (/^[0-9]$/.test(name)) return { key: name, code: `Digit${name}`, vk: name.charCodeAt(0), text: name };
  if (PUNCTUATION[name]) {
    const [code, vk] = PUNCTUATION[name];
    return { key: name, code, vk, text: name };
  }
  return null;
}

/**
 * Parses `Control+k`, `Shift+Tab`, `Enter`, `Meta+Shift+p`. Throws on an unknown key.
 * @param {string} combo
 * @returns {{ modifiers: Modifier[], key: Key }}
 */
export function parseKeyCombo(combo) {
  const parts = combo.trim().split(/\+(?!$)/).map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) throw new Error('empty key combination');
  const mainName = parts.pop() ?? '';
  const modifiers = parts.map((p) => {
    const m = MODIFIER_ALIASES[p.toLowerCase()];
    if (!m) throw new Error(`unknown modifier "${p}" in "${combo}" (use Control, Shift, Alt, Meta)`);
    return m;
  });
  const key =
    MODIFIER_ALIASES[mainName.toLowerCase()] && parts.length === 0
      ? null
      : describeKey(mainName, modifiers.includes('Shift'));
  if (!key) throw new Error(`unknown key "${mainName}" in "${combo}"`);
  return { modifiers, key };
}

/** Presses a combination: modifiers down, key down/up, modifiers up in reverse. */
/**
 * @param {number} tabId
 * @param {string} combo
 */
export async function pressCombo(tabId, combo) {
  const { modifiers, key } = parseKeyCombo(combo);
  let bits = 0;
  /**
   * @param {KeyEventParams['type']} type
   * @param {KeySpec} spec
   * @param {Partial<KeyEventParams>} [extra]
   */
  const keyEvent = (type, spec, extra = {}) =>
    send(tabId, 'Input.dispatchKeyEvent', {
      type,
      modifiers: bits,
      key: spec.key,
      code: spec.code,
      windowsVirtualKeyCode: spec.vk,
      nativeVirtualKeyCode: spec.vk,
      ...extra,
    });
  for (const name of modifiers) {
    bits |= MODIFIERS[name].bit;
    await keyEvent('rawKeyDown', { key: name, ...MODIFIERS[name] });
  }
  // Text is sent only when the combination types something (no Control/Alt/Meta);
  // otherwise the key is a command such as Control+k, as on a real keyboard.
  const types = key.text !== undefined && (bits & ~MODIFIERS.Shift.bit) === 0;
  await keyEvent(types ? 'keyDown' : 'rawKeyDown', key, types ? { text: key.text, unmodifiedText: key.text } : {});
  await keyEvent('keyUp', key);
  for (const name of [...modifiers].reverse()) {
    bits &= ~MODIFIERS[name].bit;
    await keyEvent('keyUp', { key: name, ...MODIFIERS[name] });
  }
  return { modifiers, key: key.key };
}

/** Inserts text into the focused element as an IME commit would (trusted input events). */
/**
 * @param {number} tabId
 * @param {string} text
 */
export function insertText(tabId, text) {
  return send(tabId, 'Input.insertText', { text });
}

/** Moves the real pointer to a point of the top frame's viewport (CSS px). */
/**
 * @param {number} tabId
 * @param {Point} point
 */
export function mouseMove(tabId, { x, y }) {
  return send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'none' });
}

/**
 * A left click at a point: move, press, release, like a user's mouse. Resolves to
 * whether the click closed its own tab (see deliveredOrClosedItsTab).
 * @param {number} tabId
 * @param {Point} point
 * @returns {Promise<{ closedItsTab: boolean }>}
 */
export function mouseClick(tabId, point) {
  const click = { ...point, button: /** @type {const} */ ('left'), clickCount: 1 };
  // Sent back to back, as keys are (act/keyboard.js): Chrome queues input events in order,
  // so the press need not wait for the move's reply, nor the release for the press's.
  return deliveredOrClosedItsTab(tabId, () =>
    Promise.all([
      mouseMove(tabId, point),
      send(tabId, 'Input.dispatchMouseEvent', { type: 'mousePressed', buttons: 1, ...click }),
      send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseReleased', buttons: 0, ...click }),
    ]),
  );
}

/** Chrome's failure of a command still waiting for its answer when the debugger left the tab. */
const DETACHED_WHILE_PENDING = /Detached while handling command/i;

/** How long a tab whose debugger left mid-command is given to be gone from the tab list. */
const CLOSING_GRACE_MS = 1_000;

/**
 * Runs input `dispatch` on a tab whose page may close the tab in answer. A click
 * handler's window.close() can close the tab before Chrome answers the release it
 * handled, and Chrome then fails that command with "Detached while handling command":
 * the input was delivered (it is what closed the tab), so on a tab that is gone this
 * is the action's effect, not its error; the agent is told of the closed tab as of
 * any other (page/notices.js). On a tab that is still open (a person cancelled the
 * debugging, say) the error stands.
 * @param {number} tabId
 * @param {() => Promise<unknown>} dispatch
 * @returns {Promise<{ closedItsTab: boolean }>}
 */
async function deliveredOrClosedItsTab(tabId, dispatch) {
  try {
    await dispatch();
    return { closedItsTab: false };
  } catch (error) {
    if (!DETACHED_WHILE_PENDING.test(String(/** @type {Error} */ (error)?.message)) || !(await tabGoneWithin(tabId, CLOSING_GRACE_MS))) {
      throw error;
    }
    return { closedItsTab: true };
  }
}

/**
 * Whether the tab is gone from Chrome's tab list, now or within `ms` (the list may
 * drop a closing tab a moment after its debugger left).
 * @param {number} tabId
 * @param {number} ms
 */
async function tabGoneWithin(tabId, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    if ((await chrome.tabs.get(tabId).catch(() => null)) === null) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A wheel turn at a point; scrolls whatever is under it (inner scrollers, iframes). */
/**
 * @param {number} tabId
 * @param {Point} point
 * @param {number} deltaY
 */
export function mouseWheel(tabId, { x, y }, deltaY) {
  return send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseWheel', x, y, deltaX: 0, deltaY });
}
