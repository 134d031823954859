// Authoring by doing, as a person does it in the side panel: write the task and its
// start page, Start, do it, mark each page that completes a hop (accepting or editing
// the proposed URL condition), answer, Save task. The saved file validates with the
// CLI and the replay agent passes it with the hops at the pages that were marked.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { person, waitForSteps } from './human-helpers.mjs';
import { hopbenchBin } from './native.mjs';
import { docImagePath } from './paths.mjs';
import { waitForRunEnd } from './run-helpers.mjs';
import { downloadedText } from './secret-scan.mjs';
import { waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

describe('a new task authored by doing it', { timeout: 240_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let panel;
  /** @type {import('../types.mjs').Page} */ let page;
  /** @type {string} */ let runId;
  /** @type {Awaited<ReturnType<typeof downloadedText>>} */ let saved;
  /** @type {string} */ let dir;

  // An element's text is never null (only a document's is).
  /**
   * Marks the current page as completing a hop; returns the proposal as shown.
   * @param {{ words?: string, what?: string }} [edit] what the author changes in the proposal
   */
  async function mark(edit = {}) {
    await panel.locator('#author-mark').click();
    await panel.waitForSelector('#author-proposal:not([hidden])');
    const proposal = {
      what: await panel.locator('#author-what').inputValue(),
      site: await panel.locator('#author-site').inputValue(),
      path: await panel.locator('#author-path').inputValue(),
      words: await panel.locator('#author-words').inputValue(),
    };
    if (edit.words !== undefined) await panel.locator('#author-words').fill(edit.words);
    if (edit.what !== undefined) {
      await panel.locator('#author-what').fill('');
      await panel.locator('#author-what').pressSequentially(edit.what, { delay: 60 });
    }
    const before = await panel.locator('#author-marks li').count();
    // What the panel's hop list says at the moment the status says the hop was marked.
    const told = panel.evaluate((n) => new Promise((resolve) => {
      const status = /** @type {HTMLElement} */ (document.getElementById('status'));
      const seen = new MutationObserver(() => {
        if (status.textContent !== `Hop ${n} marked.`) return;
        seen.disconnect();
        resolve(document.querySelector('#hops-slot .hop-count')?.textContent);
      });
      seen.observe(status, { childList: true, characterData: true, subtree: true });
    }), before + 1);
    await panel.locator('#author-add').click();
    await panel.waitForFunction((n) => document.querySelectorAll('#author-marks li').length === n, before + 1);
    // The panel says the hop was marked once its hop list shows it, not before.
    assert.equal(await told, `${before + 1} hop${before === 0 ? '' : 's'} marked`);
    return proposal;
  }

  before(async () => {
    sites = await startSites({ names: ['spa'] });
    ext = await launchExtension();
    panel = await ext.openExtensionPage('sidepanel.html');
    await panel.setViewportSize({ width: 360, height: 720 });
    dir = mkdtempSync(join(tmpdir(), 'hopbench-authoring-'));
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the person writes the task, opens its start page and starts recording', async () => {
    await panel.locator('#author summary').click();
    await panel.locator('#author-intent').fill('Show the music events in Paris, open Jazz Night, then find Taiko Drums and say its city.');
    await panel.locator('#author-start').fill(`${sites.origin('spa')}/`);
    await panel.locator('#author-start-button').click();
    page = await waitForPage(ext.context, (url) => url.startsWith(sites.origin('spa')));
    await panel.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('status')).textContent.startsWith('Ready'));
    runId = await panel.evaluate(async () => /** @type {string} */ ((await chrome.storage.local.get('runs.current'))['runs.current']));
    await panel.waitForSelector('#author-bar:not([hidden])', { timeout: 5000 });
    await panel.locator('#start').click();
    await panel.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('status')).textContent.startsWith('Recording'));
  });

  test('each marked page gets a URL condition proposed from its URL, editable before it is added', async () => {
    const who = person(page);
    await who.choose('#city', 'P');
    await waitForSteps(panel, runId, 1);
    await who.click('a[data-cat="music"]');
    await waitForSteps(panel, runId, 2);
    const first = await mark();
    // The description is proposed from the page's title: what the page is, not its URL.
    assert.deepEqual(first, { what: 'Reach the page "Events in Paris - City Events"', site: `${sites.origin('spa')}/`, path: '', words: 'Paris, music' });
    await who.click('a[href="#/event/42"]');
    await waitForSteps(panel, runId, 3);
    // The person keeps only what tells this page apart: the event's route.
    // The person keeps only what tells this page apart (the event's route) and says
    // the hop in their own words.
    const second = await mark({ words: 'event, 42', what: 'Open Jazz Night' });
    assert.equal(second.words, 'Paris, music, event, 42');
    await who.type('#search', 'Taiko Drums', { enter: true });
    await waitForSteps(panel, runId, 4);
    await page.waitForURL(/#\/event\/23$/);
    await mark({ words: 'event/23' });
    assert.deepEqual(await panel.locator('#author-marks li').allTextContents(), [
      'Hop 1: Reach the page "Events in Paris - City Events"',
      'Hop 2: Open Jazz Night',
      'Hop 3: Reach the page "Taiko Drums - City Events"',
    ]);
    // The panel's hop list is the marks, not the draft's placeholder ("0 of 1").
    assert.equal(await panel.locator('#hops-slot .hop-count').textContent(), '3 hops marked');
    await panel.screenshot({ path: docImagePath('panel-authoring.png') });
  });

  test('the answer ends the session and Save task writes a task file that validates', async () => {
    await panel.locator('#answer').fill('Tokyo');
    await panel.locator('#answer-submit').click();
    const run = await waitForRunEnd(panel, runId);
    assert.equal(run.status, 'finished');
    await panel.waitForSelector('#author-save:not([hidden])');
    // Ended but not saved yet: not a FAIL of a task, a task not kept yet.
    await panel.waitForSelector('#verdict-slot .verdict[data-outcome="unsaved"]');
    assert.equal(await panel.locator('#verdict-slot .verdict-reason').textContent(), '3 hops marked; press Save task to keep the task file.');
    saved = await downloadedText(panel, '#author-save');
    // The panel keeps saying what was saved (the status line is redrawn with each
    // change of the run, so the outcome holds it); the name ends at a whole word.
    await panel.waitForSelector('#verdict-slot .verdict[data-outcome="saved"]');
    assert.equal(await panel.locator('#verdict-slot .verdict-label').textContent(), 'SAVED TASK');
    assert.equal(
      await panel.locator('#verdict-slot .verdict-reason').textContent(),
      'Saved as authored_show-the-music-events-in-paris-open-jazz-night.json: 3 hops, 5 reference steps.',
    );
    assert.equal(saved.name, 'authored_show-the-music-events-in-paris-open-jazz-night.json');
    // The Runs list tells it the same way.
    const runsPage = await ext.openExtensionPage('runs.html');
    await runsPage.waitForSelector(`tr[data-run-id="${runId}"] td.outcome`);
    assert.equal(await runsPage.locator(`tr[data-run-id="${runId}"] td.outcome`).textContent(), 'SAVED TASK');
    await runsPage.close();
    const task = JSON.parse(saved.text);
    assert.deepEqual(task.reference_trajectory, [
      "type {combobox 'City'} [Paris] [0]",
      "click {link 'Music'}",
      "click {link 'Jazz Night'}",
      "type {combobox 'Search events'} [Taiko Drums] [1]",
      'stop [Tokyo]',
    ]);
    assert.deepEqual(task.final_answer, { condition: { must_include: ['Tokyo'] }, required: true });
    assert.equal(task.hops.length, 3);
    const file = join(dir, saved.name);
    writeFileSync(file, saved.text);
    const validate = spawnSync(hopbenchBin(), ['validate', file], { encoding: 'utf8' });
    assert.equal(validate.status, 0, `${validate.stdout}\n${validate.stderr}`);
  });

  test('the replay agent passes the authored task, hop by hop where they were marked', async () => {
    const { runId: replayId } = await sendOk(panel, 'startRun', { taskText: saved.text, fileName: saved.name, overrides: { provider: 'replay' } });
    const replay = await waitForRunEnd(panel, replayId, 90_000);
    assert.equal(replay.verdict.passed, true, JSON.stringify(replay.verdict));
    assert.deepEqual(replay.verdict.hop_steps, [2, 3, 4]);
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
