// The wasm core is read and compiled only when something needs it: the worker starts
// with the browser and for a person's own browsing, and neither should cost the
// browser a 900 KiB compile. The first request that needs the core (the popup's status)
// starts it, once.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { startSites } from './sites.mjs';

/**
 * The worker's clock: ms since it started.
 * @param {import('../types.mjs').Extension} ext
 */
function workerNow(ext) {
  return ext.worker.evaluate(() => performance.now());
}

describe('the core is loaded only when needed', { timeout: 60_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {Awaited<ReturnType<typeof startSites>>} */ let sites;

  before(async () => {
    sites = await startSites({ names: ['alpha', 'spa'] });
    ext = await launchExtension();
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test("neither the browser's start nor a person's own browsing loads it; the popup's first request does, once", async () => {
    // A person browses in a tab of their own: the worker's listeners see every one of
    // these navigations, and none of them is a session's.
    const page = await ext.openPage(sites.url('alpha', '/'));
    await page.goto(sites.url('spa', '/'), { waitUntil: 'load' });
    await page.evaluate(() => history.pushState({}, '', '#/elsewhere'));
    await page.goBack({ waitUntil: 'load' });
    const browsedUntil = await workerNow(ext);

    const popup = await ext.openExtensionPage('popup.html');
    const first = await sendOk(popup, 'getCoreStatus');
    assert.ok(
      first.initStartedMs >= browsedUntil,
      `the core's init started ${first.initStartedMs} ms after the worker's start, before the browsing ended at ${browsedUntil} ms`,
    );
    assert.ok(first.initMs > 0, `initMs: ${first.initMs}`);
    const second = await sendOk(popup, 'getCoreStatus');
    assert.deepEqual(
      [second.initStartedMs, second.initMs],
      [first.initStartedMs, first.initMs],
      'a later request reuses the same init',
    );
    // The test sites have no favicon: a page's 404 for it is the page's own error.
    assert.deepEqual(ext.extensionErrors(), [], `errors logged:\n${ext.describeErrors()}`);
  });
});
