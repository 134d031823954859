// The provider fault matrix, through real runs: the 3-hop task on the local test sites,
// the fake OpenAI-compatible server playing the agent (play-agent.mjs), the model
// settings saved on the options page with 2 tries per call and a 1 s timeout. Each
// fault is scripted on the fake server at step 1 and the test checks what a person
// sees afterwards, through GET_RUN, the side panel and the export:
//   - retried and gone on: 429 with Retry-After, one 500 (the step shows its tries);
//   - a no-op step with its reason: 500 on every try, a timeout on every try, a
//     malformed body, an empty reply, a reply without an action, an action on an id
//     the page does not have (the run then goes on and passes at steps 2, 3, 4);
//   - a clean end with status and reason: a model failing at every step (early stop),
//     a model that cannot be reached (connection refused).
// Every run ends within its bound, keeps steps 1..n once each, and the worker that
// started the matrix (a marker in its global scope) is the one that ends it.

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { FAKE_KEY, startFakeProviders } from './fake-providers.mjs';
import { launchExtension } from '../../runner/driver.mjs';
import { playAgent } from './play-agent.mjs';
import { threeHopTask } from './run-helpers.mjs';
import { runToEnd, saveOptions } from './run-outcome.mjs';
import { portOfServer, startSites } from './sites.mjs';

const AGENT = { text: playAgent };
/** Three good replies: the run passes at steps 1-3, or 2-4 after a no-op step 1. */
const GOOD = [AGENT, AGENT, AGENT];

/** A port nothing listens on: bound once by us, then released. */
async function closedPort() {
  const server = createServer();
  await /** @type {Promise<void>} */ (new Promise((ok) => server.listen(0, '127.0.0.1', () => ok())));
  const port = portOfServer(server);
  await new Promise((ok) => server.close(ok));
  return port;
}

describe('provider faults during runs', { timeout: 300_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').FakeProviders} */ let fake;
  /** @type {import('../types.mjs').Page} */ let options;

  const calls = () => fake.requests.filter((r) => r.api === 'openai');
  /** The user turn of the n-th model call (1-based). */
  const prompt = (/** @type {number} */ n) => calls()[n - 1].text.slice(calls()[n - 1].text.lastIndexOf('OBSERVATION:'));

  before(async () => {
    sites = await startSites({ names: ['wiki', 'events'] });
    fake = await startFakeProviders();
    ext = await launchExtension();
    options = await ext.openExtensionPage('options.html');
    await options.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('settings')).dataset.state === 'ready');
    await saveOptions(options, {
      baseUrl: fake.baseUrl('openai'),
      model: 'fake-agent',
      apiKey: FAKE_KEY,
      maxTries: 2,
      timeoutS: 1,
      maxSteps: 8,
      mode: 'text',
    });
    await ext.worker.evaluate(() => {
      /** @type {typeof globalThis & { faultMatrixMarker?: string }} */ (globalThis).faultMatrixMarker = 'the worker that started the matrix';
    });
  });

  after(async () => {
    await ext?.close();
    await fake?.close();
    await sites?.close();
  });

  /** Scripts the fake, runs the task to its end. */
  /**
   * @param {string} id
   * @param {import('./fake-providers.mjs').ScriptEntry[]} script
   */
  async function faultRun(id, script) {
    fake.reset();
    fake.script(...script);
    const taskText = threeHopTask(sites, { id, reference: false });
    return runToEnd(options, ext, { taskText, fileName: `${id.replace(/\W+/g, '-')}.json` });
  }

  /**
   * @param {import('../types.mjs').Json} run GET_RUN's view
   * @param {number[]} hopSteps
   */
  function assertPassedAt(run, hopSteps) {
    assert.equal(run.status, 'finished', JSON.stringify(run));
    assert.equal(run.verdict.passed, true, JSON.stringify(run.verdict));
    assert.deepEqual(run.verdict.hop_steps, hopSteps);
  }

  /** Step 1 was a no-op because of the model call: recorded, explained, shown. */
  /**
   * @param {Awaited<ReturnType<typeof runToEnd>>} result
   * @param {string} kind
   * @param {number} tries
   */
  function assertFailedCallStep(result, kind, tries) {
    const [first] = result.steps;
    assert.equal(first.reply, null);
    assert.equal(first.action, null);
    assert.equal(first.result, null);
    assert.equal(first.model_error.error.kind, kind);
    assert.equal(first.model_error.attempts.length, tries);
    assert.match(first.note, new RegExp(`^the model call failed \\(${kind}\\)`));
    const shown = result.panel.steps[0];
    assert.equal(shown.outcome, 'error');
    assert.equal(shown.action, '(no action)');
    assert.equal(shown.error, first.model_error.error.message);
    assert.equal(shown.note, first.note);
    assert.equal(shown.hint, first.model_error.error.hint, 'what to change is shown with the step');
    return first;
  }

  test('429 with Retry-After: the call waits as told, is retried, and the run goes on', async () => {
    const r = await faultRun('faults/429', [{ status: 429, retryAfter: '1', message: 'Rate limit reached' }, ...GOOD]);
    assertPassedAt(r.run, [1, 2, 3]);
    const { attempts } = r.steps[0].reply;
    assert.equal(attempts.length, 1);
    assert.equal(attempts[0].kind, 'rate_limited');
    assert.equal(attempts[0].delay_ms, 1000);
    assert.match(attempts[0].message, /Rate limit reached/);
    assert.ok(calls()[1].at - calls()[0].at >= 950, 'the retry waited for Retry-After');
    assert.match(/** @type {string} */ (r.panel.steps[0].attempts), /1 failed try before the reply: rate_limited, retried after 1 s/);
    assert.equal(r.panel.steps[0].outcome, 'ok');
    assert.equal(r.panel.steps[1].attempts, null, 'a step without retries shows none');
  });

  test('one 500: retried after the backoff, and the run goes on', async () => {
    const r = await faultRun('faults/500-once', [{ status: 500, message: 'The server had an error' }, ...GOOD]);
    assertPassedAt(r.run, [1, 2, 3]);
    assert.deepEqual(r.steps[0].reply.attempts.map((/** @type {import('../types.mjs').Json} */ a) => [a.kind, a.delay_ms]), [['server', 1000]]);
    assert.match(/** @type {string} */ (r.panel.steps[0].attempts), /server, retried after 1 s/);
  });

  test('500 on every try: a no-op step saying so, then the run goes on', async () => {
    const r = await faultRun('faults/500-always', [{ status: 500 }, { status: 500 }, ...GOOD]);
    const first = assertFailedCallStep(r, 'server', 2);
    assert.match(first.model_error.error.message, /HTTP 500.*gave up after 2 tries/);
    assert.match(/** @type {string} */ (r.panel.steps[0].attempts), /2 failed tries: server, retried after 1 s; server/);
    assertPassedAt(r.run, [2, 3, 4]);
  });

  test('a timeout on every try: a no-op step, the requests cancelled, nothing hangs', async () => {
    const slow = { text: playAgent, delayMs: 20_000 };
    const r = await faultRun('faults/timeout', [slow, slow, ...GOOD]);
    const first = assertFailedCallStep(r, 'timeout', 2);
    assert.match(first.model_error.error.hint, /Raise the call timeout/);
    assert.deepEqual(calls().slice(0, 2).map((c) => c.aborted), [true, true], 'both tries were abandoned');
    assertPassedAt(r.run, [2, 3, 4]);
    assert.ok(r.elapsedMs < 20_000, `the run did not wait for the slow server (${r.elapsedMs} ms)`);
  });

  test('a malformed body: not retried, a no-op step, then the run goes on', async () => {
    const r = await faultRun('faults/malformed', [{ malformed: true }, ...GOOD]);
    const first = assertFailedCallStep(r, 'malformed', 1);
    assert.match(first.model_error.error.hint, /check that the provider matches the server/);
    assertPassedAt(r.run, [2, 3, 4]);
  });

  test('an empty reply: a no-op step, then the run goes on', async () => {
    const r = await faultRun('faults/empty', [{ empty: true }, ...GOOD]);
    const first = assertFailedCallStep(r, 'empty', 1);
    assert.equal(first.model_error.error.message, 'the reply has no choices');
    assertPassedAt(r.run, [2, 3, 4]);
  });

  test('a reply without an action: a no-op step, the next prompt says why', async () => {
    const r = await faultRun('faults/no-action', [{ text: 'I would like to look around first.' }, ...GOOD]);
    const [first] = r.steps;
    assert.equal(first.reply.text, 'I would like to look around first.');
    assert.equal(first.action, null);
    assert.equal(first.result, null);
    assert.match(first.note, /^malformed reply: /);
    assert.equal(r.panel.steps[0].note, first.note);
    assert.equal(r.panel.steps[0].action, '(no action)');
    assert.match(prompt(2), /\nFEEDBACK: /);
    assert.doesNotMatch(prompt(3), /\nFEEDBACK: /, 'the feedback is given once');
    assertPassedAt(r.run, [2, 3, 4]);
  });

  test('an action on an id the page does not have: a step with the error, the next prompt names it', async () => {
    const missing = "Let's think step-by-step. In summary, the next action I will perform is ```click [9999]```";
    const r = await faultRun('faults/missing-id', [{ text: missing }, ...GOOD]);
    const [first] = r.steps;
    assert.equal(first.action.text, 'click [9999]');
    assert.match(first.result.error, /no element \[9999\]/);
    assert.equal(r.panel.steps[0].outcome, 'error');
    assert.equal(r.panel.steps[0].error, first.result.error);
    assert.match(prompt(2), /\nFEEDBACK: .*\[9999\]/);
    assertPassedAt(r.run, [2, 3, 4]);
  });

  test('a model failing at every step: early stop after 3 no-op steps, the reason names the failure', async () => {
    const r = await faultRun('faults/500-forever', Array.from({ length: 6 }, () => ({ status: 503, message: 'overloaded' })));
    assert.equal(r.run.status, 'finished');
    assert.equal(r.run.cause, 'early_stop');
    // The rule by name beside the sentence, for readers that should not parse it.
    assert.deepEqual([r.run.rule, r.run.callErrorKind, r.run.errorKind], ['parse_failures', null, null]);
    assert.match(r.run.reason, /^Early stop: the last 3 steps gave no action \(the last: the model call failed \(server\): .*HTTP 503.*overloaded/);
    assert.deepEqual(r.steps.map((/** @type {import('../types.mjs').Json} */ s) => s.model_error?.error.kind), ['server', 'server', 'server']);
    assert.equal(r.run.verdict.passed, false);
    assert.match(/** @type {string} */ (r.panel.status), /^finished: Early stop: .*HTTP 503/);
    assert.equal(calls().length, 6, 'no call after the early stop');
  });

  test('a model that cannot be reached: the run ends at once, saying why and what to check', async () => {
    const port = await closedPort();
    await saveOptions(options, { baseUrl: `http://127.0.0.1:${port}/v1` });
    try {
      const r = await faultRun('faults/unreachable', []);
      assert.equal(r.run.status, 'error', JSON.stringify(r.run));
      assert.equal(r.run.cause, 'model_unavailable');
      // The failed call's kind by name; not the harness's end.
      assert.deepEqual([r.run.callErrorKind, r.run.rule, r.run.errorKind], ['network', null, null]);
      assert.match(r.run.reason, new RegExp(`^the run cannot go on: the model call failed \\(network\\): could not reach http://127\\.0\\.0\\.1:${port}/`));
      assert.match(r.run.reason, /gave up after 2 tries/);
      assert.match(r.run.error, new RegExp(`Nothing answered at http://127\\.0\\.0\\.1:${port}/v1: is the local server running`));
      assert.equal(r.run.verdict.passed, false);
      assert.equal(r.steps.length, 1, 'the failed step is recorded, no other is started');
      assertFailedCallStep(r, 'network', 2);
      assert.match(/** @type {string} */ (r.panel.status), /^error: /);
      assert.equal(r.panel.error, r.run.error);
      assert.equal(calls().length, 0);
    } finally {
      await saveOptions(options, { baseUrl: fake.baseUrl('openai'), apiKey: FAKE_KEY });
    }
  });

  test('the worker never crashed and nothing logged an error', async () => {
    assert.equal(await ext.worker.evaluate(() => /** @type {typeof globalThis & { faultMatrixMarker?: string }} */ (globalThis).faultMatrixMarker), 'the worker that started the matrix');
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
