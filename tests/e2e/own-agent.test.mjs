// A person's own agent, written in Python with the client in clients/python, solving
// bundled tasks through hopbench: the scripted example (follow_links.py) follows a plan
// of link names, through the headless runner (`--provider agent --base-url URL`) and
// through a run started from the real toolbar popup with "Your own agent (HTTP)" set in
// Settings (whose Test connection shows the agent's name). Every request the agent was
// sent is checked against the task's secrets: no condition, no reference answer, no
// reference trajectory.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { startSandbox } from '../../runner/sandbox.mjs';
import { taskFileStem } from '../../runner/paths.mjs';
import { copyBundledTasks } from './bundled-tasks.mjs';
import { freePortBase } from './free-ports.mjs';
import { hopbenchBin } from './native.mjs';
import { leaksIn, secretsOf, startFollowLinks } from './python-agent.mjs';
import { openRealPopup } from './real-popup.mjs';
import { waitForRunEnd } from './run-helpers.mjs';
import { readLines, runRunner } from './runner-process.mjs';

/** One hop; two hops on one site; two hops across categories. */
const TASKS = ['sb-03-tower-height', 'sb-06-lumen-hybrid-colour', 'sb-09-quickest-korean-recipe'];

/**
 * The plans a person would write from reading each task, one per task: the links to
 * follow by name, then the answer.
 */
const PLANS = {
  'sb-03-tower-height': { links: ['Tokyo Tower'], answer: '333 m' },
  'sb-06-lumen-hybrid-colour': { links: ['Our fleet', 'Lumen Hybrid'], answer: 'green' },
  'sb-09-quickest-korean-recipe': { links: ['Korean', 'Quickest'], answer: 'Kimchi Fried Rice' },
};

describe('your own agent over HTTP (the Python client\'s scripted agent)', { timeout: 420_000 }, () => {
  /** @type {string} */ let dir;
  /** @type {{ stop: () => Promise<void> } | undefined} */ let sandbox;
  /** @type {{ id: string, file: string }[]} */ let tasks;
  /** @type {Awaited<ReturnType<typeof startFollowLinks>> | undefined} */ let agent;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopbench-own-agent-'));
    const base = await freePortBase();
    sandbox = await startSandbox(hopbenchBin(), () => undefined, ['--port-base', String(base)]);
    mkdirSync(join(dir, 'tasks'));
    tasks = copyBundledTasks(TASKS, join(dir, 'tasks'), base);
    agent = await startFollowLinks(dir, PLANS);
  });

  after(async () => {
    await agent?.stop();
    await sandbox?.stop();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  /** Every request the agent got so far is free of every task's secrets. */
  const assertNoSecretReached = () => {
    const requests = /** @type {NonNullable<typeof agent>} */ (agent).requests();
    assert.ok(requests.length > 0, 'the agent was asked');
    for (const { file, id } of tasks) {
      const secrets = secretsOf(JSON.parse(readFileSync(file, 'utf8')));
      assert.ok(secrets.objects.length > 0 && secrets.steps.length > 0, `${id} has secrets to look for`);
      for (const request of requests) {
        assert.deepEqual(leaksIn(request, secrets), [], `a request of step ${request.step} of ${request.task.id} carries ${id}'s secrets`);
      }
    }
  };

  test('the runner scores it on bundled tasks; run.json, the report and the trajectories name it', async () => {
    const out = join(dir, 'out');
    const url = /** @type {NonNullable<typeof agent>} */ (agent).url;
    const run = await runRunner(['--tasks', join(dir, 'tasks'), '--out', out, '--provider', 'agent', '--base-url', url]);
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /agent: follow-links 0\.1\.0 at http:\/\/127\.0\.0\.1:\d+\//);
    const lines = readLines(join(out, 'results.jsonl'));
    assert.deepEqual(
      lines.map((l) => [l.id, l.verdict]),
      TASKS.map((id) => [id, 'PASS']),
      JSON.stringify(lines),
    );
    const config = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    assert.equal(config.provider, 'agent');
    assert.equal(config.model, 'follow-links 0.1.0');
    assert.equal(config.agent, 'http');
    const report = readFileSync(join(out, 'report.html'), 'utf8');
    assert.match(report, /agent follow-links 0\.1\.0/);
    for (const id of TASKS) {
      const trajectory = JSON.parse(readFileSync(join(out, 'trajectories', `${taskFileStem(id)}.json`), 'utf8'));
      const clicks = trajectory.steps.filter((/** @type {any} */ s) => s.action?.text.startsWith('click'));
      assert.equal(clicks.length, PLANS[/** @type {keyof typeof PLANS} */ (id)].links.length, id);
      for (const step of clicks) assert.match(step.reply.reasoning, /^following the plan: link '/, id);
      assert.equal(trajectory.steps.at(-1).action.text, `stop [${PLANS[/** @type {keyof typeof PLANS} */ (id)].answer}]`);
      // The agent's name goes where a model's does; its requests are kept as sent.
      assert.equal(trajectory.settings.agent.model.model, 'follow-links 0.1.0');
      assert.match(trajectory.steps[0].prompt.user, /"kind": "step"/);
    }
    assertNoSecretReached();
  });

  test('an agent that is not there stops the batch before it starts, saying what to fix', async () => {
    const port = await freePortBase(1);
    const run = await runRunner(['--tasks', join(dir, 'tasks'), '--out', join(dir, 'out-none'), '--provider', 'agent', '--base-url', `http://127.0.0.1:${port}/`]);
    assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
    assert.ok(
      run.stderr.includes(`your agent at http://127.0.0.1:${port}/ did not answer hello (ECONNREFUSED): start your agent first`),
      run.stderr,
    );
    assert.ok(!existsSync(join(dir, 'out-none', 'results.jsonl')), 'no task ran');
  });

  test('Settings test it by name, and a run started from the real popup passes', async () => {
    const url = /** @type {NonNullable<typeof agent>} */ (agent).url;
    const ext = await launchExtension();
    try {
      const options = await ext.openExtensionPage('options.html');
      await options.selectOption('#model-provider', 'agent');
      assert.equal(await options.inputValue('#model-base_url'), 'http://127.0.0.1:8700/', "the client's default URL is offered");
      assert.equal(await options.inputValue('#model-model'), '', 'an agent names itself');
      await options.fill('#model-base_url', url);
      await options.locator('#test-model').click();
      const result = options.locator('#test-model-result');
      await result.locator('text=follow-links 0.1.0').waitFor({ timeout: 20_000 });
      // The judge cannot be the agent.
      assert.equal(await options.locator('#judge-provider option[value="agent"]').count(), 0);

      const file = /** @type {{ id: string, file: string }} */ (tasks.find((t) => t.id === 'sb-06-lumen-hybrid-colour')).file;
      const tab = await ext.openPage(JSON.parse(readFileSync(file, 'utf8')).start_urls[0]);
      const popup = await openRealPopup(ext, tab);
      await popup.setFiles('#import-files', [file]);
      const name = 'sb-06-lumen-hybrid-colour.json';
      await popup.waitFor(`!!document.querySelector('#task option[value="imported:${name}"]')`, 'the task in the list');
      await popup.select('#task', `imported:${name}`);
      await popup.select('#agent', 'model');
      await popup.waitFor('!document.querySelector("#run").disabled', 'Run to be ready');
      const ids = async () => (await sendOk(options, 'listRuns')).runs.map((/** @type {{ id: string }} */ r) => r.id);
      const before = await ids();
      await popup.click('#run');
      const deadline = Date.now() + 15_000;
      /** @type {string | undefined} */ let runId;
      while (!runId) {
        runId = (await ids()).find((/** @type {string} */ id) => !before.includes(id));
        assert.ok(runId || Date.now() < deadline, 'Run in the real popup started no run');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await popup.close();
      const run = await waitForRunEnd(options, runId, 120_000);
      assert.equal(run.status, 'finished', JSON.stringify(run));
      assert.equal(run.verdict.passed, true, JSON.stringify(run.verdict));
      const { trajectory } = await sendOk(options, 'exportRun', { runId });
      assert.equal(trajectory.settings.agent.model.model, 'follow-links 0.1.0');
      assert.equal(trajectory.settings.agentConfig.agent, 'http');
      // A link below the fold of the person's window is scrolled to first.
      /** @type {[string, string][]} */
      const steps = trajectory.steps.map((/** @type {any} */ s) => [s.action.text.replace(/\d+/, 'N'), s.reply.reasoning]);
      assert.deepEqual(steps.filter(([action]) => action !== 'scroll [down]').map(([action]) => action), ['click [N]', 'click [N]', 'stop [green]'], JSON.stringify(steps));
      for (const [action, reasoning] of steps) {
        if (action === 'scroll [down]') assert.match(reasoning, /is not on the page; scrolling down/);
      }
      assertNoSecretReached();
    } finally {
      await ext.close();
    }
  });
});
