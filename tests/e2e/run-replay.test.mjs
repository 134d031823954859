// An agent run end to end with the replay agent: the 3-hop task is imported in the
// popup and run from there; the side panel shows the hop queue filling in order; the
// run reaches PASS; each step is in IndexedDB exactly once and in the export; the
// session window is closed afterwards unless the run keeps it.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, send, sendOk } from '../../runner/driver.mjs';
import {
  hopSnapshots,
  runFromPopup,
  store,
  threeHopTask,
  waitForRunEnd,
  watchHopQueue,
} from './run-helpers.mjs';
import { startSites } from './sites.mjs';

describe('agent run with the replay agent', { timeout: 180_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let popup;
  /** @type {import('../types.mjs').Page} */ let panel;
  /** @type {Awaited<ReturnType<typeof runFromPopup>>} */ let runId;
  let run;

  const windowCount = () => popup.evaluate(async () => (await chrome.windows.getAll()).length);

  before(async () => {
    sites = await startSites({ names: ['wiki', 'events'] });
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
    panel = await ext.openExtensionPage('sidepanel.html');
    await watchHopQueue(panel);
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('Run in the popup starts the run; it reaches PASS with hops at steps 1, 2, 3', async () => {
    const windowsBefore = await windowCount();
    runId = await runFromPopup(popup, { taskText: threeHopTask(sites), agent: 'replay' });
    run = await waitForRunEnd(popup, runId);
    assert.equal(run.status, 'finished', JSON.stringify(run));
    assert.equal(run.cause, 'all_hops_done');
    assert.equal(run.verdict.passed, true, JSON.stringify(run.verdict));
    assert.deepEqual(run.verdict.hop_steps, [1, 2, 3]);
    assert.equal(run.step, 3);
    assert.equal(run.provider, 'replay');
    // The summary is stored final before the window closes (run/finish.js), so the
    // close may come a moment after the run reads finished.
    const closed = await popup
      .waitForFunction(async (n) => (await chrome.windows.getAll()).length === n, windowsBefore, { timeout: 5000, polling: 100 })
      .then(() => true, () => false);
    assert.ok(closed, `the session window was closed after the run: ${await windowCount()} windows, ${windowsBefore} before`);
  });

  test('the side panel showed the hop queue filling in order and shows the verdict', async () => {
    await panel.waitForSelector('.verdict[data-outcome="pass"]');
    const snapshots = await hopSnapshots(panel);
    assert.equal(snapshots.at(-1), 'done:1 done:2 done:3', snapshots.join('\n'));
    assert.ok(snapshots.length >= 2, `the panel never updated while the run went on: ${snapshots}`);
    for (const snapshot of snapshots) {
      // Done hops form a prefix, then at most one current hop, then waiting ones.
      assert.match(snapshot, /^(done:\d+ ?)*(current ?)?(waiting ?)*$/, snapshots.join('\n'));
    }
    const doneCounts = snapshots.map((s) => (s.match(/done/g) ?? []).length);
    assert.deepEqual(doneCounts, [...doneCounts].sort((a, b) => a - b), `hops went back: ${snapshots.join(' | ')}`);
    assert.equal(await panel.locator('.step').count(), 3);
    assert.equal(await panel.locator('.step[data-step="2"] .step-action').textContent(), 'click [' + (await stepActionId(2)) + ']');
  });

  /**
   * @param {number} step
   */
  async function stepActionId(step) {
    const steps = await store(popup, 'getSteps', runId);
    return steps.find((/** @type {import('../types.mjs').Json} */ s) => s.step === step).action.text.match(/\[(\d+)\]/)[1];
  }

  test('each step is stored exactly once with its record, progress and timings', async () => {
    const steps = await store(popup, 'getSteps', runId);
    assert.deepEqual(steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2, 3]);
    assert.deepEqual(steps.map((/** @type {import('../types.mjs').Json} */ s) => s.progress.done), [1, 2, 3], 'the hop queue filled one hop per step');
    for (const step of steps) {
      assert.equal(step.runId, runId);
      assert.match(step.action.text, /^click \[\d+\]$/);
      assert.equal(step.result.error, null, JSON.stringify(step.result));
      assert.match(step.note, /replay of reference_trajectory\[\d\]/);
      assert.equal(typeof step.started_at, 'number');
      assert.equal(typeof step.timings.observe_ms, 'number');
      assert.equal(typeof step.timings.act_ms, 'number');
      assert.equal(step.timings.model_ms, null, 'replay calls no model');
      assert.ok(step.observation.text.length > 0);
    }
    assert.match(steps[0].observation.url, /\/index\.html$/);
    assert.match(steps[2].observation.url, new RegExp(`^${sites.origin('events')}/`));
  });

  test('the export holds the run, the task and every step', async () => {
    const { trajectory } = await sendOk(popup, 'exportRun', { runId });
    assert.equal(trajectory.run.id, runId);
    assert.equal(trajectory.task.id, 'e2e/three-hops');
    assert.deepEqual(trajectory.steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2, 3]);
    assert.equal(trajectory.settings.agentConfig.replay, true);
    assert.doesNotMatch(JSON.stringify(trajectory), /api_key/);
  });

  test('a finished run is deleted from the runs page, steps included', async () => {
    const runs = await ext.openExtensionPage('runs.html');
    await runs.waitForSelector(`tr[data-run-id="${runId}"]`);
    assert.equal(await runs.locator(`tr[data-run-id="${runId}"] .outcome`).textContent(), 'PASS');
    runs.once('dialog', (dialog) => dialog.accept());
    await runs.locator(`tr[data-run-id="${runId}"] button.delete`).click();
    await runs.waitForFunction((id) => !document.querySelector(`tr[data-run-id="${id}"]`), runId);
    assert.deepEqual(await store(popup, 'getSteps', runId), []);
    const reply = await send(popup, 'getRun', { runId });
    assert.match(reply.error, /no run/);
  });

  test('replay of a task without reference_trajectory is refused before a window opens', async () => {
    const windowsBefore = await windowCount();
    const reply = await send(popup, 'startRun', {
      taskText: threeHopTask(sites, { reference: false }),
      fileName: 'no-reference.json',
      overrides: { provider: 'replay' },
    });
    assert.equal(reply.ok, false);
    assert.match(reply.error, /reference_trajectory/);
    assert.equal(await windowCount(), windowsBefore);
  });

  test('keep_window leaves the session window open after the run', async () => {
    const windowsBefore = await windowCount();
    const id = await runFromPopup(popup, {
      taskText: threeHopTask(sites, { id: 'e2e/keep' }),
      fileName: 'keep.json',
      agent: 'replay',
      keepWindow: true,
    });
    const kept = await waitForRunEnd(popup, id);
    assert.equal(kept.verdict.passed, true);
    assert.equal(await windowCount(), windowsBefore + 1);
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
