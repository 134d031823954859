// A person's session window closes in two ways: the session ended (Finish or the
// answer; its end closes the window) or the person closed it (giving up). Before, the
// window's closing at the end of a finished session could be read as the person
// closing it: the listener read the sessions store before the end had written that the
// session was gone, tried to end it a second time and logged "ending a closed session
// failed". Under load, now and then, that failed a test's "nothing logged an error".

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { person, waitForSteps } from './human-helpers.mjs';
import { waitForRunEnd } from './run-helpers.mjs';
import { waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

describe("the end of a person's session and its window's closing", { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let extPage;

  before(async () => {
    sites = await startSites({ names: ['alpha'] });
    ext = await launchExtension();
    extPage = await ext.openExtensionPage('runs.html');
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  /**
   * Opens a person's session on Alpha, starts it and records one click.
   * @param {string} id
   * @returns {Promise<{ runId: string, page: import('../types.mjs').Page }>}
   */
  async function sessionWithOneClick(id) {
    const taskText = JSON.stringify({
      id,
      intent: 'Look at Alpha, then answer.',
      start_urls: [sites.url('alpha', '/index.html')],
      hops: [{ condition: { kind: 'url', op: 'contains', value: 'index.html' } }],
    });
    const { runId } = await sendOk(extPage, 'startHuman', { taskText, fileName: `${id.replace('/', '-')}.json` });
    const page = await waitForPage(ext.context, (url) => url.startsWith(sites.origin('alpha')));
    await sendOk(extPage, 'humanControl', { runId, command: 'start' });
    await person(page).click('h1');
    await waitForSteps(extPage, runId, 1);
    return { runId, page };
  }

  test('a session ended by its answer closes its window once: the run is finished as answered, nothing logged', async () => {
    const { runId } = await sessionWithOneClick('e2e/window-end-answer');
    // The order a loaded machine gives now and then, forced: the store learns that the
    // session is gone only after the window's closing has been reported.
    await ext.worker.evaluate(() => {
      const area = chrome.storage.session;
      const g = /** @type {typeof globalThis & { realSessionSet?: typeof area.set }} */ (globalThis);
      const real = area.set.bind(area);
      g.realSessionSet = area.set;
      /** @param {Record<string, unknown>} items */
      const held = async (items) => {
        const sessions = /** @type {Record<string, { human?: unknown }> | undefined} */ (items['hopbench.sessions']);
        if (sessions && !Object.values(sessions).some((s) => s.human)) {
          // The write that forgets the person's session waits for its window to close.
          await new Promise((resolve) => {
            const closed = () => {
              chrome.windows.onRemoved.removeListener(closed);
              setTimeout(resolve, 0);
            };
            chrome.windows.onRemoved.addListener(closed);
            setTimeout(resolve, 5_000);
          });
        }
        return real(items);
      };
      area.set = /** @type {typeof area.set} */ (/** @type {unknown} */ (held));
    });
    try {
      await sendOk(extPage, 'humanFinish', { runId, answer: 'Alpha' });
      const run = await waitForRunEnd(extPage, runId);
      assert.equal(run.status, 'finished', JSON.stringify(run));
      assert.equal(run.cause, 'answered');
      assert.equal(run.answer, 'Alpha');
    } finally {
      await ext.worker.evaluate(() => {
        const g = /** @type {typeof globalThis & { realSessionSet?: typeof chrome.storage.session.set }} */ (globalThis);
        if (g.realSessionSet) chrome.storage.session.set = g.realSessionSet;
      });
    }
    // Let a second end, if one was started, say what it found.
    await extPage.waitForTimeout(1_000);
    assert.deepEqual(ext.extensionErrors(), [], ext.describeErrors());
  });

  test('a session whose window the person closes is ended as given up, saying so', async () => {
    const errorsBefore = ext.extensionErrors().length;
    const { runId, page } = await sessionWithOneClick('e2e/window-end-closed');
    await page.close();
    const run = await waitForRunEnd(extPage, runId);
    assert.equal(run.status, 'stopped', JSON.stringify(run));
    assert.equal(run.reason, 'the person closed the session window');
    assert.equal(run.answer, null);
    assert.deepEqual(ext.extensionErrors().slice(errorsBefore), [], ext.describeErrors());
  });
});
