// The session service: a task's window and tracker, opened and ended, its tabs, one
// action on it, its progress and verdict (START_SESSION ... GET_VERDICT), and the same
// operations for the run driver and a person's session, so a run's session is exactly
// the session a page would open. Values, not replies: the door (door.js) answers.

import { errorText } from '../../messages.js';
import { loadedCore } from '../core/core.js';
import { runAction } from '../act/actions.js';
import { detach } from '../cdp/cdp.js';
import { takeBlocked } from '../fence/fence.js';
import { resolveElement } from '../observe/observe.js';
import { forgetNotices } from '../page/notices.js';
import { forgetPageErrors } from '../page/errors.js';
import {
  createTracker,
  eventLogOf,
  forgetTracker,
  progressOf,
  recordAnswer,
  verdictOf,
} from './hops.js';
import {
  closeSession,
  describeTabs,
  openSession,
  pickSession,
  readSessions,
  sessionView,
  withSessions,
} from './sessions.js';

/**
 * @typedef {import('../core/types.js').Core} Core
 * @typedef {typeof import('../../messages.js')} Protocol
 * @typedef {import('../../messages.js').ElementRef} ElementRef
 * @typedef {import('../core/core-types.js').Action} Action
 * @typedef {import('../core/core-types.js').Judgement} Judgement
 * @typedef {import('./sessions.js').Session} Session
 * @typedef {{ sessionId?: string, tabId?: number, action?: Action, actionText?: string,
 *   element?: ElementRef, settleTimeoutMs?: number, step?: number,
 *   judgements?: Judgement[] }} ActRequest the fields of ACT, plus a run's step and
 *   judgements
 * @typedef {{ effect: unknown, error?: string | null, settle: import('../act/settle.js').Settle | null }} ActResult
 */


/**
 * Imports the task, opens its window (placed by `bounds` when given) and hop tracker:
 * `{session, task, progress}`. `id` names the session when the caller prepared
 * something for it (a run's fence).
 * @param {Core} core
 * @param {{ taskText: string, fileName: string, bounds?: import('../../messages.js').Bounds }} task
 * @param {{ id?: string }} [options]
 */
export async function openTaskSession(core, { taskText, fileName, bounds }, { id = crypto.randomUUID() } = {}) {
  const tracker = createTracker(core, id, taskText, fileName);
  const session = await openSession({
    id,
    startUrls: tracker.task.start_urls,
    taskId: tracker.task.id,
    extra: tracker.entry,
    bounds,
  });
  return { session, task: tracker.task, progress: tracker.progress };
}

/**
 * Scores and forgets the session: `{verdict, events, session}`.
 * @param {Core} core
 * @param {string | undefined} sessionId
 * @param {{ keepWindow: boolean }} options
 */
export async function endTaskSession(core, sessionId, { keepWindow }) {
  const session = pickSession(await readSessions(), sessionId);
  const verdict = await verdictOf(core, session.id);
  const events = await eventLogOf(session.id);
  await closeSession(session.id, { keepWindow });
  await forgetTracker(session.id);
  await forgetPageErrors(session.id);
  await forgetNotices(session.id);
  if (keepWindow) {
    // The window stays with the person: leave no debugger attached to its tabs.
    await Promise.all(session.tabIds.map((tabId) => detach(tabId)));
  }
  return { verdict, events, session };
}

/** @param {import('../../messages.js').MessageOf<Protocol['startSession']>} msg */
export async function startSession(msg) {
  const opened = await openTaskSession(await loadedCore(), msg);
  return { ...opened, session: sessionView(opened.session) };
}

/** @param {import('../../messages.js').MessageOf<Protocol['endSession']>} msg */
export async function endSession(msg) {
  const ended = await endTaskSession(await loadedCore(), msg.sessionId, msg);
  return { ...ended, session: sessionView(ended.session) };
}

/** @param {{ sessionId?: string }} msg */
export async function sessionTabs(msg) {
  const session = pickSession(await readSessions(), msg.sessionId);
  return { session: sessionView(session), tabs: await describeTabs(session) };
}

/**
 * ACT from a page: one action on the session.
 * @param {import('../../messages.js').MessageOf<Protocol['act']>} msg
 */
export async function actFromPage(msg) {
  // Judge verdicts come from a run's own judge call only, never from a message.
  /** @type {ActRequest} */
  const fields = { ...msg, judgements: undefined };
  return actInSession(await loadedCore(), fields);
}

/**
 * One action on a session tab (fields as in the ACT message, plus a run's
 * `judgements` for a `stop`): `{step, result}`.
 * `step`, when given (an agent run's step number), becomes the session's step, so hop
 * completions carry the run's numbering; otherwise the session counts actions itself.
 * @param {Core} core
 * @param {ActRequest} msg
 * @returns {Promise<{ step: number, result: ActResult }>}
 */
export async function actInSession(core, msg) {
  // Counting the step first attributes the navigations this action causes to it.
  const session = await withSessions((sessions) => {
    const s = pickSession(sessions, msg.sessionId);
    const tabId = msg.tabId ?? s.currentTabId;
    if (tabId === null || !s.tabIds.includes(tabId)) {
      throw new Error(`tab ${tabId} is not part of session ${s.id}; only session tabs are acted on`);
    }
    s.step = msg.step ?? s.step + 1;
    return { ...s, actTabId: tabId };
  });
  const tabId = session.actTabId;
  const target = await actionAndElement(core, tabId, msg);
  if (target.error !== undefined) {
    // Unparseable output or an unknown id is a recorded no-op step, not a failure.
    return { step: session.step, result: { effect: null, error: target.error, settle: null } };
  }
  /** @type {import('../act/actions.js').ActContext} */
  const ctx = {
    core,
    sessionId: session.id,
    session,
    tabId,
    action: target.action,
    element: target.element,
  };
  // An agent run's `stop` comes with the judge's verdicts on its answer (run/commands.js).
  /** @type {import('../act/actions.js').RecordAnswer} */
  const answerWithVerdicts = (c, id, text) => recordAnswer(c, id, text, msg.judgements ?? []);
  const actStarted = Date.now();
  const result = await runAction(ctx, { recordAnswer: answerWithVerdicts, settleTimeoutMs: msg.settleTimeoutMs });
  // A click (or Enter, or a page script it set off) whose navigation the site fence
  // stopped: the step's error says so, which is what the agent reads next.
  const blocked = await takeBlocked(session.id, actStarted);
  if (blocked.length > 0) {
    result.error = [result.error, ...new Set(blocked.map((b) => b.message))].filter(Boolean).join('; ');
  }
  return { step: session.step, result };
}

/**
 * The parsed action and its element reference: from `actionText` through the core's
 * parser and the tab's id registry, or as given. `{error}` names what is wrong.
 * @param {Core} core
 * @param {number} tabId
 * @param {ActRequest} msg
 * @returns {Promise<{ action?: Action, element?: ElementRef & { id?: number }, error?: undefined } | { error: string }>}
 */
async function actionAndElement(core, tabId, msg) {
  if (msg.actionText === undefined) return { action: msg.action, element: msg.element };
  let action;
  try {
    action = core.parse_action(msg.actionText);
  } catch (error) {
    return { error: `cannot parse the action ${JSON.stringify(msg.actionText)}: ${errorText(error)}` };
  }
  const id = 'id' in action ? action.id : undefined;
  if (id === undefined || msg.element !== undefined) return { action, element: msg.element };
  try {
    const ref = await resolveElement(tabId, id);
    return { action, element: { ...ref, id } };
  } catch (error) {
    return { error: `no element [${id}] on this page: ${errorText(error)}` };
  }
}

/** @param {{ sessionId?: string }} msg */
export async function sessionProgress(msg) {
  const session = pickSession(await readSessions(), msg.sessionId);
  return { progress: await progressOf(await loadedCore(), session.id), session: sessionView(session) };
}

/** @param {{ sessionId?: string }} msg */
export async function sessionVerdict(msg) {
  const session = pickSession(await readSessions(), msg.sessionId);
  return { verdict: await verdictOf(await loadedCore(), session.id) };
}
