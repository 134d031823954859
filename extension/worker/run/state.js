// The driver's record of each running run, in the store's local area (store/keys.js;
// it survives the worker and the browser; docs/agent-run.md "Resuming"):
//
//   run.<id>       { runId, sessionId, state, pending, actStarted, tries, steps, options,
//                    browserLife }
//                  `state` the core's agent state; `pending` the commands not yet done,
//                  the first being carried out; `actStarted` the step whose act began
//                  (never repeated); `tries` how often the first command was started;
//                  `steps` per-step bookkeeping until the step is recorded; `options`
//                  keepWindow and the settings the run keeps from its start (agent
//                  settings without keys, observation); `browserLife` the browser life
//                  it started in (run/interrupt.js)
//   run.<id>.stop  { reason, at } once Stop was asked for (a key of its own, so the
//                  driver's next write of run.<id> cannot lose it)
//   run.<id>.pause { at, held } while Pause is on: the driver stops before the next
//                  step's observation and writes `held` (the time it stopped); Resume
//                  removes the key and drives the run again
//   run.<id>.call  { step, try, of, since, trySince } while a model call is out
//   runs.active    [runId]: the runs to resume
//   runs.current   the last started run, shown by the side panel (store/views.js)
//   alarm hopbench.run-backstop  exists while runs are active
//
// The record is rewritten after every transition; the run's lasting data (summary,
// steps, media) lives in IndexedDB (run/trajectories.js). Every change here publishes a change
// of the run's view (store/views.js), which is what pages watch.

import { ACTIVE_RUNS, runCall, runDoing, runPause, runRecord, runStop } from '../../store/keys.js';
import { read, remove, write, writeAll } from '../../store/store.js';
import { CURRENT_RUN, publishRunChange } from '../../store/views.js';

/**
 * @typedef {import('../core/types.js').RunRecord} RunRecord
 * @typedef {{ reason: string, at: number }} StopRequest
 * @typedef {{ at: number, held: number | null }} PauseRequest
 */

// One lock for the active list: two runs starting together must not lose an entry.
const ACTIVE_LOCK = 'hopbench.runs.active';

/**
 * @param {string} runId
 * @returns {Promise<RunRecord | undefined>}
 */
export function readRecord(runId) {
  return read(runRecord(runId));
}

/** @param {RunRecord} record */
export async function saveRecord(record) {
  await write(runRecord(record.runId), record);
  await publishRunChange(record.runId);
}

/**
 * Saves the first record of a run and lists it as active and (unless `current` is
 * false: the agent of a side-by-side session, whose person's run is the current one)
 * as the current run.
 * @param {RunRecord} record
 * @param {{ current?: boolean }} [options]
 */
export function addRun(record, { current = true } = {}) {
  return navigator.locks.request(ACTIVE_LOCK, async () => {
    const active = await activeRunIds();
    await writeAll('local', [
      [runRecord(record.runId), record],
      [ACTIVE_RUNS, [...active.filter((id) => id !== record.runId), record.runId]],
      ...(current ? [/** @type {[import('../../store/store.js').Slot<any>, unknown]} */ ([CURRENT_RUN, record.runId])] : []),
    ]);
    await publishRunChange(record.runId);
  });
}

/**
 * Forgets a run that ended: its record, its stop request and its active entry; the
 * backstop alarm goes with the last active run.
 * @param {string} runId
 */
export function removeRun(runId) {
  return navigator.locks.request(ACTIVE_LOCK, async () => {
    const active = (await activeRunIds()).filter((id) => id !== runId);
    await write(ACTIVE_RUNS, active);
    await remove(runRecord(runId), runStop(runId), runPause(runId), runCall(runId), runDoing(runId));
    await publishRunChange(runId);
    if (active.length === 0) await chrome.alarms.clear(BACKSTOP_ALARM);
  });
}

// While runs are active, an alarm wakes a stopped worker to resume them even when
// nothing else happens (e.g. it was stopped during a long model call). 30 s is the
// shortest period Chrome allows.
export const BACKSTOP_ALARM = 'hopbench.run-backstop';

export async function ensureBackstop() {
  if (!(await chrome.alarms.get(BACKSTOP_ALARM))) {
    await chrome.alarms.create(BACKSTOP_ALARM, { periodInMinutes: 0.5 });
  }
}

/** @returns {Promise<string[]>} */
export async function activeRunIds() {
  return (await read(ACTIVE_RUNS)) ?? [];
}

/** The stop reason of a run whose window (its session's last tab) was closed. */
export const WINDOW_CLOSED = "the run's window was closed";

/**
 * @param {string} runId
 * @param {string} reason
 */
export async function requestStop(runId, reason) {
  await write(runStop(runId), { reason, at: Date.now() });
  await publishRunChange(runId);
}

/**
 * `{reason, at}` once Stop was asked for, else undefined.
 * @param {string} runId
 * @returns {Promise<StopRequest | undefined>}
 */
export async function stopRequest(runId) {
  return read(runStop(runId));
}

/**
 * Pause on: the driver holds before the next step begins (see run/driver.js).
 * @param {string} runId
 */
export async function requestPause(runId) {
  await write(runPause(runId), { at: Date.now(), held: null });
  await publishRunChange(runId);
}

/**
 * Marks the pause as taking effect: the driver has stopped driving the run.
 * @param {string} runId
 */
export async function markPauseHeld(runId) {
  const pause = await pauseRequest(runId);
  if (!pause || pause.held) return;
  await write(runPause(runId), { ...pause, held: Date.now() });
  await publishRunChange(runId);
}

/** @param {string} runId */
export async function clearPause(runId) {
  await remove(runPause(runId));
  await publishRunChange(runId);
}

/**
 * `{at, held}` while the run is paused (held: null until the driver stopped), else undefined.
 * @param {string} runId
 * @returns {Promise<PauseRequest | undefined>}
 */
export async function pauseRequest(runId) {
  return read(runPause(runId));
}

/**
 * The model call a run is waiting for, as pages and the runner show it ("waiting for
 * the model, try 2 of 4, 35 s"): set as each try is sent, removed when the call ends.
 * @typedef {{ step: number, try: number, of: number, since: number, trySince: number }} CallInFlight
 */

/**
 * @param {string} runId
 * @param {number} step
 * @param {{ try: number, of: number }} tries
 */
export async function noteCallTry(runId, step, tries) {
  const now = Date.now();
  const before = await read(runCall(runId));
  const since = before && before.step === step ? before.since : now;
  await write(runCall(runId), { step, try: tries.try, of: tries.of, since, trySince: now });
  await publishRunChange(runId);
}

/** @param {string} runId */
export async function clearCallInFlight(runId) {
  await remove(runCall(runId));
  await publishRunChange(runId);
}

/**
 * @param {string} runId
 * @returns {Promise<CallInFlight | null>}
 */
export async function callInFlight(runId) {
  return (await read(runCall(runId))) ?? null;
}

/**
 * The command the driver carries out now, as the panel shows it ("reading the page",
 * "carrying out `click [12]`"): one record per run, replaced as each command starts,
 * removed with the run. A model call says more of itself (`CallInFlight`).
 * @typedef {{ kind: string, step: number, since: number, action?: string }} Doing
 */

/**
 * @param {string} runId
 * @param {Doing} doing
 */
export async function noteDoing(runId, doing) {
  await write(runDoing(runId), doing);
  await publishRunChange(runId);
}

/**
 * @param {string} runId
 * @returns {Promise<Doing | null>}
 */
export async function doingNow(runId) {
  return (await read(runDoing(runId))) ?? null;
}
