// The driver's record of each running run, in chrome.storage.local (it survives the
// worker and the browser; docs/agent-run.md "Resuming"):
//
//   run.<id>       { runId, sessionId, state, pending, actStarted, tries, steps, options,
//                    browserLife }
//                  `state` the core's agent state; `pending` the commands not yet done,
//                  the first being carried out; `actStarted` the step whose act began
//                  (never repeated); `tries` how often the first command was started;
//                  `steps` per-step bookkeeping until the step is recorded; `options`
//                  keepWindow and the settings the run keeps from its start (agent
//                  settings without keys, observation); `browserLife` the browser life
//                  it started in (run-interrupt.js)
//   run.<id>.stop  { reason, at } once Stop was asked for (a key of its own, so the
//                  driver's next write of run.<id> cannot lose it)
//   run.<id>.pause { at, held } while Pause is on: the driver stops before the next
//                  step's observation and writes `held` (the time it stopped); Resume
//                  removes the key and drives the run again
//   runs.active    [runId]: the runs to resume
//   runs.current   the last started run, shown by the side panel
//   alarm hopbench.run-backstop  exists while runs are active
//
// The record is rewritten after every transition; the run's lasting data (summary,
// steps, media) lives in IndexedDB (run-store.js).

import { CURRENT_RUN_KEY, RUN_RECORD_KEY } from '../messages.js';

/**
 * @typedef {import('./types.js').RunRecord} RunRecord
 * @typedef {{ reason: string, at: number }} StopRequest
 * @typedef {{ at: number, held: number | null }} PauseRequest
 */

const ACTIVE_KEY = 'runs.active';
const STOP_KEY = (/** @type {string} */ runId) => `run.${runId}.stop`;
export const PAUSE_KEY = (/** @type {string} */ runId) => `run.${runId}.pause`;
/** The model call in flight: `{step, try, of, since, trySince}` (ms since the epoch). */
const CALL_KEY = (/** @type {string} */ runId) => `run.${runId}.call`;
// One lock for the active list: two runs starting together must not lose an entry.
const ACTIVE_LOCK = 'hopbench.runs.active';

/**
 * @param {string} runId
 * @returns {Promise<RunRecord | undefined>}
 */
export async function readRecord(runId) {
  const key = RUN_RECORD_KEY(runId);
  return /** @type {RunRecord | undefined} */ ((await chrome.storage.local.get(key))[key]);
}

/** @param {RunRecord} record */
export function saveRecord(record) {
  return chrome.storage.local.set({ [RUN_RECORD_KEY(record.runId)]: record });
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
    await chrome.storage.local.set({
      [RUN_RECORD_KEY(record.runId)]: record,
      [ACTIVE_KEY]: [...active.filter((id) => id !== record.runId), record.runId],
      ...(current ? { [CURRENT_RUN_KEY]: record.runId } : {}),
    });
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
    await chrome.storage.local.set({ [ACTIVE_KEY]: active });
    await chrome.storage.local.remove([RUN_RECORD_KEY(runId), STOP_KEY(runId), PAUSE_KEY(runId), CALL_KEY(runId)]);
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
  return /** @type {string[] | undefined} */ ((await chrome.storage.local.get(ACTIVE_KEY))[ACTIVE_KEY]) ?? [];
}

/**
 * @param {string} runId
 * @param {string} reason
 */
export function requestStop(runId, reason) {
  return chrome.storage.local.set({ [STOP_KEY(runId)]: { reason, at: Date.now() } });
}

/**
 * `{reason, at}` once Stop was asked for, else undefined.
 * @param {string} runId
 * @returns {Promise<StopRequest | undefined>}
 */
export async function stopRequest(runId) {
  return /** @type {StopRequest | undefined} */ ((await chrome.storage.local.get(STOP_KEY(runId)))[STOP_KEY(runId)]);
}

/**
 * Pause on: the driver holds before the next step begins (see run-driver.js).
 * @param {string} runId
 */
export function requestPause(runId) {
  return chrome.storage.local.set({ [PAUSE_KEY(runId)]: { at: Date.now(), held: null } });
}

/**
 * Marks the pause as taking effect: the driver has stopped driving the run.
 * @param {string} runId
 */
export async function markPauseHeld(runId) {
  const pause = await pauseRequest(runId);
  if (pause && !pause.held) await chrome.storage.local.set({ [PAUSE_KEY(runId)]: { ...pause, held: Date.now() } });
}

/** @param {string} runId */
export function clearPause(runId) {
  return chrome.storage.local.remove(PAUSE_KEY(runId));
}

/**
 * `{at, held}` while the run is paused (held: null until the driver stopped), else undefined.
 * @param {string} runId
 * @returns {Promise<PauseRequest | undefined>}
 */
export async function pauseRequest(runId) {
  return /** @type {PauseRequest | undefined} */ ((await chrome.storage.local.get(PAUSE_KEY(runId)))[PAUSE_KEY(runId)]);
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
  const key = CALL_KEY(runId);
  const now = Date.now();
  const before = /** @type {CallInFlight | undefined} */ ((await chrome.storage.local.get(key))[key]);
  const since = before && before.step === step ? before.since : now;
  await chrome.storage.local.set({ [key]: { step, try: tries.try, of: tries.of, since, trySince: now } });
}

/** @param {string} runId */
export function clearCallInFlight(runId) {
  return chrome.storage.local.remove(CALL_KEY(runId));
}

/**
 * @param {string} runId
 * @returns {Promise<CallInFlight | null>}
 */
export async function callInFlight(runId) {
  return /** @type {CallInFlight | undefined} */ ((await chrome.storage.local.get(CALL_KEY(runId)))[CALL_KEY(runId)]) ?? null;
}
