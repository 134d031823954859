// The headless runner as a child process, for the tests that drive it from outside
// the way a person runs `./build.sh run`.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hopbenchBin } from './native.mjs';
import { repoRoot } from './paths.mjs';

/**
 * Runs runner/run.mjs with `args`; resolves with its exit status and output.
 * @param {string[]} args
 * @param {Record<string, string>} [env] added to the environment (e.g. an API key)
 * @returns {Promise<{status: number|null, stdout: string, stderr: string}>}
 */
export function runRunner(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'runner', 'run.mjs'), ...args], {
      env: { ...process.env, HOPBENCH_BIN: hopbenchBin(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The JSON lines of a results.jsonl file. */
export const readLines = (file) =>
  readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
