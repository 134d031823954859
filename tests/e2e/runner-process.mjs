// The headless runner as a child process, for the tests that drive it from outside
// the way a person runs `./build.sh run`.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hopbenchBin } from './native.mjs';
import { repoRoot } from './paths.mjs';

/**
 * Starts runner/run.mjs with `args`; `onLine` sees each stdout line as it comes (a test
 * acting in the middle of a run: killing a browser, or the runner).
 * @param {string[]} args
 * @param {{ env?: Record<string, string>, onLine?: (line: string) => void }} [options]
 *   `env` is added to the environment (e.g. an API key)
 * @returns {{ child: import('node:child_process').ChildProcess,
 *   done: Promise<{status: number|null, signal: string|null, stdout: string, stderr: string}> }}
 */
export function startRunner(args, { env = {}, onLine } = {}) {
  const child = spawn(process.execPath, [join(repoRoot, 'runner', 'run.mjs'), ...args], {
    env: { ...process.env, HOPBENCH_BIN: hopbenchBin(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let partial = '';
  child.stdout.setEncoding('utf8').on('data', (d) => {
    stdout += d;
    const lines = (partial + d).split('\n');
    // split gives at least one element: the unfinished tail (maybe empty).
    partial = /** @type {string} */ (lines.pop());
    lines.forEach((line) => onLine?.(line));
  });
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
  return { child, done };
}

/**
 * Runs runner/run.mjs with `args`; resolves with its exit status and output.
 * @param {string[]} args
 * @param {Record<string, string>} [env] added to the environment (e.g. an API key)
 * @returns {Promise<{status: number|null, stdout: string, stderr: string}>}
 */
export function runRunner(args, env = {}) {
  return startRunner(args, { env }).done;
}

/**
 * The JSON lines of a results.jsonl file.
 * @param {string} file
 */
export const readLines = (file) =>
  readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/**
 * Runs runner/run.mjs with `args`, but stops it (SIGTERM, then SIGKILL) once `ms` have
 * passed: a test of a runner that used to hang must fail, not wait for good.
 * `timedOut` says it had to be stopped.
 * @param {string[]} args
 * @param {number} ms
 * @param {Record<string, string>} [env] added to the environment (e.g. an API key)
 * @returns {Promise<{status: number|null, signal: string|null, stdout: string, stderr: string, timedOut: boolean}>}
 */
export async function runRunnerWithin(args, ms, env = {}) {
  const { child, done } = startRunner(args, { env });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  }, ms);
  try {
    return { ...(await done), timedOut };
  } finally {
    clearTimeout(timer);
  }
}
