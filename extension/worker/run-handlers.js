// Handlers for the run messages (PAGE_TO_WORKER START_RUN ... DELETE_RUN in
// messages.js), and the resume triggers: worker start, the backstop alarm, and any
// message. `readyCore()` resolves to the core module.

import {
  PAGE_TO_WORKER,
  isDeleteRun,
  isExportRun,
  isGetMedia,
  isGetRun,
  isListRuns,
  isPauseRun,
  isStartRun,
  isStopRun,
  okReply,
} from '../messages.js';
import { bindFence, installFence, removeFence } from './fence.js';
import { forgetTracker, progressOf } from './hops.js';
import { endOrphanedHuman, finishHuman, humanState } from './human-session.js';
import { abortInFlight, driveRun } from './run-driver.js';
import { browserLife } from './run-interrupt.js';
import { runConfiguration } from './run-settings.js';
import {
  BACKSTOP_ALARM,
  activeRunIds,
  addRun,
  callInFlight,
  clearPause,
  ensureBackstop,
  pauseRequest,
  readRecord,
  requestPause,
  requestStop,
} from './run-state.js';
import {
  deleteRunData,
  exportRunData,
  getRun,
  getSteps,
  listMemory,
  listRuns,
  mediaDataUrls,
  newRunSummary,
  putRun,
  updateRun,
} from './run-store.js';
import { closeSession } from './session.js';
import { openTaskSession } from './session-handlers.js';

/**
 * @typedef {import('./types.js').ReadyCore} ReadyCore
 * @typedef {import('./types.js').Core} Core
 * @typedef {import('./types.js').Run} Run
 * @typedef {import('./types.js').Step} Step
 * @typedef {import('../messages.js').Reply} Reply
 * @typedef {import('../messages.js').StartRun} StartRunMessage
 * @typedef {import('../messages.js').RunQuery} RunQuery
 */

const STOP_WAIT_MS = 15_000;

/**
 * Resumes every active run not already driven by this worker; clears the alarm when none is left.
 * @param {ReadyCore} readyCore
 */
export async function resumeRuns(readyCore) {
  const ids = await activeRunIds();
  if (ids.length === 0) {
    await chrome.alarms.clear(BACKSTOP_ALARM);
    return;
  }
  await ensureBackstop();
  await Promise.all(ids.map((id) => driveRun(readyCore, id)));
}

/**
 * Call once, synchronously, at the worker's top level.
 * @param {ReadyCore} readyCore
 */
export function registerRunListeners(readyCore) {
  chrome.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name !== BACKSTOP_ALARM) return;
    resumeRuns(readyCore).catch((error) => console.error('hopbench: resuming runs failed:', error));
  });
}

/**
 * @param {ReadyCore} readyCore
 * @param {StartRunMessage} msg
 */
function startRun(readyCore, msg) {
  return startAgentRun(readyCore, msg);
}

/**
 * Starts an agent run: `{runId, sessionId}`. `bounds` places its window, `held` starts
 * it paused before its first step (a side-by-side session releases it when the person
 * presses Start), `duelId` links it to that session, `current: false` leaves
 * `runs.current` to the person's run.
 * @param {ReadyCore} readyCore
 * @param {{ taskText: string, fileName: string, overrides: import('../messages.js').RunOverrides }} msg
 * @param {{ bounds?: import('../messages.js').Bounds, held?: boolean, duelId?: string | null,
 *   current?: boolean }} [options]
 */
export async function startAgentRun(readyCore, msg, { bounds, held = false, duelId = null, current = true } = {}) {
  const core = await readyCore();
  // Records passed in (the runner's memory file) stay out of the settings kept with
  // the run: they may be thousands, and the run keeps which ones it showed.
  const { memory_records: passedRecords, ...overrides } = msg.overrides;
  const config = await runConfiguration(overrides);
  // The core chooses among the records; the worker only fetches them.
  const pool = config.agentConfig.memory.k > 0 ? (passedRecords ?? (await listMemory())) : [];
  // The machine first: a task it refuses (e.g. replay without reference_trajectory)
  // opens no window.
  const started = core.agent_start(msg.taskText, msg.fileName, config.agentConfig, pool);
  const fence = siteFence(core, msg, config);
  // The fence goes up before the window opens, so even the start tabs' first
  // navigations (and anything a start page does on load) are inside it.
  const sessionId = crypto.randomUUID();
  if (fence) await installFence(sessionId, fence.origins.map((o) => o.origin));
  /** @type {Awaited<ReturnType<typeof openTaskSession>> | undefined} */
  let opened;
  try {
    opened = await openTaskSession(core, { ...msg, bounds }, { id: sessionId });
    if (fence) await bindFence(opened.session);
  } catch (error) {
    // No window may stay open without its run, nor a fence without its window.
    if (opened) {
      await closeSession(sessionId);
      await forgetTracker(sessionId);
    }
    await removeFence(sessionId);
    throw error;
  }
  const { session, task, progress } = opened;
  const runId = crypto.randomUUID();
  try {
    await putRun(
      newRunSummary({
        task: { ...task, fileName: msg.fileName, text: msg.taskText },
        progress,
        id: runId,
        maxSteps: config.agentConfig.max_steps,
        provider: config.provider,
        // Which past runs the prompt shows ({k, policy, tasks}); the record this run
        // leaves is added as `memoryRecord` when it finishes.
        memory: started.memory,
        sessionId: session.id,
        duelId,
        settings: { ...config.settings, sites: { mode: config.sites, ...(fence ?? {}) } },
      }),
    );
    if (held) await requestPause(runId);
    await addRun({
      runId,
      sessionId: session.id,
      state: started.state,
      pending: started.commands,
      actStarted: null,
      tries: 0,
      stopFed: false,
      steps: {},
      options: {
        keepWindow: config.keepWindow,
        // What the run started with (no keys): later changes reach later runs only.
        observation: pinnedObservation(config.settings.observation),
        agent: config.settings.agent,
      },
      browserLife: await browserLife(),
    }, { current });
  } catch (error) {
    // Nothing may be left half-started: a window without a run would never close.
    await closeSession(session.id);
    await forgetTracker(session.id);
    await removeFence(session.id);
    throw error;
  }
  await ensureBackstop();
  driveRun(readyCore, runId);
  return okReply({ runId, sessionId: session.id, windowId: session.windowId });
}

/**
 * Releases a run started `held`: its clock starts now and its driver goes on.
 * @param {ReadyCore} readyCore
 * @param {string} runId
 */
export async function releaseHeldRun(readyCore, runId) {
  await updateRun(runId, { startedAt: Date.now() });
  await clearPause(runId);
  driveRun(readyCore, runId);
}

/**
 * `{origins: [{origin, reasons}], denied}` for a run limited to its task's sites, or
 * null for one that may go anywhere. The core derives the origins (src/fence/).
 * @param {Core} core
 * @param {{ taskText: string, fileName: string }} msg
 * @param {{ sites: string, siteLists: unknown }} config
 */
function siteFence(core, msg, config) {
  if (config.sites !== 'task') return null;
  return core.site_fence(msg.taskText, msg.fileName, JSON.stringify(config.siteLists));
}

/**
 * The observation settings a run keeps from its start (the mode and whole-page choice
 * are in the machine's config): a change in the options or the observation viewer
 * while it runs reaches only runs started later.
 * @param {{ imageMaxSide: number, linkUrls: boolean }} observation
 */
function pinnedObservation({ imageMaxSide, linkUrls }) {
  return { imageMaxSide, linkUrls };
}

/**
 * @param {ReadyCore} readyCore
 * @param {RunQuery} msg
 */
async function stopRun(readyCore, msg) {
  const run = await getRun(msg.runId);
  if (!run) throw new Error(`no run ${msg.runId}`);
  if (run.provider === 'human' && run.status === 'running') {
    // A person's session has no driver: Stop is giving up.
    return okReply({ run: await runView(readyCore, await finishHuman(readyCore, msg.runId, { answer: null })) });
  }
  if (await readRecord(msg.runId)) {
    await requestStop(msg.runId, 'stopped by the person');
    abortInFlight(msg.runId);
    driveRun(readyCore, msg.runId);
    await waitUntilEnded(msg.runId);
  }
  const stopped = await getRun(msg.runId);
  if (!stopped) throw new Error(`no run ${msg.runId}: it was deleted while it stopped`);
  return okReply({ run: await runView(readyCore, stopped) });
}

/**
 * Waits (bounded) for the driver to end the run; an act in progress finishes first.
 * @param {string} runId
 */
async function waitUntilEnded(runId) {
  const deadline = Date.now() + STOP_WAIT_MS;
  while ((await readRecord(runId)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * @param {ReadyCore} readyCore
 * @param {import('../messages.js').PauseRun} msg
 */
async function pauseRunHandler(readyCore, msg) {
  const run = await getRun(msg.runId);
  if (!run) throw new Error(`no run ${msg.runId}`);
  if (!(await readRecord(msg.runId))) throw new Error(`run ${msg.runId} has ended (${run.status}): there is nothing to pause`);
  if (msg.paused) {
    if (!(await pauseRequest(msg.runId))) await requestPause(msg.runId);
  } else {
    await clearPause(msg.runId);
    driveRun(readyCore, msg.runId);
  }
  return okReply({ run: await runView(readyCore, run) });
}

/**
 * @param {ReadyCore} readyCore
 * @param {import('../messages.js').GetRun} msg
 */
async function getRunHandler(readyCore, msg) {
  const run = await getRun(msg.runId);
  if (!run) throw new Error(`no run ${msg.runId}: it was deleted, or never recorded`);
  const view = await runView(readyCore, run);
  if (!msg.withSteps) return okReply({ run: view });
  return okReply({ run: view, steps: await stepsWithWords(readyCore, msg.runId) });
}

/**
 * A run's stored steps, each with its action in words (`words`).
 * @param {ReadyCore} readyCore
 * @param {string} runId
 */
export async function stepsWithWords(readyCore, runId) {
  const core = await readyCore();
  return (await getSteps(runId)).map((step) => ({ ...step, words: actionWords(core, step) }));
}

/**
 * The step's action in words (`{kind, element, words}`), or null without an action.
 * @param {Core} core
 * @param {Step} step
 * @returns {import('./core-types.js').ActionWords | { kind: null, element: null, words: string } | null}
 */
function actionWords(core, step) {
  if (!step.action?.text) return null;
  try {
    return core.action_words(step.action.text, step.observation?.text ?? '');
  } catch (error) {
    // A recorded action always parsed once; say so rather than hide the step.
    return { kind: null, element: null, words: `${step.action.text} (${/** @type {Error} */ (error).message})` };
  }
}

/**
 * @param {ReadyCore} _readyCore
 * @param {import('../messages.js').GetMedia} msg
 */
async function getMediaHandler(_readyCore, msg) {
  return okReply({ media: await mediaDataUrls(msg.mediaIds) });
}

/** @param {ReadyCore} readyCore */
async function listRunsHandler(readyCore) {
  const runs = await listRuns();
  return okReply({ runs: await Promise.all(runs.map((run) => runView(readyCore, run))) });
}

/**
 * @param {ReadyCore} _readyCore
 * @param {RunQuery} msg
 */
async function exportRunHandler(_readyCore, msg) {
  return okReply({ trajectory: await exportRunData(msg.runId) });
}

/**
 * @param {ReadyCore} _readyCore
 * @param {RunQuery} msg
 */
async function deleteRunHandler(_readyCore, msg) {
  const run = await getRun(msg.runId);
  // A person's session has no driver record; its status says it is going on.
  if ((await readRecord(msg.runId)) || run?.status === 'running') {
    throw new Error(`run ${msg.runId} is still running: stop it first`);
  }
  if (!run) throw new Error(`no run ${msg.runId}`);
  await deleteRunData(msg.runId);
  return okReply({ runId: msg.runId });
}

/**
 * What pages see of a run. A running run's hop progress is read live from its
 * session's tracker (navigations change it between steps).
 * @param {ReadyCore} readyCore
 * @param {Run} run
 */
export async function runView(readyCore, run) {
  if (run.provider === 'human' && run.status === 'running') run = await endOrphanedHuman(run);
  let { progress } = run;
  let paused = null;
  /** @type {import('./run-state.js').CallInFlight | null} */
  let call = null;
  if (run.status === 'running') {
    call = await callInFlight(run.id);
    // The tracker goes when the run finishes; a view read at that moment keeps the
    // summary's progress, and the next read shows the finished run.
    progress = await progressOf(await readyCore(), run.sessionId ?? '').catch(() => progress);
    const pause = await pauseRequest(run.id);
    if (pause) paused = pause.held ? 'paused' : 'pausing';
  }
  return {
    id: run.id,
    taskId: run.taskId,
    intent: run.intent,
    status: run.status,
    step: run.step,
    maxSteps: run.maxSteps,
    progress,
    verdict: run.verdict,
    error: run.error,
    cause: run.cause,
    reason: run.reason,
    // By name what `reason` and `error` say in words (run-finish.js): the early-stop
    // rule, the failed model call's error kind, the harness's reason (run-error-kinds.js).
    rule: run.rule ?? null,
    callErrorKind: run.callErrorKind ?? null,
    errorKind: run.errorKind ?? null,
    answer: run.answer,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    tokens: run.tokens,
    provider: run.provider,
    paused,
    // The model call the run waits for, if any: its step, try, and since when.
    call,
    task: await taskCard(readyCore, run.task),
    human: run.provider === 'human' ? await humanState(run.id) : null,
    activeMs: run.activeMs ?? null,
    duelId: run.duelId ?? null,
  };
}

/**
 * What the panel's task card shows: the core's overview (intent, hops, sites).
 * @param {ReadyCore} readyCore
 * @param {import('./types.js').RunTask | undefined} task
 */
async function taskCard(readyCore, task) {
  if (!task?.text) return null;
  try {
    return (await readyCore()).task_overview(task.text, task.fileName ?? 'task.json');
  } catch (error) {
    // The task was read when the run started; a newer core may read it differently.
    console.warn(`hopbench: no overview of task ${task.id}:`, error);
    return null;
  }
}

/**
 * The handler table for background.js.
 * @param {ReadyCore} readyCore
 * @returns {import('../messages.js').Handlers}
 */
export function runHandlers(readyCore) {
  /**
   * @template M
   * @param {(msg: unknown) => msg is M} isValid
   * @param {(readyCore: ReadyCore, msg: M) => Promise<Reply>} fn
   * @returns {import('../messages.js').Handler}
   */
  // background.js calls `handle` only with a message `isValid` accepted: an M.
  const entry = (isValid, fn) => ({ isValid, handle: (msg) => fn(readyCore, /** @type {M} */ (msg)) });
  return {
    [PAGE_TO_WORKER.START_RUN]: entry(isStartRun, startRun),
    [PAGE_TO_WORKER.STOP_RUN]: entry(isStopRun, stopRun),
    [PAGE_TO_WORKER.GET_RUN]: entry(isGetRun, getRunHandler),
    [PAGE_TO_WORKER.LIST_RUNS]: entry(isListRuns, listRunsHandler),
    [PAGE_TO_WORKER.EXPORT_RUN]: entry(isExportRun, exportRunHandler),
    [PAGE_TO_WORKER.DELETE_RUN]: entry(isDeleteRun, deleteRunHandler),
    [PAGE_TO_WORKER.PAUSE_RUN]: entry(isPauseRun, pauseRunHandler),
    [PAGE_TO_WORKER.GET_MEDIA]: entry(isGetMedia, getMediaHandler),
  };
}
