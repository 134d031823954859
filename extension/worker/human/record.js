// A person's actions become steps shaped like an agent's (docs/human-session.md).
//
// The observation: like the agent, who observes and then acts, each action keeps the
// observation taken before it. The worker keeps a *standing observation* of the
// session's current tab, taken again whenever the page has been quiet for a moment
// after a change (the recorder reports DOM quiet, page loads, scrolling, tab switches)
// and after each action, and hands its ids to the recorder (human/recorder.js assignIds).
// An action is recorded with the standing observation of the moment its report
// arrived, and names its element by the id the recorder read from it.
//
// Order: the step number is taken under the session lock as the report arrives (the
// lock is requested synchronously in the listener), so a navigation the action causes
// is fed to the hop tracker with that step, as for an agent's action. The slower work
// (observing, storing) then runs in a queue per session, in report order.
//
// Memory (standing observations, queues, timers) lives only as long as the worker; a
// restarted worker observes again before recording the next action and says so.

import { errorText } from '../../messages.js';
import { progressOf } from '../session/hops.js';
import { observeTab } from '../observe/observe.js';
import { recordScreenshot } from './record-shot.js';
import { assignIds, idOfHeld } from './recorder.js';
import { mediaId, putStepMedia, recordStep } from '../run/trajectories.js';
import { readSessions } from '../session/sessions.js';

/** sessionId → {queue, standing, observing, again, timer, lastRefresh} */
/**
 * @typedef {import('./recorder.js').Report} Report
 * @typedef {import('../core/types.js').Core} Core
 * @typedef {{ tabId: number, windowId: number, text: string, url: string,
 *   shot: { mime: string, base64: string } | null, at: number, ms: number }} Standing
 *   the observation the person's next action is taken on
 * @typedef {{ queue: Promise<unknown>, standing: Standing | null, observing: Promise<void> | null,
 *   again: boolean, timer: ReturnType<typeof setTimeout> | number }} Live
 * @typedef {{ id: number, by: 'id' | 'late' | 'name', error?: undefined } | { error: string, id?: undefined, by?: undefined }} ElementFound
 */

/** @type {Map<string, Live>} */
const live = new Map();

/**
 * @param {string} sessionId
 * @returns {Live}
 */
function liveOf(sessionId) {
  let state = live.get(sessionId);
  if (!state) {
    state = { queue: Promise.resolve(), standing: null, observing: null, again: false, timer: 0 };
    live.set(sessionId, state);
  }
  return state;
}

/** @param {string} sessionId */
export function forgetLive(sessionId) {
  const state = live.get(sessionId);
  if (state) clearTimeout(state.timer);
  live.delete(sessionId);
}

export const standingOf = (/** @type {string} */ sessionId) => live.get(sessionId)?.standing ?? null;

/**
 * The standing observation of the session in this window, read synchronously.
 * @param {number} windowId
 */
export function standingOfWindow(windowId) {
  for (const state of live.values()) if (state.standing?.windowId === windowId) return state.standing;
  return null;
}

/**
 * The standing observation of this tab now, read synchronously as a report arrives.
 * @param {number | undefined} tabId
 */
export function standingOfTab(tabId) {
  for (const state of live.values()) if (state.standing?.tabId === tabId) return state.standing;
  return null;
}

/**
 * Observes the current tab again after `delayMs` (coalesced); returns at once.
 * @param {string} sessionId
 * @param {number} [delayMs]
 */
export function scheduleObservation(sessionId, delayMs = 150) {
  const state = liveOf(sessionId);
  clearTimeout(state.timer);
  state.timer = setTimeout(() => {
    observeNow(sessionId).catch((error) => console.warn('hopbench: observing for the recorder failed:', errorText(error)));
  }, delayMs);
}

/**
 * Observes the session's current tab now (after any observation in flight).
 * @param {string} sessionId
 * @returns {Promise<void>}
 */
export function observeNow(sessionId) {
  const state = liveOf(sessionId);
  if (state.observing) {
    state.again = true;
    return state.observing;
  }
  state.observing = takeStanding(sessionId, state).finally(() => {
    state.observing = null;
    if (state.again) {
      state.again = false;
      observeNow(sessionId).catch((error) => console.warn('hopbench: observing for the recorder failed:', errorText(error)));
    }
  });
  return state.observing;
}

/**
 * @param {string} sessionId
 * @param {Live} state
 */
async function takeStanding(sessionId, state) {
  const session = (await readSessions())[sessionId];
  if (!session?.human || session.human.phase === 'ended' || session.currentTabId === null) return;
  const tabId = session.currentTabId;
  const started = performance.now();
  const obs = await observeTab(tabId, { mode: 'text', tabIds: session.tabIds });
  const shot = await recordScreenshot(tabId);
  state.standing = { tabId, windowId: session.windowId, text: obs.text, url: obs.url, shot, at: Date.now(), ms: Math.round(performance.now() - started) };
  await assignIds(tabId, obs.text);
}

/**
 * Waits for the observation in flight, if any.
 * @param {string} sessionId
 */
async function settled(sessionId) {
  const state = liveOf(sessionId);
  while (state.observing) await state.observing.catch(() => undefined);
}

/**
 * Runs `job` after the session's earlier jobs (reports are recorded in order).
 * @template T
 * @param {string} sessionId
 * @param {() => T | Promise<T>} job
 * @returns {Promise<T>}
 */
export function enqueue(sessionId, job) {
  const state = liveOf(sessionId);
  const run = state.queue.then(job);
  state.queue = run.catch((error) => console.error('hopbench: recording an action failed:', error));
  return run;
}

/** Whether `text` shows element `id` (a line `[id] ...`). */
const shows = (/** @type {string | undefined} */ text, /** @type {number | undefined} */ id) => new RegExp(`^\\s*\\[${Number(id)}\\] `, 'm').test(text ?? '');

/**
 * Python-repr quoting as the observation prints names, enough to compare names.
 * @param {string} quoted
 */
function unquote(quoted) {
  return quoted.slice(1, -1).replace(/\\(['"\\])/g, '$1');
}

/**
 * The first element of the observation with this accessible name, or null.
 * @param {string | undefined} text
 * @param {string | undefined} name
 */
function idByName(text, name) {
  if (!name) return null;
  for (const match of (text ?? '').matchAll(/^\s*\[(\d+)\] \S+ ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")/gm)) {
    if (unquote(match[2]) === name) return Number(match[1]);
  }
  return null;
}

/**
 * The element of a report: `{id, by}` (`by` 'id': the recorder knew it; 'late': read
 * once observed again; 'name': found by its name) or `{error}`.
 * @param {string} sessionId
 * @param {number} tabId
 * @param {number | null} contextId
 * @param {Report} report
 * @param {Standing | null} observation
 * @returns {Promise<ElementFound>}
 */
async function elementOf(sessionId, tabId, contextId, report, observation) {
  if (report.id !== null && report.id !== undefined) return { id: report.id, by: 'id' };
  await observeNow(sessionId);
  const late = contextId === null ? null : await idOfHeld(tabId, contextId, report.handle);
  if (late !== null) return { id: late, by: 'late' };
  const named = idByName(observation?.text, report.describe?.name) ?? idByName(standingOf(sessionId)?.text, report.describe?.name);
  if (named !== null) return { id: named, by: 'name' };
  const what = report.describe ? `<${report.describe.tag}> ${JSON.stringify(report.describe.name)}` : 'the element';
  return { error: `${what} was not in any observation (it came and went before the page was observed), so it has no id` };
}

/**
 * The action text of a report, or `{error}`.
 * @param {Report} report
 * @param {number | undefined} id
 * @returns {string | null}
 */
function actionText(report, id) {
  switch (report.kind) {
    case 'click':
    case 'hover':
      return `${report.kind} [${id}]`;
    case 'type':
      return `type [${id}] [${report.text}] [${report.enter ? 1 : 0}]`;
    case 'press':
      return `press [${report.key}]`;
    case 'scroll':
      return `scroll [${report.direction}]`;
    case 'new_tab':
    case 'close_tab':
    case 'go_back':
    case 'go_forward':
      return report.kind;
    case 'tab_focus':
      return `tab_focus [${report.index}]`;
    case 'goto':
      return `goto [${report.url}]`;
    case 'stop':
      return `stop [${report.answer}]`;
    default:
      return null;
  }
}

const ELEMENT_KINDS = new Set(['click', 'hover', 'type']);

/**
 * Records one report as the steps reserved for it (`steps`: scroll can span several).
 * `before` is the standing observation when the report arrived.
 * @param {Core} core
 * @param {{ runId: string, sessionId: string, tabId: number, contextId: number | null,
 *   steps: number[], report: Report, before: Standing | null }} what
 */
export async function recordReport(core, { runId, sessionId, tabId, contextId, steps, report, before }) {
  await settled(sessionId);
  let observation = before;
  /** @type {string | null} */
  let note = null;
  if (!observation || observation.tabId !== tabId) {
    await observeNow(sessionId);
    observation = standingOf(sessionId);
    note = 'observed just after the action: no observation from before it was at hand (the worker had been stopped, or the tab was new)';
  }
  /** @type {ElementFound | null} */
  let element = null;
  /** @type {string | null} */
  let error = null;
  if (ELEMENT_KINDS.has(report.kind)) {
    element = await elementOf(sessionId, tabId, contextId, report, observation);
    if (element.error) error = element.error;
    else if (!shows(observation?.text, element.id)) {
      // The element got its id from a later observation: keep that one with the step.
      const latest = standingOf(sessionId);
      if (shows(latest?.text, element.id)) observation = latest;
    }
  }
  let text = error ? null : actionText(report, element?.id);
  if (text !== null) {
    try {
      text = core.canonical_action(text);
    } catch (parseError) {
      error = `the recorded action ${JSON.stringify(text)} is not in the agent's action language: ${errorText(parseError)}`;
      text = null;
    }
  }
  if (element?.by === 'name') note = `found by its name ${JSON.stringify(report.describe?.name)}: the element was gone before its id could be read`;
  for (const step of steps) {
    await storeStep(core, { runId, sessionId, step, report, observation, text, error, note, element });
  }
  // The action may have changed what is in view (scrolling, a menu): observe again.
  scheduleObservation(sessionId, 300);
}

/**
 * @param {Core} core
 * @param {{ runId: string, sessionId: string, step: number, report: Report,
 *   observation: Standing | null, text: string | null, error: string | null,
 *   note: string | null, element: ElementFound | null }} what
 */
async function storeStep(core, { runId, sessionId, step, report, observation, text, error, note, element }) {
  // The page as the person saw it: a picture for people, like an agent step's
  // `page_screenshot` in the text modes (keyed as run/media.js keys it).
  /** @type {import('../core/types.js').MediaItem[]} */
  const media = [];
  if (observation?.shot) {
    media.push({ ...observation.shot, id: mediaId(runId, step, 'page'), runId, step, kind: 'page_screenshot' });
  }
  await putStepMedia(runId, step, media);
  const progress = await progressOf(core, sessionId).catch(() => null);
  await recordStep(runId, step, {
    started_at: report.t ?? Date.now(),
    observation: {
      text: observation?.text ?? '',
      url: observation?.url ?? '',
      images: [],
      screenshot: null,
      page_screenshot: media.length > 0 ? media[0].id : null,
    },
    prompt: null,
    reply: null,
    model_error: null,
    action: text ? { text } : null,
    result: { effect: { by: 'person', identifiedBy: element?.by ?? null }, error },
    judgements: report.judgements ?? [],
    progress,
    tokens: { input: 0, output: 0 },
    note,
    timings: { observe_ms: observation?.ms ?? null, model_ms: null, judge_ms: null, act_ms: null },
  });
}
