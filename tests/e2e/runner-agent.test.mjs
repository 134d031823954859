// `--agent modular` through the runner: the fake model plays each of the modular
// agent's stages (planning, grounding per section, selection), the task passes, every
// step's record carries the stages' inputs and outputs, run.json names the agent and
// the report scores the stages against the task's reference trajectory.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { UsageError, parseArgs } from '../../runner/args.mjs';
import { runOverrides } from '../../runner/extension.mjs';
import { taskFileStem } from '../../runner/paths.mjs';
import { runConfig } from '../../runner/run-folder.mjs';
import { FAKE_KEY, startFakeProviders } from './fake-providers.mjs';
import { readLines, runRunner } from './runner-process.mjs';
import { startSites } from './sites.mjs';

test('--agent: parsed, passed as an override, written to run.json when modular', () => {
  assert.equal(parseArgs(['--tasks', 't']).agent, 'prompt');
  const o = parseArgs(['--tasks', 't', '--provider', 'openai', '--agent', 'modular']);
  assert.equal(o.agent, 'modular');
  assert.equal(runOverrides(o).agent, 'modular');
  assert.equal('agent' in runOverrides(parseArgs(['--tasks', 't'])), false);
  assert.equal(runConfig(o).agent, 'modular');
  assert.equal('agent' in runConfig(parseArgs(['--tasks', 't'])), false);
  for (const [argv, message] of /** @type {[string[], RegExp][]} */ ([
    [['--agent', 'seeact'], /--agent must be one of prompt, modular/],
    [['--agent', 'modular'], /--agent modular needs a model provider/],
  ])) {
    assert.throws(() => parseArgs(['--tasks', 't', ...argv]), (e) => e instanceof UsageError && message.test(e.message));
  }
});

test('--grounding and --select: the modular agent\'s variant, passed on and written to run.json', () => {
  const modular = ['--tasks', 't', '--provider', 'openai', '--agent', 'modular'];
  const o = parseArgs([...modular, '--grounding', 'visual', '--select', 'first_viable']);
  assert.deepEqual([o.grounding, o.select], ['visual', 'first_viable']);
  assert.deepEqual([runOverrides(o).grounding, runOverrides(o).select], ['visual', 'first_viable']);
  assert.deepEqual([runConfig(o).grounding, runConfig(o).select], ['visual', 'first_viable']);
  // Not asked for: the extension's settings decide, and run.json says nothing.
  const plain = parseArgs(modular);
  assert.equal('grounding' in runOverrides(plain) || 'select' in runOverrides(plain), false);
  assert.equal('grounding' in runConfig(plain) || 'select' in runConfig(plain), false);
  for (const [argv, message] of /** @type {[string[], RegExp][]} */ ([
    [[...modular, '--grounding', 'pixels'], /--grounding must be one of textual, visual \(got pixels\)/],
    [[...modular, '--select', 'best'], /--select must be one of model, first_viable \(got best\)/],
    [['--tasks', 't', '--provider', 'openai', '--select', 'model'], /--select is a setting of the modular agent: add --agent modular/],
    [[...modular, '--grounding', 'visual', '--observation', 'text'], /--grounding visual needs pictures/],
  ])) {
    assert.throws(() => parseArgs(argv), (e) => e instanceof UsageError && message.test(e.message), argv.join(' '));
  }
});

/**
 * One task on the events site run through the runner by the modular agent, with one
 * fake model for every stage (told apart by the stage's system text). `args` are the
 * runner options beyond the model's; `id` names the task.
 * @param {string} id
 * @param {string[]} args
 */
async function modularRun(id, args) {
  const sites = await startSites({ names: ['events'] });
  const fake = await startFakeProviders();
  /** @param {import('../types.mjs').FakeRequest} request */
  const stage = (request) => {
    if (request.text.includes('ELEMENT: <the letter')) {
      const letter = /\n([A-Z])\. link 'Events in Tokyo'/.exec(request.text)?.[1];
      return letter ? `ELEMENT: ${letter}\nACTION: CLICK\nVALUE: None` : 'ELEMENT: None\nACTION: CLICK\nVALUE: None';
    }
    if (request.text.includes('CHOICE: <the letter')) return 'CHOICE: A';
    if (request.text.includes('PREVIOUS ACTION: None')) return "The events are behind a link.\nPLAN: click the link 'Events in Tokyo'";
    return 'Found them.\n```stop [done]```';
  };
  fake.script(...Array.from({ length: 10 }, () => ({ text: stage, usage: { input_tokens: 7, output_tokens: 3 } })));
  const dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-agent-'));
  const tasks = join(dir, 'tasks');
  const out = join(dir, 'out');
  mkdirSync(tasks);
  writeFileSync(join(tasks, 'events.json'), JSON.stringify({
    id,
    intent: 'Find the events in Tokyo.',
    start_urls: [sites.url('events', '/index.html')],
    hops: [{ condition: { kind: 'url', op: 'contains', value: 'city=tokyo' } }],
    reference_trajectory: ["click {link 'Events in Tokyo'}"],
  }));
  const result = await runRunner(
    ['--tasks', tasks, '--out', out, '--provider', 'openai', '--base-url', fake.baseUrl('openai'),
      '--model', 'fake-model', '--api-key-env', 'HOPBENCH_AGENT_KEY', '--max-steps', '3', '--agent', 'modular', ...args],
    { HOPBENCH_AGENT_KEY: FAKE_KEY },
  );
  return { sites, fake, dir, out, result };
}

/**
 * Stops what `modularRun` started and removes its folder.
 * @param {Awaited<ReturnType<typeof modularRun>> | undefined} run
 */
async function cleanUp(run) {
  await run?.sites?.close();
  await run?.fake?.close();
  if (run?.dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(run.dir, { recursive: true, force: true });
}

describe('the modular agent through the runner', { timeout: 240_000 }, () => {
  /** @type {Awaited<ReturnType<typeof modularRun>>} */ let run;
  /** @type {string} */ let out;
  /** @type {import('../types.mjs').RunnerResult} */ let result;

  before(async () => {
    run = await modularRun('e2e-agent/events', ['--observation', 'text']);
    ({ out, result } = run);
  });

  after(() => cleanUp(run));

  test('the task passes, each stage\'s call and answer recorded', () => {
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stdout, /running 1 with openai fake-model \(modular agent\)/);
    const [line] = readLines(join(out, 'results.jsonl'));
    assert.equal(line.verdict, 'PASS', JSON.stringify(line));
    assert.equal(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).agent, 'modular');
    const trajectory = JSON.parse(readFileSync(join(out, 'trajectories', `${taskFileStem('e2e-agent/events')}.json`), 'utf8'));
    const [first] = trajectory.steps;
    assert.equal(first.action.text.startsWith('click ['), true, JSON.stringify(first.action));
    const { stages } = first;
    assert.equal(stages.agent, 'modular');
    assert.equal(stages.plan, "click the link 'Events in Tokyo'");
    assert.equal(stages.calls[0].stage, 'planning');
    assert.ok(stages.calls.slice(1).every((/** @type {import('../types.mjs').Json} */ c) => c.stage.startsWith('grounding ')), JSON.stringify(stages.calls.map((/** @type {import('../types.mjs').Json} */ c) => c.stage)));
    assert.ok(stages.calls.every((/** @type {import('../types.mjs').Json} */ c) => typeof c.user === 'string' && typeof c.reply === 'string'));
    assert.deepEqual(stages.log.plan_target, { role: 'link', name: "'Events in Tokyo'" });
    assert.equal(stages.log.executed.element.name, "'Events in Tokyo'");
    // Every call of the step counted: planning plus one per section.
    assert.deepEqual(first.tokens, { input: 7 * stages.calls.length, output: 3 * stages.calls.length, cached_input: 0 });
  });

  test('the report scores the stages against the reference trajectory', () => {
    assert.match(result.stdout, /^\| openai fake-model modular \| reference \| 1 \| 1 \| 100\.00 \| 100\.00 \| 100\.00 \| 100\.00 \| 100\.00 \|$/m);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    assert.ok(html.includes('<figure class="funnel" data-model="openai fake-model modular">'));
  });
});

describe('visual grounding through the runner', { timeout: 240_000 }, () => {
  /** @type {Awaited<ReturnType<typeof modularRun>>} */ let run;
  /** @type {import('../types.mjs').FakeProviders} */ let fake;
  /** @type {string} */ let out;
  /** @type {import('../types.mjs').RunnerResult} */ let result;

  before(async () => {
    run = await modularRun('e2e-agent/visual', ['--observation', 'text+screenshot', '--grounding', 'visual', '--select', 'first_viable']);
    ({ fake, out, result } = run);
  });

  after(() => cleanUp(run));

  test('each grounding call carries the step\'s screenshot, and the task passes', () => {
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    const [line] = readLines(join(out, 'results.jsonl'));
    assert.equal(line.verdict, 'PASS', JSON.stringify(line));
    const grounding = fake.requests.filter((r) => r.text.includes('ELEMENT: <the letter'));
    const planning = fake.requests.filter((r) => r.text.includes('PLAN: <the action>'));
    assert.ok(grounding.length >= 1, 'no grounding call arrived');
    for (const request of [...planning, ...grounding]) {
      assert.deepEqual(request.images.map((i) => i.mime), ['image/png'], request.text.slice(0, 200));
    }
    // The grounding call's picture is the one its step's planning call saw.
    assert.ok(grounding[0].imageBytes[0].equals(planning[0].imageBytes[0]));
    const config = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    assert.deepEqual([config.agent, config.grounding, config.select], ['modular', 'visual', 'first_viable']);
    assert.match(result.stdout, /^\| openai fake-model modular \(visual grounding, first_viable\) \| reference \|/m);
  });
});
