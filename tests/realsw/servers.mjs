// Starting and stopping the tier's server processes (kiwix-serve, php -S): a free
// port on 127.0.0.1, the child started with its output kept for error messages, a
// wait until it answers HTTP, and a stop that signals that child by its pid and waits
// for it to exit.

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { portOfServer } from '../e2e/sites.mjs';

/**
 * A port on 127.0.0.1 that was free a moment ago (the OS picks it).
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const port = portOfServer(probe);
      probe.close(() => ok(port));
    });
  });
}

/**
 * Spawns `command args` and resolves once `readyUrl` answers any HTTP status.
 * @returns {Promise<{ pid: number, output: () => string, stop: () => Promise<void> }>}
 * @param {string} label
 * @param {string} command
 * @param {string[]} args
 * @param {{ readyUrl: string, env?: Record<string, string>, cwd?: string, timeoutMs?: number }} options
 */
export async function startServer(label, command, args, { readyUrl, env, cwd, timeoutMs = 20_000 }) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  /** @param {Buffer | string} chunk */
  const keep = (chunk) => {
    // The last 20 kB are enough to say why a server failed.
    output = (output + chunk).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((ok) => child.once('exit', (code, signal) => ok({ code, signal })));
  const handle = {
    // Spawned: a child that failed to start would have no pid, and no server answers.
    pid: /** @type {number} */ (child.pid),
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${label} exited before it answered ${readyUrl}: ${command} ${args.join(' ')}\n${output}`);
    }
    if (await answers(readyUrl)) return handle;
    if (Date.now() > deadline) {
      await handle.stop();
      throw new Error(`${label} did not answer ${readyUrl} within ${timeoutMs} ms: ${command} ${args.join(' ')}\n${output}`);
    }
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

/**
 * @param {string} url
 */
async function answers(url) {
  try {
    await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}
