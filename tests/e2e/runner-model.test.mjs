// The runner with a model provider: the fake OpenAI-compatible server plays the agent.
// The key goes from the environment variable named by --api-key-env to the server
// (through the extension's SAVE_SETTINGS) and nowhere else: not on the screen, not in
// any file of the run folder. Tokens reported by the server reach results.jsonl. A run
// in which no model call was answered is no FAIL of the agent's; --prompt-cache off
// reaches the server.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FAKE_KEY, startFakeProviders } from './fake-providers.mjs';
import { taskFileStem } from '../../runner/paths.mjs';
import { readLines, runRunner } from './runner-process.mjs';
import { startSites } from './sites.mjs';

/**
 * @param {string} dir
 * @returns {string[]}
 */
function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('the runner with a model provider', { timeout: 180_000 }, () => {
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').FakeProviders} */ let fake;
  /** @type {string} */ let dir;
  /** @type {string} */ let out;
  /** @type {import('../types.mjs').RunnerResult} */ let result;

  before(async () => {
    sites = await startSites({ names: ['events'] });
    fake = await startFakeProviders();
    // The fake agent reads the page from the prompt and clicks the Tokyo link.
    fake.script({
      text: (/** @type {import('../types.mjs').FakeRequest} */ request) => {
        const id = /\[(\d+)\] link 'Events in Tokyo'/.exec(request.text)?.[1] ?? '0';
        return `The Tokyo link is [${id}]. In summary, the next action I will perform is \`\`\`click [${id}]\`\`\``;
      },
      usage: { input_tokens: 321, output_tokens: 12 },
    });
    dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-model-'));
    const tasks = join(dir, 'tasks');
    out = join(dir, 'out');
    mkdirSync(tasks);
    writeFileSync(join(tasks, 'events.json'), JSON.stringify({
      id: 'e2e-runner/model-events',
      intent: 'Find the events in Tokyo.',
      start_urls: [sites.url('events', '/index.html')],
      hops: [{ condition: { kind: 'url', op: 'contains', value: 'city=tokyo' } }],
    }));
    result = await runRunner(
      ['--tasks', tasks, '--out', out, '--provider', 'openai', '--base-url', fake.baseUrl('openai'),
        '--model', 'fake-model', '--api-key-env', 'HOPBENCH_TEST_KEY', '--max-steps', '3'],
      { HOPBENCH_TEST_KEY: FAKE_KEY },
    );
  });

  after(async () => {
    await sites?.close();
    await fake?.close();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  test('the task passes with the model, its tokens recorded', () => {
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stdout, /API key: from \$HOPBENCH_TEST_KEY/);
    assert.match(result.stdout, /running 1 with openai fake-model/);
    const [line] = readLines(join(out, 'results.jsonl'));
    assert.equal(line.verdict, 'PASS', JSON.stringify(line));
    assert.deepEqual(line.tokens, { input: 321, output: 12, cached_input: 0 });
    assert.deepEqual(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')), {
      provider: 'openai', model: 'fake-model', base_url: fake.baseUrl('openai'), max_steps: 3, observation: null, sites: 'any',
    });
  });

  test('the key reached the server and nothing else', () => {
    const calls = fake.requests.filter((r) => r.api === 'openai');
    assert.equal(calls.length, 1);
    assert.equal(calls[0].headers.authorization, `Bearer ${FAKE_KEY}`);
    assert.equal(calls[0].model, 'fake-model');
    assert.equal(calls[0].body.cache_prompt, true, 'the prompt cache is on unless --prompt-cache off');
    assert.ok(!result.stdout.includes(FAKE_KEY) && !result.stderr.includes(FAKE_KEY), 'the key was printed');
    for (const file of filesUnder(out)) {
      assert.ok(!readFileSync(file).includes(FAKE_KEY), `the key is in ${file}`);
    }
  });

  test('a model endpoint that keeps failing (503 after every try) is an infrastructure error, retried', async () => {
    fake.reset();
    const clicks = {
      text: (/** @type {import('../types.mjs').FakeRequest} */ request) => {
        const id = /\[(\d+)\] link 'Events in Tokyo'/.exec(request.text)?.[1] ?? '0';
        return `In summary, the next action I will perform is \`\`\`click [${id}]\`\`\``;
      },
    };
    // Attempt 1: three steps of four tries each (the extension's default), all 503, so
    // the no-action rule stops the run; attempt 2 gets the clicking agent.
    fake.script(...Array.from({ length: 12 }, () => ({ status: 503, retryAfter: '0' })), clicks);
    const out503 = join(dir, 'out-503');
    const run = await runRunner(
      ['--tasks', join(dir, 'tasks'), '--out', out503, '--provider', 'openai', '--base-url', fake.baseUrl('openai'),
        '--model', 'fake-model', '--api-key-env', 'HOPBENCH_TEST_KEY', '--max-steps', '5'],
      { HOPBENCH_TEST_KEY: FAKE_KEY },
    );
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.equal(fake.pending(), 0);
    const [failed, retried, ...more] = readLines(join(out503, 'results.jsonl'));
    assert.equal(more.length, 0);
    assert.deepEqual([failed.verdict, failed.error_kind, failed.attempt, failed.steps], ['ERROR', 'infrastructure', 1, 3], JSON.stringify(failed));
    assert.match(failed.error, /^the model endpoint kept failing \(server\) on the last 3 steps after its own tries: /);
    assert.deepEqual([retried.verdict, retried.attempt], ['PASS', 2], JSON.stringify(retried));
  });

  test('--max-steps 2 with no model call answered is an infrastructure error, not the agent\'s FAIL', async () => {
    fake.reset();
    const clicks = {
      text: (/** @type {import('../types.mjs').FakeRequest} */ request) => {
        const id = /\[(\d+)\] link 'Events in Tokyo'/.exec(request.text)?.[1] ?? '0';
        return `In summary, the next action I will perform is \`\`\`click [${id}]\`\`\``;
      },
    };
    // Two steps of four tries, all 503: the step limit ends the run before the rule for
    // three steps without an action could; the agent never got to act.
    fake.script(...Array.from({ length: 8 }, () => ({ status: 503, retryAfter: '0' })), clicks);
    const outShort = join(dir, 'out-short');
    const run = await runRunner(
      ['--tasks', join(dir, 'tasks'), '--out', outShort, '--provider', 'openai', '--base-url', fake.baseUrl('openai'),
        '--model', 'fake-model', '--api-key-env', 'HOPBENCH_TEST_KEY', '--max-steps', '2'],
      { HOPBENCH_TEST_KEY: FAKE_KEY },
    );
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.equal(fake.pending(), 0);
    const [failed, retried, ...more] = readLines(join(outShort, 'results.jsonl'));
    assert.equal(more.length, 0);
    assert.deepEqual([failed.verdict, failed.error_kind, failed.end, failed.steps], ['ERROR', 'infrastructure', 'early_stop', 2], JSON.stringify(failed));
    assert.match(failed.error, /^no model call succeeded: the model call of each of the 2 steps failed \(server\), so the agent never acted: /);
    assert.deepEqual([retried.verdict, retried.attempt], ['PASS', 2], JSON.stringify(retried));
  });

  test('--prompt-cache off reaches the server: llama-server is told not to cache', async () => {
    fake.reset();
    fake.script({
      text: (/** @type {import('../types.mjs').FakeRequest} */ request) => {
        const id = /\[(\d+)\] link 'Events in Tokyo'/.exec(request.text)?.[1] ?? '0';
        return `In summary, the next action I will perform is \`\`\`click [${id}]\`\`\``;
      },
    });
    const run = await runRunner(
      ['--tasks', join(dir, 'tasks'), '--out', join(dir, 'out-no-cache'), '--provider', 'openai', '--base-url', fake.baseUrl('openai'),
        '--model', 'fake-model', '--api-key-env', 'HOPBENCH_TEST_KEY', '--prompt-cache', 'off'],
      { HOPBENCH_TEST_KEY: FAKE_KEY },
    );
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    const calls = fake.requests.filter((r) => r.api === 'openai');
    assert.equal(calls.length, 1);
    // The fake is on 127.0.0.1, where an OpenAI-compatible server may be llama-server.
    assert.equal(calls[0].body.cache_prompt, false);
    const [line] = readLines(join(dir, 'out-no-cache', 'results.jsonl'));
    assert.equal(line.verdict, 'PASS', JSON.stringify(line));
    // The run's own settings, in its trajectory, say so too.
    const trajectory = JSON.parse(readFileSync(join(dir, 'out-no-cache', 'trajectories', `${taskFileStem(line.id)}.json`), 'utf8'));
    assert.equal(trajectory.settings.agent.model.prompt_cache, 'off');
  });

  test('an --api-key-env naming an unset variable stops before anything runs, without echoing it', async () => {
    const bad = await runRunner(['--tasks', join(dir, 'tasks'), '--out', join(dir, 'out2'), '--provider', 'openai',
      '--api-key-env', 'SK_LOOKS_LIKE_A_PASTED_KEY']);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /--api-key-env: the variable named there is not set or empty/);
    assert.ok(!bad.stderr.includes('SK_LOOKS_LIKE_A_PASTED_KEY'));
  });
});
