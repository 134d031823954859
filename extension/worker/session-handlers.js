// Handlers for the session, action and hop-tracking messages (PAGE_TO_WORKER in
// messages.js), keyed by message type like the worker's other handlers. Each validates
// its message (guard), then does one thing. `readyCore` resolves to the wasm core.

import {
  PAGE_TO_WORKER,
  errorText,
  isAct,
  isEndSession,
  isGetProgress,
  isGetVerdict,
  isListSessionTabs,
  isStartSession,
  okReply,
} from '../messages.js';
import { runAction } from './actions.js';
import { detach } from './cdp.js';
import { takeBlocked } from './fence.js';
import { resolveElement } from './observe.js';
import { forgetPageErrors } from './page-errors.js';
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
} from './session.js';

/**
 * @typedef {import('./types.js').Core} Core
 * @typedef {import('./types.js').ReadyCore} ReadyCore
 * @typedef {import('../messages.js').Reply} Reply
 * @typedef {import('../messages.js').Act} ActMessage
 * @typedef {import('../messages.js').ElementRef} ElementRef
 * @typedef {import('./core-types.js').Action} Action
 * @typedef {import('./core-types.js').Judgement} Judgement
 * @typedef {import('./session.js').Session} Session
 * @typedef {{ sessionId?: string, tabId?: number, action?: Action, actionText?: string,
 *   element?: ElementRef, settleTimeoutMs?: number, step?: number,
 *   judgements?: Judgement[] }} ActRequest the fields of ACT, plus a run's step and
 *   judgements
 * @typedef {{ effect: unknown, error?: string | null, settle: import('./settle.js').Settle | null }} ActResult
 */

// The session operations below take the initialised core; the message handlers and
// the agent run driver (run-driver.js) both call them, so a run's session is exactly
// the session a page would open.

/**
 * Imports the task, opens its window (placed by `bounds` when given) and hop tracker:
 * `{session, task, progress}`. `id` names the session when the caller prepared
 * something for it (a run's fence).
 * @param {Core} core
 * @param {{ taskText: string, fileName: string, bounds?: import('../messages.js').Bounds }} task
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
  if (keepWindow) {
    // The window stays with the person: leave no debugger attached to its tabs.
    await Promise.all(session.tabIds.map((tabId) => detach(tabId)));
  }
  return { verdict, events, session };
}

/**
 * @param {ReadyCore} readyCore
 * @param {import('../messages.js').StartSession} msg
 */
async function startSession(readyCore, msg) {
  const opened = await openTaskSession(await readyCore(), msg);
  return okReply({ ...opened, session: sessionView(opened.session) });
}

/**
 * @param {ReadyCore} readyCore
 * @param {import('../messages.js').EndSession} msg
 */
async function endSession(readyCore, msg) {
  const ended = await endTaskSession(await readyCore(), msg.sessionId, msg);
  return okReply({ ...ended, session: sessionView(ended.session) });
}

/**
 * @param {ReadyCore} _readyCore
 * @param {import('../messages.js').SessionQuery} msg
 */
async function listTabs(_readyCore, msg) {
  const session = pickSession(await readSessions(), msg.sessionId);
  return okReply({ session: sessionView(session), tabs: await describeTabs(session) });
}

/**
 * @param {ReadyCore} readyCore
 * @param {ActMessage & { judgements?: unknown }} msg
 */
async function act(readyCore, msg) {
  // Judge verdicts come from a run's own judge call only, never from a message.
  /** @type {ActRequest} */
  const fields = { ...msg, judgements: undefined };
  return okReply(await actInSession(await readyCore(), fields));
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
  /** @type {import('./actions.js').ActContext} */
  const ctx = {
    core,
    sessionId: session.id,
    session,
    tabId,
    action: target.action,
    element: target.element,
  };
  // An agent run's `stop` comes with the judge's verdicts on its answer (run-commands.js).
  /** @type {import('./actions.js').RecordAnswer} */
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

/**
 * @param {ReadyCore} readyCore
 * @param {import('../messages.js').SessionQuery} msg
 */
async function getProgress(readyCore, msg) {
  const core = await readyCore();
  const session = pickSession(await readSessions(), msg.sessionId);
  return okReply({ progress: await progressOf(core, session.id), session: sessionView(session) });
}

/**
 * @param {ReadyCore} readyCore
 * @param {import('../messages.js').SessionQuery} msg
 */
async function getVerdict(readyCore, msg) {
  const core = await readyCore();
  const session = pickSession(await readSessions(), msg.sessionId);
  return okReply({ verdict: await verdictOf(core, session.id) });
}

/**
 * The handler table for background.js; `readyCore()` resolves to the core module.
 * @param {ReadyCore} readyCore
 * @returns {import('../messages.js').Handlers}
 */
export function sessionHandlers(readyCore) {
  /**
   * @template M
   * @param {(msg: unknown) => msg is M} isValid
   * @param {(readyCore: ReadyCore, msg: M) => Promise<Reply>} fn
   * @returns {import('../messages.js').Handler}
   */
  // background.js calls `handle` only with a message `isValid` accepted: an M.
  const entry = (isValid, fn) => ({ isValid, handle: (msg) => fn(readyCore, /** @type {M} */ (msg)) });
  return {
    [PAGE_TO_WORKER.START_SESSION]: entry(isStartSession, startSession),
    [PAGE_TO_WORKER.END_SESSION]: entry(isEndSession, endSession),
    [PAGE_TO_WORKER.LIST_SESSION_TABS]: entry(isListSessionTabs, listTabs),
    [PAGE_TO_WORKER.ACT]: entry(isAct, act),
    [PAGE_TO_WORKER.GET_PROGRESS]: entry(isGetProgress, getProgress),
    [PAGE_TO_WORKER.GET_VERDICT]: entry(isGetVerdict, getVerdict),
  };
}
