// The batch: `--parallel` lanes (runner/lane.mjs), each its own browser, take the
// planned runs in order; every attempt is recorded as it ends. An infrastructure
// error is queued again (at the end, so a passing outage has time to pass) up to
// `--retries` times; a lane whose browser died gets a fresh one before its next task,
// and a lane whose browser dies 3 times in a row stops the batch: something is wrong
// with the machine or the browser, not with a task. So do `--max-infra-errors`
// infrastructure errors in a row, on any lanes: the harness is broken (a sandbox gone,
// an extension that stopped answering), and going on would only write the same error
// in place of every remaining result. Rules: docs/runner.md "Crashes, retries and
// resuming".

import { INFRASTRUCTURE } from './attempts.mjs';
import { Lane } from './lane.mjs';
import { siteWatch } from './site-watch.mjs';
import { runTask } from './task-run.mjs';

/** Browser deaths in a row (failed relaunches included) after which a lane stops the batch. */
export const MAX_DEATHS_IN_A_ROW = 3;

/** @typedef {import('./tasks.mjs').TaskEntry} TaskEntry */
/** @typedef {import('./task-run.mjs').TaskOutcome} TaskOutcome */
/** @typedef {import('./extension.mjs').ExtensionData} ExtensionData */
/** @typedef {ReturnType<import('./progress.mjs').makeProgress>} Progress */

/**
 * @param {{task: TaskEntry, attempt: number}[]} runs in order
 * @param {{ lanes: number, retries: number, maxInfraErrors: number,
 *   overrides: ExtensionData | ((task: TaskEntry) => ExtensionData), timeoutMs: number,
 *   setup?: import('./lane.mjs').Setup | undefined,
 *   endpoints?: string[] | null, otherExtensions?: string[], browserArgs?: string[],
 *   record: (task: TaskEntry, done: TaskOutcome) => void,
 *   progress: ReturnType<import('./progress.mjs').makeProgress>,
 *   interrupt: ReturnType<import('./interrupt.mjs').watchInterrupt>,
 *   outage?: ((sinceMs: number) => string | null) | undefined,
 *   sites?: ReturnType<typeof siteWatch> }} options `outage`: an infrastructure
 *   failure outside the browser since the given time (the demo's sandbox stopping);
 *   `endpoints`: lane i drives the browser already running at endpoints[i];
 *   `otherExtensions`: unpacked extensions loaded beside ours in launched browsers;
 *   `browserArgs`: more flags for them (the name guard's proxy script);
 *   `maxInfraErrors`: infrastructure errors in a row that stop the batch (0: never);
 *   `sites`: the origins that served so far and the check for one gone (site-watch.mjs)
 * @returns {Promise<{ stopped: string | null, resumable: boolean }>} why the batch stopped
 *   early, if it did; `resumable`: the same command goes on where it stopped (once
 *   what broke is fixed), rather than needing other options
 */
export async function runBatch(runs, options) {
  const { progress, interrupt } = options;
  const queue = runs.map((r, i) => ({ ...r, index: i + 1, retriesLeft: options.retries }));
  const lanes = Array.from({ length: Math.min(options.lanes, runs.length) }, (_, i) => new Lane(i + 1, { setup: options.setup, endpoint: options.endpoints?.[i] ?? null, otherExtensions: options.otherExtensions ?? [], browserArgs: options.browserArgs ?? [] }));
  /** @type {string | null} */
  let stopped = null;
  let resumable = false;
  const closeAll = () => Promise.all(lanes.map((lane) => lane.close()));
  interrupt.onInterrupt(closeAll);
  /** @param {string} why @param {boolean} [resume] */
  const stop = (why, resume = true) => {
    if (stopped !== null) return;
    stopped = why;
    resumable = resume;
  };
  const infraErrors = infraErrorStreak(options.maxInfraErrors);
  const sites = options.sites ?? siteWatch();
  const shouldStop = () => interrupt.interrupted || stopped !== null;

  // Lanes start one after another: several Chromiums starting at once only compete
  // for the CPU. A lane whose browser cannot start counts that as a death.
  /** @type {Promise<unknown>} */
  let starting = Promise.resolve();
  /**
   * @param {Lane} lane
   * @returns {Promise<boolean>}
   */
  const ready = async (lane) => {
    if (lane.driver && !lane.dead) return true;
    const turn = starting.then(() => ensureBrowser(lane, progress, stop));
    // The next lane waits for this turn to end, not to succeed; a failure reaches this
    // lane's caller through `turn`.
    starting = turn.catch(() => undefined);
    return turn;
  };

  /** @param {Lane} lane */
  const work = async (lane) => {
    while (queue.length > 0 && !shouldStop()) {
      if (!(await ready(lane)) || shouldStop()) return;
      // Another lane may have taken the last task while this one relaunched.
      const item = queue.shift();
      if (!item) return;
      progress.started(item.index, item.task, { attempt: item.attempt, lane: lanes.length > 1 ? lane.number : null });
      const done = await runTask(lane, item.task, {
        // A function gives each task its overrides when it starts (the runner's memory
        // pool grows as tasks finish).
        overrides: typeof options.overrides === 'function' ? options.overrides(item.task) : options.overrides,
        timeoutMs: options.timeoutMs,
        attempt: item.attempt,
        onProgress: (p) => progress.step(item.index, item.task, p),
        onWaiting: (call) => progress.waiting(item.index, item.task, call),
      });
      // Closing the browsers on Ctrl-C kills the runs in flight: not their failure.
      if (interrupt.interrupted) return;
      // An outage the batch watched (the demo's sandbox) names its cause best; then a
      // site that served earlier and refuses connections now is down, not wrong.
      blameOutage(done, options.outage);
      await sites.check(item.task, done);
      options.record(item.task, done);
      lane.deathsInARow = done.laneDied ? lane.deathsInARow + 1 : 0;
      // The most particular reason first: a browser that keeps dying says what to look
      // for; the streak of infrastructure errors it also makes says less.
      const dying = done.laneDied && !checkDeaths(lane, stop);
      const streak = infraErrors(done.line);
      if (streak) stop(streak);
      // A batch that stops leaves the retry to the resumed run.
      const retry = done.line.error_kind === INFRASTRUCTURE && item.retriesLeft > 0 && !shouldStop();
      progress.finished(item.index, item.task, done.line, retry ? `retrying (attempt ${item.attempt + 1} goes to the end of the queue)` : null);
      if (retry) queue.push({ ...item, attempt: item.attempt + 1, retriesLeft: item.retriesLeft - 1 });
      // A model that cannot take what the observation mode sends fails every task the
      // same way: the batch stops at once; the tasks not run stay unrecorded, so the
      // same command with the setting changed runs them.
      if (done.line.end === 'unsupported_input') {
        stop(`the model cannot take the observation mode's input: ${done.line.error ?? done.line.reason}`, false);
      }
      if (dying) return;
      // Every infrastructure error gets a fresh browser: the old one may be what broke.
      // So does an extension that left a message unanswered, whatever the line says
      // (an export that hung after a PASS): its next START_RUN would hang the same way.
      if (done.line.error_kind === INFRASTRUCTURE || done.laneDied || done.hung) await lane.close();
    }
  };

  try {
    // Every lane's browser first, so the first N tasks start together.
    for (const lane of lanes) {
      if (shouldStop()) break;
      await ready(lane);
    }
    await Promise.all(lanes.map(work));
  } finally {
    await closeAll();
  }
  return { stopped, resumable };
}

/**
 * Counts infrastructure errors in a row over the attempts in the order they were
 * recorded (any lane); any other line (PASS, FAIL, a `run` ERROR) ends the streak.
 * Returns, for each recorded line, why the batch must stop, or null.
 * @param {number} max 0: never stop
 */
export function infraErrorStreak(max) {
  let inARow = 0;
  return (/** @type {{ error_kind: string | null, error: string | null }} */ line) => {
    inARow = line.error_kind === INFRASTRUCTURE ? inARow + 1 : 0;
    if (max === 0 || inARow < max) return null;
    return (
      `${inARow} infrastructure errors in a row (--max-infra-errors ${max}), the last: ${line.error}; ` +
      'the batch stopped instead of recording the same error for every remaining task: fix what broke ' +
      '(the sandbox or task sites, the model endpoint, the browser), or give --max-infra-errors 0 to never stop'
    );
  };
}

/**
 * A live browser for the lane: true when it has one (launching a fresh one if needed).
 * @param {Lane} lane
 * @param {Progress} progress
 * @param {(why: string) => void} stop
 */
async function ensureBrowser(lane, progress, stop) {
  while (!lane.driver || lane.dead) {
    if (lane.dead) {
      // Died between tasks: no task to blame, but it is a death all the same.
      progress.note(`browser ${lane.number}: ${lane.dead} between tasks`);
      lane.deathsInARow += 1;
      await lane.close();
      if (!checkDeaths(lane, stop)) return false;
    }
    const relaunch = lane.launches > 0;
    try {
      await lane.launch();
      progress.note(
        lane.endpoint
          ? `browser ${lane.number} ${relaunch ? 'reconnected' : 'connected'} (${lane.endpoint})`
          : `browser ${lane.number} ${relaunch ? 'relaunched' : 'started'} (pid ${lane.pid ?? 'unknown'})`,
      );
    } catch (error) {
      // A first start that fails is the setup's problem (no dist/, no Chromium, a
      // broken extension): the run stops with that error, as it always did.
      if (!relaunch) throw error;
      progress.note(`browser ${lane.number} could not start again: ${/** @type {Error} */ (error).message}`);
      lane.deathsInARow += 1;
      if (!checkDeaths(lane, stop)) return false;
    }
  }
  return true;
}

/**
 * False (and the batch stopped) once the lane's browser died too often in a row.
 * @param {Lane} lane
 * @param {(why: string) => void} stop
 */
function checkDeaths(lane, stop) {
  if (lane.deathsInARow < MAX_DEATHS_IN_A_ROW) return true;
  stop(
    `browser ${lane.number} died ${lane.deathsInARow} times in a row, so the batch stopped instead of ` +
      'failing every remaining task: look for what kills Chromium (memory: `dmesg | grep -i oom`; ' +
      'the Chromium at HOPBENCH_CHROMIUM), then run the same command again to go on where it stopped',
  );
  return false;
}

/**
 * A task that did not pass while the sandbox (or another watched service) was down is
 * the outage's infrastructure error, whatever the run itself reported.
 * @param {{ line: { verdict: string, error: string | null, error_kind: string | null }, startedAt: number }} done
 * @param {((sinceMs: number) => string | null) | undefined} outage
 */
export function blameOutage(done, outage) {
  const line = done.line;
  if (!outage || line.verdict === 'PASS' || line.error_kind === INFRASTRUCTURE) return;
  const problem = outage(done.startedAt);
  if (!problem) return;
  line.error = line.error ? `${problem} (the run reported: ${line.error})` : problem;
  line.verdict = 'ERROR';
  line.error_kind = INFRASTRUCTURE;
}
