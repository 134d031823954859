// Typing text as a person does, with trusted key events (CDP Input.dispatchKeyEvent).
//
// Each character a US keyboard produces is one key press: keyDown carrying the text
// (Chrome then fires keydown, keypress, beforeinput, input) and keyUp (keyup). This
// is what Playwright's keyboard.type sends, and MMInA's `type` runs through it; pages
// react to the difference from setting a value: suggestion widgets refresh on key
// events (MediaWiki's search box opens the article on typed text + Enter but lists
// full-text results for a value set), input masks and debounced searches see each
// key. Characters no key of that layout produces (é, 東京, emoji) are committed with
// Input.insertText, as an input method would, one run of them at a time.
// https://chromedevtools.github.io/devtools-protocol/tot/Input/#method-dispatchKeyEvent

import { send } from '../cdp/cdp.js';
import { insertText } from './input.js';

const SHIFT = 8; // CDP modifier bit

// US layout: [code, character, character with Shift, Windows virtual key code].
/**
 * @typedef {{ key: string, code: string, vk: number, text: string, shift: boolean }} CharKey
 * @typedef {{ key: CharKey, insert?: undefined } | { insert: string, key?: undefined }} PlanPart
 * @typedef {import('../cdp/cdp-protocol.js').CommandParameters['Input.dispatchKeyEvent']} KeyEventParams
 */

/** @type {[string, string, string, number][]} */
const KEY_ROWS = [
  ['Backquote', '`', '~', 192], ['Minus', '-', '_', 189], ['Equal', '=', '+', 187],
  ['BracketLeft', '[', '{', 219], ['BracketRight', ']', '}', 221], ['Backslash', '\\', '|', 220],
  ['Semicolon', ';', ':', 186], ['Quote', "'", '"', 222], ['Comma', ',', '<', 188],
  ['Period', '.', '>', 190], ['Slash', '/', '?', 191],
  ...['0)', '1!', '2@', '3#', '4$', '5%', '6^', '7&', '8*', '9('].map(([digit, shifted]) => /** @type {[string, string, string, number]} */ ([
    `Digit${digit}`, digit, shifted, digit.charCodeAt(0),
  ])),
  ...Array.from({ length: 26 }, (_, i) => {
    const upper = String.fromCharCode(65 + i);
    return /** @type {[string, string, string, number]} */ ([`Key${upper}`, upper.toLowerCase(), upper, 65 + i]);
  }),
];

/** Character → the key that types it: `{key, code, vk, text, shift}`. */
/** @type {Map<string, CharKey>} */
export const CHARACTER_KEYS = new Map([
  ...KEY_ROWS.flatMap(([code, plain, shifted, vk]) => /** @type {[string, CharKey][]} */ ([
    [plain, { key: plain, code, vk, text: plain, shift: false }],
    [shifted, { key: shifted, code, vk, text: shifted, shift: true }],
  ])),
  [' ', { key: ' ', code: 'Space', vk: 32, text: ' ', shift: false }],
  // A line break is the Return key (a new line in a textarea, submission in a form
  // field), as it is for a person and for Playwright.
  ['\n', { key: 'Enter', code: 'Enter', vk: 13, text: '\r', shift: false }],
  ['\r', { key: 'Enter', code: 'Enter', vk: 13, text: '\r', shift: false }],
]);

/**
 * Splits text into key presses and runs of text to insert: `[{key} | {insert}]`.
 * @param {string} text
 * @returns {PlanPart[]}
 */
export function keyPlan(text) {
  /** @type {PlanPart[]} */
  const plan = [];
  // "\r\n" is one line break, not two Return presses.
  for (const char of text.replace(/\r\n/g, '\n')) {
    const key = CHARACTER_KEYS.get(char);
    if (key) plan.push({ key });
    else {
      const last = plan.at(-1);
      if (last?.insert !== undefined) last.insert += char;
      else plan.push({ insert: char });
    }
  }
  return plan;
}

/**
 * @param {number} tabId
 * @param {CharKey} spec
 */
function pressKey(tabId, spec) {
  const common = {
    modifiers: spec.shift ? SHIFT : 0,
    key: spec.key,
    code: spec.code,
    windowsVirtualKeyCode: spec.vk,
    nativeVirtualKeyCode: spec.vk,
  };
  // Sent back to back: Chrome queues input events in order, and the keyUp does not
  // need the keyDown's reply, which halves the round trips per character.
  return Promise.all([
    send(tabId, 'Input.dispatchKeyEvent', { type: 'keyDown', text: spec.text, unmodifiedText: spec.text, ...common }),
    send(tabId, 'Input.dispatchKeyEvent', { type: 'keyUp', ...common }),
  ]);
}

/**
 * Types `text` into whatever has focus in the tab. Returns `{keys, inserted, ms}`:
 * key presses sent, characters committed as text, time taken.
 * @param {number} tabId
 * @param {string} text
 */
export async function typeText(tabId, text) {
  const started = performance.now();
  let keys = 0;
  let inserted = 0;
  for (const part of keyPlan(text)) {
    if (part.key) {
      await pressKey(tabId, part.key);
      keys += 1;
    } else if (part.insert !== undefined) {
      await insertText(tabId, part.insert);
      inserted += [...part.insert].length;
    }
  }
  return { keys, inserted, ms: Math.round(performance.now() - started) };
}

/**
 * Empties the focused field as a person does: select all, then Backspace, both as
 * trusted keys, so the page sees keydown/beforeinput/input like for any edit.
 * Control+A selects all on Linux and Windows; the `selectAll` editing command makes
 * it do so on macOS too, where Control+A moves to the line start.
 * @param {number} tabId
 */
export async function clearFocused(tabId) {
  const control = { key: 'Control', code: 'ControlLeft', windowsVirtualKeyCode: 17 };
  const a = { key: 'a', code: 'KeyA', windowsVirtualKeyCode: 65 };
  const backspace = { key: 'Backspace', code: 'Backspace', windowsVirtualKeyCode: 8 };
  /**
   * @param {KeyEventParams['type']} type
   * @param {{ key: string, code: string, windowsVirtualKeyCode: number }} spec
   * @param {number} [modifiers]
   * @param {Partial<KeyEventParams>} [extra]
   */
  const keyEvent = (type, spec, modifiers = 0, extra = {}) =>
    send(tabId, 'Input.dispatchKeyEvent', { type, modifiers, ...spec, ...extra });
  await Promise.all([
    keyEvent('rawKeyDown', control, 2),
    keyEvent('rawKeyDown', a, 2, { commands: ['selectAll'] }),
    keyEvent('keyUp', a, 2),
    keyEvent('keyUp', control),
    keyEvent('rawKeyDown', backspace),
    keyEvent('keyUp', backspace),
  ]);
}
