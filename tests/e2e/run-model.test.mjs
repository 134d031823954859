// Agent runs with a model: the fake OpenAI-compatible server plays the agent (it reads
// the observation in each prompt and clicks the link that leads to the next hop).
//   - the 3-hop task run from the popup reaches PASS; its distinctive API key, typed on
//     the options page, goes out in the authorization header and nowhere else: not in
//     any page's DOM, console message, storage, IndexedDB, export or downloaded file,
//     nor in the requests' bodies;
//   - Stop during a model call cancels the call and ends the run as stopped;
//   - survival: the worker is stopped three times mid-run (twice during a model call,
//     once during an action) and the run still reaches PASS with steps 1..3 once each.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFakeProviders } from './fake-providers.mjs';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { ROUTE, playAgent } from './play-agent.mjs';
import { runFromPopup, store, threeHopTask, waitForHeldRequest, waitForRunEnd } from './run-helpers.mjs';
import { saveOptions } from './run-outcome.mjs';
import { downloadedText, pageText, placesHolding, storageDump } from './secret-scan.mjs';
import { startSites } from './sites.mjs';
import { workerControl } from './worker-control.mjs';

describe('agent runs with a model (fake OpenAI-compatible server)', { timeout: 240_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').FakeProviders} */ let fake;
  /** @type {import('../types.mjs').Page} */ let popup;
  /** @type {import('../types.mjs').WorkerControl} */ let worker;

  /** @type {import('../types.mjs').Page} */ let options;
  /** This file's API key: distinctive, so finding it anywhere is no coincidence. */
  const SECRET = `sk-hopbench-run-secret-${Date.now()}-${Math.random().toString(36).slice(2)}`;

  const modelRequests = () => fake.requests.filter((r) => r.api === 'openai');

  before(async () => {
    sites = await startSites({ names: ['wiki', 'events'] });
    fake = await startFakeProviders({ apiKey: SECRET });
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
    worker = await workerControl(popup);
    await sendOk(popup, 'saveSettings', {
      settings: {
        model: { provider: 'openai', base_url: fake.baseUrl('openai'), model: 'fake-agent', temperature: 0, max_tokens: 512 },
        max_tries: 2,
        call_timeout_ms: 120_000,
      },
      // Screenshots go to the model as images and into the trajectory as media.
      observation: { mode: 'text+screenshot' },
    });
    // The key is typed on the options page, as a person does.
    options = await ext.openExtensionPage('options.html');
    await options.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('settings')).dataset.state === 'ready');
    await saveOptions(options, { apiKey: SECRET });
  });

  after(async () => {
    await worker?.detach();
    await ext?.close();
    await fake?.close();
    await sites?.close();
  });

  test('run from the popup: PASS, hops at steps 1, 2, 3, tokens counted', async () => {
    fake.reset();
    fake.script(...ROUTE.map(() => ({ text: playAgent, usage: { input_tokens: 100, output_tokens: 20 } })));
    const runId = await runFromPopup(popup, { taskText: threeHopTask(sites, { reference: false }), agent: 'model' });
    const run = await waitForRunEnd(popup, runId);
    assert.equal(run.status, 'finished', JSON.stringify(run));
    assert.equal(run.verdict.passed, true, JSON.stringify(run.verdict));
    assert.deepEqual(run.verdict.hop_steps, [1, 2, 3]);
    assert.equal(run.provider, 'openai');
    assert.deepEqual(run.tokens, { input: 300, output: 60, cached_input: 0 });
    assert.equal(modelRequests().length, 3);

    const { steps } = await sendOk(popup, 'getRun', { runId, withSteps: true });
    assert.deepEqual(steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2, 3]);
    for (const step of steps) {
      assert.match(step.reply.text, /In summary, the next action I will perform is/);
      assert.equal(typeof step.timings.model_ms, 'number');
      assert.equal(step.result.error, null);
    }
    assert.ok(modelRequests().every((r) => r.images.length === 1 && r.images[0].mime === 'image/png'), 'each call carried the screenshot');
    const { trajectory } = await sendOk(popup, 'exportRun', { runId });
    assert.deepEqual(trajectory.steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2, 3]);
    for (const step of trajectory.steps) {
      const media = trajectory.media[step.observation.screenshot];
      assert.ok(media, `step ${step.step}'s screenshot ${step.observation.screenshot} is in the export`);
      assert.equal(media.kind, 'screenshot');
      assert.match(media.dataUrl, /^data:image\/png;base64,iVBORw0KGgo/);
    }
    assert.equal(trajectory.settings.agent.model.base_url, fake.baseUrl('openai'));
    await assertKeyOnlyInAuthHeader(runId, { trajectory, steps });
  });

  /**
   * After a run: the key went out in the header, and appears nowhere else.
   * @param {string} runId
   * @param {{ trajectory: import('../types.mjs').Json, steps: import('../types.mjs').Json[] }} run what the run left
   */
  async function assertKeyOnlyInAuthHeader(runId, { trajectory, steps }) {
    const requests = modelRequests();
    assert.ok(requests.length > 0);
    assert.ok(requests.every((r) => r.headers.authorization === `Bearer ${SECRET}`), 'each call sent the saved key');

    const panel = await ext.openExtensionPage(`sidepanel.html?run=${runId}`);
    // The run has ended when the panel shows its outcome (PASS, FAIL, ERROR or STOPPED).
    await panel.waitForSelector('#verdict-slot .verdict:not([data-outcome="pending"])');
    const runsList = await ext.openExtensionPage('runs.html');
    await runsList.waitForSelector(`tr[data-run-id="${runId}"]`);
    const runPage = await ext.openExtensionPage(`runs.html?run=${runId}`);
    await runPage.waitForSelector('.run .steps');
    const file = await downloadedText(runPage, '#detail-export');
    assert.match(file.name, /^hopbench-run-.*\.json$/);
    assert.deepEqual(JSON.parse(file.text).steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), trajectory.steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), 'the real file');

    // The scan must be able to see the key where it is kept, and see both consoles.
    const storage = await storageDump(popup);
    assert.ok(storage.settingsAgent.includes(SECRET), 'the key is saved where the scan reads');
    await ext.worker.evaluate(() => console.log('console probe: worker'));
    await panel.evaluate(() => console.log('console probe: side panel'));
    await panel.waitForTimeout(200);
    const consoleText = ext.consoleMessages.map((m) => `[${m.source} ${m.kind}] ${m.text}`).join('\n');
    assert.match(consoleText, /\[service-worker log\] console probe: worker/);
    assert.match(consoleText, /\[page log\] console probe: side panel/);

    const places = {
      'popup DOM': await pageText(popup),
      'options page DOM': await pageText(options),
      'side panel DOM': await pageText(panel),
      'runs page DOM': await pageText(runsList),
      'run page DOM': await pageText(runPage),
      'console messages (worker and pages)': consoleText,
      'GET_RUN steps': JSON.stringify(steps),
      'EXPORT_RUN trajectory': JSON.stringify(trajectory),
      'downloaded trajectory file': file.text,
      'chrome.storage.session': storage.session,
      'chrome.storage.local (settings.agent aside)': storage.local,
      IndexedDB: storage.indexedDb,
      'request bodies and URLs': requests.map((r) => `${r.path}\n${JSON.stringify(r.body)}`).join('\n'),
      'request headers but authorization': requests
        .map((r) => JSON.stringify({ ...r.headers, authorization: undefined }))
        .join('\n'),
    };
    assert.deepEqual(placesHolding(SECRET, places), [], 'the key leaked into these places');
    for (const page of [panel, runsList, runPage]) await page.close();
  }

  test('Stop during a model call cancels it and ends the run as stopped', async () => {
    fake.reset();
    fake.script({ text: playAgent, delayMs: 60_000 });
    const runId = await runFromPopup(popup, { taskText: threeHopTask(sites, { id: 'e2e/stop-model', reference: false }), agent: 'model' });
    await fake.waitForRequests(1, 30_000);
    const started = Date.now();
    const { run } = await sendOk(popup, 'stopRun', { runId });
    assert.ok(Date.now() - started < 5_000, 'Stop did not wait for the model');
    assert.equal(run.status, 'stopped', JSON.stringify(run));
    const steps = await store(popup, 'getSteps', runId);
    assert.deepEqual(steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1], 'the observed step is recorded as it stands');
    assert.equal(steps[0].reply, null);
    assert.equal(steps[0].action, null);
    const deadline = Date.now() + 5_000;
    while (!modelRequests()[0].aborted && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(modelRequests()[0].aborted, true, 'the HTTP request was cancelled');
  });

  test('survival: the worker stopped three times mid-run; PASS with steps 1..3 once each', async () => {
    fake.reset();
    // Steps 1 and 3: the first call is held until the worker is stopped under it; the
    // resumed worker asks again and gets the second entry at once.
    fake.script(
      { text: playAgent, delayMs: 60_000 },
      { text: playAgent },
      { text: playAgent },
      { text: playAgent, delayMs: 60_000 },
      { text: playAgent },
    );
    const held = sites.hold('events', '/'); // step 2's click leads there
    const eventsVisits = () => sites.requests.filter((r) => r.site === 'events' && r.path === '/').length;
    const visitsBefore = eventsVisits();
    const runId = await runFromPopup(popup, { taskText: threeHopTask(sites, { id: 'e2e/survival', reference: false }), agent: 'model' });
    const wake = () => sendOk(popup, 'getRun', { runId }); // what the side panel does anyway

    await fake.waitForRequests(1, 30_000);
    await worker.stop(); // 1: during step 1's model call
    await wake();

    await waitForHeldRequest(popup, runId, held);
    await worker.stop(); // 2: during step 2's click (its page is held)
    await wake();
    held.release();

    await fake.waitForRequests(4, 30_000);
    await worker.stop(); // 3: during step 3's model call
    await wake();

    const run = await waitForRunEnd(popup, runId);
    assert.equal(run.status, 'finished', JSON.stringify(run));
    assert.equal(run.verdict.passed, true, JSON.stringify(run.verdict));
    assert.deepEqual(run.verdict.hop_steps, [1, 2, 3]);
    const steps = await store(popup, 'getSteps', runId);
    assert.deepEqual(steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2, 3], 'steps 1..n, no gap, no duplicate');
    assert.equal(steps[1].result.error, 'the worker stopped while the action ran; its effect is what the page now shows');
    assert.equal(modelRequests().length, 5, 'the two interrupted calls were issued again, nothing more');
    assert.deepEqual(modelRequests().map((r) => r.aborted), [true, false, false, true, false]);
    assert.equal(eventsVisits() - visitsBefore, 1, 'the interrupted click was not repeated');
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
