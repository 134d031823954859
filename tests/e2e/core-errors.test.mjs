// The errors the wasm core's exports throw, as JavaScript receives them from the built
// core (run in an extension page, the same wasm as the worker's): an `Error` whose
// `message` says what is wrong and whose `kind` says what it is about, one of the
// core's CORE_ERROR_KINDS (extension/core-terms.js), so callers need not read the words.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CORE_ERROR_KINDS } from '../../extension/core-terms.js';
import { launchExtension } from '../../runner/driver.mjs';

const TASK = JSON.stringify({
  id: 'e2e/errors',
  intent: 'Find the tower.',
  start_urls: ['http://127.0.0.1:9/'],
  hops: [{ condition: { kind: 'url', op: 'contains', value: 'tower' } }],
});

describe('errors thrown across the wasm boundary', { timeout: 60_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Page} */ let page;

  before(async () => {
    ext = await launchExtension();
    page = await ext.openExtensionPage('runs.html');
  });

  after(async () => {
    await ext?.close();
  });

  test('each carries its message and the kind of what went wrong', async () => {
    const thrown = await page.evaluate(async (task) => {
      const core = /** @type {import('../types.mjs').Json} (the wasm core's glue, built into dist/pkg) */ (await import(/** @type {string} */ ('./pkg/hopbench.js')));
      await core.default();
      /** @param {() => unknown} call */
      const caught = (call) => {
        try {
          call();
          return null;
        } catch (error) {
          const e = /** @type {Error & { kind?: unknown }} */ (error);
          return { isError: e instanceof Error, kind: e.kind ?? null, message: e.message };
        }
      };
      return {
        task: caught(() => core.agent_start('{"id": "x"', 'broken.json', {})),
        replay: caught(() => core.agent_start(task, 'task.json', { replay: true })),
        config: caught(() => core.agent_start(task, 'task.json', { max_steps: 0 })),
        grounding: caught(() => core.agent_start(task, 'task.json', { agent: 'modular', observation_mode: 'text', modular: { grounding: 'visual' } })),
        state: caught(() => core.agent_feed('not a state', { kind: 'stop_requested', reason: 'x' })),
        input: caught(() => core.agent_feed(core.agent_start(task, 'task.json', {}).state, { kind: 'no_such_event' })),
        action: caught(() => core.parse_action('click [')),
        element: caught(() => core.resolve_element('{"nextId": 1, "elements": []}', 7)),
        trackerState: caught(() => core.tracker_progress('{}')),
        siteLists: caught(() => core.site_list_problems('[1]')),
      };
    }, TASK);
    /** @type {Record<string, [string, RegExp]>} */
    const expected = {
      task: ['task', /^the task could not be read: /],
      replay: ['task', /^task e2e\/errors has no reference_trajectory; replay needs one$/],
      config: ['config', /^the agent settings are not valid: max_steps must be at least 1$/],
      grounding: ['config', /modular\.grounding visual needs pictures/],
      state: ['state', /^the stored agent state is unreadable/],
      input: ['input', /^the event is not valid: /],
      action: ['action', /./],
      element: ['element', /^no element \[7\] on the page/],
      trackerState: ['state', /^the stored hop state is unreadable/],
      siteLists: ['config', /^site lists are not valid: /],
    };
    for (const [name, [kind, message]] of Object.entries(expected)) {
      const error = thrown[/** @type {keyof typeof thrown} */ (name)];
      assert.ok(error, `${name}: nothing was thrown`);
      assert.equal(error.isError, true, `${name}: an Error`);
      assert.equal(error.kind, kind, `${name}: ${error.message}`);
      assert.match(error.message, message, name);
      assert.ok(CORE_ERROR_KINDS.includes(error.kind), `${name}: ${error.kind} is one of the core's kinds`);
    }
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
