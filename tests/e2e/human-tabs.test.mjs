// A person's session across tabs and sites: a link that opens a new tab, switching
// tabs, Back and Forward, a URL typed as the address bar would, closing a tab. Each is
// recorded as the agent's action (tab_focus, go_back, go_forward, goto, close_tab), a
// tab a link opened is not an action of its own, hops complete at the steps that made
// them, and the recorded trajectory replays to PASS.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { elementOf, person, waitForSteps } from './human-helpers.mjs';
import { waitForRunEnd } from './run-helpers.mjs';
import { waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

describe("a person's session across tabs", { timeout: 240_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let extPage;
  /** @type {Record<string, unknown>} */ let task;
  /** @type {string} */ let runId;
  /** @type {Awaited<ReturnType<typeof waitForSteps>>} */ let steps;

  before(async () => {
    sites = await startSites({ names: ['wiki', 'events'] });
    ext = await launchExtension();
    extPage = await ext.openExtensionPage('runs.html');
    task = {
      id: 'e2e/tabs',
      intent: 'Open the events site in a new tab, read about the Tokyo Tower, then list the events in Tokyo.',
      start_urls: [sites.url('wiki', '/portal.html')],
      hops: [
        { description: 'Read about the Tokyo Tower', condition: { kind: 'url', part: 'path', op: 'contains', value: 'Tokyo_Tower' } },
        { description: 'Open the events site', condition: { kind: 'url', op: 'prefix', value: sites.origin('events') } },
        { description: 'List the events in Tokyo', condition: { kind: 'url', part: 'param', param: 'city', op: 'equals', value: 'tokyo' } },
      ],
    };
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('every tab and navigation action is recorded once, in order', async () => {
    ({ runId } = await sendOk(extPage, 'startHuman', { taskText: JSON.stringify(task), fileName: 'tabs.json' }));
    const portal = await waitForPage(ext.context, (url) => url.endsWith('/portal.html'));
    await sendOk(extPage, 'humanControl', { runId, command: 'start' });
    const first = person(portal);
    await first.click('#events');
    const events = await waitForPage(ext.context, (url) => url.startsWith(sites.origin('events')));
    await waitForSteps(extPage, runId, 1);
    await first.think();
    await portal.bringToFront();
    await waitForSteps(extPage, runId, 2);
    await first.click('#tower');
    await portal.waitForURL(/Tokyo_Tower/);
    await waitForSteps(extPage, runId, 3);
    await first.think();
    await portal.goBack();
    await waitForSteps(extPage, runId, 4);
    await first.think();
    await portal.goForward();
    await waitForSteps(extPage, runId, 5);
    const second = person(events);
    await second.think();
    await events.bringToFront();
    await waitForSteps(extPage, runId, 6);
    await second.think();
    await events.goto(sites.url('events', '/'));
    await waitForSteps(extPage, runId, 7);
    await second.click('#tokyo');
    await events.waitForURL(/city=tokyo/);
    await waitForSteps(extPage, runId, 8);
    await second.think();
    await events.close();
    steps = await waitForSteps(extPage, runId, 9);
    assert.deepEqual(
      steps.map((/** @type {import('../types.mjs').Json} */ s) => s.action?.text.replace(/^(click) \[\d+\]/, '$1 [ID]') ?? s.result.error),
      [
        'click [ID]',
        'tab_focus [0]',
        'click [ID]',
        'go_back',
        'go_forward',
        'tab_focus [1]',
        `goto [${sites.url('events', '/')}]`,
        'click [ID]',
        'close_tab',
      ],
    );
    assert.deepEqual(
      [0, 2, 7].map((i) => elementOf(steps[i].observation.text, steps[i].action.text)),
      ["link 'Events (new tab)'", "link 'Tokyo Tower'", "link 'Events in Tokyo'"],
    );
  });

  test('the answer ends it with PASS, hops at the steps of the click, the typed URL and the last click', async () => {
    await sendOk(extPage, 'humanFinish', { runId, answer: 'done' });
    const run = await waitForRunEnd(extPage, runId);
    assert.equal(run.verdict.passed, true, JSON.stringify(run.verdict));
    assert.deepEqual(run.verdict.hop_steps, [3, 7, 8]);
  });

  test('the recorded trajectory replays to PASS', async () => {
    const { steps: all } = await sendOk(extPage, 'getRun', { runId, withSteps: true });
    const { value } = await sendOk(extPage, 'coreCall', 'reference_of', [all.map((/** @type {import('../types.mjs').Json} */ s) => ({ action: s.action.text, observation: s.observation.text }))]);
    assert.deepEqual(value.problems, []);
    assert.equal(value.reference[0], "click {link 'Events (new tab)'}");
    const replayTask = JSON.stringify({ ...task, id: 'e2e/tabs-replayed', reference_trajectory: value.reference });
    const { runId: replayId } = await sendOk(extPage, 'startRun', { taskText: replayTask, fileName: 'replayed.json', overrides: { provider: 'replay' } });
    const replay = await waitForRunEnd(extPage, replayId, 90_000);
    assert.equal(replay.verdict.passed, true, JSON.stringify(replay.verdict));
    assert.deepEqual(replay.verdict.hop_steps, [3, 7, 8]);
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
