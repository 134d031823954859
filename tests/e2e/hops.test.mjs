// Hop tracking: a two-site task across two tabs. Navigations in session tabs (the
// person's or the agent's) feed the core's hop queue; progress is readable at any
// moment, the verdict at the end.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, send, sendOk } from '../../runner/driver.mjs';
import { elementRef, taskText, waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

describe('hop tracking across two sites and two tabs', { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let popup;

  /**
   * @param {{ kind: string, [field: string]: unknown }} action
   * @param {{ targetId: null, backendNodeId: number }} [element] an element reference (elementRef)
   */
  const act = async (action, element) => {
    const reply = await sendOk(popup, 'act', { action, element });
    assert.equal(reply.result.error, undefined, JSON.stringify(reply.result));
    return reply;
  };
  const progress = async () => (await sendOk(popup, 'getProgress')).progress;

  before(async () => {
    sites = await startSites({ names: ['wiki', 'events'] });
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('a task that cannot be read is refused with an error naming the file', async () => {
    const reply = await send(popup, 'startSession', { taskText: '{"id": 3', fileName: 'broken.json' });
    assert.equal(reply.ok, false);
    assert.match(reply.error, /broken\.json: not valid JSON/);
  });

  test('starting a session creates the hop queue: 0 of 2, first hop current', async () => {
    const reply = await sendOk(popup, 'startSession', {
      fileName: 'tokyo.json',
      taskText: taskText({
        id: 'e2e/tokyo-events',
        startUrls: [sites.url('wiki', '/index.html')],
        hops: [
          { description: 'Read about the Tokyo Tower', condition: { kind: 'url', part: 'path', op: 'contains', value: 'Tokyo_Tower' } },
          { description: 'Find events in Tokyo', condition: { kind: 'url', part: 'host', op: 'equals', value: new URL(sites.origin('events')).hostname, tokens: ['tokyo', 'search'] } },
        ],
        finalAnswer: { condition: { must_include: ['tokyo'] }, required: true },
      }),
    });
    assert.equal(reply.task.id, 'e2e/tokyo-events');
    assert.equal(reply.progress.done, 0);
    assert.equal(reply.progress.total, 2);
    assert.equal(reply.progress.current, 'Read about the Tokyo Tower');
  });

  test("a person's own navigation in tab 0 is tracked too and completes hop 1", async () => {
    // The person clicks, not the agent: webNavigation reports it like any other.
    const wiki = await waitForPage(ext.context, (u) => u === sites.url('wiki', '/index.html'));
    await wiki.click('#tower');
    await wiki.waitForURL(sites.url('wiki', '/Tokyo_Tower.html'));
    let p;
    for (let tries = 0; tries < 40 && (p = await progress()).done < 1; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(p.done, 1);
    assert.equal(p.current, 'Find events in Tokyo');
    assert.deepEqual(p.hops.map((/** @type {import('../types.mjs').Json} */ h) => h.state), ['done', 'current']);
    assert.equal(p.hops[0].step, 0, 'no agent step yet: the person navigated');
  });

  test('navigating in a new tab 1 completes hop 2: 2 of 2, verdict waits for the answer', async () => {
    await act({ kind: 'new_tab' });
    await act({ kind: 'goto', url: sites.url('events', '/index.html') });
    const events = await waitForPage(ext.context, (u) => u === sites.url('events', '/index.html'));
    await act({ kind: 'click', id: 2 }, await elementRef(events, '#tokyo'));
    const p = await progress();
    assert.equal(p.done, 2);
    assert.equal(p.at_end, true);
    assert.equal(p.current, null);
    const { verdict } = await sendOk(popup, 'getVerdict');
    assert.equal(verdict.passed, false);
    assert.match(verdict.reason, /no answer/);
  });

  test('stop [answer] scores the answer; the verdict is PASS', async () => {
    const reply = await act({ kind: 'stop', answer: 'Events in Tokyo are listed' });
    assert.equal(reply.result.effect.answerScored, true);
    assert.equal(reply.result.settle, null);
    const ended = await sendOk(popup, 'endSession');
    assert.equal(ended.verdict.passed, true, ended.verdict.reason);
    assert.deepEqual(ended.verdict.hop_steps, [0, 3]);
    const completions = ended.events.filter((/** @type {import('../types.mjs').Json} */ e) => e.completedHop !== null);
    assert.deepEqual(
      completions.map((/** @type {import('../types.mjs').Json} */ e) => [e.completedHop, e.tab, e.url]),
      [
        [0, 0, sites.url('wiki', '/Tokyo_Tower.html')],
        [1, 1, sites.url('events', '/search.html?city=tokyo')],
      ],
    );
    assert.ok(completions.every((/** @type {import('../types.mjs').Json} */ e) => e.timeMs > 0));
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
