// Drives an agent run: takes the first pending command of the run's record, carries it
// out (run/commands.js), feeds the resulting event to the core's machine, saves the
// new state and commands, and goes on until `finish`. The record is saved before each
// effect starts and after each transition, so a worker stopped at any point resumes
// from the record (docs/agent-run.md "Resuming"):
//   - observe and call_model are simply issued again (harmless);
//   - record is a put on (runId, step): issued again, it replaces itself;
//   - an act that had started is never repeated: `acted` is fed with an error saying
//     the worker stopped, and the machine carries on from what the page shows.
//
// One driver per run and worker: a Web Lock named after the run, requested with
// ifAvailable, so the resume triggers (top level, alarm, messages) can fire freely.
// Chrome releases the lock when the worker stops.

import { errorText } from '../../messages.js';
import { loadedCore } from '../core/core.js';
import { RUN_ERROR_KINDS } from '../../run-error-kinds.js';
import { COMMANDS, interruptedAct, stepInfo } from './commands.js';
import { finishRun } from './finish.js';
import { interruption } from './interrupt.js';
import { callJudge, callModel } from './model.js';
import { readSessions } from '../session/sessions.js';
import {
  clearCallInFlight,
  markPauseHeld,
  noteCallTry,
  noteDoing,
  pauseRequest,
  readRecord,
  requestStop,
  saveRecord,
  stopRequest,
  WINDOW_CLOSED,
} from './state.js';

/**
 * @typedef {import('../core/types.js').Core} Core
 * @typedef {import('../core/types.js').RunRecord} RunRecord
 * @typedef {import('../core/core-types.js').AgentCommand} AgentCommand
 * @typedef {import('../core/core-types.js').AgentEvent} AgentEvent
 */

/** The run status of each finish cause that is not a plain `finished`. */
/** @type {Readonly<Record<string, string>>} */
const STATUS_OF_CAUSE = Object.freeze({
  stopped: 'stopped',
  model_unavailable: 'error',
  context_overflow: 'error',
  unsupported_input: 'error',
  interrupted: 'error',
});

/** Starts of one command (worker stops included) after which the run gives up. */
const MAX_TRIES = 5;

/**
 * The AbortController of each run's command in flight, so Stop can cancel a model
 * call. It lives exactly as long as the fetch it aborts: both die with the worker.
 * @type {Map<string, AbortController>}
 */
const inFlight = new Map();

/**
 * True for the error of an extension API called while Chrome tears the worker down:
 * "No SW" (Chromium extension_function_dispatcher.cc, DispatchForServiceWorker, when
 * the worker's process is gone). The worker is stopping mid-command, which the record
 * already allows for.
 * @param {unknown} error
 */
export function isWorkerGoingAway(error) {
  return error instanceof Error && error.message === 'No SW';
}

/**
 * Cancels the run's model call in flight in this worker, if any.
 * @param {string} runId
 */
export function abortInFlight(runId) {
  inFlight.get(runId)?.abort(new Error('the run was stopped'));
}

/**
 * Drives the run until it finishes or the worker stops; returns at once when this
 * worker already drives it. Never rejects: a failure ends the run as `error`, with
 * every step recorded so far kept.
 * @param {string} runId
 * @returns {Promise<void>}
 */
export function driveRun(runId) {
  return navigator.locks.request(`hopbench.run.${runId}`, { ifAvailable: true }, async (lock) => {
    if (!lock) return;
    try {
      await loop(runId).catch(async (error) => {
        // A command that failed because the person closed the run's window (its tab is
        // gone) ends the run as stopped, for that reason, not as the command's error.
        if (isWorkerGoingAway(error) || !(await stopForClosedWindow(runId))) throw error;
        await loop(runId);
      });
    } catch (error) {
      if (isWorkerGoingAway(error)) {
        // Not the run's failure: the next worker resumes it from its record.
        console.warn(`hopbench: run ${runId} paused, the worker is stopping`);
        return;
      }
      console.error(`hopbench: run ${runId} failed:`, error);
      await failRun(runId, error).catch((failure) =>
        console.error(`hopbench: ending failed run ${runId} failed too:`, failure),
      );
    }
  });
}

/**
 * Asks the run to stop when its session is closed (the window's last tab went) and
 * no stop was asked yet; true when the run is to end as stopped.
 * @param {string} runId
 */
async function stopForClosedWindow(runId) {
  const record = await readRecord(runId);
  if (!record) return false;
  const session = (await readSessions())[record.sessionId];
  if (!session?.closed) return false;
  if (!(await stopRequest(runId))) await requestStop(runId, WINDOW_CLOSED);
  return true;
}

/**
 * @param {string} runId
 */
async function loop(runId) {
  for (;;) {
    const record = await readRecord(runId);
    if (!record) return; // Finished (possibly by an earlier worker).
    const core = await loadedCore();
    if (await feedStop(core, record)) continue;
    if (await feedInterruption(core, record)) continue;
    const command = record.pending[0];
    if (await holdForPause(record, command)) return;
    if (!command) throw new Error('the agent machine gave no next command (its state is kept in the run record)');
    if (command.kind === 'finish') {
      const status = Object.hasOwn(STATUS_OF_CAUSE, command.cause) ? STATUS_OF_CAUSE[command.cause] : 'finished';
      await finishRun(record, {
        status,
        cause: command.cause,
        reason: command.reason,
        answer: command.answer ?? null,
        // A run that could not go on says what to change (the model client's hint).
        error: status === 'error' ? (command.hint ?? command.reason) : null,
        // What the reason says in words, by name: the early-stop rule, the failed call's kind.
        rule: command.rule ?? null,
        callErrorKind: command.error_kind ?? null,
      });
      return;
    }
    const event = await carryOut(core, record, command);
    record.pending.shift();
    record.actStarted = null;
    record.tries = 0;
    // A model reply or observation arriving after Stop is dropped (the machine is told
    // to stop instead); an act that happened is always fed, the page shows its effect.
    if (event && (command.kind === 'act' || !(await stopRequest(runId)))) feed(core, record, event);
    await saveRecord(record);
  }
}

/**
 * @param {Core} core
 * @param {RunRecord} record
 * @param {AgentCommand} command
 * @returns {Promise<AgentEvent | null>}
 */
async function carryOut(core, record, command) {
  const spec = Object.hasOwn(COMMANDS, command.kind) ? COMMANDS[command.kind] : undefined;
  if (!spec) throw new Error(`the agent machine asked for an unknown command: ${command.kind}`);
  const controller = new AbortController();
  // The notes of the call's tries, in order, so the last is written before it is cleared.
  let callNotes = Promise.resolve();
  /** @param {{ try: number, of: number }} tries */
  const noteTry = (tries) => {
    if (!('step' in command)) return;
    callNotes = callNotes
      .then(() => noteCallTry(record.runId, command.step, tries))
      .catch((error) => console.warn(`hopbench: run ${record.runId}: noting the model call's try failed:`, error));
  };
  /** @type {import('./commands.js').RunContext} */
  const ctx = {
    core,
    record,
    signal: controller.signal,
    modelCall: (request, signal) => callModel(core, request, signal, record.options.agent, noteTry),
    judgeCall: (question, signal) => callJudge(core, question, signal, record.options.agent),
  };
  if (command.kind === 'act' && record.actStarted === command.step) return interruptedAct(ctx, command);
  if (!('step' in command)) throw new Error(`the agent machine's ${command.kind} command has no step`);
  record.tries = (record.tries ?? 0) + 1;
  if (record.tries > MAX_TRIES) {
    throw new Error(
      `${command.kind} of step ${command.step} was started ${MAX_TRIES} times without finishing ` +
        '(the worker stopped each time); the run cannot go on',
    );
  }
  if (command.kind === 'act') record.actStarted = command.step;
  if (spec.timing) stepInfo(record, command.step);
  await saveRecord(record); // Before the effect, so a restart knows it began.
  // What the panel says the run is doing (a model call says more of itself).
  if (command.kind !== 'record') {
    await noteDoing(record.runId, {
      kind: command.kind,
      step: command.step,
      since: Date.now(),
      ...(command.kind === 'act' ? { action: command.action_text } : {}),
    });
  }
  inFlight.set(record.runId, controller);
  const started = performance.now();
  try {
    const event = await spec.run(ctx, command);
    if (spec.timing) {
      // Summed: the modular agent makes several model calls in one step.
      const timings = stepInfo(record, command.step).timings;
      timings[spec.timing] = (timings[spec.timing] ?? 0) + Math.round(performance.now() - started);
    }
    return event;
  } finally {
    inFlight.delete(record.runId);
    if (command.kind === 'call_model') {
      await callNotes;
      await clearCallInFlight(record.runId);
    }
  }
}

/**
 * Pause holds the run between steps: before a step's `observe`, never in the middle of
 * one, so on Resume the next step observes the page as it is then (the person may have
 * changed it meanwhile) and no model reply is fed about a page that moved on. The
 * driver simply returns (releasing its lock); Resume drives it again. The core machine
 * needs nothing for this: it is not fed until the driver goes on. Stop wins over Pause.
 * @param {RunRecord} record
 * @param {AgentCommand | undefined} command
 */
async function holdForPause(record, command) {
  if (record.stopFed || command?.kind !== 'observe') return false;
  if (!(await pauseRequest(record.runId))) return false;
  await markPauseHeld(record.runId);
  return true;
}

/**
 * Feeds `stop_requested` once Stop was asked for; true when it did.
 * @param {Core} core
 * @param {RunRecord} record
 */
async function feedStop(core, record) {
  // A machine that already decided to finish is not told to stop: it is finishing.
  if (record.stopFed || record.pending.some((c) => c.kind === 'finish')) return false;
  const stop = await stopRequest(record.runId);
  if (!stop) return false;
  // Records owed for finished steps are still written; the command in progress is
  // abandoned (an interrupted act included: the machine records what it knows).
  const owed = record.pending.filter((c) => c.kind === 'record');
  record.pending = [];
  feed(core, record, { kind: 'stop_requested', reason: stop.reason });
  record.pending = [...owed, ...record.pending];
  record.stopFed = true;
  record.actStarted = null;
  record.tries = 0;
  await saveRecord(record);
  return true;
}

/**
 * Feeds `interrupted` once the run cannot go on for the browser's reasons (a session
 * page did not load, the browser exited; run/interrupt.js); true when it did. Like a
 * Stop, records owed for finished steps are still written and the step in progress is
 * recorded as it stands, so no step is lost.
 * @param {Core} core
 * @param {RunRecord} record
 */
async function feedInterruption(core, record) {
  if (record.pending.some((c) => c.kind === 'finish')) return false;
  const reason = await interruption(record);
  if (!reason) return false;
  const owed = record.pending.filter((c) => c.kind === 'record');
  record.pending = [];
  feed(core, record, { kind: 'interrupted', reason });
  record.pending = [...owed, ...record.pending];
  record.actStarted = null;
  record.tries = 0;
  await saveRecord(record);
  return true;
}

/**
 * One transition of the machine: new state, its commands appended to the pending ones.
 * @param {Core} core
 * @param {RunRecord} record
 * @param {AgentEvent} event
 */
function feed(core, record, event) {
  const fed = core.agent_feed(record.state, event);
  record.state = fed.state;
  record.pending.push(...fed.commands);
}

/**
 * Ends a run that cannot go on as `error`, keeping what it recorded.
 * @param {string} runId
 * @param {unknown} error
 */
async function failRun(runId, error) {
  const record = await readRecord(runId);
  if (!record) return;
  await finishRun(record, {
    status: 'error',
    cause: 'error',
    reason: 'error',
    answer: null,
    error: errorText(error),
    // The stored record counts the starts of its pending command; at the limit the
    // worker stopped under that command each time (carryOut's "started N times").
    errorKind: (record.tries ?? 0) >= MAX_TRIES ? RUN_ERROR_KINDS.COMMAND_RESTARTS : null,
  });
}
