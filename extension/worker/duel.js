// Human vs agent: one task in two session windows tiled side by side, the agent's run
// on the left and the person's session on the right, both at the task's start. The
// agent's run is started held (paused before its first step) and released when the
// person presses Start, so both clocks start together. The duel itself is a small
// record linking the two runs; everything else is the two runs as they are.
//
//   duel.<id>   { id, agentRunId, humanRunId, taskId, createdAt }   chrome.storage.local
//
// GET_DUEL gives both runs with their steps and the core's comparison: hop by hop who
// completed it at which step, and the first hop where they diverged.

import { PAGE_TO_WORKER, isGetDuel, isStartDuel, okReply } from '../messages.js';
import { startHumanRun } from './human-session.js';
import { releaseHeldRun, runView, startAgentRun, stepsWithWords } from './run-handlers.js';
import { getRun } from './run-store.js';

/**
 * @typedef {import('./types.js').ReadyCore} ReadyCore
 * @typedef {import('../messages.js').Reply} Reply
 * @typedef {{ id: string, agentRunId: string, humanRunId: string, taskId: string, createdAt: number }} Duel
 * @typedef {{ left: number, top: number, width: number, height: number }} Area
 */

export const DUEL_KEY = (/** @type {string} */ duelId) => `duel.${duelId}`;

/**
 * @param {string} duelId
 * @returns {Promise<Duel>}
 */
export async function readDuel(duelId) {
  const duel = /** @type {Duel | undefined} */ ((await chrome.storage.local.get(DUEL_KEY(duelId)))[DUEL_KEY(duelId)]);
  if (!duel) throw new Error(`no side-by-side session ${duelId}`);
  return duel;
}

/**
 * The work area to tile: that of the display showing the window the person started
 * from (chrome.system.display; a page's `screen` may be emulated), else the primary.
 * @param {number | undefined} windowId
 * @returns {Promise<Area>}
 */
async function workArea(windowId) {
  const displays = await chrome.system.display.getInfo();
  const from = windowId === undefined ? null : await chrome.windows.get(windowId).catch(() => null);
  const left = from?.left;
  const top = from?.top;
  const holds = (/** @type {chrome.system.display.DisplayUnitInfo} */ d) =>
    left !== undefined && top !== undefined &&
    left >= d.bounds.left && left < d.bounds.left + d.bounds.width && top >= d.bounds.top && top < d.bounds.top + d.bounds.height;
  const display = displays.find(holds) ?? displays.find((d) => d.isPrimary) ?? displays[0];
  if (!display) throw new Error('no display to place the two windows on');
  return display.workArea;
}

/**
 * The left and right halves of an area (`{left, top, width, height}`).
 * @param {Area} area
 * @returns {[Area, Area]}
 */
export function halves({ left, top, width, height }) {
  const half = Math.floor(width / 2);
  return [
    { left, top, width: half, height },
    { left: left + half, top, width: width - half, height },
  ];
}

/**
 * @param {ReadyCore} readyCore
 * @param {import('../messages.js').StartDuel} msg
 */
async function startDuel(readyCore, msg) {
  const duelId = crypto.randomUUID();
  const [agentBounds, humanBounds] = halves(await workArea(msg.windowId));
  const task = { taskText: msg.taskText, fileName: msg.fileName };
  // The agent first: a task its agent refuses (replay without a reference) opens nothing.
  const agent = await startAgentRun(readyCore, { ...task, overrides: msg.overrides }, { bounds: agentBounds, held: true, duelId, current: false });
  const core = await readyCore();
  const human = await startHumanRun(core, { ...task, bounds: humanBounds, duelId, current: false });
  const started = await getRun(human.runId);
  if (!started) throw new Error(`the person's run ${human.runId} was deleted as it started`);
  const { taskId } = started;
  await chrome.storage.local.set({
    [DUEL_KEY(duelId)]: { id: duelId, agentRunId: agent.runId, humanRunId: human.runId, taskId, createdAt: Date.now() },
  });
  // The person's run is the one the side panel shows; it finds the duel through it.
  await chrome.storage.local.set({ 'runs.current': human.runId });
  return okReply({ duelId, agentRunId: agent.runId, humanRunId: human.runId, agentWindowId: agent.windowId, humanWindowId: human.windowId });
}

/**
 * Called when the person presses Start in a duel: the agent starts with them.
 * @param {ReadyCore} readyCore
 * @param {string} duelId
 */
export async function onDuelStart(readyCore, duelId) {
  const duel = await readDuel(duelId);
  await releaseHeldRun(readyCore, duel.agentRunId);
}

/**
 * @param {ReadyCore} readyCore
 * @param {import('../messages.js').GetDuel} msg
 */
async function getDuel(readyCore, msg) {
  const duel = await readDuel(msg.duelId);
  const [agentRun, humanRun] = await Promise.all([getRun(duel.agentRunId), getRun(duel.humanRunId)]);
  if (!agentRun || !humanRun) throw new Error(`a run of side-by-side session ${duel.id} was deleted`);
  const [agent, human] = await Promise.all([runView(readyCore, agentRun), runView(readyCore, humanRun)]);
  const [agentSteps, humanSteps] = await Promise.all([stepsWithWords(readyCore, agent.id), stepsWithWords(readyCore, human.id)]);
  const side = (/** @type {string} */ name, /** @type {Awaited<ReturnType<typeof runView>>} */ run) => ({ name, progress: run.progress, passed: run.verdict?.passed ?? null, ended: run.status !== 'running' });
  const comparison = agent.progress && human.progress ? (await readyCore()).compare_runs(side('you', human), side('the agent', agent)) : null;
  return okReply({ duel, agent, human, agentSteps, humanSteps, comparison });
}

/**
 * The handler table for background.js.
 * @param {ReadyCore} readyCore
 * @returns {import('../messages.js').Handlers}
 */
export function duelHandlers(readyCore) {
  /**
   * @template M
   * @param {(msg: unknown) => msg is M} isValid
   * @param {(readyCore: ReadyCore, msg: M) => Promise<Reply>} fn
   * @returns {import('../messages.js').Handler}
   */
  // background.js calls `handle` only with a message `isValid` accepted: an M.
  const entry = (isValid, fn) => ({ isValid, handle: (msg) => fn(readyCore, /** @type {M} */ (msg)) });
  return {
    [PAGE_TO_WORKER.START_DUEL]: entry(isStartDuel, startDuel),
    [PAGE_TO_WORKER.GET_DUEL]: entry(isGetDuel, getDuel),
  };
}
