// One attempt at one task, start to finish: START_RUN in a fresh session, GET_RUN polled
// for progress until the run ends (or the per-task timeout stops it), EXPORT_RUN for
// the trajectory. Never throws for a task's own failure: everything becomes the result
// line's error, with its kind (attempts.mjs): a lane that dies mid-task makes an
// infrastructure error whose steps are salvaged from the browser's profile.
//
// The per-task timeout is a wall around the whole attempt: every message to the
// extension is bounded (wall.mjs), START_RUN and the polls by the deadline, STOP_RUN,
// the settling after it and EXPORT_RUN by the deadline plus WALL_GRACE_MS. An
// extension that never answers ends the attempt there, as an infrastructure error
// naming the message, and the lane gets a fresh browser (`hung`).

import { readFileSync } from 'node:fs';
import { INFRASTRUCTURE, RUN, isHarnessEnd, modelEndpointFailure, neverActed } from './attempts.mjs';
import { LaneDied, firstLine } from './lane.mjs';
import { resultLine } from './result-line.mjs';
import { NoAnswer, answerBy, seconds } from './wall.mjs';

const POLL_MS = 500;
/** After STOP_RUN on a timeout, how long the run gets to settle. */
const STOP_GRACE_MS = 5_000;
/**
 * How far past its deadline an attempt may go, in all: STOP_RUN, the settling after it
 * and EXPORT_RUN share it. An attempt never takes longer than --task-timeout plus this.
 */
export const WALL_GRACE_MS = 15_000;
/**
 * A GET_RUN sent just before the deadline still gets this long to answer, and never
 * more than a third of the grace past the deadline (the rest is Stop's and the export's).
 */
const POLL_ANSWER_MS = 5_000;

/** @typedef {import('./lane.mjs').Lane} Lane */
/** @typedef {import('./extension.mjs').Driver} Driver */
/** @typedef {import('./extension.mjs').ExtensionData} ExtensionData */
/** @typedef {import('./tasks.mjs').TaskEntry} TaskEntry */

/**
 * An attempt's outcome, as runTask returns it. `hung`: a message the extension never
 * answered (`START_RUN gave no answer in 900 s`), so the lane needs a fresh browser
 * whatever the line says.
 * @typedef {{ line: import('./result-line.mjs').ResultLine, trajectory: ExtensionData | null,
 *   exportError: string | null, laneDied: boolean, hung: string | null, startedAt: number }} TaskOutcome
 */

/**
 * What `outcome` builds an attempt's result from.
 * @typedef {{ line: { run?: ExtensionData | null, error?: string | null, errorKind?: 'infrastructure' | 'run' | null,
 *     end?: import('./result-line.mjs').RunnerEnd | null },
 *   trajectory?: ExtensionData | null, exportError?: string | null, laneDied?: boolean,
 *   elapsedMs?: number }} OutcomeFields
 */

/**
 * What runTask needs of a lane: its driver, and the death watch around each call.
 * @typedef {Pick<Lane, 'driver' | 'guard' | 'deathExplaining' | 'salvage'>} AttemptLane
 */

/**
 * @param {AttemptLane} lane a live lane
 * @param {TaskEntry} task
 * @param {{ overrides: ExtensionData, timeoutMs: number, graceMs?: number, attempt: number,
 *   onProgress: (p: {hop: number, hops: number, step: number}) => void,
 *   onWaiting?: (call: { step: number, try: number, of: number, seconds: number }) => void }} options
 *   `graceMs`: how far past `timeoutMs` the cleanup may go (WALL_GRACE_MS)
 * @returns {Promise<TaskOutcome>} `laneDied`: the lane's browser or extension
 *   died during the attempt (the line says so); the lane needs a fresh browser.
 */
export async function runTask(lane, task, { overrides, timeoutMs, graceMs = WALL_GRACE_MS, attempt, onProgress, onWaiting = () => {} }) {
  const startedAt = Date.now();
  const elapsed = () => Date.now() - startedAt;
  const deadline = startedAt + timeoutMs;
  const wall = deadline + graceMs;
  /** @type {string | null} */
  let hung = null;
  /**
   * One message to the extension: its reply, LaneDied as soon as the lane dies, or
   * NoAnswer once `until` passes (remembered in `hung`).
   * @template T
   * @param {Promise<T>} call
   * @param {string} what
   * @param {number} until
   * @returns {Promise<T>}
   */
  const ask = (call, what, until) =>
    lane.guard(answerBy(call, until, what)).catch((error) => {
      if (error instanceof NoAnswer) hung ??= error.message;
      throw error;
    });
  const timedOut = `timed out after ${seconds(timeoutMs)} s (per-task timeout, --task-timeout)`;
  /**
   * @param {OutcomeFields} fields
   * @returns {TaskOutcome}
   */
  const outcome = (fields) => ({
    line: resultLine({ task, attempt, elapsedMs: fields.elapsedMs ?? elapsed(), ...fields.line }),
    trajectory: fields.trajectory ?? null,
    exportError: fields.exportError ?? null,
    laneDied: fields.laneDied ?? false,
    hung,
    startedAt,
  });
  // Replay without a reference trajectory can never start: say that, without opening
  // a window for it.
  if (overrides.provider === 'replay' && task.referenceSteps === 0) {
    const error = `task ${task.id} has no reference_trajectory; replay needs one (use a model provider for this task)`;
    return outcome({ line: { error, errorKind: RUN, end: 'not_started' } });
  }
  // Whether the start URLs load is the browser's to say, not node's: Chromium maps
  // every *.localhost name to loopback, and proxies, PAC files and VPN DNS decide what
  // a person's browser reaches. A start page the browser cannot load ends the run as
  // `error` with "start URL unreachable: <url> (net::ERR_...)" (extension/worker/page/errors.js),
  // a `run` error: the page, not the harness.

  // runTask is only given a live lane: one whose launch set its driver.
  const driver = /** @type {Driver} */ (lane.driver);
  /** @type {string} */
  let runId;
  try {
    const taskText = readFileSync(task.file, 'utf8');
    ({ runId } = await ask(driver.startRun(taskText, task.fileName, overrides), 'START_RUN', deadline));
  } catch (error) {
    // Whether the run started is unknown: no run id to stop or export. The lane's
    // fresh browser ends whatever the extension goes on with.
    if (error instanceof NoAnswer) {
      return outcome({ line: { error: `${error.message} (per-task timeout, --task-timeout)`, errorKind: INFRASTRUCTURE, end: 'timeout' } });
    }
    const death = await lane.deathExplaining();
    if (death) return outcome(await died(lane, null, null, death, elapsed()));
    return outcome({ line: { error: `the run did not start: ${firstLine(error)}`, errorKind: RUN, end: 'not_started' } });
  }

  /** @type {ExtensionData | null} */
  let run = null;
  /** @type {ExtensionData | null} */
  let lastSeen = null;
  /** @type {string | null} */
  let error = null;
  /** @type {'infrastructure' | 'run' | null} */
  let errorKind = null;
  /** @type {import('./result-line.mjs').RunnerEnd | null} */
  let end = null;
  try {
    let hopsReported = 0;
    const waiting = waitingReports(onWaiting);
    /** @type {NoAnswer | null} */
    let unanswered = null;
    try {
      const pollBy = () => Math.max(deadline, Math.min(Date.now() + POLL_ANSWER_MS, deadline + graceMs / 3));
      run = await pollUntilEnded(ask, driver, runId, deadline, pollBy, waiting, (view) => {
        lastSeen = view;
        // Steps can be faster than the poll: a hop completed between two polls still
        // gets its line, at the step that completed it.
        for (const missed of skippedHops(view, hopsReported)) onProgress(missed);
        const now = progressOf(view);
        hopsReported = Math.max(hopsReported, now.hop);
        onProgress(now);
      });
    } catch (e) {
      if (!(e instanceof NoAnswer)) throw e;
      unanswered = e;
    }
    if (unanswered || run?.status === 'running') {
      error = unanswered ? `${timedOut}: ${unanswered.message}` : timedOut;
      errorKind = INFRASTRUCTURE;
      end = 'timeout';
      // The hops it had done count: the last view the runner saw, or Stop's end.
      run = await stopAndSettle(ask, driver, runId, run ?? lastSeen, wall);
    }
  } catch (e) {
    const death = await lane.deathExplaining();
    if (death) return outcome(await died(lane, runId, lastSeen, death, elapsed()));
    error = `lost contact with the run: ${firstLine(e)}`;
    errorKind = INFRASTRUCTURE;
    end = 'lost_contact';
  }
  // Wall time as the runner saw it, START_RUN to the end: the same clock for every task.
  const elapsedMs = elapsed();

  /** @type {ExtensionData | null} */
  let trajectory = null;
  /** @type {string | null} */
  let exportError = null;
  try {
    trajectory = await ask(driver.exportRun(runId), 'EXPORT_RUN', wall);
  } catch (e) {
    const death = e instanceof NoAnswer ? null : await lane.deathExplaining();
    // Dead before the export: the run had ended, its steps are in the profile.
    if (death) return outcome(await died(lane, runId, run ?? lastSeen, death, elapsedMs));
    exportError = firstLine(e);
  }
  if (!error) {
    const endpoint = modelEndpointFailure(run, trajectory);
    // A FAIL is the agent's only when it acted (attempts.mjs neverActed); replay's
    // actions are the reference's, so its runs are judged as they end.
    const unacted = overrides.provider === 'replay' ? null : neverActed(run, trajectory);
    if (endpoint) [error, errorKind] = [endpoint, INFRASTRUCTURE];
    else if (unacted) [error, errorKind] = [unacted.error, unacted.kind];
    else if (isHarnessEnd(run)) errorKind = INFRASTRUCTURE;
  }
  return {
    line: resultLine({ task, run, error, errorKind, end, attempt, elapsedMs }),
    trajectory,
    exportError,
    laneDied: false,
    hung,
    startedAt,
  };
}

/**
 * The attempt of a lane that died: what the profile still holds (the run's summary
 * and steps, `Lane.salvage`), else what the runner last saw of it. `elapsedMs` is the
 * attempt's time up to the death (the salvage is the runner's time, not the task's).
 * @param {AttemptLane} lane
 * @param {string | null} runId
 * @param {ExtensionData | null} lastSeen
 * @param {string} death
 * @param {number} elapsedMs
 * @returns {Promise<OutcomeFields>}
 */
async function died(lane, runId, lastSeen, death, elapsedMs) {
  const salvaged = runId ? await lane.salvage(runId) : null;
  const run = salvaged?.run ?? lastSeen;
  let recovered = '';
  if (salvaged?.trajectory) {
    const n = salvaged.trajectory.steps?.length ?? 0;
    recovered = `; ${n} recorded step${n === 1 ? '' : 's'} recovered from its profile`;
  } else if (salvaged?.error) {
    recovered = `; its steps could not be recovered: ${salvaged.error}`;
  }
  const when = runId ? 'during the task' : 'as the task started';
  return {
    line: { run, error: `${death} ${when}${recovered}`, errorKind: INFRASTRUCTURE, end: 'browser_died' },
    trajectory: salvaged?.trajectory ?? null,
    exportError: salvaged?.error ?? null,
    laneDied: true,
    elapsedMs,
  };
}

/** @param {ExtensionData} run */
function progressOf(run) {
  return { hop: run.progress?.done ?? 0, hops: run.progress?.total ?? 0, step: run.step ?? 0 };
}

/**
 * The hops done since `reported` other than the last one done (which the current
 * progress line shows), each at the step that completed it.
 * @param {ExtensionData} run
 * @param {number} reported
 * @returns {{hop: number, hops: number, step: number}[]}
 */
export function skippedHops(run, reported) {
  const done = run.progress?.done ?? 0;
  const hops = run.progress?.total ?? 0;
  /** @type {{ state?: string, step?: number }[]} */
  const list = run.progress?.hops ?? [];
  const missed = [];
  for (let hop = reported + 1; hop < done; hop += 1) {
    const status = list[hop - 1];
    if (status?.state === 'done' && typeof status.step === 'number') missed.push({ hop, hops, step: status.step });
  }
  return missed;
}

/** A model call is reported once it has taken this long, */
const WAITING_FIRST_MS = 10_000;
/** then again this often, and at once when it goes on to another try. */
const WAITING_EVERY_MS = 30_000;

/**
 * What a run's model call in flight (GET_RUN's `call`) becomes on the progress
 * lines: nothing for a quick call; a slow one is told, then told again now and then.
 * @param {(call: { step: number, try: number, of: number, seconds: number }) => void} onWaiting
 * @returns {(view: ExtensionData) => void}
 */
export function waitingReports(onWaiting, now = () => Date.now()) {
  let told = { key: '', at: 0 };
  return (view) => {
    const call = view.call;
    if (!call || typeof call.since !== 'number' || typeof call.step !== 'number') return;
    const waited = now() - call.since;
    if (waited < WAITING_FIRST_MS) return;
    const key = `${call.step}/${call.try}`;
    if (key === told.key && now() - told.at < WAITING_EVERY_MS) return;
    told = { key, at: now() };
    onWaiting({ step: call.step, try: call.try, of: call.of, seconds: waited / 1000 });
  };
}

/**
 * How runTask sends a message: bounded by `until`, watched for the lane's death.
 * @typedef {<T>(call: Promise<T>, what: string, until: number) => Promise<T>} Ask
 */

/**
 * GET_RUN every POLL_MS until the run ends or the deadline passes (the last view then).
 * @param {Ask} ask
 * @param {Driver} driver
 * @param {string} runId
 * @param {number} deadline
 * @param {() => number} pollBy when a GET_RUN sent now must have answered
 * @param {(view: ExtensionData) => void} onEveryView
 * @param {(view: ExtensionData) => void} onView
 * @returns {Promise<ExtensionData>}
 */
async function pollUntilEnded(ask, driver, runId, deadline, pollBy, onEveryView, onView) {
  let last = '';
  for (;;) {
    const run = await ask(driver.getRun(runId), 'GET_RUN', pollBy());
    onEveryView(run);
    const key = JSON.stringify(progressOf(run));
    if (key !== last) {
      last = key;
      onView(run);
    }
    if (run.status !== 'running' || Date.now() >= deadline) return run;
    await sleep(POLL_MS);
  }
}

/**
 * STOP_RUN, then GET_RUN until the run has ended, for STOP_GRACE_MS at most and never
 * past `wall`. Returns the last view it got (`run` when none came). Throws only
 * LaneDied: an extension that does not answer leaves the run as last seen.
 * @param {Ask} ask
 * @param {Driver} driver
 * @param {string} runId
 * @param {ExtensionData | null} run
 * @param {number} wall
 */
async function stopAndSettle(ask, driver, runId, run, wall) {
  try {
    await ask(driver.stopRun(runId), 'STOP_RUN', wall);
  } catch (error) {
    if (error instanceof LaneDied) throw error;
    // The run may still end by itself within the grace period; say why Stop failed.
    process.stderr.write(`warning: stopping run ${runId} failed: ${firstLine(error)}\n`);
  }
  const settled = Math.min(Date.now() + STOP_GRACE_MS, wall);
  let latest = run;
  while (Date.now() < settled && (latest?.status ?? 'running') === 'running') {
    /** @type {ExtensionData} */
    let view;
    try {
      view = await ask(driver.getRun(runId), 'GET_RUN', settled);
    } catch (error) {
      if (error instanceof NoAnswer) break;
      throw error;
    }
    latest = view;
    if (view.status !== 'running') break;
    await sleep(POLL_MS);
  }
  return latest;
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
