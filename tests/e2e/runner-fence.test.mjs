// The fence, round two, when the runner drives a browser someone else started (a
// person's own, reached with --browser-endpoint): the same cases as site-fence.test.mjs,
// each during a runner run. The person's tabs stay theirs (one Chrome discards under a
// new id, one they open in the run's window); a fence left without a run by a stopped
// worker is gone when the runner wakes the worker; closing the run's window stops the
// run at once. Afterwards no rule, no tab and no window of the run is left, and the
// other origin heard only from the person's own tabs. The fake model plays the agent,
// slowly, so the run (and its fence) is up while the person acts.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { PROFILE_REMOVAL } from '../../runner/browser.mjs';
import { builtExtension } from '../../runner/remote-browser.mjs';
import { startChromium, stopChromium } from './attached-browser.mjs';
import { FAKE_KEY, startFakeProviders } from './fake-providers.mjs';
import { distDir } from './paths.mjs';
import { readLines, startRunner } from './runner-process.mjs';
import { startSites } from './sites.mjs';
import { discardTab } from './tab-discard.mjs';
import { workerControl } from './worker-control.mjs';

/** @param {string} action */
const reply = (action) => `In summary, the next action I will perform is \`\`\`${action}\`\`\``;

/** How long the fake model takes over its first reply: the run stays up meanwhile. */
const MODEL_DELAY_MS = 12_000;

describe('the fence in a browser the runner attached to', { timeout: 300_000 }, () => {
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').FakeProviders} */ let fake;
  /** @type {string} */ let dir;
  /** @type {import('./attached-browser.mjs').Started} */ let started;
  /** @type {import('playwright-core').Browser} */ let person;
  /** @type {import('playwright-core').BrowserContext} */ let context;
  /** The person's own extension page, for what only chrome.* can do (discard a tab). */
  /** @type {import('playwright-core').Page} */ let ext;
  /** @type {string} */ let outside;

  // Pages, not icons: a page that loads asks for /favicon.ico too.
  const outsideRequests = () => sites.requests.filter((r) => r.site === 'alpha' && r.path !== '/favicon.ico');

  /**
   * Starts the runner on one task whose start page is `start` (or start pages, each in
   * a tab), in the person's browser.
   * @param {string} name
   * @param {string} start
   * @param {string[]} [startUrls]
   */
  function runTask(name, start, startUrls = [start]) {
    const tasks = join(dir, `tasks-${name}`);
    rmSync(tasks, { recursive: true, force: true });
    mkdirSync(tasks);
    writeFileSync(join(tasks, `${name}.json`), JSON.stringify({
      id: `e2e-runner-fence/${name}`,
      intent: 'Open the inside page of the fenced site.',
      start_urls: startUrls,
      hops: [{ condition: { kind: 'url', part: 'path', op: 'equals', value: '/inside.html' } }],
    }));
    const out = join(dir, `out-${name}`);
    const args = ['--tasks', tasks, '--out', out, '--browser-endpoint', started.endpoint, '--provider', 'openai',
      '--base-url', fake.baseUrl('openai'), '--model', 'fake-model', '--api-key-env', 'HOPBENCH_TEST_KEY',
      '--max-steps', '3', '--observation', 'text'];
    const runner = startRunner(args, { env: { HOPBENCH_TEST_KEY: FAKE_KEY } });
    return { ...runner, out };
  }

  /**
   * Waits until the other origin has heard more than `count` page requests.
   * @param {number} count
   * @param {string} what what it means when it does not
   */
  async function outsideHeard(count, what) {
    const deadline = Date.now() + 10_000;
    while (outsideRequests().length <= count) {
      assert.ok(Date.now() < deadline, what);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The session rules of the browser, and the fence state the worker keeps. */
  async function fenceLeft() {
    return ext.evaluate(async () => ({
      rules: (await chrome.declarativeNetRequest.getSessionRules()).length,
      fences: Object.keys((await chrome.storage.session.get('hopbench.fences'))['hopbench.fences'] ?? {}),
    }));
  }

  /** The URLs of every tab in every window of the browser. */
  function tabUrls() {
    return ext.evaluate(async () => (await chrome.tabs.query({})).map((t) => t.pendingUrl || t.url || '').sort());
  }

  before(async () => {
    sites = await startSites({ names: ['fence', 'alpha'] });
    outside = sites.origin('alpha');
    fake = await startFakeProviders();
    dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-fence-'));
    started = await startChromium(dir, 'person');
    person = await chromium.connectOverCDP(started.endpoint);
    [context] = person.contexts();
    ext = await context.newPage();
    await ext.goto(`chrome-extension://${builtExtension(distDir).id}/runs.html`);
  });

  after(async () => {
    await person?.close().catch(() => undefined);
    if (started) await stopChromium(started);
    await fake?.close();
    await sites?.close();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, PROFILE_REMOVAL);
  });

  test("a tab of the person's that Chrome discards during the run is still theirs", async () => {
    const background = await context.newPage();
    await background.goto(sites.url('fence', '/index.html?tab=background'));
    const front = await context.newPage();
    await front.goto(sites.url('fence', '/index.html?tab=front'));
    const tabsBefore = await tabUrls();
    fake.reset();
    fake.script({ text: reply('stop [done]'), delayMs: MODEL_DELAY_MS });
    const runner = runTask('discarded', sites.url('fence', '/index.html?run=discarded'));
    await fake.waitForRequests(1, 60_000);
    const before = outsideRequests().length;
    const discardedId = await discardTab(ext, background.url());
    await ext.evaluate(([id, url]) => chrome.tabs.update(/** @type {number} */ (id), { url: /** @type {string} */ (url) }),
      [discardedId, `${outside}/index.html?from=discarded`]);
    await outsideHeard(before, "the discarded tab never reached the other origin: it was fenced as the run's once discarded");
    const result = await runner.done;
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    assert.deepEqual(await fenceLeft(), { rules: 0, fences: [] });
    // The person's tabs, the discarded one where they took it; nothing of the run's.
    const expected = tabsBefore.map((u) => (u.endsWith('tab=background') ? `${outside}/index.html?from=discarded` : u)).sort();
    assert.deepEqual(await tabUrls(), expected);
    await background.close().catch(() => undefined);
    await front.close();
  });

  test("a tab of the run's that Chrome discards is still the run's: the agent focuses it, the run's end closes it", async () => {
    const tabsBefore = await tabUrls();
    const first = sites.url('fence', '/index.html?run=discard-a');
    const second = sites.url('fence', '/index.html?run=discard-b');
    fake.reset();
    fake.script({ text: reply('tab_focus [1]'), delayMs: MODEL_DELAY_MS / 2 }, { text: reply('stop [done]') });
    const runner = runTask('run-tab-discarded', first, [first, second]);
    await fake.waitForRequests(1, 60_000);
    await discardTab(ext, second);
    const result = await runner.done;
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    const [line] = readLines(join(runner.out, 'results.jsonl'));
    assert.equal(line.error, null, JSON.stringify(line));
    const trajectory = JSON.parse(readFileSync(join(runner.out, 'trajectories', 'e2e-runner-fence~2Frun-tab-discarded.json'), 'utf8'));
    assert.equal(trajectory.steps[0].result.error, null, JSON.stringify(trajectory.steps[0].result));
    assert.equal(trajectory.steps[1].observation.url, second, 'the agent saw the tab it focused');
    assert.deepEqual(await fenceLeft(), { rules: 0, fences: [] });
    assert.deepEqual(await tabUrls(), tabsBefore, 'a tab of the run outlived it, unfenced');
  });

  test("a tab the person opens in the run's window is theirs: not fenced, not the run's, not closed with it", async () => {
    const tabsBefore = await tabUrls();
    fake.reset();
    fake.script({ text: reply('stop [done]'), delayMs: MODEL_DELAY_MS });
    const start = sites.url('fence', '/index.html?run=person-tab');
    const runner = runTask('person-tab', start);
    await fake.waitForRequests(1, 60_000);
    const before = outsideRequests().length;
    // As Ctrl+T in the run's window: a tab no page of the run opened.
    const personal = `${outside}/index.html?from=person-in-run-window`;
    const tabId = await ext.evaluate(async ([startUrl, url]) => {
      const [runTab] = await chrome.tabs.query({ url: startUrl });
      return (await chrome.tabs.create({ windowId: runTab.windowId, url, active: false })).id;
    }, [start, personal]);
    await outsideHeard(before, "the person's tab in the run's window was fenced as the run's");
    const result = await runner.done;
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    assert.deepEqual(await fenceLeft(), { rules: 0, fences: [] });
    assert.deepEqual(await tabUrls(), [...tabsBefore, personal].sort(), "the run's tab is gone, the person's is not");
    await ext.evaluate((id) => chrome.tabs.remove(/** @type {number} */ (id)), tabId);
  });

  test('a fence and window left without a run by a stopped worker are gone once the runner wakes the worker', async () => {
    const tabsBefore = await tabUrls();
    // The run's first steps as the worker takes them (run/service.js startAgentRun): the
    // fence up, the window open (and focused: the runner's page must not open in it,
    // or it would be taken for that run's), not bound yet; then the worker stops.
    const orphan = sites.url('fence', '/index.html?run=never-started');
    const task = JSON.stringify({
      id: 'e2e/never-started',
      intent: 'Never started.',
      start_urls: [orphan],
      hops: [{ condition: { kind: 'url', part: 'path', op: 'equals', value: '/inside.html' } }],
    });
    await ext.evaluate(async ([origin, text]) => {
      const { installFence } = await import(/** @type {string} */ ('./worker/fence/fence.js'));
      const { loadedCore } = await import(/** @type {string} */ ('./worker/core/core.js'));
      const { openTaskSession } = await import(/** @type {string} */ ('./worker/session/service.js'));
      await installFence('e2e-never-started', [origin]);
      await openTaskSession(await loadedCore(), { taskText: text, fileName: 'never-started.json' }, { id: 'e2e-never-started' });
    }, [sites.origin('fence'), task]);
    assert.ok((await fenceLeft()).rules > 0, 'the fence is up');
    assert.ok((await tabUrls()).includes(orphan), "the run's window is open");
    const worker = await workerControl(ext);
    try {
      await worker.stop();
    } finally {
      await worker.detach();
    }
    fake.reset();
    fake.script({ text: reply('stop [done]') });
    const runner = runTask('after-orphan', sites.url('fence', '/index.html?run=after-orphan'));
    const result = await runner.done;
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    assert.equal(readLines(join(runner.out, 'results.jsonl')).length, 1, 'the task was recorded');
    assert.deepEqual(await fenceLeft(), { rules: 0, fences: [] });
    assert.deepEqual(await tabUrls(), tabsBefore, 'the window of the run that never started outlived its fence');
    // The person's next tab goes where it goes.
    const before = outsideRequests().length;
    const tab = await context.newPage();
    await tab.goto(`${outside}/index.html?from=after-orphan`);
    await outsideHeard(before, "the person's new tab was blocked by the fence of a run that never started");
    assert.equal(await tab.locator('h1').textContent(), 'Alpha');
    await tab.close();
  });

  test("closing the run's window stops the run at once, its rules gone before the model answers", async () => {
    const tabsBefore = await tabUrls();
    fake.reset();
    fake.script({ text: reply('stop [done]'), delayMs: MODEL_DELAY_MS });
    const start = sites.url('fence', '/index.html?run=closed-window');
    const runner = runTask('closed-window', start);
    await fake.waitForRequests(1, 60_000);
    const closedAt = Date.now();
    await ext.evaluate(async (startUrl) => {
      const [runTab] = await chrome.tabs.query({ url: startUrl });
      await chrome.windows.remove(runTab.windowId);
    }, start);
    // At once: well before the model's reply would have come.
    for (;;) {
      const left = await fenceLeft();
      if (left.rules === 0 && left.fences.length === 0) break;
      assert.ok(Date.now() - closedAt < MODEL_DELAY_MS / 2, `the run's fence outlived its window: ${JSON.stringify(left)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const result = await runner.done;
    // Its only task was stopped: a batch of nothing but ERRORs, which exits 1 and says so.
    assert.equal(result.status, 1, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stderr, /^run: every attempt of this batch ended in ERROR \(1 attempt, no PASS or FAIL\)/m);
    const [line] = readLines(join(runner.out, 'results.jsonl'));
    assert.equal(line.end, 'stopped', JSON.stringify(line));
    assert.match(String(line.reason), /the run's window was closed/, JSON.stringify(line));
    const trajectory = JSON.parse(readFileSync(join(runner.out, 'trajectories', 'e2e-runner-fence~2Fclosed-window.json'), 'utf8'));
    assert.doesNotMatch(JSON.stringify(trajectory), /is not part of session/);
    assert.deepEqual(await tabUrls(), tabsBefore);
  });
});
