// The effects of the agent machine's commands (docs/agent-run.md), one small function
// per command kind. Each takes the driver's context and the command, performs it with
// the worker's existing modules and returns the event to feed back, or null for
// `record`. Whether a command may run again after a restart is the driver's concern.

import { errorText } from '../../messages.js';
import { judgeRequestsOf, progressOf } from '../session/hops.js';
import { captureScreenshot } from '../observe/images.js';
import { observeTab, unresponsiveObservation } from '../observe/observe.js';
import { CommandTimeout } from '../cdp/cdp.js';
import { noticeRecord, noticeWords, noticesOf, takeUntold } from '../page/notices.js';
import { pageErrorsOf } from '../page/errors.js';
import { unreachablePage } from './interrupt.js';
import { stepMedia } from './media.js';
import { putStepMedia, recordStep } from './trajectories.js';
import { actInSession } from '../session/service.js';
import { pickSession, readSessions } from '../session/sessions.js';

/**
 * @typedef {import('../core/core-types.js').AgentCommand} AgentCommand
 * @typedef {import('../core/core-types.js').AgentEvent} AgentEvent
 * @typedef {import('../core/types.js').RunRecord} RunRecord
 * @typedef {import('../core/types.js').StepInfo} StepInfo
 * @typedef {Extract<AgentCommand, { kind: 'observe' }>} ObserveCommand
 * @typedef {Extract<AgentCommand, { kind: 'call_model' }>} CallModelCommand
 * @typedef {Extract<AgentCommand, { kind: 'judge' }>} JudgeCommand
 * @typedef {Extract<AgentCommand, { kind: 'act' }>} ActCommand
 * @typedef {Extract<AgentCommand, { kind: 'record' }>} RecordCommand
 * @typedef {{ run(ctx: RunContext, cmd: AgentCommand): Promise<AgentEvent | null>,
 *   timing: string | null }} CommandSpec one command's effect (a method: each takes its own
 *   kind of command), and the timing it fills in its step's record
 */

/** Fed back for an act the worker was stopped in the middle of (never repeated). */
export const INTERRUPTED_ACT_ERROR =
  'the worker stopped while the action ran; its effect is what the page now shows';

const INTERRUPTED_LOAD_WAIT_MS = 10_000;
/** How long an observation waits for the current tab to finish loading. */
const OBSERVE_LOAD_WAIT_MS = 10_000;

/**
 * Resolves once the tab is loaded, closed, or `timeoutMs` passed. A tab whose
 * navigation has not committed yet (`pendingUrl`) is not loaded, even if the blank
 * page it starts with is.
 * @param {number} tabId
 * @param {number} timeoutMs
 */
async function tabLoaded(tabId, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const tab = await chrome.tabs.get(tabId).catch(() => null); // Closed: nothing to wait for.
    if (!tab || (tab.status === 'complete' && !tab.pendingUrl)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * @typedef {{ core: import('../core/types.js').Core, record: RunRecord, signal: AbortSignal,
 *   modelCall: (request: unknown, signal: AbortSignal) => Promise<import('../core/core-types.js').CallOutcome>,
 *   judgeCall: (question: import('../core/core-types.js').JudgeRequest, signal: AbortSignal) => Promise<import('../core/core-types.js').Judgement> }} RunContext
 *   `record` is the driver's record (run/state.js); `steps[step]` collects what only
 *   the driver knows of a step (start time, timings, media ids) until it is recorded.
 */

/**
 * The step's bookkeeping in the driver record, created on first use.
 * @param {RunRecord} record
 * @param {number} step
 * @returns {StepInfo}
 */
export function stepInfo(record, step) {
  record.steps[step] ??= {
    startedAt: Date.now(),
    timings: {},
    media: { images: [], screenshot: null, page_screenshot: null },
  };
  return record.steps[step];
}

/**
 * How long an observation waits for a busy page (a script holding its main thread: a
 * page that computes for a minute after loading) before the agent is told the page is
 * not responding, as a person would wait a while before giving up on it. Each DevTools
 * command is bounded on its own (cdp.js COMMAND_BOUND_MS), so the observation is tried
 * again until this has passed.
 */
export const PAGE_BUSY_WAIT_MS = 75_000;
/** Observations in a row that found the page not responding, after which the run ends. */
export const UNRESPONSIVE_LIMIT = 3;

/**
 * The observation once the page answers; while it does not, observed again until
 * PAGE_BUSY_WAIT_MS has passed, and then the "not responding" observation. Null once
 * the page has not responded to UNRESPONSIVE_LIMIT observations in a row: it will not
 * recover, and the run ends saying so (`record.unresponsive` counts them).
 * @param {RunRecord} record
 * @param {number} tabId
 * @param {ObserveCommand} cmd
 * @param {number[]} tabIds
 * @returns {Promise<import('../observe/observe.js').Observation | null>}
 */
async function observeWhenResponsive(record, tabId, cmd, tabIds) {
  const started = Date.now();
  for (;;) {
    try {
      const obs = await observeWithFallback(tabId, cmd, tabIds, record.options.observation);
      record.unresponsive = 0;
      return obs;
    } catch (error) {
      if (!(error instanceof CommandTimeout)) throw error;
      if (Date.now() - started < PAGE_BUSY_WAIT_MS) continue;
    }
    record.unresponsive = (record.unresponsive ?? 0) + 1;
    if (record.unresponsive >= UNRESPONSIVE_LIMIT) return null;
    return unresponsiveObservation(tabId, { mode: cmd.mode, tabIds }, Date.now() - started);
  }
}

/**
 * Observes in the step's mode, with the image size and link URL settings the run
 * started with (`pinned`: a later change in the options or the observation viewer does
 * not reach a run under way). When the pictures cannot be had (Chrome answers
 * "Unable to capture screenshot" for a tab that has no frame yet, e.g. right after the
 * worker restarted and re-attached), the step goes on with the text alone and the
 * record says why, instead of the whole run ending on a missing picture.
 * @param {number} tabId
 * @param {ObserveCommand} cmd
 * @param {number[]} tabIds
 * @param {import('../../messages.js').ObserveOptions} [pinned]
 * @returns {Promise<import('../observe/observe.js').Observation>}
 */
async function observeWithFallback(tabId, cmd, tabIds, pinned = {}) {
  const options = { ...pinned, mode: cmd.mode, wholePage: cmd.whole_page, format: cmd.format ?? 'mmina', tabIds };
  try {
    return await observeTab(tabId, options);
  } catch (error) {
    // A page that does not answer gives no text either (observeWhenResponsive waits).
    if (cmd.mode === 'text' || error instanceof CommandTimeout) throw error;
    const obs = await observeTab(tabId, { ...options, mode: 'text' });
    const reason = `no ${cmd.mode} pictures this step (text only): ${errorText(error)}`;
    console.warn(`hopbench: ${reason}`);
    return { ...obs, visualsError: reason };
  }
}

/**
 * The screenshot a trajectory shows for a step whose model got no picture of the page
 * (modes `text`, `text+images`): for the person reading it, never sent to the model.
 * A page that gives none leaves the step without it, and the record says why.
 * @returns {Promise<{dataUrl: string | null, error?: string}>}
 * @param {number} tabId
 */
async function pageScreenshot(tabId) {
  try {
    return { dataUrl: await captureScreenshot(tabId) };
  } catch (error) {
    const reason = `no screenshot of the page for the record: ${errorText(error)}`;
    console.warn(`hopbench: ${reason}`);
    return { dataUrl: null, error: reason };
  }
}

/**
 * @param {RunContext} ctx
 * @param {ObserveCommand} cmd
 * @returns {Promise<AgentEvent>}
 */
async function observe(ctx, cmd) {
  const { runId, sessionId } = ctx.record;
  const session = pickSession(await readSessions(), sessionId);
  if (session.currentTabId === null) throw new Error('the session has no tab left to observe');
  // START_RUN returns as soon as the session window exists, so step 1 could observe
  // the start tab before its page arrived (an empty RootWebArea at URL ""), and a
  // replay then failed at random for want of its first element. Bounded: a page that
  // never finishes loading is observed as it is.
  await tabLoaded(session.currentTabId, OBSERVE_LOAD_WAIT_MS);
  // A page the browser could not load is not the agent's to observe: the run ends
  // with the browser's error (run/interrupt.js) before the step begins.
  const unreachable = await unreachablePage(sessionId);
  if (unreachable) return { kind: 'interrupted', reason: unreachable };
  // The record's picture of the page is taken while the observation reads the trees:
  // observing does not change the page, and the picture's encoding (in the browser)
  // then overlaps the renderer's work on the trees instead of following it.
  const pageP = cmd.mode === 'text' || cmd.mode === 'text+images' ? pageScreenshot(session.currentTabId) : null;
  const obs = await observeWhenResponsive(ctx.record, session.currentTabId, cmd, session.tabIds);
  if (!obs) {
    return {
      kind: 'interrupted',
      reason: `the page stopped responding: ${session.currentTabId === null ? '' : (await chrome.tabs.get(session.currentTabId).catch(() => null))?.url ?? ''} ` +
        `gave no answer in ${UNRESPONSIVE_LIMIT} observations in a row (${Math.round(PAGE_BUSY_WAIT_MS / 1000)} s each; its main thread busy or looping)`,
    };
  }
  // A screenshot mode that fell back to text takes the record's picture now.
  const page = obs.screenshot || obs.som ? { dataUrl: null } : await (pageP ?? pageScreenshot(session.currentTabId));
  const media = stepMedia(runId, cmd.step, obs, page.dataUrl);
  await putStepMedia(runId, cmd.step, media.rows);
  stepInfo(ctx.record, cmd.step).media = {
    ...media.refs,
    ...(obs.visualsError ? { visuals_error: obs.visualsError } : {}),
    ...(page.error ? { page_screenshot_error: page.error } : {}),
  };
  return { kind: 'observed', step: cmd.step, text: withNotices(obs.text, await takeUntold(sessionId)), url: obs.url, images: media.images, screenshot: media.screenshot, tabs: obs.tabs };
}

/**
 * The observation's text, told of what the pages did since the agent last looked
 * (during the previous step's action, or, for step 1, as the start page loaded): a
 * dialog is gone by the time the page is read, and the agent would otherwise not
 * know why a confirm's "cancel" left the page as it was (page/notices.js).
 * @param {string} text
 * @param {import('../page/notices.js').PageNotice[]} untold
 */
function withNotices(text, untold) {
  if (untold.length === 0) return text;
  return `${text}\n\n${untold.map(noticeWords).join('\n')}`;
}

/**
 * @param {RunContext} ctx
 * @param {CallModelCommand} cmd
 * @returns {Promise<AgentEvent>}
 */
async function callModel(ctx, cmd) {
  const outcome = await ctx.modelCall(cmd.request, ctx.signal);
  if (outcome.ok && outcome.reply) {
    return { kind: 'model_replied', step: cmd.step, call: cmd.call ?? 0, reply: outcome.reply, attempts: outcome.attempts ?? [] };
  }
  // The call's outcome always carries one of the two (crates/wasm/src/provider.rs);
  // should neither come, the machine still hears of a failure it can report.
  const error = outcome.error ?? { kind: 'malformed', message: 'the model call gave neither a reply nor an error', hint: null };
  return { kind: 'model_failed', step: cmd.step, call: cmd.call ?? 0, error, attempts: outcome.attempts ?? [] };
}

/**
 * The judge's verdict on each question the answer raises: from the judge model (one
 * call per question, in turn), or, without a model (replay), from the core's
 * containment fallback. A failed call is a judgement without a verdict, not an error.
 */
/**
 * @param {RunContext} ctx
 * @param {JudgeCommand} cmd
 * @returns {Promise<AgentEvent>}
 */
async function judge(ctx, cmd) {
  const questions = await judgeRequestsOf(ctx.core, ctx.record.sessionId, cmd.answer);
  /** @type {import('../core/core-types.js').Judgement[]} */
  const judgements = [];
  for (const question of questions) {
    judgements.push(cmd.with_model ? await ctx.judgeCall(question, ctx.signal) : ctx.core.judge_containment(question));
  }
  return { kind: 'judged', step: cmd.step, judgements };
}

/**
 * @param {RunContext} ctx
 * @param {ActCommand} cmd
 * @returns {Promise<AgentEvent>}
 */
async function act(ctx, cmd) {
  const { sessionId } = ctx.record;
  const { result } = await actInSession(ctx.core, {
    sessionId,
    actionText: cmd.action_text,
    step: cmd.step,
    judgements: cmd.judgements ?? [],
  });
  // Where the act's time went: the record splits it into acting and settling, and
  // says which signal ended the wait (act/settle.js).
  if (result.settle) {
    const { ms, endedBy, signalMs } = result.settle;
    stepInfo(ctx.record, cmd.step).settle = { ms, endedBy, signalMs };
  }
  // What the action set off beside the page (dialogs as answered, downloads, file
  // choosers), in the step's record.
  const notices = (await noticesOf(sessionId)).filter((n) => n.step === cmd.step);
  if (notices.length > 0) stepInfo(ctx.record, cmd.step).notices = notices.map(noticeRecord);
  return {
    kind: 'acted',
    step: cmd.step,
    // What the action function returned: plain data, as the core reads it.
    effect: /** @type {import('../../../pkg/core-types.js').JsonValue} */ (result.effect),
    error: withLoadFailures(result.error ?? null, await pageErrorsOf(sessionId), cmd.step),
    progress: await progressOf(ctx.core, sessionId),
  };
}

/**
 * The act's error with the pages its step could not load, in the browser's words, so
 * the step's record says why the run ends after it (the driver then feeds
 * `interrupted`, run/interrupt.js).
 * @param {string | null} error
 * @param {import('../page/errors.js').PageError[]} pageErrors
 * @param {number} step
 */
function withLoadFailures(error, pageErrors, step) {
  const failed = pageErrors
    .filter((e) => e.step === step)
    .map((e) => `the page could not load: ${e.url} (${e.error})`);
  const all = [...(error ? [error] : []), ...failed];
  return all.length > 0 ? all.join('; ') : null;
}

/**
 * The `acted` event for an act that was started before the worker stopped. A
 * navigation it began may still be loading: the next observation should show where
 * it led, so the current tab is given a bounded wait to finish loading first.
 * @param {RunContext} ctx
 * @param {ActCommand} cmd
 * @returns {Promise<AgentEvent>}
 */
export async function interruptedAct(ctx, cmd) {
  const session = pickSession(await readSessions(), ctx.record.sessionId);
  if (session.currentTabId !== null) await tabLoaded(session.currentTabId, INTERRUPTED_LOAD_WAIT_MS);
  return {
    kind: 'acted',
    step: cmd.step,
    effect: null,
    error: INTERRUPTED_ACT_ERROR,
    progress: await progressOf(ctx.core, ctx.record.sessionId),
  };
}

/**
 * Adds what only the driver knows to the core's step record and stores it once.
 * @param {RunContext} ctx
 * @param {RecordCommand} cmd
 * @returns {Promise<null>}
 */
async function record(ctx, cmd) {
  const info = stepInfo(ctx.record, cmd.step);
  const stored = {
    ...cmd.record,
    started_at: info.startedAt,
    observation: { .../** @type {Record<string, unknown> | undefined} */ (cmd.record.observation), ...info.media },
    timings: {
      observe_ms: info.timings.observe_ms ?? null,
      model_ms: info.timings.model_ms ?? null,
      judge_ms: info.timings.judge_ms ?? null,
      // The action itself; its wait for the page to settle is settle_ms.
      act_ms: info.timings.act_ms === undefined ? null : Math.max(0, info.timings.act_ms - (info.settle?.ms ?? 0)),
      settle_ms: info.settle?.ms ?? null,
      settled_by: info.settle?.endedBy ?? null,
      // When the page's last signal came (ms after the action); settle_ms minus this
      // is what the quiet windows cost.
      settle_signal_ms: info.settle?.signalMs ?? null,
    },
    ...(info.notices ? { notices: info.notices } : {}),
  };
  await recordStep(ctx.record.runId, cmd.step, stored);
  delete ctx.record.steps[cmd.step];
  return null;
}

/** Command kind → effect, and the timing each one fills in its step's record. */
/** @type {Readonly<Record<string, CommandSpec>>} */
export const COMMANDS = Object.freeze({
  observe: { run: observe, timing: 'observe_ms' },
  call_model: { run: callModel, timing: 'model_ms' },
  judge: { run: judge, timing: 'judge_ms' },
  act: { run: act, timing: 'act_ms' },
  record: { run: record, timing: null },
});
