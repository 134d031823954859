// Pages that fight back, in runs started from the real toolbar popup: a page that floods
// its history with pushState, one whose main thread is busy for a minute after load, and
// a click that lands in a redirect loop. Each run ends within its limit with its cause
// named, leaves nothing behind, and the next run in the same browser passes.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { leftovers, runFileFromRealPopup } from './popup-run.mjs';
import { waitForRunEnd } from './run-helpers.mjs';
import { startSession, waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

describe('pages that fight back, from the real popup', { timeout: 300_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let control;
  /** @type {string} */ let dir;

  /**
   * @param {string} name
   * @param {object} task
   */
  const run = async (name, task) => {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(task));
    const runId = await runFileFromRealPopup(ext, control, { file, overUrl: sites.url('fight', '/done.html?name=person') });
    return runId;
  };

  before(async () => {
    sites = await startSites({ names: ['fight'] });
    ext = await launchExtension();
    control = await ext.openExtensionPage('runs.html');
    dir = mkdtempSync(join(tmpdir(), 'hopbench-fight-'));
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a page that pushes 10,000 history entries on load: the first action comes within 15 s of its load and the task passes', async () => {
    const runId = await run('flood', {
      id: 'fight/flood',
      intent: 'Say "flooded" once the flooding page has loaded.',
      start_urls: [sites.url('fight', '/flood.html')],
      hops: [{ condition: { kind: 'answer', must_include: ['flooded'] } }],
      reference_trajectory: ['stop [flooded]'],
    });
    const ended = await waitForRunEnd(control, runId, 60_000);
    assert.equal(ended.verdict?.passed, true, JSON.stringify(ended));
    const { trajectory } = await sendOk(control, 'exportRun', { runId });
    const first = trajectory.steps[0];
    // The run's start opens the page; its first action follows its observation.
    const firstActionMs = first.started_at + (first.timings.observe_ms ?? 0) - ended.startedAt;
    assert.ok(firstActionMs < 15_000, `first action ${firstActionMs} ms after the run's start`);
    assert.match(first.observation.text, /Pushed \d+ entries\./);
    assert.ok(ended.finishedAt - ended.startedAt < 30_000, `${ended.finishedAt - ended.startedAt} ms`);
    assert.equal((await leftovers(control)).rules, 0);
  });

  test("the flood's URL changes are each fed, and the hop log keeps the first and the latest of the run", async () => {
    const { session } = await startSession(control, [sites.url('fight', '/flood.html')], {
      id: 'fight/flood-log',
      hops: [{ condition: { kind: 'url', part: 'param', param: 'step', op: 'equals', value: '150' } }],
    });
    const page = await waitForPage(ext.context, (url) => url.includes('/flood.html'));
    await page.waitForFunction(() => document.getElementById('state')?.textContent?.startsWith('Pushed'));
    const shown = new URL(page.url()).searchParams.get('step');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { verdict, events } = await sendOk(control, 'endSession', { sessionId: session.id });
    // An entry the page pushed in the middle of the flood completed the hop: every one was fed.
    assert.equal(verdict.passed, true, JSON.stringify(verdict));
    const navigations = events.filter((/** @type {{ kind: string }} */ e) => e.kind === 'navigation');
    assert.ok(navigations.length <= 6, `${navigations.length} entries: ${JSON.stringify(navigations.slice(0, 8))}`);
    const last = navigations.at(-1);
    assert.equal(new URL(last.url).searchParams.get('step'), shown);
    const fed = navigations.reduce((/** @type {number} */ sum, /** @type {{ skipped?: number }} */ e) => sum + 1 + (e.skipped ?? 0), 0);
    assert.equal(fed, Number(shown) + 1, 'the load and every history change');
  });

  test('a page busy for 60 s right after load is waited for, as a person waits; the task passes', async () => {
    const runId = await run('busy', {
      id: 'fight/busy',
      intent: 'Go on from the busy page.',
      start_urls: [sites.url('fight', '/busy-load.html?seconds=60')],
      hops: [{ condition: { kind: 'url', part: 'param', param: 'name', op: 'equals', value: 'waited' } }],
      reference_trajectory: ["click {link 'Go on'}"],
    });
    const ended = await waitForRunEnd(control, runId, 150_000);
    assert.equal(ended.verdict?.passed, true, JSON.stringify(ended));
    const { trajectory } = await sendOk(control, 'exportRun', { runId });
    assert.match(trajectory.steps[0].observation.text, /StaticText 'Ready\.'/);
    assert.ok(trajectory.steps[0].timings.observe_ms > 30_000, `observed after ${trajectory.steps[0].timings.observe_ms} ms`);
  });

  test('a click into a redirect loop shows the browser\'s error page: the agent is told and goes on', async () => {
    const runId = await run('loop', {
      id: 'fight/loop',
      intent: 'Open the offers, then go on.',
      start_urls: [sites.url('fight', '/loop.html')],
      hops: [{ condition: { kind: 'url', part: 'param', param: 'name', op: 'equals', value: 'escaped' } }],
      reference_trajectory: ["click {link 'Open the offers'}", 'go_back', "click {link 'Go on'}"],
    });
    const ended = await waitForRunEnd(control, runId, 60_000);
    assert.equal(ended.verdict?.passed, true, JSON.stringify(ended));
    assert.deepEqual(ended.verdict.hop_steps, [3]);
    const { trajectory } = await sendOk(control, 'exportRun', { runId });
    assert.match(trajectory.steps[1].observation.text, /The page http:\/\/127\.0\.0\.1:\d+\/redirect-loop did not load \(net::ERR_TOO_MANY_REDIRECTS\); the browser shows its error page instead\./);
    assert.equal((await leftovers(control)).rules, 0);
  });

  test('after all of them the next run in the same browser passes and nothing is left behind', async () => {
    const runId = await run('after', {
      id: 'fight/after',
      intent: 'Say hello as after.',
      start_urls: [sites.url('fight', '/done.html?name=start')],
      hops: [{ condition: { kind: 'url', part: 'param', param: 'name', op: 'equals', value: 'after' } }],
      reference_trajectory: [`goto [${sites.url('fight', '/done.html?name=after')}]`],
    });
    const ended = await waitForRunEnd(control, runId, 60_000);
    assert.equal(ended.verdict?.passed, true, JSON.stringify(ended));
    const left = await leftovers(control);
    assert.deepEqual({ rules: left.rules, sessions: left.sessions }, { rules: 0, sessions: 0 });
    assert.deepEqual(left.tabs.filter((u) => u.includes(sites.origin('fight'))), []);
  });
});
