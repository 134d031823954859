// Settling after an action (worker/act/settle.js): the wait ends on what the action caused
// and on nothing else. Each test checks what a person would see right after the step:
// the data a page fetches after its load event is on screen (also when a long task
// delays the timer that fetches it), a burst of DOM changes is complete (on the page
// and on a new page after its load), a page whose timers never fire does not hold the
// step, and an action that changed nothing does not wait for a page load.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { elementRef, startSession, textOf, waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

describe('settling after an action', { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let popup;
  /** @type {import('../types.mjs').Page} */ let page;
  let nextId = 1;

  /** Clicks `selector` in the session tab through the extension; the ACT reply. */
  const click = async (/** @type {string} */ selector) =>
    sendOk(popup, 'act', { action: { kind: 'click', id: nextId++ }, element: await elementRef(page, selector) });

  const startPage = () => sites.url('settle', '/index.html');

  before(async () => {
    sites = await startSites({ names: ['settle'] });
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
    await startSession(popup, [startPage()]);
    page = await waitForPage(ext.context, (u) => u.startsWith(sites.origin('settle')));
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  /**
   * Clicks `selector`, which opens a page that fetches data.json after its load event,
   * and holds that request: the step must not end while the page still waits for it.
   * The ACT reply once the data is released.
   * @param {string} selector
   */
  const clickAndHoldData = async (selector) => {
    await page.goto(startPage());
    const held = sites.hold('settle', '/data.json');
    const reply = click(selector);
    let replied = false;
    void reply.then(() => (replied = true), () => (replied = true));
    await held.arrived;
    await new Promise((resolve) => setTimeout(resolve, 400));
    held.release();
    if (replied) {
      // Which signal ended the step and what it saw, so a failure says what was missed.
      const early = await reply.then(({ result }) => result?.settle ?? result, (error) => String(error));
      assert.fail(`the act replied while the page was still fetching its data; its settle: ${JSON.stringify(early)}`);
    }
    const { result } = await reply;
    assert.equal(result.error, undefined, JSON.stringify(result));
    assert.equal(await textOf(page, '#result'), 'data arrived after load');
    assert.equal(result.settle.endedBy, 'network', JSON.stringify(result.settle));
    assert.equal(result.settle.timedOut, false);
    return result;
  };

  test('a request the new page starts just after its load event is waited for', async () => {
    const result = await clickAndHoldData('#to-after-load');
    assert.deepEqual(result.settle.waitedFor.slice(0, 2), ['navigation', 'network']);
  });

  test('a request the new page starts after a long task following its load event is waited for', async () => {
    await clickAndHoldData('#to-busy-after-load');
  });

  test('a click that loads a plain page ends on its load event', async () => {
    await page.goto(startPage());
    const { result } = await click('#to-plain');
    assert.equal(result.error, undefined, JSON.stringify(result));
    assert.equal(await textOf(page, '#plain'), 'Nothing happens here after load.');
    const settle = result.settle;
    assert.equal(settle.endedBy, 'load', JSON.stringify(settle));
    assert.deepEqual(settle.navigations.map((/** @type {{ url: string }} */ n) => n.url), [sites.url('settle', '/plain.html')]);
    // The load event came during the wait, and the wait went on only for the windows.
    assert.equal(typeof settle.signalMs, 'number', JSON.stringify(settle));
    assert.ok(settle.signalMs <= settle.ms, JSON.stringify(settle));
  });

  test('a page whose own timers never fire still ends on its load event', async () => {
    await page.goto(startPage());
    const { result } = await click('#to-no-timers');
    assert.equal(result.error, undefined, JSON.stringify(result));
    assert.equal(await textOf(page, '#plain'), 'This page replaced setTimeout with a function that does nothing.');
    assert.equal(result.settle.endedBy, 'load', JSON.stringify(result.settle));
    assert.equal(result.settle.timedOut, false, JSON.stringify(result.settle));
  });

  test('a new page that keeps changing after its load event is waited for until it stops', async () => {
    await page.goto(startPage());
    const { result } = await click('#to-changes');
    assert.equal(result.error, undefined, JSON.stringify(result));
    assert.equal(await textOf(page, '#count'), '8', 'the step ended before the page finished building itself');
    assert.equal(result.settle.endedBy, 'dom', JSON.stringify(result.settle));
    assert.deepEqual(result.settle.navigations.map((/** @type {{ url: string }} */ n) => n.url), [sites.url('settle', '/changes-after-load.html')]);
  });

  test('DOM changes made over time are waited for until they stop', async () => {
    await page.goto(startPage());
    const { result } = await click('#burst');
    assert.equal(result.error, undefined, JSON.stringify(result));
    assert.equal(await textOf(page, '#burst-count'), '5', 'the step ended before the page finished changing');
    assert.equal(result.settle.endedBy, 'dom', JSON.stringify(result.settle));
    assert.deepEqual(result.settle.navigations, []);
  });

  test('a click that changes nothing ends without a signal', async () => {
    await page.goto(startPage());
    const { result } = await click('#nothing');
    assert.equal(result.error, undefined, JSON.stringify(result));
    assert.equal(result.settle.endedBy, 'nothing', JSON.stringify(result.settle));
    assert.equal(result.settle.signalMs, null);
    assert.equal(result.settle.requests, 0);
    assert.deepEqual(result.settle.navigations, []);
  });
});
