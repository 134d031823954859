// `--observation-format compact` through a whole run: the runner's option reaches the
// extension (START_RUN `observation_format`), the agent asks for compact observations,
// the trajectory's observations are compact, and the replay agent, which finds its
// elements by role and name in that text, still passes every task.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSandbox } from '../../runner/sandbox.mjs';
import { taskFileStem } from '../../runner/paths.mjs';
import { copyBundledTasks } from './bundled-tasks.mjs';
import { freePortBase } from './free-ports.mjs';
import { hopbenchBin } from './native.mjs';
import { readLines, runRunner } from './runner-process.mjs';

/** One hop, three hops with a form, five hops across sites. */
const TASKS = ['sb-02-red-tshirt-cart', 'sb-18-pizza-crawl-tickets', 'sb-35-london-barcelona-then-hotels'];

describe('a run in the compact observation format', { timeout: 300_000 }, () => {
  /** @type {string} */
  let dir;
  /** @type {{ stop: () => Promise<void> } | undefined} */
  let sandbox;
  /** @type {{ id: string }[]} */
  let tasks;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-compact-'));
    const base = await freePortBase();
    sandbox = await startSandbox(hopbenchBin(), () => undefined, ['--port-base', String(base)]);
    mkdirSync(join(dir, 'tasks'));
    tasks = copyBundledTasks(TASKS, join(dir, 'tasks'), base);
  });

  after(async () => {
    await sandbox?.stop();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  test('every task passes by replay, and every observation it recorded is compact', async () => {
    const out = join(dir, 'out');
    const run = await runRunner(['--tasks', join(dir, 'tasks'), '--out', out, '--observation-format', 'compact']);
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    const lines = readLines(join(out, 'results.jsonl'));
    assert.deepEqual(lines.map((l) => l.verdict), TASKS.map(() => 'PASS'), JSON.stringify(lines));
    for (const { id } of tasks) {
      const trajectory = JSON.parse(readFileSync(join(out, 'trajectories', `${taskFileStem(id)}.json`), 'utf8'));
      assert.equal(trajectory.settings.agentConfig.observation_format, 'compact', id);
      for (const step of trajectory.steps) {
        const text = step.observation.text;
        assert.match(text, /^\[\d+\] /m, `${id} step ${step.step}: no element line`);
        assert.doesNotMatch(text, /StaticText|RootWebArea|\n\t/, `${id} step ${step.step} is not compact:\n${text}`);
      }
    }
  });
});
