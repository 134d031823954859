// What pages see of a run: its view (the summary, with the live hop progress, the
// pause and the model call in flight of a running run) and its steps with each action
// in words. Read by the run service and the duel; reads the person's-session state
// (human/state.js) and nothing above.

import { progressOf } from '../session/hops.js';
import { loadedCore } from '../core/core.js';
import { endOrphanedHuman, humanState } from '../human/state.js';
import { callInFlight, doingNow, pauseRequest } from './state.js';
import { getSteps } from './trajectories.js';
import { authoringMarks, authoringSaved } from '../../store/keys.js';
import { read } from '../../store/store.js';

/**
 * @typedef {import('../core/types.js').Core} Core
 * @typedef {import('../core/types.js').Run} Run
 * @typedef {import('../core/types.js').Step} Step
 */

/**
 * What pages see of a run. A running run's hop progress is read live from its
 * session's tracker (navigations change it between steps).
 * @param {Run} run
 * @returns {Promise<import('../../types.js').RunView>}
 */
export async function runView(run) {
  if (run.provider === 'human' && run.status === 'running') run = await endOrphanedHuman(run);
  let { progress } = run;
  /** @type {'paused' | 'pausing' | null} */
  let paused = null;
  /** @type {import('./state.js').CallInFlight | null} */
  let call = null;
  /** @type {import('./state.js').Doing | null} */
  let doing = null;
  if (run.status === 'running') {
    call = await callInFlight(run.id);
    doing = await doingNow(run.id);
    // The tracker goes while the run ends (run/finish.js); a view read then shows the
    // progress its ending kept, and a later read shows the finished run.
    const kept = /** @type {{ progress?: typeof progress } | undefined} */ (run.ending)?.progress ?? progress;
    progress = await progressOf(await loadedCore(), run.sessionId ?? '').catch(() => kept);
    const pause = await pauseRequest(run.id);
    if (pause) paused = pause.held ? 'paused' : 'pausing';
  }
  return {
    id: run.id,
    taskId: run.taskId,
    intent: run.intent,
    status: run.status,
    step: run.step,
    maxSteps: run.maxSteps ?? null,
    progress,
    verdict: run.verdict,
    error: run.error,
    cause: run.cause,
    reason: run.reason,
    // By name what `reason` and `error` say in words (run/finish.js): the early-stop
    // rule, the failed model call's error kind, the harness's reason (run-error-kinds.js).
    rule: run.rule ?? null,
    callErrorKind: run.callErrorKind ?? null,
    errorKind: run.errorKind ?? null,
    answer: run.answer,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    tokens: run.tokens,
    provider: run.provider ?? 'model',
    // The model's name, as the run kept it in its settings (no key is kept there).
    model: modelNameOf(run),
    paused,
    // The model call the run waits for, if any: its step, try, and since when.
    call,
    // The command in progress (observe, act, judge, ...): its kind, step and start.
    doing,
    task: await taskCard(run.task),
    human: run.provider === 'human' ? await humanState(run.id) : null,
    activeMs: run.activeMs ?? null,
    duelId: run.duelId ?? null,
    sessionId: run.sessionId ?? null,
    authoring: run.provider === 'human' ? await authoringOf(run.id) : null,
  };
}

/**
 * A session of "New task by doing": the hops marked so far and the file it was saved
 * as; null for any other run (one started there has its marks kept from the start).
 * Its draft task's single placeholder hop says nothing: the marks are its hops.
 * @param {string} runId
 * @returns {Promise<import('../../types.js').AuthoringView | null>}
 */
async function authoringOf(runId) {
  const marks = await read(authoringMarks(runId));
  if (marks === undefined) return null;
  return { marks, saved: (await read(authoringSaved(runId))) ?? null };
}

/**
 * What the panel's task card shows: the core's overview (intent, hops, sites).
 * @param {import('../core/types.js').RunTask | undefined} task
 */
async function taskCard(task) {
  if (!task?.text) return null;
  try {
    return (await loadedCore()).task_overview(task.text, task.fileName ?? 'task.json');
  } catch (error) {
    // The task was read when the run started; a newer core may read it differently.
    console.warn(`hopbench: no overview of task ${task.id}:`, error);
    return null;
  }
}

/**
 * A run's stored steps, each with its action in words (`words`).
 * @param {string} runId
 */
export async function stepsWithWords(runId) {
  const core = await loadedCore();
  return (await getSteps(runId)).map((step) => ({ ...step, words: actionWords(core, step) }));
}

/**
 * The step's action in words (`{kind, element, words}`), or null without an action.
 * @param {Core} core
 * @param {Step} step
 * @returns {import('../core/core-types.js').ActionWords | { kind: null, element: null, words: string } | null}
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
 * The model a model run called (`settings.agent.model.model`, as run/settings.js keeps
 * it), or null for replay, a person, or a run recorded without it.
 * @param {import('../core/types.js').Run} run
 * @returns {string | null}
 */
function modelNameOf(run) {
  if (run.provider === 'replay' || run.provider === 'human') return null;
  const settings = /** @type {{ agent?: { model?: { model?: unknown } } } | undefined} */ (run.settings);
  const name = settings?.agent?.model?.model;
  return typeof name === 'string' && name !== '' ? name : null;
}
