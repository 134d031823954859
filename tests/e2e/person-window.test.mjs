// "Do it myself" as a person meets it: Run view in the real toolbar popup opens the side
// panel beside the page (not another tab); "Do it myself" in that panel opens the task's
// window, and the task's window has its own panel with Start, the objective and the
// answer box. Before, the task window opened over the window with the panel and had
// none: Start was out of sight.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { attachSidePanel, openRealPopup } from './real-popup.mjs';
import { threeHopTask } from './run-helpers.mjs';
import { startSites } from './sites.mjs';

describe("a person's window has its controls", { timeout: 180_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let page;
  /** @type {string} */ let files;

  before(async () => {
    sites = await startSites({ names: ['wiki', 'events'] });
    ext = await launchExtension();
    page = await ext.openExtensionPage('runs.html');
    files = mkdtempSync(join(tmpdir(), 'hopbench-person-window-'));
    writeFileSync(join(files, 'three-hops.json'), threeHopTask(sites));
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
    if (files) rmSync(files, { recursive: true, force: true });
  });

  test('Run view opens the side panel; Do it myself opens the task window with a panel of its own', async () => {
    const url = sites.url('wiki', '/index.html?person');
    const tab = await ext.openPage(url);
    const popup = await openRealPopup(ext, tab);
    const tabsBefore = await page.evaluate(async () => (await chrome.tabs.query({})).length);
    await popup.click('#open-panel');
    const here = await page.evaluate(async (wanted) => (await chrome.tabs.query({})).find((t) => t.url === wanted)?.windowId, url);
    const panel = await attachSidePanel(ext, tab, { inWindow: here });
    assert.equal(await page.evaluate(async () => (await chrome.tabs.query({})).length), tabsBefore, 'Run view opened no tab');

    await panel.setFiles('#import-files', [join(files, 'three-hops.json')]);
    await panel.waitFor('document.querySelector("#task").value === "imported:three-hops.json"', 'the imported task chosen');
    await panel.click('#do-it-myself');
    const runId = /** @type {string} */ (await panel.waitFor(
      'chrome.storage.local.get("runs.current").then((s) => s["runs.current"] ?? null)',
      'the session to start',
    ));
    const { run } = await sendOk(page, 'getRun', { runId });
    assert.equal(run.provider, 'human');
    const { tabs } = await sendOk(page, 'listSessionTabs', { sessionId: run.sessionId });
    const taskWindow = await page.evaluate(async (tabId) => (await chrome.tabs.get(tabId)).windowId, tabs[0].tabId);
    assert.notEqual(taskWindow, here, 'the task has a window of its own');

    // The task's window has the panel, and in it what the person needs to begin.
    const own = await attachSidePanel(ext, tab, { inWindow: taskWindow });
    await own.waitFor('document.querySelector("#status").textContent.startsWith("Ready: press Start")', 'the ready line');
    assert.equal(await own.evaluate('document.querySelector("#start").hidden'), false, 'Start is shown');
    const intent = await own.evaluate('document.querySelector(".task-card .intent").textContent');
    assert.match(intent, /Tokyo Tower/);
    await own.click('#start');
    await own.waitFor('document.querySelector("#status").textContent.startsWith("Recording")', 'recording to begin');
    assert.equal(await own.evaluate('document.querySelector("#answer-form").hidden'), false, 'the answer box is shown');
    await own.close();
    await panel.close();
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
