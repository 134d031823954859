// How each ending looks to a person, through the real toolbar popup (Run pressed once)
// and the side panel it opens: a passing run says PASS; an unreachable start page says
// ERROR with the browser's cause on the first screen, not under Details; a model call
// in flight is counted in the status line, and an action waiting for its page is named;
// Stop and a closed run window both say
// STOPPED and why. Before, every one of these but the first was a red FAIL ("Run
// error.", "0 of 1 hops … No answer given", "tab null is not part of session …").

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { FAKE_KEY, startFakeProviders } from './fake-providers.mjs';
import { attachSidePanel, openRealPopup } from './real-popup.mjs';
import { threeHopTask, waitForHeldRequest, waitForRunEnd } from './run-helpers.mjs';
import { docImagePath } from './paths.mjs';
import { saveOptions } from './run-outcome.mjs';
import { portOfServer, startSites } from './sites.mjs';

/** A model reply slower than any test here waits for: the run sits in its call. */
const SLOW_REPLY_MS = 120_000;

/** http://127.0.0.1:<port>/ for a port nothing listens on (taken, then released). */
async function refusedUrl() {
  const server = createServer();
  await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve())));
  const port = portOfServer(server);
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/`;
}

describe('each ending told apart, through the real popup and its side panel', { timeout: 300_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {Awaited<ReturnType<typeof startFakeProviders>>} */ let fake;
  /** @type {import('../types.mjs').Page} */ let page;
  /** @type {string} */ let files;
  /** @type {string} */ let dead;
  let imported = false;

  before(async () => {
    sites = await startSites({ names: ['wiki', 'events'] });
    fake = await startFakeProviders();
    ext = await launchExtension();
    page = await ext.openExtensionPage('runs.html');
    const options = await ext.openExtensionPage('options.html');
    await saveOptions(options, { baseUrl: fake.baseUrl('openai'), model: 'fake-slow', apiKey: FAKE_KEY, maxTries: 1, timeoutS: 300 });
    await options.close();
    dead = await refusedUrl();
    files = mkdtempSync(join(tmpdir(), 'hopbench-outcomes-'));
    writeFileSync(join(files, 'three-hops.json'), threeHopTask(sites));
    writeFileSync(join(files, 'refused.json'), JSON.stringify({
      id: 'e2e/outcomes-refused',
      intent: 'Open the page.',
      start_urls: [dead],
      hops: [{ condition: { kind: 'url', op: 'contains', value: 'never' } }],
      reference_trajectory: ["click {link 'Cities'}"],
    }));
    writeFileSync(join(files, 'slow.json'), JSON.stringify({
      id: 'e2e/outcomes-slow',
      intent: 'Find the Tokyo Tower article.',
      start_urls: [sites.url('wiki', '/index.html')],
      hops: [{ condition: { kind: 'url', op: 'contains', value: 'never-there' } }],
    }));
  });

  after(async () => {
    await ext?.close();
    await fake?.close();
    await sites?.close();
    if (files) rmSync(files, { recursive: true, force: true });
  });

  const currentRun = () => page.evaluate(async () => /** @type {string | null} */ ((await chrome.storage.local.get('runs.current'))['runs.current'] ?? null));

  /** The chrome.windows id of a tab of the browser, by its URL. @param {string} url */
  const windowOf = (url) => page.evaluate(async (wanted) => {
    const tab = (await chrome.tabs.query({})).find((t) => t.url === wanted);
    if (!tab) throw new Error(`no tab shows ${wanted}`);
    return tab.windowId;
  }, url);

  /**
   * Opens a normal tab, the real popup over it, chooses the file and the agent, and
   * presses Run once; resolves to the new run and the side panel of that window.
   * @param {string} file @param {'replay' | 'model'} agent
   */
  async function runFromRealPopup(file, agent) {
    const before = await currentRun();
    const url = sites.url('wiki', `/index.html?from=${file}`);
    const tab = await ext.openPage(url);
    const popup = await openRealPopup(ext, tab);
    if (!imported) {
      await popup.setFiles('#import-files', ['three-hops.json', 'refused.json', 'slow.json'].map((f) => join(files, f)));
      await popup.waitFor('document.querySelectorAll("#task option[value^=imported]").length === 3', 'the imported tasks');
      imported = true;
    }
    await popup.waitFor(`!!document.querySelector('#task option[value="imported:${file}"]')`, `${file} in the task list`);
    assert.equal(await popup.select('#task', `imported:${file}`), `imported:${file}`);
    assert.equal(await popup.select('#agent', agent), agent);
    await popup.waitFor('!document.querySelector("#run").disabled', 'Run to be ready');
    await popup.click('#run');
    let runId = null;
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const id = await currentRun();
      if (id && id !== before) {
        runId = id;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(runId, `Run in the real popup started a run of ${file}`);
    const panel = await attachSidePanel(ext, tab, { inWindow: await windowOf(url) });
    return { runId, panel };
  }

  /** What the side panel shows once the run's outcome is up. @param {Awaited<ReturnType<typeof attachSidePanel>>} panel */
  async function shownOutcome(panel) {
    await panel.waitFor('document.querySelector("#verdict-slot .verdict:not([data-outcome=pending])")', 'the outcome in the panel');
    return panel.evaluate(`({
      kind: document.querySelector('#verdict-slot .verdict').dataset.outcome,
      label: document.querySelector('#verdict-slot .verdict-label').textContent,
      cause: document.querySelector('#verdict-slot .verdict-reason').textContent,
      line: document.querySelector('#status').textContent,
    })`);
  }

  test('a passing run: PASS and its hops', async () => {
    const { runId, panel } = await runFromRealPopup('three-hops.json', 'replay');
    const run = await waitForRunEnd(page, runId);
    assert.equal(run.verdict.passed, true, JSON.stringify(run.verdict));
    const shown = await shownOutcome(panel);
    assert.equal(shown.kind, 'pass');
    assert.equal(shown.label, 'PASS');
    assert.equal(shown.cause, '3 of 3 hops; all hops completed.');
    assert.match(shown.line, /^PASS · 3 of 3 hops · \d+ steps$/);
    await panel.close();
  });

  test('while an action waits for its page, the panel says which action', async () => {
    // Step 2's page is held: the run sits in that act until it is let go.
    const held = sites.hold('events', '/');
    const { runId, panel } = await runFromRealPopup('three-hops.json', 'replay');
    await waitForHeldRequest(page, runId, held);
    const line = /** @type {string} */ (await panel.waitFor(
      'document.querySelector("#status").textContent.includes("and waiting for the page") && document.querySelector("#status").textContent',
      'the act in the status line',
    ));
    assert.match(line, /^Step 2 of at most \d+ · 1 of 3 hops · carrying out `click .+` and waiting for the page, \d+ s$/);
    held.release();
    const run = await waitForRunEnd(page, runId);
    assert.equal(run.verdict.passed, true, JSON.stringify(run.verdict));
    await panel.close();
  });

  test("an unreachable start page: ERROR with the browser's cause on the first screen", async () => {
    const { runId, panel } = await runFromRealPopup('refused.json', 'replay');
    await waitForRunEnd(page, runId);
    const shown = await shownOutcome(panel);
    assert.equal(shown.kind, 'error');
    assert.equal(shown.label, 'ERROR');
    assert.equal(shown.cause, `Start URL unreachable: ${dead} (net::ERR_CONNECTION_REFUSED).`);
    // The line above says what ended; the cause is right below it, once.
    assert.equal(shown.line, 'ERROR · 0 of 1 hops · 0 steps');
    const verdictText = await panel.evaluate('document.querySelector("#verdict-slot").textContent');
    assert.doesNotMatch(verdictText, /FAIL|No answer given/, 'an error is not told as the agent failing');
    await panel.screenshot(docImagePath('panel-error.png'), { width: 360 });
    await panel.close();
  });

  test('while the model is called the panel counts the wait; Stop then says STOPPED', async () => {
    fake.reset();
    fake.setResponder(() => ({ text: 'stop [N/A]', delayMs: SLOW_REPLY_MS }));
    const { runId, panel } = await runFromRealPopup('slow.json', 'model');
    await fake.waitForRequests(1, 30_000);
    // The count goes on while nothing else changes (2 s or more: a loaded machine may
    // read it late).
    const waiting = /** @type {string} */ (await panel.waitFor(
      '/waiting for the model, ([2-9]|\\d\\d+) s$/.test(document.querySelector("#status").textContent) && document.querySelector("#status").textContent',
      'the wait counted to 2 s',
    ));
    assert.match(waiting, /^Step 1 of at most \d+ · 0 of 1 hops · waiting for the model, \d+ s$/);
    await panel.screenshot(docImagePath('panel-waiting.png'), { width: 360 });
    // The agent is named with its model, not only its API.
    assert.match(await panel.evaluate('document.querySelector(".task-facts").textContent'), / · Model fake-slow \(openai\)$/);
    await panel.click('#stop');
    const run = await waitForRunEnd(page, runId);
    assert.equal(run.status, 'stopped', JSON.stringify(run));
    const shown = await shownOutcome(panel);
    assert.deepEqual([shown.kind, shown.label, shown.cause], ['stopped', 'STOPPED', 'Stopped by the person.']);
    // The popup's last-run line says the same.
    const tab = await ext.openPage(sites.url('wiki', '/index.html?again'));
    const popup = await openRealPopup(ext, tab);
    const line = await popup.waitFor('document.querySelector("#run-status").textContent.startsWith("Last run:") && document.querySelector("#run-status").textContent', 'the last-run line');
    assert.match(line, /^Last run: STOPPED · 0 of 1 hops · \d+ steps? · Stopped by the person\.$/);
    // And its last runs, newest first, each with its outcome.
    const recent = await popup.evaluate('[...document.querySelectorAll("#recent-runs li")].map((li) => [li.querySelector(".outcome").textContent, li.querySelector("a").textContent])');
    assert.deepEqual(recent, [['STOPPED', 'e2e/outcomes-slow'], ['ERROR', 'e2e/outcomes-refused'], ['PASS', 'e2e/three-hops'], ['PASS', 'e2e/three-hops']]);
    await popup.screenshot(docImagePath('popup-recent.png'));
    await popup.close();
    await tab.close();
    await panel.close();
  });

  test("closing the run's window: STOPPED, saying so, with nothing of the run left open", async () => {
    fake.reset();
    fake.setResponder(() => ({ text: 'stop [N/A]', delayMs: SLOW_REPLY_MS }));
    const { runId, panel } = await runFromRealPopup('slow.json', 'model');
    await fake.waitForRequests(1, 30_000);
    const { run: running } = await sendOk(page, 'getRun', { runId });
    const { tabs } = await sendOk(page, 'listSessionTabs', { sessionId: running.sessionId });
    const runWindow = await page.evaluate(async (tabId) => (await chrome.tabs.get(tabId)).windowId, tabs[0].tabId);
    // The person closes the agent's window (its close button does what this does).
    await page.evaluate((windowId) => chrome.windows.remove(windowId), runWindow);
    const run = await waitForRunEnd(page, runId, 20_000);
    assert.equal(run.status, 'stopped', JSON.stringify(run));
    assert.equal(run.error, null);
    const shown = await shownOutcome(panel);
    assert.deepEqual([shown.kind, shown.label, shown.cause], ['stopped', 'STOPPED', "The run's window was closed."]);
    await panel.screenshot(docImagePath('panel-stopped.png'), { width: 360 });
    const rules = await page.evaluate(async () => (await chrome.declarativeNetRequest.getSessionRules()).length);
    assert.equal(rules, 0, 'the fence went with the run');
    await panel.close();
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
