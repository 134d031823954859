// "Show observation of this tab" leaves the person's tab as it found it: the debugger
// detaches once the observation is taken (Chrome's debugging bar goes with it). A
// session tab stays attached, since its run watches the network through the debugger.
//
// Playwright is attached to every tab itself, so chrome.debugger.getTargets cannot
// tell; whether the extension is attached is what a command sent without attaching
// says.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, observe, sendOk, tabIdOf } from '../../runner/driver.mjs';
import { startSession } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

/**
 * The extension's own debugger connection to the tab: 'attached' or the error text.
 * @param {import('../types.mjs').Extension} ext
 * @param {number} tabId
 */
function extensionAttachment(ext, tabId) {
  return ext.worker.evaluate(async (id) => {
    try {
      await chrome.debugger.sendCommand({ tabId: id }, 'Runtime.evaluate', { expression: '1 + 1' });
      return 'attached';
    } catch (error) {
      return String(/** @type {Error | undefined} */ (error)?.message ?? error);
    }
  }, tabId);
}

describe('the debugger after an observation', { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let popup;

  before(async () => {
    sites = await startSites({ names: ['fence'] });
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test("the observation view leaves the person's tab detached", async () => {
    const page = await ext.openPage(sites.url('fence', '/index.html'));
    const tabId = await tabIdOf(popup, page.url());
    const view = await ext.openExtensionPage(`observation.html?tab=${tabId}`);
    await view.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('observation')).dataset.state !== 'loading', null, { timeout: 20_000 });
    assert.equal(await view.locator('#observation').getAttribute('data-state'), 'ready', (await view.locator('#status').textContent()) ?? undefined);
    assert.match(await extensionAttachment(ext, tabId), /not attached/i);
    // Observing again works, and leaves it detached again.
    await view.click('#refresh');
    await view.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('observation')).dataset.state === 'ready', null, { timeout: 20_000 });
    assert.ok(/** @type {string} */ (await view.locator('#text').textContent()).includes("heading 'Fenced home'"));
    assert.match(await extensionAttachment(ext, tabId), /not attached/i);
  });

  test('a session tab stays attached after an observation', async () => {
    const { session } = await startSession(popup, [sites.url('fence', '/index.html')]);
    const tabId = session.currentTabId;
    await popup.waitForFunction(async (id) => (await chrome.tabs.get(id)).status === 'complete', tabId);
    await observe(popup, tabId, { mode: 'text' });
    assert.equal(await extensionAttachment(ext, tabId), 'attached');
    await sendOk(popup, 'endSession', { sessionId: session.id });
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], `errors logged:\n${ext.describeErrors()}`);
  });
});
