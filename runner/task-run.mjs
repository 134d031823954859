// One attempt at one task, start to finish: START_RUN in a fresh session, GET_RUN polled
// for progress until the run ends (or the per-task timeout stops it), EXPORT_RUN for
// the trajectory. Never throws for a task's own failure: everything becomes the result
// line's error, with its kind (attempts.mjs): a lane that dies mid-task makes an
// infrastructure error whose steps are salvaged from the browser's profile.

import { readFileSync } from 'node:fs';
import { INFRASTRUCTURE, RUN, isHarnessEnd, modelEndpointFailure } from './attempts.mjs';
import { firstLine } from './lane.mjs';
import { resultLine } from './result-line.mjs';

const POLL_MS = 500;
/** After STOP_RUN on a timeout, how long the run gets to settle. */
const STOP_GRACE_MS = 5_000;

/** @typedef {import('./lane.mjs').Lane} Lane */
/** @typedef {import('./extension.mjs').Driver} Driver */
/** @typedef {import('./extension.mjs').ExtensionData} ExtensionData */
/** @typedef {import('./tasks.mjs').TaskEntry} TaskEntry */

/**
 * An attempt's outcome, as runTask returns it.
 * @typedef {{ line: import('./result-line.mjs').ResultLine, trajectory: ExtensionData | null,
 *   exportError: string | null, laneDied: boolean, startedAt: number }} TaskOutcome
 */

/**
 * What `outcome` builds an attempt's result from.
 * @typedef {{ line: { run?: ExtensionData | null, error?: string | null, errorKind?: 'infrastructure' | 'run' | null,
 *     end?: import('./result-line.mjs').RunnerEnd | null },
 *   trajectory?: ExtensionData | null, exportError?: string | null, laneDied?: boolean,
 *   elapsedMs?: number }} OutcomeFields
 */

/**
 * @param {Lane} lane a live lane
 * @param {TaskEntry} task
 * @param {{ overrides: ExtensionData, timeoutMs: number, attempt: number,
 *   onProgress: (p: {hop: number, hops: number, step: number}) => void,
 *   onWaiting?: (call: { step: number, try: number, of: number, seconds: number }) => void }} options
 * @returns {Promise<TaskOutcome>} `laneDied`: the lane's browser or extension
 *   died during the attempt (the line says so); the lane needs a fresh browser.
 */
export async function runTask(lane, task, { overrides, timeoutMs, attempt, onProgress, onWaiting = () => {} }) {
  const startedAt = Date.now();
  const elapsed = () => Date.now() - startedAt;
  /**
   * @param {OutcomeFields} fields
   * @returns {TaskOutcome}
   */
  const outcome = (fields) => ({
    line: resultLine({ task, attempt, elapsedMs: fields.elapsedMs ?? elapsed(), ...fields.line }),
    trajectory: fields.trajectory ?? null,
    exportError: fields.exportError ?? null,
    laneDied: fields.laneDied ?? false,
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
    ({ runId } = await lane.guard(driver.startRun(taskText, task.fileName, overrides)));
  } catch (error) {
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
    run = await pollUntilEnded(lane, driver, runId, startedAt + timeoutMs, waiting, (view) => {
      lastSeen = view;
      // Steps can be faster than the poll: a hop completed between two polls still
      // gets its line, at the step that completed it.
      for (const missed of skippedHops(view, hopsReported)) onProgress(missed);
      const now = progressOf(view);
      hopsReported = Math.max(hopsReported, now.hop);
      onProgress(now);
    });
    if (run.status === 'running') {
      error = `timed out after ${Math.round(timeoutMs / 1000)} s (per-task timeout, --task-timeout)`;
      errorKind = INFRASTRUCTURE;
      end = 'timeout';
      run = await stopAndSettle(lane, driver, runId, run);
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
    trajectory = await lane.guard(driver.exportRun(runId));
  } catch (e) {
    const death = await lane.deathExplaining();
    // Dead before the export: the run had ended, its steps are in the profile.
    if (death) return outcome(await died(lane, runId, run ?? lastSeen, death, elapsedMs));
    exportError = firstLine(e);
  }
  if (!error) {
    const endpoint = modelEndpointFailure(run, trajectory);
    if (endpoint) [error, errorKind] = [endpoint, INFRASTRUCTURE];
    else if (isHarnessEnd(run)) errorKind = INFRASTRUCTURE;
  }
  return {
    line: resultLine({ task, run, error, errorKind, end, attempt, elapsedMs }),
    trajectory,
    exportError,
    laneDied: false,
    startedAt,
  };
}

/**
 * The attempt of a lane that died: what the profile still holds (the run's summary
 * and steps, `Lane.salvage`), else what the runner last saw of it. `elapsedMs` is the
 * attempt's time up to the death (the salvage is the runner's time, not the task's).
 * @param {Lane} lane
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
 * @param {Lane} lane
 * @param {Driver} driver
 * @param {string} runId
 * @param {number} deadline
 * @param {(view: ExtensionData) => void} onEveryView
 * @param {(view: ExtensionData) => void} onView
 * @returns {Promise<ExtensionData>}
 */
async function pollUntilEnded(lane, driver, runId, deadline, onEveryView, onView) {
  let last = '';
  for (;;) {
    const run = await lane.guard(driver.getRun(runId));
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
 * @param {Lane} lane
 * @param {Driver} driver
 * @param {string} runId
 * @param {ExtensionData} run
 */
async function stopAndSettle(lane, driver, runId, run) {
  try {
    await lane.guard(driver.stopRun(runId));
  } catch (error) {
    // The run may still end by itself within the grace period; say why Stop failed.
    process.stderr.write(`warning: stopping run ${runId} failed: ${firstLine(error)}\n`);
  }
  const deadline = Date.now() + STOP_GRACE_MS;
  let latest = run;
  while (Date.now() < deadline && latest.status === 'running') {
    latest = await lane.guard(driver.getRun(runId));
    if (latest.status !== 'running') break;
    await sleep(POLL_MS);
  }
  return latest;
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
