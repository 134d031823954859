// Where the API key may go. Settings stores a key that would travel over plain http to
// another machine only after the person confirms that origin; where Chrome cannot hide
// extension storage from content scripts, Settings stores no key at all and says why;
// and with the storage restricted, a content script of the extension cannot read it.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { startSites } from './sites.mjs';

const KEY = `sk-hopbench-key-safety-${Date.now()}`;
/** TEST-NET-1 (RFC 5737): never routed, and nothing here ever connects to it. */
const LAN_URL = 'http://192.0.2.10:8080/v1';

describe('where the API key may go', { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let popup;
  /** @type {import('../types.mjs').Page} */ let options;

  const savedModel = async () => (await sendOk(popup, 'getSettings')).settings.model;

  async function openOptions() {
    options = await ext.openExtensionPage('options.html');
    await options.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('settings')).dataset.state === 'ready');
  }

  /** Clicks Save; resolves with the status text once the save has an outcome. */
  async function clickSave() {
    await options.evaluate(() => {
      /** @type {HTMLElement} */ (document.getElementById('save-status')).dataset.state = 'idle';
    });
    await options.click('#save');
    await options.waitForFunction(() => ['saved', 'error'].includes(String(/** @type {HTMLElement} */ (document.getElementById('save-status')).dataset.state)));
    const status = options.locator('#save-status');
    // An element's text is never null (only a document's is).
    return { state: await status.getAttribute('data-state'), text: /** @type {string} */ (await status.textContent()) };
  }

  before(async () => {
    sites = await startSites({ names: ['fence'] });
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
    await openOptions();
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('a key over plain http to another machine is stored only once the person confirms', async () => {
    await options.fill('#model-base_url', LAN_URL);
    await options.fill('#model-api_key', KEY);
    /** @type {string[]} */ const asked = [];
    /** @param {import('playwright-core').Dialog} dialog */
    const decline = (dialog) => {
      asked.push(dialog.message());
      dialog.dismiss();
    };
    options.once('dialog', decline);
    const declined = await clickSave();
    assert.equal(declined.state, 'error');
    assert.match(declined.text, /model\.base_url: the API key would travel unencrypted over plain http to http:\/\/192\.0\.2\.10:8080/);
    assert.equal(asked.length, 1);
    assert.match(asked[0], /Send the model API key to http:\/\/192\.0\.2\.10:8080 over plain http anyway\?/);
    assert.ok(!asked[0].includes(KEY) && !declined.text.includes(KEY), 'the key is never shown');
    assert.equal((await savedModel()).api_key_set, false, 'declined: nothing stored');

    options.once('dialog', (dialog) => dialog.accept());
    const confirmed = await clickSave();
    assert.equal(confirmed.state, 'saved', confirmed.text);
    const model = await savedModel();
    assert.equal(model.api_key_set, true);
    assert.equal(model.plain_http_ok, 'http://192.0.2.10:8080');
  });

  test('a loopback server over http needs no confirmation', async () => {
    /** @type {string[]} */ const unexpected = [];
    /** @param {import('playwright-core').Dialog} dialog */
    const record = (dialog) => {
      unexpected.push(dialog.message());
      dialog.dismiss();
    };
    options.on('dialog', record);
    await options.fill('#model-base_url', 'http://127.0.0.1:11434/v1');
    await options.fill('#model-api_key', KEY);
    const saved = await clickSave();
    options.off('dialog', record);
    assert.equal(saved.state, 'saved', saved.text);
    assert.deepEqual(unexpected, []);
    assert.equal((await savedModel()).api_key_set, true);
  });

  test("with storage restricted, the extension's content scripts cannot read the key", async () => {
    const page = await ext.openPage(sites.url('fence', '/index.html'));
    const outcome = await popup.evaluate(async (url) => {
      const [tab] = await chrome.tabs.query({ url });
      const [result] = await chrome.scripting.executeScript({
        // The tab the test just opened: a tab in a window has an id.
        target: { tabId: /** @type {number} */ (tab.id) },
        func: async () => {
          try {
            return { read: JSON.stringify(await chrome.storage.local.get(null)) };
          } catch (error) {
            return { refused: String(/** @type {Error | undefined} */ (error)?.message ?? error) };
          }
        },
      });
      return /** @type {{ read?: string, refused?: string }} */ (result.result);
    }, page.url());
    // The script ran in the page, so it returned one of the two.
    const seen = /** @type {{ read?: string, refused?: string }} */ (outcome);
    assert.equal(seen.read, undefined, 'a content script read the storage');
    assert.match(/** @type {string} */ (seen.refused), /not allowed|access/i);
    await page.close();
  });

  test('where Chrome cannot restrict the storage, no key is stored and Settings says why', async () => {
    // A Chrome whose chrome.storage.local refuses setAccessLevel.
    await ext.worker.evaluate(() => {
      /** @type {typeof globalThis & { realSetAccessLevel?: unknown }} */ (globalThis).realSetAccessLevel = chrome.storage.local.setAccessLevel;
      chrome.storage.local.setAccessLevel = () => Promise.reject(new Error('not supported in this test'));
    });
    try {
      await openOptions();
      const warning = options.locator('#key-storage');
      assert.equal(await warning.isVisible(), true);
      assert.match(/** @type {string} */ (await warning.textContent()), /API keys cannot be stored in this browser: Chrome refused .*not supported in this test/);
      await options.fill('#model-api_key', `${KEY}-new`);
      const refused = await clickSave();
      assert.equal(refused.state, 'error');
      assert.match(refused.text, /model\.api_key: not stored: Chrome refused to hide extension storage from content scripts/);
      // The key saved before stays as it was; settings without a new key still save.
      await options.fill('#model-api_key', '');
      await options.fill('#max_steps', '17');
      const saved = await clickSave();
      assert.equal(saved.state, 'saved', saved.text);
      assert.equal((await sendOk(popup, 'getSettings')).settings.max_steps, 17);
    } finally {
      await ext.worker.evaluate(() => {
        chrome.storage.local.setAccessLevel = /** @type {typeof chrome.storage.local.setAccessLevel} */ (
          /** @type {typeof globalThis & { realSetAccessLevel?: unknown }} */ (globalThis).realSetAccessLevel
        );
      });
    }
    assert.equal((await sendOk(popup, 'getSettings')).keyStorage.restricted, true);
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], `errors logged:\n${ext.describeErrors()}`);
  });
});
