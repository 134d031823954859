// A runner killed with SIGKILL mid-batch (issue 16): nothing it started outlives it,
// neither the sandbox (it watches its parent) nor a browser or any of its processes
// (Chromium ends when the runner's end of its DevTools pipe closes), checked pid by
// pid; and the same command with the same --out then completes the batch with exactly
// one result per task, removing the profile folders the killed runner left.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSandbox } from '../../runner/sandbox.mjs';
import { copyBundledTasks } from './bundled-tasks.mjs';
import { freePortBase, processRunning } from './free-ports.mjs';
import { hopbenchBin } from './native.mjs';
import { repoRoot } from './paths.mjs';
import { readLines, runRunner } from './runner-process.mjs';

const TASKS = [
  'sb-02-red-tshirt-cart', 'sb-04-london-paris-flights', 'sb-07-euro-to-pound', 'sb-18-pizza-crawl-tickets',
  'sb-19-seoul-won-conversion', 'sb-26-tokyo-seoul-cheapest-airline',
];

/**
 * Every process below `root` right now (Linux /proc), by pid.
 * @param {number | undefined} root
 * @returns {number[]}
 */
function descendants(root) {
  const parent = new Map();
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch (error) {
      const { code } = /** @type {NodeJS.ErrnoException} */ (error);
      if (code !== 'ENOENT' && code !== 'ESRCH') throw error; // Gone while listing.
    }
  }
  /** @param {number} pid */
  const below = (pid) => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  return [...parent.keys()].filter(below);
}

describe('a runner killed with SIGKILL', { timeout: 300_000 }, () => {
  /** @type {string} */ let dir;
  let base;
  /** @type {string} */ let tasksDir;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-kill-'));
    tasksDir = join(dir, 'tasks');
    mkdirSync(tasksDir);
  });

  after(() => {
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  test('leaves no process running, and the same command completes the batch', async () => {
    base = await freePortBase();
    copyBundledTasks(TASKS, tasksDir, base);
    const out = join(dir, 'out');
    const args = ['--tasks', tasksDir, '--out', out, '--parallel', '2'];
    // The runners' temporary folders in a folder of this test's own: a runner sweeps
    // every killed runner's profile in its TMPDIR, and another suite on the same
    // machine (a second checkout's tests) would otherwise sweep this one's first.
    const ownTmp = join(dir, 'tmp');
    mkdirSync(ownTmp);
    const env = { TMPDIR: ownTmp };
    const runner = spawn(process.execPath, [join(repoRoot, 'tests', 'e2e', 'runner-with-sandbox.mjs'), String(base), ...args], {
      env: { ...process.env, ...env, HOPBENCH_BIN: hopbenchBin() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    runner.stderr.resume();
    const exited = new Promise((resolve) => runner.once('exit', (code, signal) => resolve({ code, signal })));
    // Mid-batch: one task recorded, and both browsers running a task.
    const browsers = new Set();
    const midBatch = /** @type {Promise<void>} */ (new Promise((resolve, reject) => {
      runner.stdout.setEncoding('utf8').on('data', (text) => {
        stdout += text;
        for (const m of text.matchAll(/^browser \d (?:started|relaunched) \(pid (\d+)\)$/gm)) browsers.add(Number(m[1]));
        const passed = /^task +\d+\/\d+ \S+ {2}PASS/m.test(stdout);
        const busy = [...stdout.matchAll(/^task +\d+\/\d+ (\S+) {2}started .* in browser (\d)$/gm)];
        if (passed && browsers.size === 2 && new Set(busy.map((m) => m[2])).size === 2) resolve();
      });
      exited.then(({ code }) => reject(new Error(`the runner ended (${code}) before mid-batch:\n${stdout}`)));
    }));
    await midBatch;
    // The runner prints the sandbox's pid before any task starts.
    const sandboxPid = Number(/** @type {RegExpExecArray} */ (/^sandbox pid (\d+)$/m.exec(stdout))[1]);
    const before = descendants(runner.pid);
    for (const pid of [sandboxPid, ...browsers]) assert.ok(before.includes(pid), `${pid} is not the runner's`);
    runner.kill('SIGKILL');
    assert.equal((await exited).signal, 'SIGKILL');

    const deadline = Date.now() + 15_000;
    let left = before.filter(processRunning);
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      left = left.filter(processRunning);
    }
    const show = (/** @type {number} */ pid) => `${pid} ${existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, 'utf8').slice(0, 120) : ''}`;
    assert.deepEqual(left.map(show), [], 'processes of the killed runner still running 15 s later');
    // Only whole lines were written, none for the tasks in flight.
    const partial = readLines(join(out, 'results.jsonl'));
    assert.ok(partial.length >= 1 && partial.length < TASKS.length, `${partial.length} lines`);
    const stale = readdirSync(ownTmp).filter((n) => n.startsWith(`hopbench-runner-${runner.pid}-`));
    assert.ok(stale.length >= 1, 'the killed runner left no profile folder to clean up');

    // The same command: a sandbox of the test's own again (the killed one is gone).
    const lines = [];
    const sandbox = await startSandbox(hopbenchBin(), (l) => lines.push(l), ['--port-base', String(base)]);
    try {
      const again = await runRunner(args, env);
      assert.equal(again.status, 0, `${again.stdout}\n${again.stderr}`);
      assert.match(again.stdout, new RegExp(`; ${partial.length} already recorded in .*; running ${TASKS.length - partial.length} with replay`));
      assert.match(again.stdout, /^note: removed \d+ browser profile folders? left by runners that were killed$/m);
    } finally {
      await sandbox.stop();
    }
    const results = readLines(join(out, 'results.jsonl'));
    const ids = results.map((l) => l.id);
    assert.equal(new Set(ids).size, ids.length, `a task recorded twice: ${ids}`);
    assert.equal(ids.length, TASKS.length);
    assert.ok(results.every((l) => l.verdict === 'PASS' && l.attempt === 1), JSON.stringify(results));
    assert.deepEqual(readdirSync(ownTmp).filter((n) => n.startsWith(`hopbench-runner-${runner.pid}-`)), []);
  });
});
