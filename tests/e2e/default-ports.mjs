// The sandbox's default ports (8600-8610) for a test that must run something as it is
// deployed, with those ports: the shards Job's pods start the demo's sandbox there. On a
// cluster each pod has the ports to itself; on one machine two test runs at once would
// share them, and the demo of one would use the other's sandbox and lose it when that
// run stops it. A lock file in the temporary folder makes such tests of every test run
// on the machine take turns.

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const DEFAULT_PORTS_LOCK = join(tmpdir(), 'hopbench-e2e-default-ports.lock');
const POLL_MS = 1_000;

/**
 * The node process that wrote a lock, if it still runs (a pid reused since by another
 * program does not count).
 * @param {number} pid
 */
function nodeRunning(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return false;
  }
}

/**
 * Waits until no other test process holds the default ports, then holds them.
 * @param {number} waitMs how long to wait for another holder
 * @param {(line: string) => void} say told once when there is a wait
 * @param {string} [lock] the lock file (tests of this function use their own)
 * @returns {Promise<() => void>} gives them back
 */
export async function holdDefaultPorts(waitMs, say, lock = DEFAULT_PORTS_LOCK) {
  const deadline = Date.now() + waitMs;
  let told = false;
  let unreadable = 0;
  for (;;) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
      return () => {
        // Only our own: a lock taken over after we were thought gone is someone else's.
        if (holder(lock) === process.pid) rmSync(lock, { force: true });
      };
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
    }
    const pid = holder(lock);
    // A lock without a pid is being written, unless it stays so (its writer was killed
    // between creating and writing it).
    unreadable = pid === null ? unreadable + 1 : 0;
    if ((pid === null && unreadable > 5) || (pid !== null && !nodeRunning(pid))) {
      // Left by a test process that was killed: nobody uses the ports through it.
      rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`the sandbox's default ports are still held by test process ${pid ?? '(unknown)'} after ${waitMs / 1000} s (${lock})`);
    }
    if (!told && pid !== null) {
      say(`waiting for test process ${pid}, which runs the sandbox on its default ports`);
      told = true;
    }
    await new Promise((resolve) => setTimeout(resolve, pid === null ? POLL_MS / 10 : POLL_MS));
  }
}

/**
 * The pid in the lock file, or null when there is none or it is unreadable.
 * @param {string} lock
 */
function holder(lock) {
  try {
    const pid = Number(readFileSync(lock, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
