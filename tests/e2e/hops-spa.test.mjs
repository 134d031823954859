// Hop tracking on a single-page site (tests/e2e/sites/spa): URL changes the page makes
// itself, history.pushState filters (?city=Paris&cat=music) and #fragment routes
// (#/event/42), complete hops at the step that made them, for the agent's actions and
// for the person's own clicks and keys alike. The site also calls replaceState with
// the URL it is on after every render, as routers do, so Chrome reports more history
// updates than there are URL changes: each change must still be fed exactly once.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { elementRef, taskText, waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

describe('hops from pushState and #fragment URL changes', { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let popup;
  /** @type {import('../types.mjs').Page} */ let page;
  /** @type {number} */ let tabId;

  const spa = (/** @type {string} */ path) => sites.url('spa', path);
  /**
   * @param {{ kind: string, [field: string]: unknown }} action
   * @param {{ targetId: null, backendNodeId: number }} [element]
   */
  const act = async (action, element) => {
    const reply = await sendOk(popup, 'act', { action, element });
    assert.equal(reply.result.error, undefined, JSON.stringify(reply.result));
    return reply;
  };
  const progress = async () => (await sendOk(popup, 'getProgress')).progress;
  /** Progress once `done` hops are completed (the person's changes arrive as events). */
  const progressAt = async (/** @type {number} */ done) => {
    let p;
    for (let tries = 0; tries < 60 && (p = await progress()).done < done; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return p;
  };

  before(async () => {
    sites = await startSites({ names: ['spa'] });
    ext = await launchExtension();
    // Counts what Chrome reports for the session tab, to compare with what was fed.
    await ext.worker.evaluate(() => {
      /** @type {typeof globalThis & { __historyReports: { tabId: number, url: string }[] }} */ (globalThis).__historyReports = [];
      chrome.webNavigation.onHistoryStateUpdated.addListener((d) => {
        if (d.frameId === 0) /** @type {typeof globalThis & { __historyReports: { tabId: number, url: string }[] }} */ (globalThis).__historyReports.push({ tabId: d.tabId, url: d.url });
      });
    });
    popup = await ext.openExtensionPage('popup.html');
    const started = await sendOk(popup, 'startSession', {
      fileName: 'spa.json',
      taskText: taskText({
        id: 'e2e/spa-hops',
        startUrls: [spa('/')],
        hops: [
          {
            description: 'Music events in Paris',
            condition: {
              kind: 'all',
              of: [
                { kind: 'url', part: 'param', param: 'city', op: 'equals', value: 'Paris' },
                { kind: 'url', part: 'param', param: 'cat', op: 'equals', value: 'music' },
              ],
            },
          },
          { description: 'Jazz Night', condition: { kind: 'url', part: 'fragment', op: 'equals', value: '/event/42' } },
          { description: 'Taiko Drums', condition: { kind: 'url', part: 'fragment', op: 'equals', value: '/event/23' } },
        ],
      }),
    });
    tabId = started.session.currentTabId;
    page = await waitForPage(ext.context, (u) => u === spa('/'));
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('choosing a city pushes ?city=Paris; the first hop still waits for the category', async () => {
    const reply = await act({ kind: 'type', id: 9, text: 'Paris', press_enter: false }, await elementRef(page, '#city'));
    assert.equal(page.url(), spa('/?city=Paris'));
    const { settle } = reply.result;
    assert.ok(settle.waitedFor.includes('navigation'), JSON.stringify(settle));
    // The pushState and the router's replaceState of the same URL: one change.
    assert.deepEqual(settle.navigations.map((/** @type {import('../types.mjs').Json} */ n) => [n.change, n.url]), [['history', spa('/?city=Paris')]]);
    const p = await progress();
    assert.equal(p.done, 0);
    assert.equal(p.current, 'Music events in Paris');
  });

  test('clicking Music (a routed link: pushState) completes hop 1 at that step', async () => {
    const reply = await act({ kind: 'click', id: 16 }, await elementRef(page, 'a[data-cat="music"]'));
    assert.equal(page.url(), spa('/?city=Paris&cat=music'));
    const p = await progress();
    assert.equal(p.done, 1);
    assert.equal(p.hops[0].step, reply.step);
    assert.equal(reply.step, 2);
    // The next observation shows the pushed URL and the re-rendered list.
    const { observation } = await sendOk(popup, 'observeTab', tabId, { mode: 'text' });
    assert.equal(observation.url, spa('/?city=Paris&cat=music'));
    assert.match(observation.text, /heading 'Events in Paris'/);
    assert.doesNotMatch(observation.text, /Louvre Late/, 'art events are filtered out');
  });

  test('a hash link (#/event/42) completes hop 2 at its step', async () => {
    const reply = await act({ kind: 'click', id: 20 }, await elementRef(page, '#results a[href="#/event/42"]'));
    assert.equal(page.url(), spa('/?city=Paris&cat=music#/event/42'));
    assert.deepEqual(
      reply.result.settle.navigations.map((/** @type {import('../types.mjs').Json} */ n) => [n.change, n.url]),
      [['fragment', spa('/?city=Paris&cat=music#/event/42')]],
    );
    const p = await progress();
    assert.equal(p.done, 2);
    assert.equal(p.hops[1].step, 3);
  });

  test("the person's own clicks and keys are credited too, at the current step", async () => {
    await page.click('text=Back to events'); // #/ : a fragment change of its own
    await page.waitForURL(spa('/?city=Paris&cat=music#/'));
    // A pushState to the URL already shown is no change.
    await page.evaluate(() => history.pushState(null, '', location.href));
    await page.click('#search');
    await page.keyboard.type('Taiko Drums');
    await page.keyboard.press('Enter');
    await page.waitForURL(spa('/?city=Paris&cat=music#/event/23'));
    const p = await progressAt(3);
    assert.equal(p.done, 3);
    assert.equal(p.hops[2].step, 3, 'no action since step 3: the person navigated');
  });

  test('a reload is a new page at the same URL and is fed; then the session passes', async () => {
    await page.reload();
    await page.waitForLoadState('load');
    const ended = await sendOk(popup, 'endSession');
    assert.equal(ended.verdict.passed, true, ended.verdict.reason);
    assert.deepEqual(ended.verdict.hop_steps, [2, 3, 3]);
    // Every URL change once, in order, with how it came, though Chrome reported a
    // history update for each router replaceState as well.
    const fed = ended.events.filter((/** @type {import('../types.mjs').Json} */ e) => e.kind === 'navigation');
    const shown = '/?city=Paris&cat=music';
    assert.deepEqual(
      fed.map((/** @type {import('../types.mjs').Json} */ e) => [e.change, e.step, e.url, e.completedHop]),
      [
        ['load', 0, spa('/'), null],
        ['history', 1, spa('/?city=Paris'), null],
        ['history', 2, spa(shown), 0],
        ['fragment', 3, spa(`${shown}#/event/42`), 1],
        ['fragment', 3, spa(`${shown}#/`), null],
        ['fragment', 3, spa(`${shown}#/event/23`), 2],
        ['load', 3, spa(`${shown}#/event/23`), null],
      ],
    );
    const reports = await ext.worker.evaluate((id) => /** @type {typeof globalThis & { __historyReports: { tabId: number, url: string }[] }} */ (globalThis).__historyReports.filter((r) => r.tabId === id), tabId);
    const historyFed = fed.filter((/** @type {import('../types.mjs').Json} */ e) => e.change === 'history').length;
    assert.ok(
      reports.length > historyFed,
      `Chrome reported ${reports.length} history updates for ${historyFed} URL changes: the test no longer shows duplicates being dropped`,
    );
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
