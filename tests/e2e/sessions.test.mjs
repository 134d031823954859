// Sessions: the window the extension opens for a task, which tabs belong to it, tab
// actions, navigation actions, and that the person's own tabs are never touched.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { launchExtension, send, sendOk } from '../../runner/driver.mjs';
import { elementRef, startSession, waitForPage } from './session-helpers.mjs';
import { portOfServer, startSites } from './sites.mjs';

describe('sessions, tab and navigation actions', { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let popup;
  /** @type {import('../types.mjs').Page} */ let personPage;
  /** @type {import('../types.mjs').Json} START_SESSION's session */ let session;

  /**
   * @param {{ kind: string, [field: string]: unknown }} action
   * @param {{ targetId: null, backendNodeId: number }} [element]
   * @param {object} [extra]
   */
  const act = (action, element, extra = {}) => sendOk(popup, 'act', { action, element, ...extra });
  const tabs = async () => (await sendOk(popup, 'listSessionTabs')).tabs;
  const current = async () => (await tabs()).find((/** @type {import('../types.mjs').Json} */ t) => t.current);
  const url = (/** @type {string} */ path) => sites.url('widgets', path);

  before(async () => {
    sites = await startSites({ names: ['widgets'] });
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
    // The person's own tab, open before the session starts, on the same site.
    personPage = await ext.openPage(url('/index.html?person'));
    ({ session } = await startSession(popup, [url('/index.html'), url('/next.html')]));
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('a session opens its own window with one tab per start URL, the first current', async () => {
    const list = await tabs();
    assert.deepEqual(list.map((/** @type {import('../types.mjs').Json} */ t) => [t.index, t.url, t.current]), [
      [0, url('/index.html'), true],
      [1, url('/next.html'), false],
    ]);
    const popupWindow = await popup.evaluate(async () => /** @type {chrome.tabs.Tab} */ (await chrome.tabs.getCurrent()).windowId);
    assert.notEqual(session.windowId, popupWindow);
    assert.equal(session.step, 0);
  });

  test("acting on the person's tab is refused and leaves it untouched", async () => {
    const personTabId = await popup.evaluate(
      async (u) => (await chrome.tabs.query({ url: u }))[0]?.id, url('/index.html?person'));
    const reply = await send(popup, 'act', { tabId: personTabId, action: { kind: 'goto', url: url('/next.html') } });
    assert.equal(reply.ok, false);
    assert.match(reply.error, /not part of session/);
    assert.equal(personPage.url(), url('/index.html?person'));
  });

  test('a target=_blank link opens a tab that joins the session and becomes current', async () => {
    const page = await waitForPage(ext.context, (u) => u === url('/index.html'));
    const reply = await act({ kind: 'click', id: 1 }, await elementRef(page, '#blank-link'));
    assert.equal(reply.result.effect.path, 'trusted');
    const list = await tabs();
    assert.equal(list.length, 3, JSON.stringify(list));
    assert.equal(list[2].url, url('/next.html?from=blank'));
    assert.equal(list[2].current, true);
  });

  test('a window.open button opens a tab that joins the session', async () => {
    await act({ kind: 'tab_focus', index: 0 });
    const page = await waitForPage(ext.context, (u) => u === url('/index.html'));
    await act({ kind: 'click', id: 2 }, await elementRef(page, '#open-window'));
    const list = await tabs();
    assert.equal(list.length, 4, JSON.stringify(list));
    assert.equal(list[3].url, url('/next.html?from=window-open'));
  });

  test('new_tab, tab_focus and close_tab work on session tabs by index', async () => {
    const opened = await act({ kind: 'new_tab' });
    assert.equal(opened.result.effect.index, 4);
    assert.equal((await current()).index, 4);
    await act({ kind: 'tab_focus', index: 1 });
    assert.equal((await current()).url, url('/next.html'));
    const missing = await act({ kind: 'tab_focus', index: 9 });
    assert.match(missing.result.error, /no tab 9: the session has tabs 0 to 4/);
    await act({ kind: 'tab_focus', index: 4 });
    await act({ kind: 'close_tab' });
    const list = await tabs();
    assert.equal(list.length, 4);
    assert.equal((await current()).index, 3, 'the last tab becomes current');
  });

  test('goto opens http(s) URLs and refuses javascript: and file: URLs', async () => {
    await act({ kind: 'tab_focus', index: 0 });
    const ok = await act({ kind: 'goto', url: url('/search.html') });
    assert.equal(ok.result.error, undefined);
    assert.ok(ok.result.settle.waitedFor.includes('navigation'));
    assert.equal((await current()).url, url('/search.html'));
    for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', 'not a url']) {
      const reply = await act({ kind: 'goto', url: bad });
      assert.match(reply.result.error, /goto (only opens|needs)/, bad);
      assert.equal(reply.result.effect, null);
      assert.equal((await current()).url, url('/search.html'), `${bad} navigated`);
    }
  });

  test('go_back and go_forward move through the tab history', async () => {
    await act({ kind: 'go_back' });
    assert.equal((await current()).url, url('/index.html'));
    await act({ kind: 'go_forward' });
    assert.equal((await current()).url, url('/search.html'));
    const none = await act({ kind: 'go_forward' });
    assert.deepEqual(none.result.effect, { navigated: false, note: 'no page to go forward to' });
  });

  test('every action counted as a step', async () => {
    const { session: now } = await sendOk(popup, 'listSessionTabs');
    assert.ok(now.step >= 14, `step ${now.step}`);
  });

  test("the person's tab never saw an action: same URL, no marker, no events", async () => {
    // (chrome.debugger.getTargets cannot tell: Playwright is attached to every tab.)
    assert.equal(personPage.url(), url('/index.html?person'));
    assert.equal(await personPage.locator('[data-hopbench-target]').count(), 0);
    assert.equal(await personPage.locator('#counter').textContent(), 'Clicked 0 times');
    assert.equal(await personPage.locator('#click-events').textContent(), '');
  });

  test('ending the session closes its window and forgets it; the person keeps theirs', async () => {
    const ended = await sendOk(popup, 'endSession');
    assert.equal(ended.verdict.passed, false);
    const windows = await popup.evaluate(() => chrome.windows.getAll());
    assert.ok(!windows.some((w) => w.id === session.windowId), 'session window still open');
    assert.equal(personPage.url(), url('/index.html?person'));
    const reply = await send(popup, 'listSessionTabs');
    assert.deepEqual(reply, { ok: false, error: 'no session is open: start one with a task first' });
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});

describe('a session whose start page is still loading', { timeout: 60_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Page} */ let popup;
  /** @type {import('node:http').Server} */ let server;
  /** @type {() => void} */ let release;
  const held = new Promise((resolve) => { release = () => resolve(undefined); });

  before(async () => {
    // One page answers at once; the other is held until the test lets it go, so its
    // tab is listed while its navigation has not committed.
    server = createServer(async (req, res) => {
      if (req.url === '/slow') await held;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<title>${req.url}</title><p>${req.url}</p>`);
    });
    await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve())));
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
  });

  after(async () => {
    release();
    await ext?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  });

  test('lists the URL the tab is loading, not an empty one', async () => {
    const base = `http://127.0.0.1:${portOfServer(server)}`;
    const { session } = await startSession(popup, [`${base}/fast`, `${base}/slow`]);
    const { tabs } = await sendOk(popup, 'listSessionTabs', { sessionId: session.id });
    assert.deepEqual(tabs.map((/** @type {import('../types.mjs').Json} */ t) => t.url), [`${base}/fast`, `${base}/slow`]);
    release();
    await sendOk(popup, 'endSession', { sessionId: session.id });
  });
});
