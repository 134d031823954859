// The wasm boundary of model calls: `model_call` from the built core, run in an
// extension page (same wasm, same fetch and AbortSignal as the worker) against the
// fake providers. Covers what the options page cannot reach: image parts, usage,
// and Stop (the caller's AbortSignal) ending a slow fetch or a backoff wait.

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { FAKE_KEY, startFakeProviders } from './fake-providers.mjs';
import { launchExtension } from '../../runner/driver.mjs';

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+P+/HgAFhAJ/wlseKgAAAABJRU5ErkJggg==';

const REQUEST = {
  system: 'You are a web agent.',
  messages: [
    { role: 'user', parts: [{ type: 'text', text: 'OBSERVATION: [1] link "Home"' }] },
    { role: 'assistant', parts: [{ type: 'text', text: '```click [1]```' }] },
    {
      role: 'user',
      parts: [
        { type: 'text', text: 'OBSERVATION: [7] image "logo"' },
        { type: 'image', mime: 'image/png', base64: PNG_1X1 },
      ],
    },
  ],
  temperature: 0,
  max_tokens: 200,
};

/**
 * Runs model_call in the page. `abortAfterMs` aborts the signal that long after the
 * call starts (Stop). Returns the outcome and how long the call took.
 * @param {import('../types.mjs').Page} page
 * @param {{ config: object, request?: object, options?: object, abortAfterMs?: number | null }} call
 *   `request`: REQUEST by default; a test sends a malformed one on purpose
 */
function modelCall(page, { config, request = REQUEST, options = {}, abortAfterMs = null }) {
  return page.evaluate(
    async ({ config, request, options, abortAfterMs }) => {
      const core = /** @type {import('../types.mjs').Json} (the wasm core's glue, built into dist/pkg) */ (await import(/** @type {string} */ ('./pkg/hopbench.js')));
      await core.default();
      const controller = new AbortController();
      if (abortAfterMs !== null) setTimeout(() => controller.abort(), abortAfterMs);
      const started = performance.now();
      const outcome = await core.model_call(config, request, options, controller.signal);
      return { outcome, ms: performance.now() - started };
    },
    { config, request, options, abortAfterMs },
  );
}

describe('model_call at the wasm boundary', { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').FakeProviders} */ let fake;
  /** @type {import('../types.mjs').Page} */ let page;
  /** @param {string} api @param {object} [extra] */
  const config = (api, extra = {}) => ({
    provider: api,
    base_url: fake.baseUrl(api),
    model: `${api}-model`,
    api_key: FAKE_KEY,
    ...extra,
  });

  before(async () => {
    ext = await launchExtension();
    fake = await startFakeProviders();
    page = await ext.openExtensionPage('options.html');
  });

  after(async () => {
    await ext?.close();
    await fake?.close();
  });

  beforeEach(() => fake.reset());

  for (const api of ['openai', 'anthropic', 'gemini']) {
    test(`${api}: history and an image arrive as the API expects; usage comes back`, async () => {
      fake.script({ text: '```stop [done]```', usage: { input_tokens: 321, output_tokens: 9 } });
      const { outcome } = await modelCall(page, { config: config(api) });
      assert.deepEqual(outcome, {
        ok: true,
        reply: { text: '```stop [done]```', usage: { input_tokens: 321, output_tokens: 9, cached_input_tokens: 0 } },
        attempts: [],
      });
      const [request] = fake.requests;
      assert.deepEqual(request.problems, []);
      assert.deepEqual(request.images, [{ mime: 'image/png', bytes: 70 }]);
      assert.equal(
        request.text,
        ['You are a web agent.', 'OBSERVATION: [1] link "Home"', '```click [1]```', 'OBSERVATION: [7] image "logo"'].join('\n'),
      );
    });
  }

  test('Stop during a slow reply ends the call at once as cancelled', async () => {
    fake.script({ delayMs: 10_000, text: 'too late' });
    const { outcome, ms } = await modelCall(page, { config: config('openai'), abortAfterMs: 300 });
    assert.equal(outcome.ok, false);
    assert.equal(outcome.error.kind, 'cancelled');
    assert.equal(outcome.error.message, 'the call was stopped');
    assert.ok(ms < 2_000, `took ${ms} ms`);
    // The fetch itself was aborted: the server sees the client hang up.
    await fake.waitUntil(() => fake.requests[0]?.aborted === true);
  });

  test('Stop during the wait before a retry ends it without another try', async () => {
    fake.script({ status: 429, retryAfter: '30' }, { text: 'never asked for' });
    const { outcome, ms } = await modelCall(page, { config: config('gemini'), abortAfterMs: 500 });
    assert.ok(ms < 2_500, `took ${ms} ms: the 30 s wait was not cut short`);
    assert.equal(outcome.error.kind, 'cancelled');
    assert.deepEqual(outcome.attempts.map((/** @type {import('../types.mjs').Json} */ a) => [a.kind, a.delay_ms]), [
      ['rate_limited', 30_000],
      ['cancelled', null],
    ]);
    assert.equal(fake.requests.length, 1);
  });

  test('a Retry-After longer than the policy allows fails now and says how long', async () => {
    fake.script({ status: 503, retryAfter: '3600', message: 'maintenance' });
    const { outcome, ms } = await modelCall(page, { config: config('anthropic') });
    assert.ok(ms < 2_000, `took ${ms} ms`);
    assert.equal(outcome.error.kind, 'server');
    assert.match(outcome.error.message, /HTTP 503 .*maintenance/);
    assert.equal(outcome.attempts.length, 1);
  });

  test('max_tries from the options bounds the tries', async () => {
    fake.script({ status: 502 }, { status: 502 }, { text: 'not reached' });
    const { outcome } = await modelCall(page, { config: config('openai'), options: { max_tries: 2 } });
    assert.equal(outcome.error.kind, 'server');
    assert.match(outcome.error.message, /gave up after 2 tries/);
    assert.equal(fake.requests.length, 2);
  });

  test('bad settings and bad arguments resolve to a config error; nothing is sent', async () => {
    const noKey = await modelCall(page, { config: config('anthropic', { api_key: '' }) });
    assert.equal(noKey.outcome.error.kind, 'config');
    assert.equal(noKey.outcome.error.message, 'no API key is set for Anthropic');
    const notARequest = await modelCall(page, { config: config('openai'), request: { messages: 'hi' } });
    assert.equal(notARequest.outcome.ok, false);
    assert.equal(notARequest.outcome.error.kind, 'config');
    assert.match(notARequest.outcome.error.message, /^invalid request: /);
    assert.equal(fake.requests.length, 0);
  });

  test("nothing but Chrome's own network notices was logged as an error", () => {
    // A page's console shows "Failed to load resource: ... 429" for every error
    // status a fetch receives; that is the browser reporting the scripted faults.
    const ours = ext.errors.filter((e) => !e.text.startsWith('Failed to load resource: the server responded'));
    assert.deepEqual(ours, [], ext.describeErrors());
    assert.ok(ext.errors.length > 0, 'the scripted error statuses were seen by the page');
  });
});
