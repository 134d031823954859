// The 12 actions (MMInA / WebArena action space), one small handler each.
//
// An action arrives parsed, in the shape of the core's `Action` (serde tag `kind`):
// click{id}, hover{id}, type{id,text,press_enter}, press{key_comb}, scroll{direction},
// new_tab, tab_focus{index}, close_tab, goto{url}, go_back, go_forward, stop{answer}.
// Element actions also get an element reference `{targetId, backendNodeId}`.
// docs/actions.md says which action takes which input path, and why.
//
// A handler returns its effect; a StepError (bad URL, stale element, no such tab) is a
// step's result, not a protocol failure: the agent sees it and carries on.

import { closingTab, prepareAgentTab } from '../page/notices.js';
import { noContentKind, noContentSentence, shownUrl } from '../observe/no-content.js';
import { attach } from '../cdp/cdp.js';
import { StepError, describeRef, markElement } from './element.js';
import { claimTab, fenceRefusal } from '../fence/fence.js';
import { mouseClick, mouseMove, mouseWheel, pressCombo } from './input.js';
import { watchFocusLoads } from './focus-loads.js';
import { clearFocused, typeText } from './keyboard.js';
import { callActScript, callActScriptIn } from './page-script.js';
import { addTab, pickSession, withSessions } from '../session/sessions.js';
import { closeTabNow } from '../session/close-tab.js';
import { DEFAULT_SETTLE_TIMEOUT_MS, WINDOWS, beginSettle } from './settle.js';

/**
 * @typedef {{ core: import('../core/types.js').Core, sessionId: string, tabId: number,
 *   action: import('../core/core-types.js').Action | undefined, element?: import('./element.js').Ref,
 *   session: import('../session/sessions.js').Session }} ActContext `action` is undefined only for a
 *   malformed message, which runAction refuses
 * @typedef {(core: import('../core/types.js').Core, sessionId: string, text: string) =>
 *   Promise<import('../core/core-types.js').TrackerFed>} RecordAnswer
 * @typedef {import('../core/core-types.js').Action} Action
 * @typedef {ActContext & { action: Action }} Acting
 * @typedef {import('../../content/act-api.js').Prepared & { token: string, frameId: number }} Target
 * @typedef {{ run(ctx: Acting, deps: { recordAnswer: RecordAnswer }): Promise<unknown>,
 *   settle: 'acted' | 'current' | null, element?: boolean }} ActionSpec
 */

// --- Element actions ---------------------------------------------------------------

/**
 * Marks the referenced element, finds the frame holding it and scrolls it into view;
 * runs `body(target)` and always removes the marker.
 * @template T
 * @param {Acting} ctx
 * @param {(target: Target) => Promise<T>} body
 * @returns {Promise<T>}
 */
async function withElement(ctx, body) {
  if (!ctx.element) throw new StepError(`${ctx.action.kind} needs an element reference`);
  await attach(ctx.tabId);
  const mark = await markElement(ctx.tabId, ctx.element);
  try {
    const results = await callActScript(ctx.tabId, 'prepare', [mark.token], { allFrames: true });
    const found = results.find((r) => r.ok);
    if (!found || !found.value) {
      throw new StepError(`${describeRef(ctx.element)} was found by the debugger but in no frame the extension can script`);
    }
    return await body({ token: mark.token, frameId: found.frameId, ...found.value });
  } finally {
    // Not awaited: after a click that navigates, the call waits for the old document
    // to go (tens of ms, counted as acting); the marker goes with that document, and on
    // a page that stays it is removed a moment later. unmark() never rejects.
    void mark.release();
  }
}

/**
 * The action narrowed to its kind: each action's function reads its own fields. The
 * table (ACTIONS) sends each kind to its function, so a mismatch is a bug here.
 * @template {Action['kind']} K
 * @param {Acting} ctx
 * @param {K} kind
 * @returns {Extract<Action, { kind: K }>}
 */
function actionOf(ctx, kind) {
  const action = ctx.action;
  if (!isKind(action, kind)) throw new Error(`the ${kind} action was given a ${action.kind} action`);
  return action;
}

/**
 * @template {Action['kind']} K
 * @param {Action} action
 * @param {K} kind
 * @returns {action is Extract<Action, { kind: K }>}
 */
function isKind(action, kind) {
  return action.kind === kind;
}

/** Trusted input needs a point in the top viewport that lands on the element itself. */
const canUsePointer = (/** @type {Target} */ target) => target.hit && target.point !== null;

/** @param {Acting} ctx */
async function click(ctx) {
  return withElement(ctx, async (target) => {
    if (canUsePointer(target)) {
      const { closedItsTab } = await mouseClick(ctx.tabId, /** @type {import('./input.js').Point} */ (target.point));
      return { element: target.element, path: 'trusted', ...(closedItsTab ? { closedItsTab } : {}) };
    }
    await callActScriptIn(ctx.tabId, target.frameId, 'click', [target.token]);
    return { element: target.element, path: 'synthetic', reason: occlusion(target) };
  });
}

/** @param {Acting} ctx */
async function hover(ctx) {
  return withElement(ctx, async (target) => {
    if (canUsePointer(target)) {
      await mouseMove(ctx.tabId, /** @type {import('./input.js').Point} */ (target.point));
      return { element: target.element, path: 'trusted' };
    }
    await callActScriptIn(ctx.tabId, target.frameId, 'hover', [target.token]);
    return { element: target.element, path: 'synthetic', reason: occlusion(target) };
  });
}

/** @param {Target} target */
function occlusion(target) {
  if (target.point === null) return 'inside a cross-origin frame: no top-viewport point';
  return target.hitElement ? `covered by ${target.hitElement}` : 'not visible at its centre';
}

/** @param {Acting} ctx */
async function type(ctx) {
  const action = actionOf(ctx, 'type');
  const { text, press_enter: pressEnter = true } = action;
  if (typeof text !== 'string') throw new StepError('type needs text');
  return withElement(ctx, async (target) => {
    if (!target.typer) throw new StepError(`${target.element} does not take text`);
    const typed =
      target.typer === 'keys'
        ? await typeWithKeys(ctx, target, text)
        : await callActScriptIn(ctx.tabId, target.frameId, 'type', [target.token, text]);
    // Enter must be trusted: implicit form submission ignores synthetic key events.
    if (pressEnter) await pressCombo(ctx.tabId, 'Enter');
    return { element: target.element, typed, pressedEnter: pressEnter };
  });
}

/**
 * Types into a text field or rich editor as a person does (docs/actions.md): focus
 * by clicking it (the content script's focus() when no trusted click can reach it),
 * empty it with Control+A and Backspace, then one trusted key press per character.
 * @param {Acting} ctx
 * @param {Target} target
 * @param {string} text
 */
async function typeWithKeys(ctx, target, text) {
  const started = performance.now();
  const focusLoads = await watchFocusLoads(ctx.tabId);
  /** @type {import('../../content/act-api.js').FocusedField} */
  let field;
  /** @type {Awaited<ReturnType<typeof focusLoads.wait>>} */
  let loads;
  try {
    if (canUsePointer(target)) await mouseClick(ctx.tabId, /** @type {import('./input.js').Point} */ (target.point));
    field = await callActScriptIn(ctx.tabId, target.frameId, 'focusField', [target.token]);
  } finally {
    // Also ends the watch when focusing failed.
    loads = await focusLoads.wait();
  }
  if (!field.focused) {
    throw new StepError(`${target.element} did not take the focus (disabled, or another element grabs it); nothing was typed`);
  }
  if (!field.empty) await clearFocused(ctx.tabId);
  const keys = await typeText(ctx.tabId, text);
  const value = await callActScriptIn(ctx.tabId, target.frameId, 'fieldValue', [target.token]).catch((error) => {
    // A typed line break can submit a form and replace the document: nothing to read.
    console.debug('hopbench: the typed field is gone:', /** @type {Error} */ (error).message);
    return null;
  });
  return {
    kind: field.field,
    path: 'keys',
    focusedBy: field.focusedBy,
    cleared: !field.empty,
    keys: keys.keys,
    inserted: keys.inserted,
    value,
    keysMs: keys.ms,
    focusLoads: loads,
    ms: Math.round(performance.now() - started),
  };
}

// --- Page actions without an element -------------------------------------------------

/** @param {Acting} ctx */
async function press(ctx) {
  const combo = actionOf(ctx, 'press').key_comb;
  if (typeof combo !== 'string') throw new StepError('press needs a key combination');
  await attach(ctx.tabId);
  try {
    return { pressed: await pressCombo(ctx.tabId, combo) };
  } catch (error) {
    throw new StepError(/** @type {Error} */ (error).message);
  }
}

/** @param {Acting} ctx */
async function scroll(ctx) {
  const { direction } = actionOf(ctx, 'scroll');
  if (direction !== 'up' && direction !== 'down') throw new StepError('scroll needs up or down');
  const result = await callActScriptIn(ctx.tabId, 0, 'scroll', [direction]);
  // Nothing in the top document can scroll: the content is probably in an iframe
  // (Kiwix), which a wheel turn at the centre reaches as it would for a person.
  if (!result.moved && !result.scrollable) return wheelScroll(ctx);
  return { ...result, path: 'synthetic' };
}

/**
 * A wheel turn of one viewport at the viewport centre (trusted input).
 * @param {Acting} ctx
 */
async function wheelScroll(ctx) {
  const tab = await chrome.tabs.get(ctx.tabId);
  const point = { x: (tab.width ?? 1280) / 2, y: (tab.height ?? 720) / 2 };
  const dy = (actionOf(ctx, 'scroll').direction === 'up' ? -1 : 1) * (tab.height ?? 720);
  await attach(ctx.tabId);
  await mouseWheel(ctx.tabId, point, dy);
  return { moved: 'unknown', scroller: 'wheel at the viewport centre', path: 'trusted' };
}

// --- Tabs ------------------------------------------------------------------------------

/** @param {Acting} ctx */
async function newTab(ctx) {
  const tab = await chrome.tabs.create({ windowId: ctx.session.windowId, url: 'about:blank', active: true });
  const tabId = tab.id;
  if (tabId === undefined) throw new Error('Chrome created a tab without an id');
  await withSessions((sessions) => {
    const session = pickSession(sessions, ctx.sessionId);
    addTab(session, tabId);
    session.currentTabId = tabId;
  });
  // Before its first navigation: the fence takes it for the run's, not the person's.
  await claimTab(ctx.sessionId, tabId);
  return { tabId, index: await tabIndex(ctx.sessionId, tabId) };
}

/**
 * @param {string} sessionId
 * @param {number} tabId
 */
async function tabIndex(sessionId, tabId) {
  return withSessions((sessions) => pickSession(sessions, sessionId).tabIds.indexOf(tabId));
}

/** @param {Acting} ctx */
async function tabFocus(ctx) {
  const { index } = actionOf(ctx, 'tab_focus');
  const tabIds = ctx.session.tabIds;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= tabIds.length) {
    throw new StepError(`no tab ${index}: the session has tabs 0 to ${tabIds.length - 1}`);
  }
  const tabId = tabIds[index];
  await chrome.tabs.update(tabId, { active: true });
  await withSessions((sessions) => {
    pickSession(sessions, ctx.sessionId).currentTabId = tabId;
  });
  return { index, tabId };
}

/** @param {Acting} ctx */
async function closeTab(ctx) {
  if (ctx.session.tabIds.length <= 1) {
    throw new StepError("cannot close the session's only tab");
  }
  closingTab(ctx.tabId);
  // Bounded like a session's end: a "leave this page?" is accepted for an agent
  // (page/notices.js), and a page that still holds the tab is closed by force.
  await closeTabNow(ctx.tabId);
  // Like WebArena: the last remaining tab becomes the current one.
  const next = await withSessions((sessions) => {
    const session = pickSession(sessions, ctx.sessionId);
    session.tabIds = session.tabIds.filter((id) => id !== ctx.tabId);
    session.currentTabId = /** @type {number} */ (session.tabIds.at(-1));
    return session.currentTabId;
  });
  await chrome.tabs.update(next, { active: true });
  return { closedTabId: ctx.tabId, currentTabId: next };
}

// --- Navigation ----------------------------------------------------------------------

/**
 * Only web pages: `javascript:`, `file:`, `chrome:`, `data:` are refused outright.
 * @param {string} url
 */
export function checkGotoUrl(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new StepError(`goto needs an absolute http(s) URL; "${url}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new StepError(`goto only opens http(s) URLs; refused ${parsed.protocol} URL "${url}"`);
  }
  return parsed.href;
}

/** @param {Acting} ctx */
async function goto(ctx) {
  const url = checkGotoUrl(String(actionOf(ctx, 'goto').url ?? ''));
  // A fenced run's goto outside its task's sites is refused before any request.
  const refusal = await fenceRefusal(ctx.sessionId, url);
  if (refusal) throw new StepError(refusal);
  await chrome.tabs.update(ctx.tabId, { url });
  return { url };
}

/**
 * @param {'goBack' | 'goForward'} method
 * @param {string} word
 */
const historyStep = (method, word) => async (/** @type {Acting} */ ctx) => {
  try {
    await chrome.tabs[method](ctx.tabId);
    return { navigated: true };
  } catch (error) {
    // "Cannot find a next page in history.": WebArena treats this as a no-op step.
    if (!/history/i.test(String(/** @type {Error | undefined} */ (error)?.message))) throw error;
    return { navigated: false, note: `no page to go ${word} to` };
  }
};

// --- Completion ----------------------------------------------------------------------

/**
 * @param {Acting} ctx
 * @param {{ recordAnswer: RecordAnswer }} deps
 */
async function stop(ctx, { recordAnswer }) {
  const answer = String(actionOf(ctx, 'stop').answer ?? '');
  /** @type {{ answer: string, answerScored?: unknown, progress?: unknown, answerError?: string }} */
  const effect = { answer };
  try {
    const fed = await recordAnswer(ctx.core, ctx.sessionId, answer);
    effect.answerScored = fed.outcome.answer_scored;
    effect.progress = fed.progress;
  } catch (error) {
    effect.answerError = /** @type {Error} */ (error).message;
  }
  return effect;
}

/**
 * kind → { run, settle }. `settle` says which tab to wait for afterwards: the acted
 * tab, the tab that is current after the action, or none.
 */
/** @type {Readonly<Record<string, ActionSpec>>} */
export const ACTIONS = Object.freeze({
  click: { run: click, settle: 'acted', element: true },
  hover: { run: hover, settle: 'acted', element: true },
  type: { run: type, settle: 'acted', element: true },
  press: { run: press, settle: 'acted' },
  scroll: { run: scroll, settle: 'acted' },
  new_tab: { run: newTab, settle: 'current' },
  tab_focus: { run: tabFocus, settle: 'current' },
  close_tab: { run: closeTab, settle: 'current' },
  goto: { run: goto, settle: 'acted' },
  go_back: { run: historyStep('goBack', 'back'), settle: 'acted' },
  go_forward: { run: historyStep('goForward', 'forward'), settle: 'acted' },
  stop: { run: stop, settle: null },
});

/** The actions that need the page's content (the others act on tabs and history). */
const PAGE_ACTIONS = new Set(['click', 'hover', 'type', 'press', 'scroll']);

/**
 * Runs one action and waits for the page to settle.
 * @param {ActContext} ctx
 * @param {{ recordAnswer: RecordAnswer, settleTimeoutMs?: number }} deps
 * @returns {Promise<{effect: unknown, error?: string, settle: import('./settle.js').Settle | null}>}
 */
export async function runAction(ctx, { recordAnswer, settleTimeoutMs = DEFAULT_SETTLE_TIMEOUT_MS }) {
  const action = ctx.action;
  if (!action) throw new Error('an action needs its parsed action or its text');
  const acting = { ...ctx, action };
  const spec = ACTIONS[action.kind];
  // An action on the page itself, on a page no extension may script: said in words
  // the agent can use, before Chrome says it in its own (observe/no-content.js).
  if (PAGE_ACTIONS.has(action.kind)) {
    const url = await shownUrl(await chrome.tabs.get(ctx.tabId));
    const kind = noContentKind(url);
    if (kind !== null) return { effect: null, error: `cannot ${action.kind} here: ${noContentSentence(url, kind)}`, settle: null };
    // An agent cannot pick a file or close a print preview: a chooser or a print its
    // action opens is reported, not shown (page/notices.js). A person's session never
    // comes here with its own clicks.
    if (ctx.session.human === undefined) await prepareAgentTab(ctx.tabId);
  }
  const settler = spec.settle ? await beginSettle(ctx.tabId) : null;
  let effect = null;
  /** @type {string | undefined} */
  let error;
  try {
    effect = await spec.run(acting, { recordAnswer });
  } catch (thrown) {
    // Every failure is the step's result (the agent sees it and carries on); the wait
    // below still runs, so its listeners are removed and a half-done effect settles.
    if (!(thrown instanceof StepError)) console.warn('hopbench: action failed:', thrown);
    error = /** @type {Error | undefined} */ (thrown)?.message ?? String(thrown);
  }
  let settle = null;
  if (settler) {
    const domTabId = spec.settle === 'current' ? await currentTab(ctx.sessionId, ctx.tabId) : ctx.tabId;
    // Keys without Enter feed widgets that react after a debounce; everything else,
    // Enter included, shows its effect at once (act/settle.js WINDOWS).
    const keysOnly = (action.kind === 'type' && action.press_enter === false) ||
      (action.kind === 'press' && !/(^|\+)Enter$/.test(action.key_comb));
    const windows = keysOnly ? WINDOWS.typing : WINDOWS.quick;
    settle = await settler.finish({ timeoutMs: settleTimeoutMs, domTabId, windows });
  }
  return { effect, ...(error !== undefined ? { error } : {}), settle };
}

/**
 * @param {string} sessionId
 * @param {number} fallback
 */
async function currentTab(sessionId, fallback) {
  return withSessions((sessions) => sessions[sessionId]?.currentTabId ?? fallback);
}
