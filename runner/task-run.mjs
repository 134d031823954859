// One task, start to finish: START_RUN in a fresh session, GET_RUN polled for progress
// until the run ends (or the per-task timeout stops it), EXPORT_RUN for the trajectory.
// Never throws for a task's own failure: everything becomes the result line's error.

import { readFileSync } from 'node:fs';
import { resultLine } from './result-line.mjs';

const POLL_MS = 500;
/** After STOP_RUN on a timeout, how long the run gets to settle. */
const STOP_GRACE_MS = 5_000;

/**
 * @param {object} driver from openDriver
 * @param {{ file: string, fileName: string, id: string, hops: number, startUrls: string[] }} task
 * @param {{ overrides: object, timeoutMs: number,
 *   onProgress: (p: {hop: number, hops: number, step: number}) => void }} options
 * @returns {Promise<{ line: object, trajectory: object | null, exportError: string | null }>}
 */
export async function runTask(driver, task, { overrides, timeoutMs, onProgress }) {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  // Replay without a reference trajectory can never start: say that, without opening
  // a window for it.
  if (overrides.provider === 'replay' && task.referenceSteps === 0) {
    const error = `task ${task.id} has no reference_trajectory; replay needs one (use a model provider for this task)`;
    return { line: resultLine({ task, error, elapsedMs: elapsed() }), trajectory: null, exportError: null };
  }
  // Whether the start URLs load is the browser's to say, not node's: Chromium maps
  // every *.localhost name to loopback, and proxies, PAC files and VPN DNS decide what
  // a person's browser reaches. A start page the browser cannot load ends the run as
  // `error` with "start URL unreachable: <url> (net::ERR_...)" (extension/worker/page-errors.js).
  let runId;
  try {
    const taskText = readFileSync(task.file, 'utf8');
    ({ runId } = await driver.startRun(taskText, task.fileName, overrides));
  } catch (error) {
    return { line: resultLine({ task, error: `the run did not start: ${message(error)}`, elapsedMs: elapsed() }), trajectory: null, exportError: null };
  }

  let run = null;
  let error = null;
  try {
    run = await pollUntilEnded(driver, runId, started + timeoutMs, onProgress);
    if (run.status === 'running') {
      error = `timed out after ${Math.round(timeoutMs / 1000)} s (per-task timeout, --task-timeout)`;
      run = await stopAndSettle(driver, runId, run);
    }
  } catch (e) {
    error = `lost contact with the run: ${message(e)}`;
  }
  // Wall time as the runner saw it, START_RUN to the end: the same clock for every task.
  const elapsedMs = elapsed();

  let trajectory = null;
  let exportError = null;
  try {
    trajectory = await driver.exportRun(runId);
  } catch (e) {
    exportError = message(e);
  }
  return { line: resultLine({ task, run, error, elapsedMs }), trajectory, exportError };
}

async function pollUntilEnded(driver, runId, deadline, onProgress) {
  let last = '';
  for (;;) {
    const run = await driver.getRun(runId);
    const progress = { hop: run.progress?.done ?? 0, hops: run.progress?.total ?? 0, step: run.step ?? 0 };
    const key = `${progress.hop}/${progress.hops}/${progress.step}`;
    if (key !== last) {
      last = key;
      onProgress(progress);
    }
    if (run.status !== 'running' || Date.now() >= deadline) return run;
    await sleep(POLL_MS);
  }
}

async function stopAndSettle(driver, runId, run) {
  await driver.stopRun(runId).catch(() => undefined);
  const deadline = Date.now() + STOP_GRACE_MS;
  let latest = run;
  while (Date.now() < deadline) {
    latest = await driver.getRun(runId).catch(() => latest);
    if (latest.status !== 'running') break;
    await sleep(POLL_MS);
  }
  return latest;
}

function message(error) {
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
