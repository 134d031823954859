// The bundled suite is solvable in a real browser: the headless runner (runner/run.mjs,
// as `./build.sh run --provider replay` starts it) replays every task of tasks/ through
// the extension against the sandbox binary (on free ports, below); each must PASS with
// every hop completed. The wrong trajectories of tests/fixtures/wrong-trajectories/
// must FAIL with exactly the hops before the one they get wrong, having played to their
// `stop`: so the hop conditions, not a missing element, refuse the wrong choice.
//
// Brings the release binary up to date first (`cargo build --profile native --bin hopbench`:
// the sandbox and the CLI the runner calls, never a stale one). The sandbox listens on
// free ports, the tasks moved there (bundled-tasks.mjs), so a sandbox of your own on
// 8600-8610, or a second test run, is no obstacle.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { attemptFileStem } from '../../runner/paths.mjs';
import { startSandbox } from '../../runner/sandbox.mjs';
import { movePorts } from './bundled-tasks.mjs';
import { freePortBase } from './free-ports.mjs';
import { repoRoot } from './paths.mjs';

const NATIVE_BIN = join(repoRoot, 'target', 'native', 'hopbench');
// Three runs at a time keep two cores busy without starving the settle timers.
const PARALLEL = process.env.HOPBENCH_REPLAY_PARALLEL ?? '3';
// A replay that hangs is reported as that task's ERROR instead of stalling the suite.
const TASK_TIMEOUT_S = '120';

const readJsonDir = (/** @type {string} */ dir) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ name, json: JSON.parse(readFileSync(join(dir, name), 'utf8')) }));

const suite = readJsonDir(join(repoRoot, 'tasks')).map(({ name, json }) => ({ name, task: json }));
const byId = new Map(suite.map(({ task }) => [task.id, task]));

// Each fixture becomes its task with the wrong trajectory in place, under an id of its
// own: the runner keys results by id, and the right run of the task shares the folder.
const wrong = readJsonDir(join(repoRoot, 'tests', 'fixtures', 'wrong-trajectories')).map(({ name, json }) => {
  const base = byId.get(json.task_id);
  if (!base) throw new Error(`wrong-trajectories/${name}: no bundled task ${json.task_id}`);
  const id = `wrong/${name.replace(/\.json$/, '')}`;
  return { name, fixture: json, id, task: { ...base, id, reference_trajectory: json.reference_trajectory } };
});

/**
 * @param {string[]} args
 * @returns {Promise<{ status: number | null, output: string }>}
 */
function runRunner(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'runner', 'run.mjs'), ...args], {
      env: { ...process.env, HOPBENCH_BIN: NATIVE_BIN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (status) => resolve({ status, output }));
  });
}

describe('the bundled suite replayed through the runner and the extension', { timeout: 15 * 60_000 }, () => {
  /** @type {string} */ let dir;
  /** @type {number} */ let base;
  /** @type {Awaited<ReturnType<typeof startSandbox>>} */ let sandbox;
  /** @type {Awaited<ReturnType<typeof runRunner>>} */ let runner;
  const results = new Map();

  before(async () => {
    const build = spawnSync('cargo', ['build', '--quiet', '--profile', 'native', '-p', 'hopbench-cli', '--bin', 'hopbench'], { cwd: repoRoot, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`cargo build --profile native --bin hopbench failed:\n${build.stderr}`);
    /** @type {string[]} */ const sandboxLines = [];
    base = await freePortBase();
    sandbox = await startSandbox(NATIVE_BIN, (line) => sandboxLines.push(line), ['--port-base', String(base)]).catch((error) => {
      throw new Error(`${error.message}\n${sandboxLines.join('\n')}`);
    });
    dir = mkdtempSync(join(tmpdir(), 'hopbench-suite-replay-'));
    mkdirSync(join(dir, 'tasks', 'suite'), { recursive: true });
    mkdirSync(join(dir, 'tasks', 'wrong'));
    for (const { name, task } of suite) writeFileSync(join(dir, 'tasks', 'suite', name), movePorts(JSON.stringify(task), base));
    for (const { name, task } of wrong) writeFileSync(join(dir, 'tasks', 'wrong', name), movePorts(JSON.stringify(task), base));
    runner = await runRunner([
      '--tasks', join(dir, 'tasks'),
      '--provider', 'replay',
      // Replay reads only the text; downloading each page's pictures would add nothing.
      '--observation', 'text',
      '--parallel', PARALLEL,
      '--task-timeout', TASK_TIMEOUT_S,
      '--out', join(dir, 'out'),
    ]);
    const lines = join(dir, 'out', 'results.jsonl');
    if (existsSync(lines)) {
      for (const line of readFileSync(lines, 'utf8').split('\n').filter(Boolean)) {
        const result = JSON.parse(line);
        results.set(result.id, result);
      }
    }
  });

  after(async () => {
    await sandbox?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The result line of `id`, or a failure carrying the runner's output.
   * @param {string} id
   */
  function resultOf(id) {
    const result = results.get(id);
    assert.ok(result, `${id} has no result line; the runner exited ${runner?.status}:\n${runner?.output}`);
    return result;
  }

  const describeResult = (/** @type {import('../types.mjs').Json} */ r) =>
    `${r.verdict}, hops ${r.hops_completed}/${r.hops_total} at steps ${JSON.stringify(r.hop_steps)}, ` +
    `${r.steps} steps; reason: ${r.reason}; error: ${r.error}; answer: ${JSON.stringify(r.answer)}`;

  for (const { task } of suite) {
    test(`${task.id} (${task.hops.length} hops) passes with every hop completed`, () => {
      const r = resultOf(task.id);
      const ok = r.verdict === 'PASS' && r.hops_completed === task.hops.length && r.hops_total === task.hops.length;
      assert.ok(ok, `${task.id} did not pass its reference trajectory: ${describeResult(r)}`);
    });
  }

  for (const { id, fixture, task } of wrong) {
    test(`${id}: ${fixture.task_id} fails at hop ${fixture.fails_at_hop} of ${task.hops.length}`, () => {
      const r = resultOf(id);
      // The trajectory of the attempt that counts (a retried attempt has its own file).
      const stem = attemptFileStem(id, r.attempt);
      const exported = JSON.parse(readFileSync(join(dir, 'out', 'trajectories', `${stem}.json`), 'utf8'));
      const ok = r.verdict === 'FAIL' && r.hops_completed === fixture.fails_at_hop - 1 && exported.run.cause === 'answered';
      assert.ok(
        ok,
        `${id} (${fixture.why}) should end FAIL after playing to its stop with ${fixture.fails_at_hop - 1} hops done: ` +
          `${describeResult(r)}; the run ended by ${exported.run.cause} (${exported.run.reason})`,
      );
    });
  }
});
