// Starts `hopbench sandbox` (the offline websites the bundled tasks use) as a child
// process, waits for its `ready` line, and stops it: the demo's only dependency
// besides the extension.
//
// Readiness is the child's own `ready ...` line (docs/sandbox.md), not the ports
// answering: another program on those ports would answer too, while ours failed to
// start ("port already in use"), and the demo would run against a web it did not
// start. The one exception is the same sandbox already serving them (same version,
// same data: the child checks their identity and exits with status 3): that one is
// used as it is and left running, since it is someone's (`./build.sh sandbox` in
// another terminal, another demo) and serves exactly the pages ours would.
//
// The child gets `--parent-pid <this process>` and stops by itself once this process
// is gone, however it ended (SIGKILL, a closed terminal, the OOM killer), so it never
// keeps the ports from the next run.

import { spawn } from 'node:child_process';
import { processExists } from './process-exists.mjs';

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;
/** `hopbench sandbox`'s status when the same sandbox already serves the ports. */
const EXIT_ALREADY_RUNNING = 3;
/** Restarts of a sandbox that stopped on its own before the keeper gives up on it. */
const MAX_RESTARTS = 3;

/**
 * @param {string} bin the native CLI
 * @param {(line: string) => void} log receives the sandbox's output, prefixed
 * @param {string[]} [args] more arguments (tests use `--port-base`)
 * @returns {Promise<{ pid: number, reused: boolean, stop: () => Promise<void>,
 *   exited: Promise<{code?: number|null, signal?: string|null, error?: Error}> }>}
 *   `reused`: the same sandbox was already serving; `pid` is then its pid, `stop` does
 *   nothing and `exited` never settles (it is not ours to watch)
 */
export function startSandbox(bin, log, args = []) {
  const child = spawn(bin, ['sandbox', ...args, '--parent-pid', String(process.pid)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  /** @type {SandboxExit | null} */
  let exit = null;
  /** @type {Promise<SandboxExit>} */
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve((exit = { code, signal })));
    child.once('error', (error) => resolve((exit = { error })));
  });
  const stop = async () => {
    if (exit) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };

  return new Promise((resolve, reject) => {
    let ready = false;
    let timedOut = false;
    /** @type {number | null} */
    let reusedPid = null;
    const timer = setTimeout(() => {
      timedOut = true;
      stop().finally(() => reject(new Error(`the sandbox did not say ready within ${READY_TIMEOUT_MS / 1000} s`)));
    }, READY_TIMEOUT_MS);
    /** @param {import('node:stream').Readable} stream */
    const watch = (stream) => {
      let partial = '';
      stream.setEncoding('utf8').on('data', (/** @type {string} */ text) => {
        const lines = (partial + text).split('\n');
        // split gives at least one element: the unfinished tail (maybe empty).
        partial = /** @type {string} */ (lines.pop());
        for (const line of lines.filter(Boolean)) {
          log(`sandbox: ${line}`);
          // `ready (Ctrl-C stops all sites)`: the first word is the signal.
          if (!ready && /^ready\b/.test(line.trim())) {
            ready = true;
            clearTimeout(timer);
            // A child that printed has been spawned, so it has a pid.
            resolve({ pid: /** @type {number} */ (child.pid), reused: false, stop, exited });
          }
          const running = /^already running: .*\(.*pid (\d+)\)/.exec(line.trim());
          if (running) reusedPid = Number(running[1]);
        }
      });
    };
    watch(child.stdout);
    watch(child.stderr);
    exited.then(() => {
      if (ready || timedOut) return;
      clearTimeout(timer);
      // `exited` settled, so `exit` is set.
      const how = /** @type {SandboxExit} */ (exit);
      if (how.code === EXIT_ALREADY_RUNNING && reusedPid !== null) {
        resolve({ pid: reusedPid, reused: true, stop: async () => undefined, exited: new Promise(() => undefined) });
        return;
      }
      reject(new Error(`the sandbox stopped before it was ready (${describeExit(how)}); see its lines above`));
    });
  });
}

/**
 * How the sandbox process ended.
 * @typedef {{code?: number|null, signal?: string|null, error?: Error}} SandboxExit
 */

/** @param {SandboxExit} exit */
export function describeExit(exit) {
  if (exit.error) return exit.error.message;
  return exit.signal ? `signal ${exit.signal}` : `exit status ${exit.code}`;
}

/** How often a borrowed sandbox (not our child: no exit event) is looked at. */
const BORROWED_POLL_MS = 250;

/**
 * Keeps the demo's sandbox up: when it stops by itself (killed, crashed) it is started
 * again with `start`, up to MAX_RESTARTS times, and the time it was down is kept, so
 * the runner can record a task that failed meanwhile as the outage's infrastructure
 * error (runner/batch.mjs) and run it again.
 *
 * A reused sandbox is someone else's (another demo, `./build.sh sandbox`): it is never
 * stopped from here, but its owner may stop it mid-run, when their own run ends. It is
 * watched by its pid, and once it is gone one of our own is started in its place, as
 * for a crash. `outage` also looks at that pid itself, so a task that failed because
 * it went is blamed on it even before the next look.
 * @param {Awaited<ReturnType<typeof startSandbox>>} first
 * @param {() => ReturnType<typeof startSandbox>} start
 * @param {(line: string) => void} say
 */
export function keepSandbox(first, start, say) {
  /** @type {{ to: number | null, what: string }[]} */
  const outages = [];
  let current = first;
  let restarts = 0;
  let stopping = false;
  /**
   * The borrowed sandbox being watched, and its timer; null when none is.
   * @type {{ pid: number, timer: ReturnType<typeof setInterval> } | null}
   */
  let borrowed = null;

  const unwatchBorrowed = () => {
    if (borrowed) clearInterval(borrowed.timer);
    borrowed = null;
  };
  /**
   * The sandbox in use is gone: note the outage and start another.
   * @param {string} what the outage, as a task that overlapped it is told
   * @param {string} why for the progress lines
   */
  const lost = (what, why) => {
    unwatchBorrowed();
    /** @type {{ to: number | null, what: string }} */
    const outage = { to: null, what };
    outages.push(outage);
    if (restarts >= MAX_RESTARTS) {
      say(`sandbox: ${why} after ${restarts} restarts; not starting it again`);
      return;
    }
    restarts += 1;
    say(`sandbox: ${why}; starting it again`);
    start().then(
      (next) => {
        current = next;
        outage.to = Date.now();
        if (stopping) void next.stop();
        else follow(next);
      },
      (error) => say(`sandbox: could not be started again: ${/** @type {Error} */ (error).message}`),
    );
  };
  /** @param {number} pid */
  const borrowedGone = (pid) =>
    lost(`the sandbox this run used (pid ${pid}, someone else's) stopped during the task`, `the sandbox in use (pid ${pid}, someone else's) stopped`);
  /** @param {Awaited<ReturnType<typeof startSandbox>>} sandbox */
  const follow = (sandbox) => {
    if (sandbox.reused) {
      const pid = sandbox.pid;
      const timer = setInterval(() => {
        if (!stopping && !processExists(pid)) borrowedGone(pid);
      }, BORROWED_POLL_MS);
      // The watch alone never keeps the process alive.
      timer.unref();
      borrowed = { pid, timer };
      return;
    }
    void sandbox.exited.then((exit) => {
      if (!stopping) lost(`the sandbox stopped during the task (${describeExit(exit)})`, `stopped unexpectedly (${describeExit(exit)})`);
    });
  };
  follow(first);
  return {
    /** Whether the sandbox serving now is ours (and stops with `stop`). */
    get owned() {
      return !current.reused;
    },
    /** The pid serving now. */
    get pid() {
      return current.pid;
    },
    /**
     * An outage that lasted into the time since `sinceMs`, as a sentence, or null.
     * @param {number} sinceMs
     */
    outage: (sinceMs) => {
      if (borrowed && !stopping && !processExists(borrowed.pid)) borrowedGone(borrowed.pid);
      return outages.find((o) => (o.to ?? Infinity) >= sinceMs)?.what ?? null;
    },
    stop: async () => {
      stopping = true;
      unwatchBorrowed();
      await current.stop();
    },
  };
}
