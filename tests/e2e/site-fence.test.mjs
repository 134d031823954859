// The site fence: a run in the person's browser stays on its task's sites. A page (or a
// model it steered) that sends the agent elsewhere gets "blocked: ORIGIN is outside this
// task's sites", and the other origin's server never sees a request: not for a goto, a
// link clicked in the tab, or a link that opens a new tab. The person's own tabs are not
// fenced. The fake OpenAI-compatible server plays the steered model.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFakeProviders } from './fake-providers.mjs';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { runFromPopup, waitForRunEnd } from './run-helpers.mjs';
import { workerControl } from './worker-control.mjs';
import { startSites } from './sites.mjs';
import { discardTab } from './tab-discard.mjs';

/** The fake model's reply for one action, in the chain-of-thought format. */
const reply = (/** @type {string} */ action) => `I will do as the page says. In summary, the next action I will perform is \`\`\`${action}\`\`\``;

/**
 * `[id]` of the line `role 'name'` in the prompt (the observation the model got).
 * @param {string} text
 * @param {string} role
 * @param {string} name
 */
function idOf(text, role, name) {
  const id = new RegExp(`\\[(\\d+)\\] ${role} '${name}'`).exec(text)?.[1];
  if (!id) throw new Error(`no ${role} '${name}' in the prompt:\n${text}`);
  return id;
}

describe('the site fence', { timeout: 240_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').FakeProviders} */ let fake;
  /** @type {import('../types.mjs').Page} */ let popup;
  /** @type {string} */ let outside; // the third origin: http://127.0.0.1:<alpha's port>
  /** @type {string} */ let taskText;

  // Pages, not icons: a page that loads asks for /favicon.ico too.
  const outsideRequests = () => sites.requests.filter((r) => r.site === 'alpha' && r.path !== '/favicon.ico');
  const blockedText = () => `blocked: ${outside} is outside this task's sites`;

  before(async () => {
    sites = await startSites({ names: ['fence', 'alpha'] });
    outside = sites.origin('alpha');
    fake = await startFakeProviders({ apiKey: null });
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
    await sendOk(popup, 'saveSettings', {
      settings: { model: { provider: 'openai', base_url: fake.baseUrl('openai'), model: 'fake-agent', temperature: 0, max_tokens: 256 } },
      observation: { mode: 'text' },
    });
    taskText = JSON.stringify({
      id: 'e2e/fence',
      intent: 'Open the inside page of the fenced site.',
      start_urls: [sites.url('fence', '/index.html')],
      hops: [{ condition: { kind: 'url', part: 'path', op: 'equals', value: '/inside.html' } }],
    });
  });

  after(async () => {
    await ext?.close();
    await fake?.close();
    await sites?.close();
  });

  /** @param {string} runId */
  async function stepsOf(runId) {
    return (await sendOk(popup, 'getRun', { runId, withSteps: true })).steps;
  }

  test('from the popup (fence on by default): goto outside is blocked, the origin gets no request', async () => {
    fake.reset();
    fake.script(
      { text: reply(`goto [${outside}/index.html?from=goto]`) },
      { text: reply('stop [done]') },
    );
    const runId = await runFromPopup(popup, { taskText, fileName: 'fence.json', agent: 'model' });
    const run = await waitForRunEnd(popup, runId);
    assert.equal(run.status, 'finished', JSON.stringify(run));
    const steps = await stepsOf(runId);
    assert.equal(steps[0].action.text, `goto [${outside}/index.html?from=goto]`);
    assert.equal(steps[0].result.error, blockedText());
    // The model is told, in the next prompt; the page it sees is still the task's.
    const second = fake.requests.filter((r) => r.api === 'openai')[1];
    assert.ok(second.text.includes(blockedText()), second.text);
    assert.equal(steps[1].observation.url, sites.url('fence', '/index.html'));
    assert.deepEqual(outsideRequests(), []);
  });

  test("from the popup: a page on the task's site cannot reach a loopback service no task names", async () => {
    const probes = () => sites.requests.filter((r) => r.site === 'alpha' && r.path.startsWith('/probe-'));
    fake.reset();
    fake.script({ text: reply('stop [done]') });
    const probe = JSON.stringify({ ...JSON.parse(taskText), start_urls: [sites.url('fence', '/probe.html')] });
    const runId = await runFromPopup(popup, { taskText: probe, fileName: 'probe.json', agent: 'model' });
    const run = await waitForRunEnd(popup, runId);
    assert.equal(run.status, 'finished', JSON.stringify(run));
    const steps = await stepsOf(runId);
    assert.equal(steps[0].observation.url, sites.url('fence', '/probe.html'), 'the probing page was shown');
    assert.deepEqual(probes(), [], "the page's image and fetch to the other loopback service were blocked");
    // The same page in the person's own tab reaches it: the probe is real, the person's
    // tabs are not fenced.
    const own = await ext.openPage(sites.url('fence', '/probe.html'));
    const deadline = Date.now() + 10_000;
    while (probes().length < 2) {
      assert.ok(Date.now() < deadline, `the person's own tab did not reach the service: ${JSON.stringify(probes())}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(probes().map((r) => r.path).sort(), ['/probe-fetch', '/probe-img.png']);
    await own.close();
    // The person's probes are not requests of a run: the next tests count from none.
    sites.requests.length = 0;
  });

  test("from the popup: nor by localhost. or an IPv4-mapped address, which Chrome's rules used to miss", async () => {
    const probes = () => sites.requests.filter((r) => r.site === 'alpha' && ['/probe-dot.png', '/probe-mapped.png'].includes(r.path)).map((r) => r.path).sort();
    fake.reset();
    fake.script({ text: reply('stop [done]') });
    const probe = JSON.stringify({ ...JSON.parse(taskText), id: 'e2e/fence-names', start_urls: [sites.url('fence', '/probe-names.html')] });
    const runId = await runFromPopup(popup, { taskText: probe, fileName: 'probe-names.json', agent: 'model' });
    const run = await waitForRunEnd(popup, runId);
    assert.equal(run.status, 'finished', JSON.stringify(run));
    assert.deepEqual(probes(), [], 'the images by localhost. and [::ffff:127.0.0.1] were blocked');
    const own = await ext.openPage(sites.url('fence', '/probe-names.html'));
    const deadline = Date.now() + 10_000;
    while (probes().length < 2) {
      assert.ok(Date.now() < deadline, `the person's own tab did not reach the service: ${JSON.stringify(probes())}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await own.close();
    // The person's probes are not the next tests' business.
    await new Promise((resolve) => setTimeout(resolve, 300));
    sites.requests.length = 0;
  });

  test('a clicked link and a link opening a new tab are stopped before their request', async () => {
    fake.reset();
    fake.script(
      { text: (/** @type {import('../types.mjs').FakeRequest} */ request) => reply(`click [${idOf(request.text, 'link', 'Outside page')}]`) },
      // The blocked link left Chrome's error page in the tab; the page is one step back.
      { text: reply('go_back') },
      { text: (/** @type {import('../types.mjs').FakeRequest} */ request) => reply(`click [${idOf(request.text, 'link', 'Outside in a new tab')}]`) },
      // The new tab (blocked) became current; closing it returns to the first tab.
      { text: reply('close_tab') },
      { text: (/** @type {import('../types.mjs').FakeRequest} */ request) => reply(`click [${idOf(request.text, 'link', 'Inside page')}]`) },
      { text: reply('stop [done]') },
    );
    const { runId } = await sendOk(popup, 'startRun', { taskText, fileName: 'fence.json', overrides: {} });
    const run = await waitForRunEnd(popup, runId);
    assert.equal(run.status, 'finished', JSON.stringify(run));
    const steps = await stepsOf(runId);
    assert.equal(steps[0].result.error, blockedText(), JSON.stringify(steps[0].result));
    assert.equal(steps[2].result.error, blockedText(), JSON.stringify(steps[2].result));
    // Inside the fence the run goes on as usual: the hop is reached.
    assert.equal(steps[4].result.error, null, JSON.stringify(steps[4].result));
    assert.equal(run.verdict.passed, true, JSON.stringify(run.verdict));
    assert.deepEqual(outsideRequests(), []);
  });

  test('a popup window the run opened does not outlive the run', async () => {
    fake.reset();
    fake.script(
      { text: (/** @type {import('../types.mjs').FakeRequest} */ request) => reply(`click [${idOf(request.text, 'button', 'Open the small window')}]`) },
      { text: reply('stop [done]') },
    );
    const windowsBefore = await ext.worker.evaluate(async () => (await chrome.windows.getAll()).map((w) => w.id));
    const opener = JSON.stringify({ ...JSON.parse(taskText), start_urls: [sites.url('fence', '/opener.html')] });
    const { runId } = await sendOk(popup, 'startRun', { taskText: opener, fileName: 'opener.json', overrides: {} });
    const clickedAt = Date.now();
    const run = await waitForRunEnd(popup, runId);
    assert.equal(run.status, 'finished', JSON.stringify(run));
    const steps = await stepsOf(runId);
    assert.equal(steps[0].result.error, null, 'the click opened the small window');
    // Nothing of the run is left: not its window, not the small one.
    assert.deepEqual(await ext.worker.evaluate(async () => (await chrome.windows.getAll()).map((w) => w.id)), windowsBefore);
    assert.deepEqual(await popup.evaluate(() => chrome.declarativeNetRequest.getSessionRules()), []);
    // Past the moment the small window would have gone to the other site.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, clickedAt + 7_000 - Date.now())));
    assert.deepEqual(sites.requests.filter((r) => r.site === 'alpha'), [], 'a window of the run went elsewhere after its fence was gone');
  });

  test("the person's own tabs go anywhere while a fenced run is on", async () => {
    // The person's tab, in their own window (a tab opened later would land in the
    // focused window: the run's).
    const page = await ext.openPage(sites.url('fence', '/index.html'));
    fake.reset();
    // The first model call waits: the run, and its fence, stay up meanwhile.
    fake.script({ text: reply('stop [done]'), delayMs: 12_000 });
    const { runId } = await sendOk(popup, 'startRun', { taskText, fileName: 'fence.json', overrides: {} });
    await fake.waitForRequests(1, 20_000);
    const opened = page.waitForEvent('popup');
    await page.click('#outside-tab');
    const popupPage = await opened;
    await popupPage.waitForURL(/from=new-tab/);
    await popupPage.waitForLoadState('load');
    assert.equal(await popupPage.locator('h1').textContent(), 'Alpha');
    // A worker slow to hear of the new tab (stopped, busy) classifies it only after its
    // first request was blocked: that navigation is then given back to the tab.
    const held = ext.worker.evaluate(() =>
      navigator.locks.request('hopbench.fences', () => new Promise((resolve) => setTimeout(resolve, 1_500))),
    );
    const late = page.waitForEvent('popup');
    await page.click('#outside-tab');
    const latePage = await late;
    await held;
    await latePage.waitForURL(/from=new-tab/);
    await latePage.waitForLoadState('load');
    assert.equal(await latePage.locator('h1').textContent(), 'Alpha');
    /** @type {Record<string, { replayed: string[] }>} the worker's fence state, by tab */
    const fences = await popup.evaluate(async () =>
      /** @type {Record<string, { replayed: string[] }>} */ ((await chrome.storage.session.get('hopbench.fences'))['hopbench.fences']));
    const replayed = Object.values(fences).flatMap((f) => f.replayed);
    assert.ok(replayed.some((r) => r.endsWith('from=new-tab')), `the second click was blocked, then replayed: ${JSON.stringify(fences)}`);
    await page.goto(`${outside}/index.html?from=person`);
    assert.equal(await page.locator('h1').textContent(), 'Alpha');
    assert.deepEqual(outsideRequests().map((r) => r.path), ['/index.html', '/index.html', '/index.html']);
    await waitForRunEnd(popup, runId);
  });

  test("a tab the person opens in the run's window is theirs: not fenced, not the run's, not closed with it", async () => {
    fake.reset();
    fake.script({ text: reply('stop [done]'), delayMs: 6_000 });
    const start = sites.url('fence', '/index.html?run=person-tab');
    const task = JSON.stringify({ ...JSON.parse(taskText), start_urls: [start] });
    const { runId } = await sendOk(popup, 'startRun', { taskText: task, fileName: 'person-tab.json', overrides: {} });
    await fake.waitForRequests(1, 20_000);
    const before = outsideRequests().length;
    // As Ctrl+T in the focused run window: a tab no page opened.
    const tabId = await ext.worker.evaluate(async ([startUrl, url]) => {
      const [runTab] = await chrome.tabs.query({ url: startUrl });
      const tab = await chrome.tabs.create({ windowId: runTab.windowId, url });
      return tab.id;
    }, [start, `${outside}/index.html?from=person-in-run-window`]);
    const deadline = Date.now() + 10_000;
    while (outsideRequests().length === before) {
      assert.ok(Date.now() < deadline, "the person's tab in the run's window was fenced as the run's");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const run = await waitForRunEnd(popup, runId);
    assert.equal(run.status, 'finished', JSON.stringify(run));
    const left = await ext.worker.evaluate(async ([id, startUrl]) => ({
      person: await chrome.tabs.get(/** @type {number} */ (id)).then((t) => t.url, () => null),
      run: (await chrome.tabs.query({ url: /** @type {string} */ (startUrl) })).length,
    }), [tabId, start]);
    assert.match(String(left.person), /from=person-in-run-window/, 'the run closed the person\'s tab');
    assert.equal(left.run, 0, "the run's own tab was closed");
    await ext.worker.evaluate((id) => chrome.tabs.remove(/** @type {number} */ (id)), tabId);
  });

  test("a tab of the person's that Chrome discards (Memory Saver) is still theirs", async () => {
    // Two tabs of the person's, so the first can be discarded (Chrome keeps the active one).
    const background = await ext.openPage(sites.url('fence', '/index.html?tab=background'));
    await ext.openPage(sites.url('fence', '/index.html?tab=front'));
    fake.reset();
    fake.script({ text: reply('stop [done]'), delayMs: 12_000 });
    const { runId } = await sendOk(popup, 'startRun', { taskText, fileName: 'fence.json', overrides: {} });
    await fake.waitForRequests(1, 20_000);
    const before = outsideRequests().length;
    // Discarded (under the id Chrome then gives it), then the person takes it elsewhere.
    const discardedId = await discardTab(ext.worker, background.url());
    await ext.worker.evaluate(async ([id, url]) => {
      await chrome.tabs.update(/** @type {number} */ (id), { url: /** @type {string} */ (url) });
    }, [discardedId, `${outside}/index.html?from=discarded`]);
    const deadline = Date.now() + 10_000;
    while (outsideRequests().length === before) {
      assert.ok(Date.now() < deadline, 'the discarded tab never reached the other origin: its new id was fenced as the run\'s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const title = await ext.worker.evaluate(async (id) => {
      for (let i = 0; i < 50; i += 1) {
        const tab = await chrome.tabs.get(/** @type {number} */ (id));
        if (tab.status === 'complete' && tab.url?.includes('from=discarded')) return tab.title;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return (await chrome.tabs.get(/** @type {number} */ (id))).url;
    }, discardedId);
    assert.equal(title, 'Alpha home', 'the page loaded in the tab');
    await waitForRunEnd(popup, runId);
  });

  test("a tab of the run's that Chrome discards is still the run's: the agent focuses it, the run's end closes it", async () => {
    const first = sites.url('fence', '/index.html?run=discard-a');
    const second = sites.url('fence', '/index.html?run=discard-b');
    fake.reset();
    fake.script({ text: reply('tab_focus [1]'), delayMs: 5_000 }, { text: reply('stop [done]') });
    const task = JSON.stringify({ ...JSON.parse(taskText), start_urls: [first, second] });
    const { runId } = await sendOk(popup, 'startRun', { taskText: task, fileName: 'discard.json', overrides: {} });
    await fake.waitForRequests(1, 20_000);
    // The run's second tab, in the background, is discarded under a new id.
    await discardTab(ext.worker, second);
    const run = await waitForRunEnd(popup, runId);
    assert.equal(run.status, 'finished', JSON.stringify(run));
    const steps = await stepsOf(runId);
    assert.equal(steps[0].result.error, null, JSON.stringify(steps[0].result));
    assert.equal(steps[1].observation.url, second, 'the agent saw the tab it focused');
    // Nothing of the run is left under either id, and no rule.
    const left = await ext.worker.evaluate(async () => (await chrome.tabs.query({})).map((t) => t.url).filter((u) => u?.includes('run=discard')));
    assert.deepEqual(left, [], 'a tab of the run outlived it, unfenced');
    assert.deepEqual(await popup.evaluate(() => chrome.declarativeNetRequest.getSessionRules()), []);
  });

  test('a fence whose run never started (the worker stopped in between) is gone at the next worker start, with its window', async () => {
    // The run's first steps, as the worker takes them (run/service.js startAgentRun):
    // the fence up (fence.js installFence), the window open (sessions.js openSession),
    // not bound yet. Then the worker is stopped before the run's next step.
    const orphan = sites.url('fence', '/index.html?run=never-started');
    await popup.evaluate(async ([origin, text]) => {
      const { installFence } = await import(/** @type {string} */ ('./worker/fence/fence.js'));
      const { loadedCore } = await import(/** @type {string} */ ('./worker/core/core.js'));
      const { openTaskSession } = await import(/** @type {string} */ ('./worker/session/service.js'));
      await installFence('e2e-never-started', [origin]);
      await openTaskSession(await loadedCore(), { taskText: text, fileName: 'never-started.json' }, { id: 'e2e-never-started' });
    }, [sites.origin('fence'), JSON.stringify({ ...JSON.parse(taskText), start_urls: [orphan] })]);
    assert.ok((await popup.evaluate(() => chrome.declarativeNetRequest.getSessionRules())).length > 0, 'the fence is up');
    const runTabs = () => ext.worker.evaluate(async (url) => (await chrome.tabs.query({ url })).length, orphan);
    for (let tries = 0; (await runTabs()) === 0; tries += 1) {
      assert.ok(tries < 100, "the run's window did not show its start page");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const worker = await workerControl(popup);
    try {
      await worker.stop();
      const before = outsideRequests().length;
      // The person opens a tab elsewhere, in their own window: the event wakes the worker.
      const personal = `${outside}/index.html?from=after-orphan`;
      const tabId = await popup.evaluate(async (url) => {
        const { id: windowId } = await chrome.windows.getCurrent();
        return (await chrome.tabs.create({ windowId, url, active: false })).id;
      }, personal);
      const deadline = Date.now() + 10_000;
      while (outsideRequests().length === before) {
        assert.ok(Date.now() < deadline, "the person's new tab stayed blocked by the fence of a run that never started");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const shown = await ext.worker.evaluate(async (id) => {
        for (let i = 0; i < 50; i += 1) {
          const tab = await chrome.tabs.get(/** @type {number} */ (id));
          if (tab.status === 'complete') return [tab.url, tab.title];
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return null;
      }, tabId);
      assert.deepEqual(shown, [personal, 'Alpha home']);
      assert.deepEqual(await popup.evaluate(() => chrome.declarativeNetRequest.getSessionRules()), [], 'no rule is left');
      const fences = await popup.evaluate(async () => (await chrome.storage.session.get('hopbench.fences'))['hopbench.fences']);
      assert.deepEqual(Object.keys(fences ?? {}), []);
      assert.equal(await runTabs(), 0, 'the window of the run that never started outlived its fence');
      await ext.worker.evaluate((id) => chrome.tabs.remove(/** @type {number} */ (id)), tabId);
    } finally {
      await worker.detach();
    }
  });

  test("a person's new tab blocked just as the run's fence goes gets its navigation back", async () => {
    // A run's fence and window (as startAgentRun makes them), then its end, while the
    // worker is busy (the fences' lock held): the end waits its turn, and the person's
    // new tab, opened meanwhile and not classified yet, is blocked by the fence still up.
    const start = sites.url('fence', '/index.html?run=late-block');
    await popup.evaluate(async ([origin, text]) => {
      const { bindFence, installFence } = await import(/** @type {string} */ ('./worker/fence/fence.js'));
      const { loadedCore } = await import(/** @type {string} */ ('./worker/core/core.js'));
      const { openTaskSession } = await import(/** @type {string} */ ('./worker/session/service.js'));
      await installFence('e2e-late-block', [origin]);
      const opened = await openTaskSession(await loadedCore(), { taskText: text, fileName: 'late-block.json' }, { id: 'e2e-late-block' });
      await bindFence(opened.session);
    }, [sites.origin('fence'), JSON.stringify({ ...JSON.parse(taskText), start_urls: [start] })]);
    const held = ext.worker.evaluate(() => navigator.locks.request('hopbench.fences', () => new Promise((resolve) => setTimeout(resolve, 1_500))));
    const ended = popup.evaluate(async () => {
      const { removeFence } = await import(/** @type {string} */ ('./worker/fence/fence.js'));
      const { closeSession } = await import(/** @type {string} */ ('./worker/session/sessions.js'));
      const { forgetTracker } = await import(/** @type {string} */ ('./worker/session/hops.js'));
      await closeSession('e2e-late-block');
      await forgetTracker('e2e-late-block');
      await removeFence('e2e-late-block');
    });
    const before = outsideRequests().length;
    const personal = `${outside}/index.html?from=late-block`;
    const tabId = await popup.evaluate(async (url) => {
      const { id: windowId } = await chrome.windows.getCurrent();
      return (await chrome.tabs.create({ windowId, url, active: false })).id;
    }, personal);
    await held;
    await ended;
    const deadline = Date.now() + 10_000;
    while (outsideRequests().length === before) {
      assert.ok(Date.now() < deadline, "the person's tab stayed on the blocked page of a fence that is gone");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(await popup.evaluate(() => chrome.declarativeNetRequest.getSessionRules()), []);
    await ext.worker.evaluate((id) => chrome.tabs.remove(/** @type {number} */ (id)), tabId);
  });

  test('with the fence off in Settings, the same goto reaches the origin', async () => {
    sites.requests.length = 0;
    await sendOk(popup, 'saveSettings', { settings: { model: { provider: 'openai' } }, sites: { fence: false, allow: [], deny: [] } });
    fake.reset();
    fake.script({ text: reply(`goto [${outside}/index.html?from=unfenced]`) }, { text: reply('stop [done]') });
    const { runId } = await sendOk(popup, 'startRun', { taskText, fileName: 'fence.json', overrides: {} });
    await waitForRunEnd(popup, runId);
    const steps = await stepsOf(runId);
    assert.equal(steps[0].result.error, null, JSON.stringify(steps[0].result));
    assert.equal(steps[1].observation.url, `${outside}/index.html?from=unfenced`);
    assert.equal(outsideRequests().length, 1);
  });

  test('an origin added in Settings is inside the fence', async () => {
    sites.requests.length = 0;
    await sendOk(popup, 'saveSettings', {
      settings: { model: { provider: 'openai' } },
      sites: { fence: true, allow: [`# the other test site\n`, outside], deny: [] },
    });
    fake.reset();
    fake.script({ text: reply(`goto [${outside}/index.html?from=allowed]`) }, { text: reply('stop [done]') });
    const { runId } = await sendOk(popup, 'startRun', { taskText, fileName: 'fence.json', overrides: {} });
    await waitForRunEnd(popup, runId);
    const steps = await stepsOf(runId);
    assert.equal(steps[0].result.error, null, JSON.stringify(steps[0].result));
    assert.equal(outsideRequests().length, 1);
    const { settings } = (await sendOk(popup, 'exportRun', { runId })).trajectory;
    assert.equal(settings.sites.mode, 'task');
    assert.ok(settings.sites.origins.some((/** @type {import('../types.mjs').Json} */ o) => o.origin === outside && o.reasons.includes('added in Settings')));
  });

  test('Settings → Sites names a bad line and keeps good ones', async () => {
    const options = await ext.openExtensionPage('options.html');
    await options.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('settings')).dataset.state === 'ready');
    assert.equal(await options.locator('#sites-fence').isChecked(), true);
    assert.equal(await options.locator('#sites-allow').inputValue(), `# the other test site\n${outside}`);
    const save = async () => {
      await options.evaluate(() => {
        /** @type {HTMLElement} */ (document.getElementById('save-status')).dataset.state = 'idle';
      });
      await options.click('#save');
      await options.waitForFunction(() => ['saved', 'error'].includes(String(/** @type {HTMLElement} */ (document.getElementById('save-status')).dataset.state)));
      // An element's text is never null (only a document's is).
      return /** @type {Promise<string>} */ (options.locator('#save-status').textContent());
    };
    await options.fill('#sites-allow', 'https://ok.example.com\n*.example.com');
    assert.match(await save(), /Not saved:sites\.allow: line 2: wildcards are not supported \("\*\.example\.com"\): list each origin/);
    assert.equal(await options.locator('#sites-allow').getAttribute('aria-invalid'), 'true');
    await options.fill('#sites-allow', 'https://accounts.example.com\n\n  # a login the tasks need');
    assert.match(await save(), /^Saved\./);
    assert.equal(await options.locator('#sites-allow').inputValue(), 'https://accounts.example.com\n# a login the tasks need');
    const { sites: stored } = await sendOk(popup, 'getSettings');
    assert.deepEqual(stored, { fence: true, allow: ['https://accounts.example.com', '# a login the tasks need'], deny: [] });
  });

  test('the extension logged no error', () => {
    // The test sites have no favicon: their 404s are the pages' own console errors.
    assert.deepEqual(ext.extensionErrors(), [], `errors logged:\n${ext.describeErrors()}`);
  });
});
