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
//   runs.active    [runId]: the runs to resume
//   runs.current   the last started run, shown by the side panel
//   alarm hopbench.run-backstop  exists while runs are active
//
// The record is rewritten after every transition; the run's lasting data (summary,
// steps, media) lives in IndexedDB (run-store.js).

import { CURRENT_RUN_KEY, RUN_RECORD_KEY } from '../messages.js';

const ACTIVE_KEY = 'runs.active';
const STOP_KEY = (runId) => `run.${runId}.stop`;
// One lock for the active list: two runs starting together must not lose an entry.
const ACTIVE_LOCK = 'hopbench.runs.active';

export async function readRecord(runId) {
  const key = RUN_RECORD_KEY(runId);
  return (await chrome.storage.local.get(key))[key];
}

export function saveRecord(record) {
  return chrome.storage.local.set({ [RUN_RECORD_KEY(record.runId)]: record });
}

/** Saves the first record of a run and lists it as active and current. */
export function addRun(record) {
  return navigator.locks.request(ACTIVE_LOCK, async () => {
    const active = await activeRunIds();
    await chrome.storage.local.set({
      [RUN_RECORD_KEY(record.runId)]: record,
      [ACTIVE_KEY]: [...active.filter((id) => id !== record.runId), record.runId],
      [CURRENT_RUN_KEY]: record.runId,
    });
  });
}

/**
 * Forgets a run that ended: its record, its stop request and its active entry; the
 * backstop alarm goes with the last active run.
 */
export function removeRun(runId) {
  return navigator.locks.request(ACTIVE_LOCK, async () => {
    const active = (await activeRunIds()).filter((id) => id !== runId);
    await chrome.storage.local.set({ [ACTIVE_KEY]: active });
    await chrome.storage.local.remove([RUN_RECORD_KEY(runId), STOP_KEY(runId)]);
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

export async function activeRunIds() {
  return (await chrome.storage.local.get(ACTIVE_KEY))[ACTIVE_KEY] ?? [];
}

export function requestStop(runId, reason) {
  return chrome.storage.local.set({ [STOP_KEY(runId)]: { reason, at: Date.now() } });
}

/** `{reason, at}` once Stop was asked for, else undefined. */
export async function stopRequest(runId) {
  return (await chrome.storage.local.get(STOP_KEY(runId)))[STOP_KEY(runId)];
}
