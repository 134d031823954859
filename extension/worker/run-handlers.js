// Handlers for the run messages (PAGE_TO_WORKER START_RUN ... DELETE_RUN in
// messages.js), and the resume triggers: worker start, the backstop alarm, and any
// message. `readyCore()` resolves to the core module.

import {
  PAGE_TO_WORKER,
  isDeleteRun,
  isExportRun,
  isGetRun,
  isListRuns,
  isStartRun,
  isStopRun,
  okReply,
} from '../messages.js';
import { bindFence, installFence, removeFence } from './fence.js';
import { forgetTracker, progressOf } from './hops.js';
import { abortInFlight, driveRun } from './run-driver.js';
import { browserLife } from './run-interrupt.js';
import { runConfiguration } from './run-settings.js';
import {
  BACKSTOP_ALARM,
  activeRunIds,
  addRun,
  ensureBackstop,
  readRecord,
  requestStop,
} from './run-state.js';
import { deleteRunData, exportRunData, getRun, getSteps, listMemory, listRuns, putRun } from './run-store.js';
import { closeSession } from './session.js';
import { openTaskSession } from './session-handlers.js';

const STOP_WAIT_MS = 15_000;

/** Resumes every active run not already driven by this worker; clears the alarm when none is left. */
export async function resumeRuns(readyCore) {
  const ids = await activeRunIds();
  if (ids.length === 0) {
    await chrome.alarms.clear(BACKSTOP_ALARM);
    return;
  }
  await ensureBackstop();
  await Promise.all(ids.map((id) => driveRun(readyCore, id)));
}

/** Call once, synchronously, at the worker's top level. */
export function registerRunListeners(readyCore) {
  chrome.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name !== BACKSTOP_ALARM) return;
    resumeRuns(readyCore).catch((error) => console.error('hopbench: resuming runs failed:', error));
  });
}

async function startRun(readyCore, msg) {
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
  let opened;
  try {
    opened = await openTaskSession(core, msg, { id: sessionId });
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
    await putRun({
      id: runId,
      taskId: task.id,
      intent: task.intent,
      status: 'running',
      step: 0,
      maxSteps: config.agentConfig.max_steps,
      progress,
      verdict: null,
      error: null,
      cause: null,
      reason: null,
      answer: null,
      startedAt: Date.now(),
      finishedAt: null,
      tokens: { input: 0, output: 0 },
      provider: config.provider,
      // Which past runs the prompt shows ({k, policy, tasks}); the record this run
      // leaves is added as `memoryRecord` when it finishes.
      memory: started.memory,
      sessionId: session.id,
      task: { ...task, fileName: msg.fileName, text: msg.taskText },
      settings: { ...config.settings, sites: { mode: config.sites, ...(fence ?? {}) } },
    });
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
    });
  } catch (error) {
    // Nothing may be left half-started: a window without a run would never close.
    await closeSession(session.id);
    await forgetTracker(session.id);
    await removeFence(session.id);
    throw error;
  }
  await ensureBackstop();
  driveRun(readyCore, runId);
  return okReply({ runId, sessionId: session.id });
}

/**
 * `{origins: [{origin, reasons}], denied}` for a run limited to its task's sites, or
 * null for one that may go anywhere. The core derives the origins (src/fence/).
 */
function siteFence(core, msg, config) {
  if (config.sites !== 'task') return null;
  return core.site_fence(msg.taskText, msg.fileName, JSON.stringify(config.siteLists));
}

/**
 * The observation settings a run keeps from its start (the mode and whole-page choice
 * are in the machine's config): a change in the options or the observation viewer
 * while it runs reaches only runs started later.
 */
function pinnedObservation({ imageMaxSide, linkUrls }) {
  return { imageMaxSide, linkUrls };
}

async function stopRun(readyCore, msg) {
  const run = await getRun(msg.runId);
  if (!run) throw new Error(`no run ${msg.runId}`);
  if (await readRecord(msg.runId)) {
    await requestStop(msg.runId, 'stopped by the person');
    abortInFlight(msg.runId);
    driveRun(readyCore, msg.runId);
    await waitUntilEnded(msg.runId);
  }
  return okReply({ run: await runView(readyCore, await getRun(msg.runId)) });
}

/** Waits (bounded) for the driver to end the run; an act in progress finishes first. */
async function waitUntilEnded(runId) {
  const deadline = Date.now() + STOP_WAIT_MS;
  while ((await readRecord(runId)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function getRunHandler(readyCore, msg) {
  const run = await getRun(msg.runId);
  if (!run) throw new Error(`no run ${msg.runId}: it was deleted, or never recorded`);
  const view = await runView(readyCore, run);
  return okReply(msg.withSteps ? { run: view, steps: await getSteps(msg.runId) } : { run: view });
}

async function listRunsHandler(readyCore) {
  const runs = await listRuns();
  return okReply({ runs: await Promise.all(runs.map((run) => runView(readyCore, run))) });
}

async function exportRunHandler(_readyCore, msg) {
  return okReply({ trajectory: await exportRunData(msg.runId) });
}

async function deleteRunHandler(_readyCore, msg) {
  if (await readRecord(msg.runId)) {
    throw new Error(`run ${msg.runId} is still running: stop it first`);
  }
  if (!(await getRun(msg.runId))) throw new Error(`no run ${msg.runId}`);
  await deleteRunData(msg.runId);
  return okReply({ runId: msg.runId });
}

/**
 * What pages see of a run. A running run's hop progress is read live from its
 * session's tracker (navigations change it between steps).
 */
async function runView(readyCore, run) {
  let { progress } = run;
  if (run.status === 'running') {
    // The tracker goes when the run finishes; a view read at that moment keeps the
    // summary's progress, and the next read shows the finished run.
    progress = await progressOf(await readyCore(), run.sessionId).catch(() => progress);
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
    answer: run.answer,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    tokens: run.tokens,
    provider: run.provider,
  };
}

/** The handler table for background.js. */
export function runHandlers(readyCore) {
  const entry = (isValid, fn) => ({ isValid, handle: (msg) => fn(readyCore, msg) });
  return {
    [PAGE_TO_WORKER.START_RUN]: entry(isStartRun, startRun),
    [PAGE_TO_WORKER.STOP_RUN]: entry(isStopRun, stopRun),
    [PAGE_TO_WORKER.GET_RUN]: entry(isGetRun, getRunHandler),
    [PAGE_TO_WORKER.LIST_RUNS]: entry(isListRuns, listRunsHandler),
    [PAGE_TO_WORKER.EXPORT_RUN]: entry(isExportRun, exportRunHandler),
    [PAGE_TO_WORKER.DELETE_RUN]: entry(isDeleteRun, deleteRunHandler),
  };
}
