// The check own-agent.test.mjs makes of every request a person's agent was sent: a
// task's secrets are found where hopbench would have leaked them, and not where they
// only seem to appear, such as inside a random port of the test's sandbox.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { copyBundledTasks } from '../e2e/bundled-tasks.mjs';
import { holdsWord, leaksIn, secretsOf } from '../e2e/python-agent.mjs';

describe('the own-agent secret check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hopbench-secret-check-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * The tower and fleet tasks, on a sandbox at port base `base`.
   * @param {number} base
   */
  const tasksAt = (base) => {
    const at = join(dir, String(base));
    mkdirSync(at);
    const [tower, lumen] = copyBundledTasks(['sb-03-tower-height', 'sb-06-lumen-hybrid-colour'], at, base).map((t) => JSON.parse(readFileSync(t.file, 'utf8')));
    return { tower, lumen, towerSecrets: secretsOf(tower) };
  };
  // Both bases are ones freePortBase can pick (20000 + 11 * k). At 30329 the fleet
  // task's site is on port 30333, which holds the tower's answer "333" (a CI run failed
  // on that); at 23333 every site's port holds it, the tower's own start URL too.
  const { tower, lumen, towerSecrets } = tasksAt(30_329);
  const everywhere = tasksAt(23_333);

  /**
   * A step request shaped as the worker sends it (docs/agent-protocol.md).
   * @param {Record<string, any>} task
   * @param {Record<string, any>} [extra]
   */
  const requestFor = (task, extra = {}) => ({
    kind: 'step',
    step: 1,
    max_steps: 30,
    task: {
      id: task.id,
      intent: task.intent,
      start_urls: task.start_urls,
      sites: (task.reference_sites ?? []).map((/** @type {any} */ s) => ({ label: s.label, url: s.url })),
      hops: task.hops.map((/** @type {any} */ h) => ({ description: h.description ?? null })),
    },
    observation: { format: 'mmina', mode: 'text', url: task.start_urls[0], text: 'Tab 0 (current): Home', tabs: [], images: [], screenshot: null },
    feedback: null,
    history: [],
    memory: null,
    ...extra,
  });

  test("the answer is a secret to look for, even where the task's own port holds it", () => {
    assert.ok(towerSecrets.strings.includes('333'), JSON.stringify(towerSecrets));
    assert.ok(everywhere.towerSecrets.strings.includes('333'), JSON.stringify(everywhere.towerSecrets));
  });

  test("a port that contains another task's answer is not a leak", () => {
    for (const { lumen: task, towerSecrets: secrets } of [{ lumen, towerSecrets }, everywhere]) {
      const request = requestFor(task);
      assert.match(JSON.stringify(request.task), /:\d*333\d*\//, 'a port holds "333"');
      assert.deepEqual(leaksIn(request, secrets), []);
    }
    assert.deepEqual(leaksIn(requestFor(everywhere.tower), everywhere.towerSecrets), []);
  });

  test('the answer told outside the pages is a leak, wherever it is', () => {
    assert.deepEqual(leaksIn(requestFor(lumen, { memory: 'the tower is 333 m tall' }), towerSecrets), ['secret "333" outside the pages']);
    assert.deepEqual(leaksIn(requestFor(tower, { feedback: 'expected 333' }), towerSecrets), ['secret "333" outside the pages']);
    const told = leaksIn(requestFor(tower, { memory: { answers: [tower.hops[0].condition] } }), towerSecrets);
    assert.ok(told.includes('secret "333" outside the pages') && told.some((t) => t.startsWith('condition ')), JSON.stringify(told));
  });

  test('the answer on a page the agent read is not a leak', () => {
    const observation = { format: 'mmina', mode: 'text', url: tower.start_urls[0], text: "[4] StaticText 'Height: 333 m'", tabs: [], images: [], screenshot: null };
    assert.deepEqual(leaksIn(requestFor(tower, { observation }), towerSecrets), []);
  });

  test('a whole word is found next to punctuation, not inside a longer word or number', () => {
    assert.ok(holdsWord('"333 m"', '333'));
    assert.ok(holdsWord('height:333.', '333'));
    assert.ok(holdsWord('[kimchi fried rice]', 'kimchi fried rice'));
    assert.ok(holdsWord('at 23337 and then 333', '333'), 'a later whole occurrence counts');
    assert.ok(!holdsWord('127.0.0.1:23337/', '333'));
    assert.ok(!holdsWord('evergreen', 'green'));
    assert.ok(!holdsWord('greenish', 'green'));
  });
});
