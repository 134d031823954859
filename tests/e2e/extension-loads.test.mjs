// The built extension loads in Chromium, its worker initialises the wasm core, the
// popup shows the core version, and core calls cross the wasm boundary.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension } from '../../runner/driver.mjs';
import { builtExtension } from '../../runner/remote-browser.mjs';
import { cargoPackageVersion, distDir } from './paths.mjs';

/**
 * Sends a protocol message from an extension page, as the popup does.
 * @param {import('../types.mjs').Page} page
 * @param {string} constructorName
 * @param {unknown[]} [args]
 */
function sendFromPage(page, constructorName, args = []) {
  return page.evaluate(
    async ([name, constructorArgs]) => {
      /** @type {Record<string, (...a: unknown[]) => unknown>} */
      const messages = await import(/** @type {string} */ ('./messages.js'));
      return chrome.runtime.sendMessage(messages[name](...constructorArgs));
    },
    /** @type {[string, unknown[]]} */ ([constructorName, args]),
  );
}

describe('extension loads', { timeout: 60_000 }, () => {
  const expectedVersion = `hopbench ${cargoPackageVersion()}`;
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Page} */ let popup;

  before(async () => {
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
  });

  after(async () => {
    await ext?.close();
  });

  test('service worker runs under the id derived from the manifest key', () => {
    const expectedId = builtExtension(distDir).id;
    assert.equal(ext.extensionId, expectedId, `worker URL was ${ext.worker.url()}`);
    assert.equal(ext.worker.url(), ext.extensionUrl('background.js'));
  });

  test('worker reports the wasm core initialised without error', async () => {
    const reply = await sendFromPage(popup, 'getCoreStatus');
    assert.equal(reply?.ok, true, `core status reply: ${JSON.stringify(reply)}`);
    assert.equal(reply.version, expectedVersion);
    assert.equal(typeof reply.initMs, 'number', `initMs: ${reply.initMs}`);
  });

  test('popup shows the core version and logs no error', async () => {
    // Wait until the popup leaves "loading", then check it is ready, not an error.
    await popup.waitForFunction(
      () => document.getElementById('core-status')?.dataset.state !== 'loading',
      null,
      { timeout: 10_000 },
    );
    const state = await popup.locator('#core-status').getAttribute('data-state');
    const shown = await popup.locator('#core-status-text').textContent();
    assert.equal(state, 'ready', `popup shows "${shown}"`);
    assert.match(shown ?? '', new RegExp(`^Ready: ${expectedVersion} \\(init [0-9.]+ ms\\)$`));
    assert.deepEqual(ext.errors, [], `errors logged:\n${ext.describeErrors()}`);
  });

  test('core_version called through the wasm boundary returns the crate version', async () => {
    const reply = await sendFromPage(popup, 'coreCall', ['core_version', []]);
    assert.deepEqual(reply, { ok: true, value: expectedVersion });
  });

  test('a core export outside the whitelist is refused with a clear error', async () => {
    const reply = await sendFromPage(popup, 'coreCall', ['initSync', []]);
    assert.deepEqual(reply, {
      ok: false,
      error: 'core function not callable from pages: initSync',
    });
  });

  test('a malformed message gets an error reply, not silence', async () => {
    const reply = await popup.evaluate(() =>
      chrome.runtime.sendMessage({ type: 'popup-to-worker/core-call', fn: 42 }),
    );
    assert.deepEqual(reply, { ok: false, error: 'malformed popup-to-worker/core-call message' });
  });

  test('nothing logged an error during the whole run', () => {
    assert.deepEqual(ext.errors, [], `errors logged:\n${ext.describeErrors()}`);
  });
});
