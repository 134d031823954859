// Stop: a running run cannot be deleted; Stop (the popup's button) ends it as
// `stopped` once the action in flight has finished, keeping what it recorded.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, send, sendOk } from '../../runner/driver.mjs';
import { runFromPopup, store, threeHopTask, waitForHeldRequest } from './run-helpers.mjs';
import { startSites } from './sites.mjs';

describe('stopping a run', { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let popup;

  before(async () => {
    sites = await startSites({ names: ['wiki', 'events'] });
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('during an action: the action ends, its step is recorded, the run is stopped', async () => {
    // Step 2's page is held: the run is certainly in step 2's act when Stop comes.
    const held = sites.hold('events', '/');
    const runId = await runFromPopup(popup, { taskText: threeHopTask(sites, { id: 'e2e/stop' }), fileName: 'stop.json', agent: 'replay' });
    await waitForHeldRequest(popup, runId, held);

    const refused = await send(popup, 'deleteRun', { runId });
    assert.equal(refused.ok, false);
    assert.match(refused.error, /still running: stop it first/);

    await popup.waitForSelector('#stop:not([disabled])');
    await popup.locator('#stop').click();
    // The act waits for its navigation; let the page come so the act can end.
    setTimeout(() => held.release(), 500);
    await popup.waitForFunction(() => /^Last run: STOPPED · .* · Stopped by the person\.$/.test(String(/** @type {HTMLElement} */ (document.getElementById('run-status')).textContent)), null, {
      timeout: 20_000,
    });

    const { run, steps } = await sendOk(popup, 'getRun', { runId, withSteps: true });
    assert.equal(run.status, 'stopped', JSON.stringify(run));
    assert.equal(run.cause, 'stopped');
    assert.match(run.reason, /stopped by the person/);
    assert.deepEqual(steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2], 'the step in flight is recorded as it stands');
    assert.equal(steps[1].result.error, null, 'the act that was running finished');
    assert.equal(run.verdict.passed, false);
    assert.deepEqual(run.verdict.hop_steps, [1, 2]);
    assert.deepEqual((await store(popup, 'getSteps', runId)).map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2]);
    assert.equal(await popup.locator('#stop').isDisabled(), true);
  });

  test('a second Stop of a finished run changes nothing', async () => {
    const runId = await popup.evaluate(async () => /** @type {string} */ ((await chrome.storage.local.get('runs.current'))['runs.current']));
    const { run } = await sendOk(popup, 'stopRun', { runId });
    assert.equal(run.status, 'stopped');
    assert.deepEqual((await store(popup, 'getSteps', runId)).map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2]);
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
