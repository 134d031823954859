// Consecutive free ports on 127.0.0.1 for a test's own sandbox (hopbench sandbox
// --port-base), so it never meets the fixed ports 8600-8610 another run may hold; and
// whether a process the test watches still runs.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The sandbox's sites: site N listens on the port base + N. */
export const SANDBOX_SITES = 11;

/**
 * @param {number} port
 * @returns {Promise<boolean>}
 */
const portFree = (port) =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/**
 * The first of `count` consecutive free ports (default: a sandbox's). They are taken
 * below Linux's ephemeral range (32768-60999: where outgoing connections and listen(0)
 * servers of the other tests land) and checked free first, so a start cannot collide
 * by chance.
 */
export async function freePortBase(count = SANDBOX_SITES) {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const candidate = 20_000 + count * Math.floor(Math.random() * 1000);
    const checks = await Promise.all(Array.from({ length: count }, (_, i) => portFree(candidate + i)));
    if (checks.every(Boolean)) return candidate;
  }
  throw new Error(`no ${count} consecutive free ports found in 20000-31000 on 127.0.0.1`);
}

/**
 * Alive and not a zombie (Linux /proc): a process that exited stays in /proc in state
 * Z until its parent or init reaps it, and must count as gone.
 * @param {number} pid
 */
export function processRunning(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch (error) {
    const { code } = /** @type {NodeJS.ErrnoException} */ (error);
    if (code === 'ENOENT' || code === 'ESRCH') return false;
    throw error;
  }
}
