// The run service: agent runs started, stopped, paused, read, exported and deleted
// (START_RUN ... DELETE_RUN), and the resume triggers: worker start, the backstop
// alarm, and any message. Values, not replies: the door (door.js) answers.

import { loadedCore } from '../core/core.js';
import { sessionClosed } from '../events.js';
import { bindFence, installFence, removeFence } from '../fence/fence.js';
import { forgetTracker } from '../session/hops.js';
import { finishHuman } from '../human/session.js';
import { abortInFlight, driveRun } from './driver.js';
import { browserLife } from './interrupt.js';
import { helloOwnAgent } from './model.js';
import { runConfiguration } from './settings.js';
import {
  BACKSTOP_ALARM,
  activeRunIds,
  addRun,
  clearPause,
  ensureBackstop,
  pauseRequest,
  readRecord,
  requestPause,
  requestStop,
  stopRequest,
  WINDOW_CLOSED,
} from './state.js';
import {
  deleteRunData,
  exportRunData,
  getRun,
  listMemory,
  listRuns,
  mediaDataUrls,
  newRunSummary,
  putRun,
  updateRun,
} from './trajectories.js';
import { closeLeftSession, closeSession } from '../session/sessions.js';
import { openTaskSession } from '../session/service.js';
import { runView, stepsWithWords } from './views.js';

/**
 * @typedef {import('../core/types.js').Core} Core
 * @typedef {import('../core/types.js').Run} Run
 */

const STOP_WAIT_MS = 15_000;

/** Resumes every active run not already driven by this worker; clears the alarm when none is left. */
export async function resumeRuns() {
  const ids = await activeRunIds();
  if (ids.length === 0) {
    await chrome.alarms.clear(BACKSTOP_ALARM);
    return;
  }
  await ensureBackstop();
  await Promise.all(ids.map((id) => driveRun(id)));
}

/** Call once, synchronously, at the worker's top level. */
export function registerRunListeners() {
  chrome.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name !== BACKSTOP_ALARM) return;
    resumeRuns().catch((error) => console.error('hopbench: resuming runs failed:', error));
  });
  // The person closed an agent's window: the run stops at once (a model call in flight
  // is cancelled), as if Stop were pressed, and says why.
  sessionClosed.listen(async ({ sessionId }) => {
    for (const runId of await activeRunIds()) {
      const record = await readRecord(runId);
      if (record?.sessionId !== sessionId || (await stopRequest(runId))) continue;
      await requestStop(runId, WINDOW_CLOSED);
      abortInFlight(runId);
      driveRun(runId);
    }
  });
}

/**
 * START_RUN from a page: `{runId, sessionId, windowId}`.
 * @param {import('../../messages.js').MessageOf<typeof import('../../messages.js').startRun>} msg
 */
export function startRunFromPage(msg) {
  return startAgentRun(msg);
}

/**
 * The sessions of the runs still active (their records say which), for the fence's
 * sweep at worker start.
 * @returns {Promise<Set<string>>}
 */
export async function liveRunSessions() {
  const records = await Promise.all((await activeRunIds()).map((id) => readRecord(id)));
  return new Set(records.flatMap((r) => (r?.sessionId ? [r.sessionId] : [])));
}

/**
 * Closes what a run that never started had opened (the worker stopped between its
 * fence and its record: the sweep at worker start, fence.js): its window's tabs and
 * its hop tracker. Nothing when there is no such session.
 * @param {string} sessionId
 */
export async function closeUnstartedSession(sessionId) {
  if (await closeLeftSession(sessionId)) await forgetTracker(sessionId);
}

/**
 * Starts an agent run: `{runId, sessionId}`. `bounds` places its window, `held` starts
 * it paused before its first step (a side-by-side session releases it when the person
 * presses Start), `duelId` links it to that session, `current: false` leaves
 * `runs.current` to the person's run.
 * @param {{ taskText: string, fileName: string, overrides: import('../../messages.js').RunOverrides }} msg
 * @param {{ bounds?: import('../../messages.js').Bounds, held?: boolean, duelId?: string | null,
 *   current?: boolean }} [options]
 */
export async function startAgentRun(msg, { bounds, held = false, duelId = null, current = true } = {}) {
  const core = await loadedCore();
  // Records passed in (the runner's memory file) stay out of the settings kept with
  // the run: they may be thousands, and the run keeps which ones it showed.
  const { memory_records: passedRecords, ...overrides } = msg.overrides;
  const config = await runConfiguration(overrides);
  if (config.agentConfig.agent === 'http') {
    // A person's own agent: asked who it is before anything opens (an agent that is not
    // there stops the run here, saying what to fix); its name goes where a model's
    // would, in the viewer and the exports, unless the person named it in Settings.
    const model = /** @type {{ model: Record<string, unknown> }} */ (config.settings.agent).model;
    const named = await helloOwnAgent(core);
    if (typeof model.model !== 'string' || model.model.trim() === '') model.model = named;
  }
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
  driveRun(runId);
  return { runId, sessionId: session.id, windowId: session.windowId };
}

/**
 * Releases a run started `held`: its clock starts now and its driver goes on.
 * @param {string} runId
 */
export async function releaseHeldRun(runId) {
  await updateRun(runId, { startedAt: Date.now() });
  await clearPause(runId);
  driveRun(runId);
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
 * Stops the run and resolves to its view once it has ended (or after a bounded wait):
 * an agent's run is stopped before its next step (its model call cancelled); a
 * person's session has no driver, and Stop is giving up.
 * @param {string} runId
 */
export async function stopRunOf(runId) {
  const run = await getRun(runId);
  if (!run) throw new Error(`no run ${runId}`);
  if (run.provider === 'human' && run.status === 'running') {
    return runView(await finishHuman(runId, { answer: null }));
  }
  if (await readRecord(runId)) {
    await requestStop(runId, 'stopped by the person');
    abortInFlight(runId);
    driveRun(runId);
    await waitUntilEnded(runId);
  }
  const stopped = await getRun(runId);
  if (!stopped) throw new Error(`no run ${runId}: it was deleted while it stopped`);
  return runView(stopped);
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
 * Pause on (`paused`) or off; resolves to the run's view.
 * @param {string} runId
 * @param {boolean} paused
 */
export async function pauseRunOf(runId, paused) {
  const run = await getRun(runId);
  if (!run) throw new Error(`no run ${runId}`);
  if (!(await readRecord(runId))) throw new Error(`run ${runId} has ended (${run.status}): there is nothing to pause`);
  if (paused) {
    if (!(await pauseRequest(runId))) await requestPause(runId);
  } else {
    await clearPause(runId);
    driveRun(runId);
  }
  return runView(run);
}

/**
 * The run's view, with its steps when asked.
 * @param {{ runId: string, withSteps: boolean }} msg
 */
export async function getRunOf(msg) {
  const run = await getRun(msg.runId);
  if (!run) throw new Error(`no run ${msg.runId}: it was deleted, or never recorded`);
  const view = await runView(run);
  if (!msg.withSteps) return { run: view };
  return { run: view, steps: await stepsWithWords(msg.runId) };
}

/**
 * Each requested picture as a data URL.
 * @param {string[]} mediaIds
 */
export function mediaOf(mediaIds) {
  return mediaDataUrls(mediaIds);
}

/**
 * Every run's view, newest first.
 * @param {number} [latest] only the newest this many
 */
export async function listRunViews(latest = Infinity) {
  const runs = (await listRuns()).slice(0, latest);
  return Promise.all(runs.map((run) => runView(run)));
}

/**
 * The run as a trajectory: run, task, settings without key, steps, media.
 * @param {string} runId
 */
export function exportRunOf(runId) {
  return exportRunData(runId);
}

/**
 * Deletes an ended run with its steps and pictures; resolves to its id.
 * @param {string} runId
 */
export async function deleteRunOf(runId) {
  const run = await getRun(runId);
  // A person's session has no driver record; its status says it is going on.
  if ((await readRecord(runId)) || run?.status === 'running') {
    throw new Error(`run ${runId} is still running: stop it first`);
  }
  if (!run) throw new Error(`no run ${runId}`);
  await deleteRunData(runId);
  return runId;
}
