// The real-software tier: MMInA task files over a real Kiwix (kiwix-serve + a ZIM we
// build) and a real MediaWiki on SQLite, run headless by the runner with a scripted
// OpenAI-compatible model, as `./build.sh run --provider openai` runs any model. Each
// task's verdict, hops and hop steps in results.jsonl must be what MMInA's hop
// counting gives the scripted trajectory (cases.mjs says why, case by case).

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { readLines, runRunner } from '../e2e/runner-process.mjs';
import { CASES } from './cases.mjs';
import { describeTier } from './packages.mjs';
import { startRealSites } from './real-sites.mjs';
import { startScriptedModel } from './scripted-model.mjs';
import { fill, writeTasks } from './task-files.mjs';

await describeTier('real-software tier: MMInA tasks on Kiwix and MediaWiki', { timeout: 600_000 }, () => {
  /** @type {Awaited<ReturnType<typeof startRealSites>>} */ let sites;
  /** @type {Awaited<ReturnType<typeof startScriptedModel>>} */ let model;
  /** @type {string} */ let dir;
  /** @type {import('../types.mjs').RunnerResult} */ let result;
  /** @type {import('../types.mjs').Json[]} */ let lines;

  before(async () => {
    sites = await startRealSites();
    model = await startScriptedModel(CASES.map((c) => ({
      task: c.id,
      key: c.key,
      steps: c.steps.map((step) => fill(step, sites.urls)),
    })));
    dir = mkdtempSync(join(tmpdir(), 'hopbench-realsw-run-'));
    const tasks = writeTasks(join(dir, 'tasks'), CASES, sites.urls);
    result = await runRunner([
      '--tasks', tasks, '--out', join(dir, 'out'), '--provider', 'openai', '--base-url', model.baseUrl,
      '--model', 'scripted', '--api-key-env', 'HOPBENCH_REALSW_KEY', '--observation', 'text',
      '--max-steps', '8', '--task-timeout', '120',
    ], { HOPBENCH_REALSW_KEY: 'no-key-needed-by-the-scripted-model' });
    const results = join(dir, 'out', 'results.jsonl');
    if (!existsSync(results)) {
      throw new Error(`the runner wrote no results.jsonl (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
    }
    lines = readLines(results);
  });

  after(async () => {
    await model?.close();
    await sites?.stop();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  test('the runner ran every task', () => {
    assert.equal(result.status, 0, `runner exit ${result.status}\n${result.stdout}\n${result.stderr}`);
    assert.deepEqual(lines.map((l) => l.id).sort(), CASES.map((c) => c.id).sort(), result.stdout);
  });

  test('the scripted agent found every element its steps name', () => {
    assert.deepEqual(model.problems, [], model.describeProblems());
  });

  for (const c of CASES) {
    const { verdict, hops_completed: done } = c.expect;
    test(`${c.id}: ${verdict}, ${done}/${c.expect.hop_steps.length} hops (${c.file})`, () => {
      const line = lines.find((l) => l.id === c.id);
      assert.ok(line, `no results.jsonl line for ${c.id}:\n${result.stdout}`);
      const got = {
        verdict: line.verdict,
        hops_completed: line.hops_completed,
        hop_steps: line.hop_steps,
        steps: line.steps,
        answer_score: line.answer_score,
      };
      const actions = model.actions.filter((a) => a.task === c.id).map((a) => `  ${a.step}. ${a.action}  on ${a.url}`);
      assert.deepEqual(got, c.expect, [
        `${c.id}: expected ${JSON.stringify(c.expect)} because ${c.why}`,
        c.needs.length > 0 ? `this expectation needs branch(es) ${c.needs.join(', ')} (see cases.mjs)` : '',
        `results.jsonl: ${JSON.stringify(line)}`,
        `actions the scripted agent took:\n${actions.join('\n')}`,
      ].filter(Boolean).join('\n'));
    });
  }
});
