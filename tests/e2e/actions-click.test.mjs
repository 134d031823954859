// Element actions: click (trusted and synthetic paths), hover (CSS and JS menus),
// shadow DOM, stale references. Each test reads the effect the page displays.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, send, sendOk } from '../../runner/driver.mjs';
import { elementRef, elementRefByExpression, startSession, textOf, waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

describe('click and hover actions', { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let popup;
  /** @type {import('../types.mjs').Page} */ let page;

  /**
   * @param {{ kind: string, [field: string]: unknown }} action
   * @param {{ targetId: null, backendNodeId: number }} [element]
   * @param {object} [extra]
   */
  const act = (action, element, extra = {}) => sendOk(popup, 'act', { action, element, ...extra });

  before(async () => {
    sites = await startSites({ names: ['widgets'] });
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
    await startSession(popup, [sites.url('widgets', '/index.html')]);
    page = await waitForPage(ext.context, (u) => u.startsWith(sites.origin('widgets')));
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('click presses a button with trusted input, in a real user event order', async () => {
    const reply = await act({ kind: 'click', id: 1 }, await elementRef(page, '#counter'));
    assert.equal(reply.result.error, undefined, JSON.stringify(reply));
    assert.equal(reply.result.effect.path, 'trusted');
    assert.equal(await textOf(page, '#counter'), 'Clicked 1 times');
    assert.equal(await textOf(page, '#click-events'), 'pointerdown mousedown focus pointerup mouseup click');
    assert.equal(typeof reply.result.settle.ms, 'number');
    assert.equal(reply.result.settle.timedOut, false, JSON.stringify(reply.result.settle));
  });

  test('a covered element is clicked itself (synthetic), never the element on top', async () => {
    const reply = await act({ kind: 'click', id: 2 }, await elementRef(page, '#covered'));
    assert.equal(reply.result.effect.path, 'synthetic', JSON.stringify(reply.result));
    assert.match(reply.result.effect.reason, /covered by <div>/);
    assert.equal(await textOf(page, '#covered-state'), 'covered clicked synthetic');
  });

  test('click inside an open shadow root', async () => {
    const ref = await elementRefByExpression(
      page, "document.getElementById('shadow-host').shadowRoot.getElementById('inner')");
    const reply = await act({ kind: 'click', id: 3 }, ref);
    assert.equal(reply.result.error, undefined, JSON.stringify(reply));
    assert.equal(await textOf(page, '#shadow-state'), 'shadow clicked');
  });

  test('hover opens a CSS :hover menu and a JS mouseenter menu', async () => {
    await act({ kind: 'hover', id: 4 }, await elementRef(page, '#css-menu-title'));
    await page.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('css-menu-state')).textContent === 'css menu open');
    await act({ kind: 'hover', id: 5 }, await elementRef(page, '#js-menu-title'));
    assert.equal(await page.locator('#js-menu-items').isVisible(), true);
  });

  test('a stale reference is a step error naming it, and nothing is clicked', async () => {
    const ref = await elementRef(page, '#counter');
    const before = await textOf(page, '#counter');
    await page.evaluate(() => /** @type {HTMLElement} */ (document.getElementById('counter')).remove());
    const reply = await act({ kind: 'click', id: 6 }, ref);
    assert.match(reply.result.error ?? '', new RegExp(`element ${ref.backendNodeId}.*no longer`));
    assert.equal(reply.result.effect, null);
    assert.equal(await page.locator('#counter').count(), 0, before ?? undefined);
  });

  test('an element action without a reference is a step error', async () => {
    const reply = await act({ kind: 'click', id: 7 }, undefined);
    assert.match(reply.result.error, /needs an element reference/);
  });

  test('a malformed action is refused by the guard', async () => {
    const reply = await send(popup, 'act', { action: { kind: 'fly' } });
    assert.deepEqual(reply, { ok: false, error: 'malformed page-to-worker/act message' });
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
