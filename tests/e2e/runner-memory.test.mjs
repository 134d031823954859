// Procedural memory through the runner (`--memory K`): each finished task leaves a
// record in DIR/memory.jsonl (written by the extension's core, appended by the runner),
// and later tasks' prompts show K of them in the labelled section, without any task's
// reference answers or hop conditions. With the replay agent the recorded prompts show
// the section; with the fake model, a model that reads the section answers differently,
// and `--memory-policy similar` shows the related task rather than the last one.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { taskFileStem } from '../../runner/paths.mjs';
import { FAKE_KEY, startFakeProviders } from './fake-providers.mjs';
import { readLines, runRunner } from './runner-process.mjs';
import { startSites } from './sites.mjs';

const HEADING = 'PAST TASKS (procedural memory)';
const SECRETS = ['SECRET-TOWER-333', 'SECRET-EVENTS-42', 'SECRET-AGAIN-7'];
/** Hop condition values that no intent mentions. */
const CONDITIONS = ['Tokyo_Tower', 'city=tokyo'];

/**
 * The memory section of a system prompt, or null.
 * @param {string} system
 */
function memorySection(system) {
  const start = system.indexOf(HEADING);
  if (start < 0) return null;
  const end = system.indexOf('Now the real task begins', start);
  return system.slice(start, end < 0 ? undefined : end);
}

describe('procedural memory through the runner', { timeout: 360_000 }, () => {
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').FakeProviders} */ let fake;
  /** @type {string} */ let dir;

  before(async () => {
    sites = await startSites({ names: ['wiki', 'events'] });
    fake = await startFakeProviders();
    dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-memory-'));
  });

  after(async () => {
    await sites?.close();
    await fake?.close();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * @param {string} name
   * @param {object[]} tasks
   */
  const writeTasks = (name, tasks) => {
    const folder = join(dir, name);
    mkdirSync(folder);
    tasks.forEach((t, i) => writeFileSync(join(folder, `${String.fromCharCode(97 + i)}.json`), JSON.stringify(t, null, 1)));
    return folder;
  };

  describe('the replay agent with --memory 2', () => {
    /** @type {string} */ let out;
    /** @type {import('../types.mjs').RunnerResult} */ let result;
    const trajectory = (/** @type {string} */ id) => JSON.parse(readFileSync(join(out, 'trajectories', `${taskFileStem(id)}.json`), 'utf8'));

    before(async () => {
      /** @param {string} id @param {string} answer */
      const tower = (id, answer) => ({
        id,
        intent: 'Open the Tokyo Tower article, then the events in that city, and say how tall the tower is.',
        start_urls: [sites.url('wiki', '/index.html')],
        hops: [
          { condition: { kind: 'url', part: 'path', op: 'contains', value: 'Tokyo_Tower' } },
          { condition: { kind: 'url', op: 'contains', value: 'city=tokyo' } },
        ],
        final_answer: { condition: { must_include: [answer] } },
        reference_trajectory: [
          "click {link 'Tokyo Tower'}",
          `goto [${sites.url('events', '/index.html')}]`,
          "click {link 'Events in Tokyo'}",
          `stop [${answer}]`,
        ],
      });
      const folder = writeTasks('replay-tasks', [
        tower('mem/tower', SECRETS[0]),
        {
          id: 'mem/events',
          intent: 'Find the events in Tokyo and give the code shown for them.',
          start_urls: [sites.url('events', '/index.html')],
          hops: [{ condition: { kind: 'url', op: 'contains', value: 'city=tokyo' } }],
          final_answer: { condition: { must_include: [SECRETS[1]] } },
          reference_trajectory: ["click {link 'Events in Tokyo'}", `stop [${SECRETS[1]}]`],
        },
        tower('mem/tower-again', SECRETS[2]),
      ]);
      out = join(dir, 'replay-out');
      result = await runRunner(['--tasks', folder, '--out', out, '--observation', 'text', '--memory', '2', '--task-timeout', '90']);
    });

    test('every task passes and leaves a memory record, in the order they ran', () => {
      assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
      assert.match(result.stdout, /running 3 with replay, memory K=2 recent, 1 at a time/);
      assert.deepEqual(readLines(join(out, 'results.jsonl')).map((l) => [l.id, l.verdict]), [
        ['mem/tower', 'PASS'],
        ['mem/events', 'PASS'],
        ['mem/tower-again', 'PASS'],
      ]);
      const records = readLines(join(out, 'memory.jsonl'));
      assert.deepEqual(records.map((r) => [r.task_id, r.verdict, r.hop_steps.length]), [
        ['mem/tower', 'PASS', 2],
        ['mem/events', 'PASS', 1],
        ['mem/tower-again', 'PASS', 2],
      ]);
      assert.deepEqual(records[1].steps.map((/** @type {import('../types.mjs').Json} */ s) => s.action), [
        "click {link 'Events in Tokyo'}",
        'stop (with an answer, not kept in memory)',
      ]);
      assert.deepEqual(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).memory_k, 2);
    });

    test('the recorded prompts show the last two finished tasks, the first none', () => {
      const shown = (/** @type {string} */ id) => trajectory(id).run.memory;
      assert.deepEqual(shown('mem/tower'), { k: 2, policy: 'recent', tasks: [] });
      assert.deepEqual(shown('mem/events').tasks, ['mem/tower']);
      assert.deepEqual(shown('mem/tower-again').tasks, ['mem/tower', 'mem/events']);
      for (const step of trajectory('mem/tower').steps) assert.equal(memorySection(step.prompt.system), null);
      const steps = trajectory('mem/tower-again').steps;
      assert.ok(steps.length >= 4);
      for (const step of steps) {
        const section = memorySection(step.prompt.system);
        assert.ok(section, `step ${step.step} has no memory section`);
        assert.match(section, /Past task 1:\nINTENT: Open the Tokyo Tower article/);
        assert.match(section, /Past task 2:\nINTENT: Find the events in Tokyo/);
        assert.match(section, /click \{link 'Tokyo Tower'\} \(on 127\.0\.0\.1:\d+\)/);
        assert.match(section, /OUTCOME: PASS: the task was solved; 2 of 2 hops completed/);
      }
    });

    test('no reference answer or hop condition reaches memory or another task\'s prompt', () => {
      const memoryFile = readFileSync(join(out, 'memory.jsonl'), 'utf8');
      for (const secret of [...SECRETS, ...CONDITIONS]) assert.ok(!memoryFile.includes(secret), `${secret} in memory.jsonl`);
      for (const [id, own] of [['mem/events', SECRETS[1]], ['mem/tower-again', SECRETS[2]]]) {
        for (const step of trajectory(id).steps) {
          // These tasks ran with memory: every step's prompt has the section.
          const section = /** @type {string} */ (memorySection(step.prompt.system));
          for (const secret of [...SECRETS, ...CONDITIONS]) assert.ok(!section.includes(secret), `${secret} in ${id} step ${step.step}`);
          const prompt = `${step.prompt.system}\n${step.prompt.user}`;
          for (const secret of SECRETS.filter((s) => s !== own)) assert.ok(!prompt.includes(secret), `${secret} in ${id}`);
        }
      }
    });
  });

  describe('--memory-sweep 0..1 with the replay agent', () => {
    /** @type {string} */ let out;
    /** @type {import('../types.mjs').RunnerResult} */ let result;

    before(async () => {
      const events = (/** @type {string} */ id) => ({
        id,
        intent: `Find the events in Tokyo (${id}).`,
        start_urls: [sites.url('events', '/index.html')],
        hops: [{ condition: { kind: 'url', op: 'contains', value: 'city=tokyo' } }],
        reference_trajectory: ["click {link 'Events in Tokyo'}"],
      });
      const folder = writeTasks('sweep-tasks', [events('sweep/one'), events('sweep/two')]);
      out = join(dir, 'sweep-out');
      result = await runRunner(['--tasks', folder, '--out', out, '--observation', 'text', '--memory-sweep', '0..1', '--task-timeout', '90']);
    });

    test('one folder per K, each with its own memory, then one report with a row per K', () => {
      assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
      assert.match(result.stdout, /memory sweep: K = 0 into .*k0/);
      assert.match(result.stdout, /memory sweep: K = 1 into .*k1/);
      assert.equal(JSON.parse(readFileSync(join(out, 'k0', 'run.json'), 'utf8')).memory_k, undefined);
      assert.equal(JSON.parse(readFileSync(join(out, 'k1', 'run.json'), 'utf8')).memory_k, 1);
      const second = JSON.parse(readFileSync(join(out, 'k1', 'trajectories', `${taskFileStem('sweep/two')}.json`), 'utf8'));
      assert.deepEqual(second.run.memory.tasks, ['sweep/one']);
      const rows = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).by_memory;
      assert.deepEqual(rows.map((/** @type {import('../types.mjs').Json} */ r) => [r.k, r.policy, r.tasks, r.task_sr[3]]), [[0, '', 2, 1], [1, 'recent', 2, 1]]);
      assert.match(result.stdout, /^\| K=0 \(off\) \| 2 \| 100\.00 \(100\.00\) \|/m);
      assert.match(result.stdout, /^\| K=1 recent \| 2 \| 100\.00 \(100\.00\) \|/m);
      assert.ok(result.stdout.includes(`report: ${join(out, 'report.html')}`));
    });
  });

  describe('a fake model that reads its memory', () => {
    /** @type {string} */ let out;
    /** @type {import('../types.mjs').RunnerResult} */ let result;

    before(async () => {
      // Click the Tokyo link, then answer with what memory showed: the first past
      // task's intent, or "none".
      fake.script(
        ...Array.from({ length: 6 }, () => ({
          text: (/** @type {import('../types.mjs').FakeRequest} */ request) => {
            if (request.text.includes('PREVIOUS ACTION: None')) {
              const id = /\[(\d+)\] link 'Events in Tokyo'/.exec(request.text)?.[1] ?? '0';
              return `In summary, the next action I will perform is \`\`\`click [${id}]\`\`\``;
            }
            const first = /Past task 1:\nINTENT: ([^\n]*)/.exec(request.text)?.[1] ?? 'none';
            return `In summary, the next action I will perform is \`\`\`stop [memory: ${first}]\`\`\``;
          },
          usage: { input_tokens: 10, output_tokens: 5 },
        })),
      );
      /** @param {string} id @param {string} intent */
      const events = (id, intent) => ({
        id,
        intent,
        start_urls: [sites.url('events', '/index.html')],
        hops: [{ condition: { kind: 'url', op: 'contains', value: 'city=tokyo' } }],
        final_answer: { condition: { must_include: ['memory'] }, required: false },
      });
      const folder = writeTasks('model-tasks', [
        events('sim/tokyo-events', 'Find the concerts and events listed for Tokyo on the events site.'),
        events('sim/kimchi', 'Look up how long a kimchi stew recipe takes to cook.'),
        events('sim/tokyo-again', 'Open the list of Tokyo events on the events site.'),
      ]);
      out = join(dir, 'model-out');
      result = await runRunner(
        ['--tasks', folder, '--out', out, '--provider', 'openai', '--base-url', fake.baseUrl('openai'),
          '--model', 'fake-model', '--api-key-env', 'HOPBENCH_MEMORY_KEY', '--max-steps', '3', '--observation', 'text',
          '--memory', '1', '--memory-policy', 'similar', '--task-timeout', '90'],
        { HOPBENCH_MEMORY_KEY: FAKE_KEY },
      );
    });

    test('without memory the model says so; with similar memory it names the related task', () => {
      assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
      const answers = Object.fromEntries(readLines(join(out, 'results.jsonl')).map((l) => [l.id, l.answer]));
      assert.equal(answers['sim/tokyo-events'], 'memory: none');
      // The kimchi task shares no word with the first one, only the site.
      assert.equal(answers['sim/kimchi'], 'memory: Find the concerts and events listed for Tokyo on the events site.');
      // Recent would show the kimchi task; similar shows the Tokyo one.
      assert.equal(answers['sim/tokyo-again'], 'memory: Find the concerts and events listed for Tokyo on the events site.');
      // Two calls per task: the click and the answer.
      assert.equal(fake.requests.filter((r) => r.api === 'openai' && r.status === 200).length, 6);
    });
  });
});
