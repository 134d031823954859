// Human vs agent: one task in two session windows tiled side by side, the agent's run
// on the left and the person's session on the right, both at the task's start. The
// agent's run is started held (paused before its first step) and released when the
// person presses Start, so both clocks start together. The duel itself is a small
// record linking the two runs; everything else is the two runs as they are.
//
//   duel.<id>   { id, agentRunId, humanRunId, taskId, createdAt }   (store/keys.js duelRecord)
//
// GET_DUEL gives both runs with their steps and the core's comparison: hop by hop who
// completed it at which step, and the first hop where they diverged. The person's
// Start reaches the duel as an event (events.js humanStarted): a person's session
// knows nothing of duels.

import { sideBySide } from './layout.js';
import { duelRecord } from '../../store/keys.js';
import { read, write } from '../../store/store.js';
import { setCurrentRun } from '../../store/views.js';
import { loadedCore } from '../core/core.js';
import { humanStarted } from '../events.js';
import { startHumanRun } from '../human/session.js';
import { releaseHeldRun, startAgentRun } from '../run/service.js';
import { runView, stepsWithWords } from '../run/views.js';
import { getRun } from '../run/trajectories.js';

/**
 * @typedef {{ id: string, agentRunId: string, humanRunId: string, taskId: string, createdAt: number }} Duel
 * @typedef {{ left: number, top: number, width: number, height: number }} Area
 */

/**
 * @param {string} duelId
 * @returns {Promise<Duel>}
 */
export async function readDuel(duelId) {
  const duel = await read(duelRecord(duelId));
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
 * Opens both windows: the agent's run started held, the person's session ready.
 * @param {import('../../messages.js').MessageOf<typeof import('../../messages.js').startDuel>} msg
 */
export async function startDuel(msg) {
  const duelId = crypto.randomUUID();
  const [agentBounds, humanBounds] = sideBySide(await workArea(msg.windowId));
  const task = { taskText: msg.taskText, fileName: msg.fileName };
  // The agent first: a task its agent refuses (replay without a reference) opens nothing.
  const agent = await startAgentRun({ ...task, overrides: msg.overrides }, { bounds: agentBounds, held: true, duelId, current: false });
  const human = await startHumanRun(await loadedCore(), { ...task, bounds: humanBounds, duelId, current: false });
  const started = await getRun(human.runId);
  if (!started) throw new Error(`the person's run ${human.runId} was deleted as it started`);
  const { taskId } = started;
  await write(duelRecord(duelId), { id: duelId, agentRunId: agent.runId, humanRunId: human.runId, taskId, createdAt: Date.now() });
  // The person's run is the one the side panel shows; it finds the duel through it.
  await setCurrentRun(human.runId);
  return { duelId, agentRunId: agent.runId, humanRunId: human.runId, agentWindowId: agent.windowId, humanWindowId: human.windowId };
}

/**
 * Both runs with their steps, and the core's comparison.
 * @param {import('../../messages.js').MessageOf<typeof import('../../messages.js').getDuel>} msg
 */
export async function getDuel(msg) {
  const duel = await readDuel(msg.duelId);
  const [agentRun, humanRun] = await Promise.all([getRun(duel.agentRunId), getRun(duel.humanRunId)]);
  if (!agentRun || !humanRun) throw new Error(`a run of side-by-side session ${duel.id} was deleted`);
  const [agent, human] = await Promise.all([runView(agentRun), runView(humanRun)]);
  const [agentSteps, humanSteps] = await Promise.all([stepsWithWords(agent.id), stepsWithWords(human.id)]);
  const side = (/** @type {string} */ name, /** @type {Awaited<ReturnType<typeof runView>>} */ run) => ({ name, progress: run.progress, passed: run.verdict?.passed ?? null, ended: run.status !== 'running' });
  const comparison = agent.progress && human.progress ? (await loadedCore()).compare_runs(side('you', human), side('the agent', agent)) : null;
  return { duel, agent, human, agentSteps, humanSteps, comparison };
}

/**
 * When the person presses Start in a duel, the agent starts with them. Call once,
 * synchronously, at the worker's top level.
 */
export function registerDuelListeners() {
  humanStarted.listen(async (run) => {
    if (typeof run.duelId !== 'string') return;
    const duel = await readDuel(run.duelId);
    await releaseHeldRun(duel.agentRunId);
  });
}
