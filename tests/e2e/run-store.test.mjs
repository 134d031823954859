// The trajectory store (IndexedDB `hopbench`) and the run messages that read it:
// a step recorded twice is stored once, media come back as data URLs in the export,
// delete removes steps and media, and runs survive closing the browser.
//
// The store module is imported into an extension page (same origin, same database as
// the worker); the messages go to the worker as the runs page sends them.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { PROFILE_REMOVAL, launchExtension, newProfileDir, send, sendOk } from '../../runner/driver.mjs';
import { store } from './run-helpers.mjs';

/**
 * @param {string} id
 * @param {object} [extra]
 */
function summary(id, extra = {}) {
  return {
    id,
    taskId: 'e2e/store',
    intent: 'store test',
    status: 'finished',
    step: 0,
    maxSteps: 5,
    progress: null,
    verdict: { passed: true, hops_done: 1, hops_total: 1, hop_steps: [1], answer: null, reason: 'all hops completed' },
    error: null,
    startedAt: Date.now(),
    finishedAt: Date.now(),
    tokens: { input: 0, output: 0 },
    provider: 'replay',
    sessionId: 'none',
    task: { id: 'e2e/store', intent: 'store test', start_urls: [], fileName: 'store.json', text: '{}' },
    settings: { agent: { model: { provider: 'openai', model: 'm' } } },
    ...extra,
  };
}

/**
 * @param {number} step
 * @param {{ input: number, output: number } | null} tokens
 */
function stepRecord(step, tokens) {
  return {
    step,
    observation: { text: `page ${step}`, url: `http://x/${step}`, images: [], screenshot: null },
    prompt: { system: 's', user: 'u' },
    reply: { text: `reply ${step}`, usage: {}, attempts: [] },
    action: { text: 'click [1]' },
    result: { effect: null, error: null },
    progress: null,
    tokens,
    note: null,
  };
}

// A 1x1 PNG.
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('trajectory store', { timeout: 120_000 }, () => {
  const profileDir = newProfileDir();
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Page} */ let page;

  before(async () => {
    ext = await launchExtension({ profileDir });
    page = await ext.openExtensionPage('runs.html');
  });

  after(async () => {
    await ext?.close();
    rmSync(profileDir, PROFILE_REMOVAL);
  });

  test('a step recorded twice is stored once, and its tokens count once', async () => {
    await store(page, 'putRun', summary('r1'));
    await store(page, 'recordStep', 'r1', 1, stepRecord(1, { input: 10, output: 2 }));
    await store(page, 'recordStep', 'r1', 1, stepRecord(1, { input: 10, output: 2 }));
    await store(page, 'recordStep', 'r1', 2, stepRecord(2, { input: 5, output: 1 }));
    const steps = await store(page, 'getSteps', 'r1');
    assert.deepEqual(steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2]);
    assert.ok(steps.every((/** @type {import('../types.mjs').Json} */ s) => s.runId === 'r1'));
    const { run } = await sendOk(page, 'getRun', { runId: 'r1' });
    assert.equal(run.step, 2);
    assert.deepEqual(run.tokens, { input: 15, output: 3, cached_input: 0 });
  });

  test('steps come back in step order whatever order they were put in', async () => {
    await store(page, 'putRun', summary('r2'));
    for (const step of [3, 1, 10, 2]) await store(page, 'recordStep', 'r2', step, stepRecord(step, { input: 0, output: 0 }));
    const { steps } = await sendOk(page, 'getRun', { runId: 'r2', withSteps: true });
    assert.deepEqual(steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2, 3, 10]);
  });

  test('export holds run, task, settings, steps and media as data URLs', async () => {
    await store(page, 'putMedia', [
      { id: 'r1/1/image-4', runId: 'r1', step: 1, kind: 'image', elementId: 4, mime: 'image/png', base64: PNG_BASE64 },
      { id: 'r1/1/screenshot', runId: 'r1', step: 1, kind: 'screenshot', mime: 'image/png', base64: PNG_BASE64 },
    ]);
    const { trajectory } = await sendOk(page, 'exportRun', { runId: 'r1' });
    assert.equal(trajectory.format, 'hopbench-trajectory');
    assert.equal(trajectory.run.id, 'r1');
    assert.equal(trajectory.run.task, undefined, 'the task is exported beside the run, not inside it');
    assert.equal(trajectory.task.fileName, 'store.json');
    assert.equal(trajectory.settings.agent.model.provider, 'openai');
    assert.deepEqual(trajectory.steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2]);
    assert.deepEqual(Object.keys(trajectory.media).sort(), ['r1/1/image-4', 'r1/1/screenshot']);
    assert.equal(trajectory.media['r1/1/image-4'].dataUrl, `data:image/png;base64,${PNG_BASE64}`);
    assert.equal(trajectory.media['r1/1/image-4'].elementId, 4);
  });

  test('unknown runs get errors naming them', async () => {
    const reply = await send(page, 'getRun', { runId: 'nope' });
    assert.equal(reply.ok, false);
    assert.match(reply.error, /no run nope/);
    const exported = await send(page, 'exportRun', { runId: 'nope' });
    assert.match(exported.error, /no run nope/);
  });

  test('a malformed run message is refused', async () => {
    const reply = await page.evaluate(() =>
      chrome.runtime.sendMessage({ type: 'page-to-worker/start-run', taskText: '{}', fileName: 'x.json', overrides: { max_steps: -1 } }),
    );
    assert.deepEqual(reply, { ok: false, error: 'malformed page-to-worker/start-run message' });
  });

  test('runs survive closing and reopening the browser; the runs page lists them', async () => {
    await ext.close();
    ext = await launchExtension({ profileDir });
    page = await ext.openExtensionPage('runs.html');
    const { runs } = await sendOk(page, 'listRuns');
    assert.deepEqual(runs.map((/** @type {import('../types.mjs').Json} */ r) => r.id).sort(), ['r1', 'r2']);
    await page.waitForSelector('#runs tbody tr');
    assert.equal(await page.locator('#runs tbody tr').count(), 2);
    assert.equal(await page.locator('tr[data-run-id="r1"] .outcome').textContent(), 'PASS');
    const steps = await store(page, 'getSteps', 'r1');
    assert.deepEqual(steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2]);
  });

  test('delete from the runs page removes the run, its steps and its media', async () => {
    page.once('dialog', (dialog) => dialog.accept());
    await page.locator('tr[data-run-id="r1"] button.delete').click();
    await page.waitForFunction(() => !document.querySelector('tr[data-run-id="r1"]'));
    assert.equal(await store(page, 'getRun', 'r1'), undefined);
    assert.deepEqual(await store(page, 'getSteps', 'r1'), []);
    assert.deepEqual(await store(page, 'getMedia', 'r1'), []);
    assert.deepEqual((await store(page, 'getSteps', 'r2')).length, 4, 'the other run is untouched');
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});

describe('a store written by version 1 (media keyed by element id)', { timeout: 60_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Page} */ let page;

  before(async () => {
    ext = await launchExtension();
    // An extension document that opens no database (runs.html would, at version 2).
    page = await ext.openExtensionPage('manifest.json');
  });

  after(async () => {
    await ext?.close();
  });

  /**
   * Writes what version 1 left after run A (element 17 at steps 1 and 2, element 5 at
   * step 2) and then run B (elements 17 and 48 at step 1): B's pictures took keys 17
   * and 48 over, so A's pictures of 17 were gone. Screenshots had proper keys.
   * @param {string} png base64
   */
  function writeVersion1(png) {
    return page.evaluate(async (base64) => {
      /** @type {IDBDatabase} */
      const db = await new Promise((resolve, reject) => {
        const request = indexedDB.open('hopbench', 1);
        request.onupgradeneeded = () => {
          const d = request.result;
          d.createObjectStore('runs', { keyPath: 'id' });
          d.createObjectStore('steps', { keyPath: ['runId', 'step'] });
          d.createObjectStore('media', { keyPath: 'id' }).createIndex('runId', 'runId');
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const blob = () => new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: 'image/png' });
      /** @param {number} id @param {string} runId @param {number} step */
      const image = (id, runId, step) => ({ id, runId, step, kind: 'image', elementId: id, mime: 'image/png', blob: blob() });
      /**
       * @param {string} runId
       * @param {number} n
       * @param {number[]} images
       * @param {string | null} [screenshot]
       */
      const step = (runId, n, images, screenshot = null) => ({
        runId, step: n, observation: { text: `page ${n}`, url: 'http://x/', images, screenshot }, action: null, result: null, tokens: { input: 0, output: 0 },
      });
      /** @param {string} id */
      const run = (id) => ({ id, taskId: `e2e/v1-${id}`, intent: 'v1', status: 'finished', step: 2, startedAt: Date.now(), task: {}, settings: {} });
      const tx = db.transaction(['runs', 'steps', 'media'], 'readwrite');
      for (const r of ['A', 'B']) tx.objectStore('runs').put(run(r));
      tx.objectStore('steps').put(step('A', 1, [17], 'A/1/screenshot'));
      tx.objectStore('steps').put(step('A', 2, [17, 5]));
      tx.objectStore('steps').put(step('B', 1, [17, 48]));
      tx.objectStore('media').put(image(17, 'B', 1));
      tx.objectStore('media').put(image(48, 'B', 1));
      tx.objectStore('media').put(image(5, 'A', 2));
      tx.objectStore('media').put({ id: 'A/1/screenshot', runId: 'A', step: 1, kind: 'screenshot', mime: 'image/png', blob: blob() });
      await new Promise((resolve, reject) => {
        tx.oncomplete = () => resolve(undefined);
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    }, png);
  }

  test('is upgraded: every picture under its own run and step, the lost ones marked lost', async () => {
    await writeVersion1(PNG_BASE64);
    // The first use at version 2 (here: the runs page listing the runs) upgrades it.
    page = await ext.openExtensionPage('runs.html');
    await page.waitForSelector('#runs tbody tr');
    const a = await store(page, 'getSteps', 'A');
    /** @param {number} element */
    const lost = (element) => ({ lost: a[0].observation.images[0].lost, element });
    assert.match(a[0].observation.images[0].lost, /overwritten/);
    assert.deepEqual(a.map((/** @type {import('../types.mjs').Json} */ s) => s.observation.images), [[lost(17)], [lost(17), 'A/2/image-5']]);
    const b = await store(page, 'getSteps', 'B');
    assert.deepEqual(b.map((/** @type {import('../types.mjs').Json} */ s) => s.observation.images), [['B/1/image-17', 'B/1/image-48']]);

    const { trajectory } = await sendOk(page, 'exportRun', { runId: 'A' });
    assert.deepEqual(Object.keys(trajectory.media).sort(), ['A/1/screenshot', 'A/2/image-5']);
    assert.equal(trajectory.media['A/2/image-5'].elementId, 5);
    const exportB = (await sendOk(page, 'exportRun', { runId: 'B' })).trajectory;
    assert.deepEqual(Object.keys(exportB.media).sort(), ['B/1/image-17', 'B/1/image-48']);
    assert.equal(exportB.media['B/1/image-17'].dataUrl, `data:image/png;base64,${PNG_BASE64}`);
    const keys = await page.evaluate(async () => {
      /** @type {import('../types.mjs').Json} the extension's run store module */
      const module = await import(/** @type {string} */ ('./worker/run/trajectories.js'));
      return [...(await module.getMedia('A')), ...(await module.getMedia('B'))].map((m) => m.id);
    });
    assert.ok(keys.every((k) => typeof k === 'string'), `no numeric key is left: ${JSON.stringify(keys)}`);
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
