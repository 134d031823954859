// A person's session from the side panel: "Do it myself" opens the task's window, the
// person presses Start and does the task with the mouse and keyboard (Playwright's
// trusted input, at a person's pace); each action is recorded in the agent's action
// space with the id the agent saw, hops complete live, the answer in the panel ends it
// with PASS; the run is stored, listed and exported like an agent's, and its recorded
// trajectory, saved from the runs page as the task's reference_trajectory, replays to PASS.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { elementOf, person, stepsOf, waitForSteps } from './human-helpers.mjs';
import { docImagePath } from './paths.mjs';
import { downloadedText } from './secret-scan.mjs';
import { waitForRunEnd } from './run-helpers.mjs';
import { waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

const TASK_FILE = new URL('./tasks/spa-filters-and-routes.json', import.meta.url);

describe("a person's session on the single-page site", { timeout: 240_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let panel;
  /** @type {import('../types.mjs').Json} the task file, parsed */ let task;
  /** @type {string} */ let taskText;
  /** @type {string} */ let runId;
  /** @type {import('../types.mjs').Page} */ let page;

  const status = () => panel.locator('#status').textContent();

  before(async () => {
    sites = await startSites({ names: ['spa'] });
    ext = await launchExtension();
    taskText = sites.fill(readFileSync(TASK_FILE, 'utf8'));
    task = JSON.parse(taskText);
    panel = await ext.openExtensionPage('sidepanel.html');
    await panel.setViewportSize({ width: 360, height: 720 });
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('"Do it myself" opens the task window; the panel shows the objective, the hop queue and Start', async () => {
    await panel.locator('#import-files').setInputFiles({ name: 'spa.json', mimeType: 'application/json', buffer: Buffer.from(taskText) });
    await panel.waitForFunction(() => /** @type {HTMLInputElement} */ (document.querySelector('#task')).value === 'imported:spa.json');
    await panel.locator('#do-it-myself').click();
    page = await waitForPage(ext.context, (url) => url.startsWith(sites.origin('spa')));
    await panel.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('status')).textContent.startsWith('Ready'));
    runId = await panel.evaluate(async () => /** @type {string} */ ((await chrome.storage.local.get('runs.current'))['runs.current']));
    assert.equal(await status(), 'Ready: press Start · 0 steps recorded · 0 of 3 hops');
    assert.equal(await panel.locator('#start').isVisible(), true);
    assert.equal(await panel.locator('.hop').count(), 3);
    assert.equal(await panel.locator('.task-card .intent').textContent(), task.intent);
  });

  test('Start starts the clock; what the person does is recorded step by step with the ids the agent saw', async () => {
    // Before Start nothing is recorded.
    await page.mouse.click(5, 5);
    await panel.locator('#start').click();
    await panel.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('status')).textContent.startsWith('Recording'));
    const who = person(page);
    await who.choose('#city', 'P');
    await waitForSteps(panel, runId, 1);
    // Pause: the clock stops and what the person does meanwhile is not recorded.
    await panel.locator('#pause').click();
    await panel.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('status')).textContent.startsWith('Paused'));
    const frozen = await panel.locator('#clock').textContent();
    await who.click('#view h2');
    await panel.waitForTimeout(1200);
    assert.equal(await panel.locator('#clock').textContent(), frozen, 'the clock stood still');
    assert.equal((await stepsOf(panel, runId)).length, 1, 'nothing was recorded while paused');
    await panel.locator('#pause').click();
    await panel.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('status')).textContent.startsWith('Recording'));
    await who.click('a[data-cat="music"]');
    await waitForSteps(panel, runId, 2);
    await who.click('a[href="#/event/42"]');
    await waitForSteps(panel, runId, 3);
    await who.type('#search', 'Taiko Drums', { enter: true });
    const steps = await waitForSteps(panel, runId, 4);
    assert.deepEqual(
      steps.map((/** @type {import('../types.mjs').Json} */ s) => s.action?.text.replace(/\[\d+\]/, '[ID]') ?? s.result.error),
      ['type [ID] [Paris] [0]', 'click [ID]', 'click [ID]', 'type [ID] [Taiko Drums] [1]'],
    );
    // Each id is the element's line in the observation kept with the step.
    assert.deepEqual(
      steps.map((/** @type {import('../types.mjs').Json} */ s) => elementOf(s.observation.text, s.action.text)),
      ["combobox 'City'", "link 'Music'", "link 'Jazz Night'", "combobox 'Search events'"],
    );
    for (const s of steps) {
      assert.equal(s.result.error, null);
      assert.equal(s.result.effect.identifiedBy, 'id', `step ${s.step} named its element by the id the recorder had`);
      assert.ok(s.observation.page_screenshot, `step ${s.step} keeps a screenshot of the page`);
      assert.equal(s.observation.screenshot, null, 'no model was shown a picture');
      assert.equal(s.tokens.input, 0);
    }
    const { run } = await sendOk(panel, 'getRun', { runId });
    assert.equal(run.progress.done, 3, 'the hops completed live');
    assert.deepEqual(run.progress.hops.map((/** @type {import('../types.mjs').Json} */ h) => h.step), [2, 3, 4]);
  });

  test('the answer in the panel ends the session with PASS; hops at the steps that made them', async () => {
    await panel.screenshot({ path: docImagePath('panel-human.png') });
    await panel.locator('#answer').fill('Tokyo');
    await panel.locator('#answer-submit').click();
    const run = await waitForRunEnd(panel, runId);
    assert.equal(run.status, 'finished', JSON.stringify(run));
    assert.equal(run.provider, 'human');
    assert.equal(run.verdict.passed, true, JSON.stringify(run.verdict));
    assert.deepEqual(run.verdict.hop_steps, [2, 3, 4]);
    assert.equal(run.verdict.answer.text, 'Tokyo');
    assert.equal(run.step, 5);
    assert.ok(run.activeMs > 0 && run.activeMs < run.finishedAt - run.startedAt + 1, `active time ${run.activeMs} ms`);
    await panel.waitForSelector('.verdict[data-outcome="pass"]');
    assert.equal(await status(), 'PASS · 3 of 3 hops · 5 steps');
    const steps = await stepsOf(panel, runId);
    assert.equal(steps.at(-1).action.text, 'stop [Tokyo]');
    assert.equal(await panel.locator('.step').count(), 5);
    assert.equal(await panel.locator('.step[data-step="1"] .step-words').textContent(), `Typed "Paris" into combobox 'City'`);
    const hopLines = await panel.evaluate(() => [...document.querySelectorAll('.step')].map((li) => li.querySelector('.step-hop')?.textContent ?? null));
    assert.deepEqual(hopLines, [
      null,
      `Completed hop 1 (${task.hops[0].description}).`,
      `Completed hop 2 (${task.hops[1].description}).`,
      `Completed hop 3 (${task.hops[2].description}).`,
      null,
    ]);
  });

  test("the person's session seeds procedural memory: their actions, no answer", async () => {
    const kept = await panel.evaluate(async () => {
      const db = await new Promise((resolve, reject) => {
        const request = indexedDB.open('hopbench');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const all = await new Promise((resolve, reject) => {
        const request = db.transaction('memory').objectStore('memory').getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      db.close();
      return all;
    });
    assert.equal(kept.length, 1, JSON.stringify(kept));
    const [{ runId: keptRun, record }] = kept;
    assert.equal(keptRun, runId);
    assert.equal(record.by_person, true);
    assert.equal(record.task_id, task.id);
    assert.equal(record.verdict, 'PASS');
    assert.deepEqual(record.hop_steps, [2, 3, 4]);
    assert.equal(record.steps.length, 5);
    // Elements by role and name, as an agent's record names them; the person's answer
    // is not kept (the stop step says so instead).
    assert.match(record.steps[0].action, /^type \{combobox 'City'\} \[Paris\]/);
    assert.equal(record.steps.at(-1).action, 'stop (with an answer, not kept in memory)');
    assert.ok(record.steps.every((/** @type {import('../types.mjs').Json} */ s) => typeof s.site === 'string' && s.site.startsWith('127.0.0.1:')), JSON.stringify(record.steps));
  });

  test('the run is listed and exported like an agent run, steps shaped like agent steps', async () => {
    const { runs } = await sendOk(panel, 'listRuns');
    assert.deepEqual(runs.map((/** @type {import('../types.mjs').Json} */ r) => [r.id, r.provider]), [[runId, 'human']]);
    const { trajectory } = await sendOk(panel, 'exportRun', { runId });
    assert.equal(trajectory.run.provider, 'human');
    assert.deepEqual(trajectory.steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2, 3, 4, 5]);
    for (const step of trajectory.steps) {
      for (const field of ['observation', 'prompt', 'reply', 'model_error', 'action', 'result', 'judgements', 'progress', 'tokens', 'note', 'timings', 'started_at']) {
        assert.ok(field in step, `step ${step.step} has ${field}`);
      }
      assert.match(trajectory.media[step.observation.page_screenshot].dataUrl, /^data:image\/jpeg;base64,/);
    }
  });

  test('the recorded trajectory, as a reference_trajectory, replays to PASS', async () => {
    const steps = await stepsOf(panel, runId);
    const recorded = steps.map((/** @type {import('../types.mjs').Json} */ s) => ({ action: s.action.text, observation: s.observation.text }));
    const { value } = await sendOk(panel, 'coreCall', 'reference_of', [recorded]);
    assert.deepEqual(value.problems, []);
    assert.deepEqual(value.reference, task.reference_trajectory, "what the person did is the task author's trajectory");
    // Authoring by doing: the runs page saves the task file with the recording as its
    // reference_trajectory; that file is what the replay agent runs.
    const runsPage = await ext.openExtensionPage(`runs.html?run=${runId}`);
    await runsPage.waitForSelector('.run .steps');
    const file = await downloadedText(runsPage, '#detail-as-task');
    assert.equal(file.name, 'e2e-spa_paris-music-then-taiko.json');
    const saved = JSON.parse(file.text);
    assert.deepEqual(saved, { ...task, reference_trajectory: value.reference });
    const { runId: replayId } = await sendOk(panel, 'startRun', { taskText: file.text, fileName: file.name, overrides: { provider: 'replay' } });
    const replay = await waitForRunEnd(panel, replayId, 90_000);
    assert.equal(replay.verdict.passed, true, JSON.stringify(replay.verdict));
    assert.deepEqual(replay.verdict.hop_steps, [2, 3, 4]);
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
