// A run survives its service worker being stopped in the middle of an action: the act
// that had started is not repeated (the page is requested once), the machine is told
// the worker stopped during it, and the run goes on to PASS with every step recorded
// once. Also: with nothing else happening, the backstop alarm wakes the worker.
//
// The test site holds the response of the page the action navigates to, so the
// worker is stopped while the action is certainly in flight.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { rmSync } from 'node:fs';
import { PROFILE_REMOVAL, launchExtension, newProfileDir, sendOk } from '../../runner/driver.mjs';
import { runFromPopup, store, threeHopTask, waitForHeldRequest, waitForRunEnd } from './run-helpers.mjs';
import { startSites } from './sites.mjs';
import { workerControl } from './worker-control.mjs';

const INTERRUPTED = 'the worker stopped while the action ran; its effect is what the page now shows';

describe('a run resumes after its worker is stopped mid-action', { timeout: 180_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let popup;
  /** @type {import('../types.mjs').WorkerControl} */ let worker;

  /** The driver's record of a run, read from storage (which does not wake the worker). */
  const driverRecord = (/** @type {string} */ runId) =>
    popup.evaluate(async (key) => /** @type {import('../types.mjs').Json} */ ((await chrome.storage.local.get(key))[key]) ?? null, `run.${runId}`);
  const towerRequests = () => sites.requests.filter((r) => r.site === 'wiki' && r.path === '/Tokyo_Tower.html').length;

  before(async () => {
    sites = await startSites({ names: ['wiki', 'events'] });
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
    worker = await workerControl(popup);
  });

  after(async () => {
    await worker?.detach();
    await ext?.close();
    await sites?.close();
  });

  /**
   * Starts the 3-hop replay run with Tokyo_Tower.html held; returns once the act of step 1 began.
   * @param {string} id
   */
  async function startHeld(id) {
    const held = sites.hold('wiki', '/Tokyo_Tower.html');
    const requestsBefore = towerRequests();
    const runId = await runFromPopup(popup, { taskText: threeHopTask(sites, { id }), fileName: `${id.split('/')[1]}.json`, agent: 'replay' });
    await waitForHeldRequest(popup, runId, held);
    const record = await driverRecord(runId);
    assert.equal(record.actStarted, 1, `step 1's act has begun: ${JSON.stringify(record.pending)}`);
    await worker.stop();
    return { runId, held, requestsBefore };
  }

  /**
   * @param {string} runId
   * @param {number} requestsBefore
   */
  async function assertResumedRun(runId, requestsBefore) {
    const run = await waitForRunEnd(popup, runId);
    assert.equal(run.status, 'finished', JSON.stringify(run));
    assert.equal(run.verdict.passed, true, JSON.stringify(run.verdict));
    assert.deepEqual(run.verdict.hop_steps, [1, 2, 3]);
    assert.equal(towerRequests() - requestsBefore, 1, 'the interrupted click was not repeated');
    const steps = await store(popup, 'getSteps', runId);
    assert.deepEqual(steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2, 3], 'every step once, no gap');
    assert.equal(steps[0].result.error, INTERRUPTED);
    assert.equal(steps[1].result.error, null);
    assert.match(steps[1].observation.url, /Tokyo_Tower\.html$/, 'step 2 saw the page the interrupted click led to');
  }

  test('woken by a page message: the started act is fed back, not repeated', async () => {
    const { runId, held, requestsBefore } = await startHeld('e2e/resume-message');
    // What a page does anyway (the side panel asks for the run): this wakes the worker.
    const { run } = await sendOk(popup, 'getRun', { runId });
    assert.equal(run.status, 'running');
    held.release();
    await assertResumedRun(runId, requestsBefore);
  });

  test('woken by nothing but the backstop alarm', async () => {
    const { runId, held, requestsBefore } = await startHeld('e2e/resume-alarm');
    assert.ok(
      await popup.evaluate(async () => Boolean(await chrome.alarms.get('hopbench.run-backstop'))),
      'a running run keeps the backstop alarm',
    );
    // No message, no navigation (the page is held): only the alarm can start the worker.
    await worker.waitUntilRunning(40_000);
    held.release();
    await assertResumedRun(runId, requestsBefore);
  });

  test('the alarm is cleared once no run is left', async () => {
    // The driver clears it right after it stores the finished run, so a reader of the
    // finished run may be a moment early: it must be gone within a few seconds.
    const gone = await popup
      .waitForFunction(async () => (await chrome.alarms.get('hopbench.run-backstop')) === undefined, null, { timeout: 5000, polling: 100 })
      .then(() => true, () => false);
    assert.equal(gone, true, `the alarm is still set: ${JSON.stringify(await popup.evaluate(async () => (await chrome.alarms.get('hopbench.run-backstop')) ?? null))}`);
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});

describe('a run cut short by closing the browser', { timeout: 120_000 }, () => {
  const profileDir = newProfileDir();
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;

  before(async () => {
    sites = await startSites({ names: ['wiki', 'events'] });
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
    rmSync(profileDir, PROFILE_REMOVAL);
  });

  test('ends as error on the next start, keeping the steps it recorded', async () => {
    ext = await launchExtension({ profileDir });
    let popup = await ext.openExtensionPage('popup.html');
    // Step 2 clicks through to the events site; its page is held, so the browser
    // closes while step 2's act is in flight and step 1 is recorded.
    const held = sites.hold('events', '/');
    const runId = await runFromPopup(popup, { taskText: threeHopTask(sites, { id: 'e2e/closed' }), fileName: 'closed.json', agent: 'replay' });
    await waitForHeldRequest(popup, runId, held);
    await ext.close();
    held.release();

    ext = await launchExtension({ profileDir });
    popup = await ext.openExtensionPage('popup.html');
    const run = await waitForRunEnd(popup, runId);
    assert.equal(run.status, 'error');
    assert.equal(run.cause, 'interrupted');
    assert.match(run.error, /^interrupted by browser exit: .*the steps recorded before are kept$/);
    assert.equal(run.errorKind, 'browser_exit');
    // Step 2 had its observation and its action under way: it is recorded as it stood.
    const steps = await store(popup, 'getSteps', runId);
    assert.deepEqual(steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2]);
    assert.equal(steps[1].note, run.error);
    assert.match(steps[1].action.text, /^click \[\d+\]$/);
    assert.equal(steps[1].result, null, 'the action never reported back');
    const { trajectory } = await sendOk(popup, 'exportRun', { runId });
    assert.deepEqual(trajectory.steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2]);
    assert.equal(
      await popup.evaluate(async (key) => /** @type {import('../types.mjs').Json} */ ((await chrome.storage.local.get(key))[key]) ?? null, `run.${runId}`),
      null,
      'the driver record is gone',
    );
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
