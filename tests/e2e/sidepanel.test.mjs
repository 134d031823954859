// The side panel as a person uses it, 360 px wide: pick a task and Run it from the
// panel; the hop queue stays above the fold; Pause holds the run between steps and
// Resume goes on; the popup and the panel give the same step number; each step reads
// as words with a thumbnail and its result in words (no JSON); the verdict at the
// end. Takes the README's screenshots on the way (paths.mjs docImagePath: where they go).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { docImagePath } from './paths.mjs';
import { threeHopTask, waitForRunEnd } from './run-helpers.mjs';
import { startSites } from './sites.mjs';

const WIDTH = 360;
const HEIGHT = 640;

describe('the side panel at 360 px', { timeout: 180_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let panel;
  /** @type {string} */ let runId;

  const status = () => panel.locator('#status').textContent();
  const shoot = (/** @type {string} */ name) => panel.screenshot({ path: docImagePath(`panel-${name}.png`) });

  before(async () => {
    sites = await startSites({ names: ['wiki', 'events'] });
    ext = await launchExtension();
    panel = await ext.openExtensionPage('sidepanel.html');
    await panel.setViewportSize({ width: WIDTH, height: HEIGHT });
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('idle: the picker shows the chosen task with its intent, hops and sites', async () => {
    await panel.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('status')).textContent.startsWith('Choose a task'));
    await panel.locator('#import-files').setInputFiles({
      name: 'three-hops.json',
      mimeType: 'application/json',
      buffer: Buffer.from(threeHopTask(sites)),
    });
    await panel.waitForFunction(() => /** @type {HTMLInputElement} */ (document.querySelector('#task')).value === 'imported:three-hops.json');
    await panel.selectOption('#agent', 'replay');
    assert.match(/** @type {string} */ (await panel.locator('#task-intent').textContent()), /^Starting from the wiki, read the Tokyo Tower article/);
    assert.match(/** @type {string} */ (await panel.locator('#task-facts').textContent()), /^3 hops · 127\.0\.0\.1:\d+/);
    assert.equal(await panel.locator('#run').isEnabled(), true);
    await shoot('idle');
  });

  test('Run starts one run; Pause holds it after the step in progress, with the same step number as the popup', async () => {
    // The first click's page is held, so Pause is pressed while step 1 is acting.
    const held = sites.hold('wiki', '/Tokyo_Tower.html');
    await panel.locator('#run').dblclick();
    await held.arrived;
    runId = await panel.evaluate(async () => /** @type {string} */ ((await chrome.storage.local.get('runs.current'))['runs.current']));
    assert.ok(runId, 'Run started a run');
    await panel.waitForFunction(() => !/** @type {HTMLElement} */ (document.getElementById('pause')).hidden);
    await panel.locator('#pause').click();
    await panel.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('status')).textContent.startsWith('Pausing'));
    assert.equal(await status(), 'Pausing: step 1 finishes first · 0 of 3 hops');
    held.release();
    await panel.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('status')).textContent.startsWith('Paused'), null, { timeout: 20_000 });
    assert.equal(await status(), 'Paused before step 2 · 1 of 3 hops');
    assert.equal(await panel.locator('#pause').textContent(), 'Resume');

    const popup = await ext.openExtensionPage('popup.html');
    await popup.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('run-status')).textContent.includes('step'));
    assert.equal(await popup.locator('#run-status').textContent(), await status(), 'the popup and the panel say the same');
    await popup.close();

    // Held: nothing happens while paused.
    await panel.waitForTimeout(1500);
    const { run } = await sendOk(panel, 'getRun', { runId });
    assert.equal(run.step, 1, 'no step ran while paused');
    assert.equal(run.paused, 'paused');
    const { runs } = await sendOk(panel, 'listRuns');
    assert.equal(runs.length, 1, 'a double click on Run started one run');
  });

  test('mid-run: the hop queue is above the fold, before the task, and the step reads in words', async () => {
    await panel.waitForSelector('.step[data-step="1"] img.step-thumb[src^="data:image/"]');
    const layout = await panel.evaluate(() => {
      /** @param {string} selector a part the panel always shows */
      const box = (selector) => /** @type {Element} */ (document.querySelector(selector)).getBoundingClientRect();
      return { queue: box('.hop-queue'), intent: box('.task-card .intent'), height: innerHeight, width: document.documentElement.scrollWidth };
    });
    assert.ok(layout.queue.bottom <= layout.height, `the hop queue ends at ${layout.queue.bottom} px, below the fold (${layout.height} px)`);
    assert.ok(layout.queue.bottom <= layout.intent.top, 'the queue comes before the intent');
    assert.ok(layout.width <= WIDTH, `nothing is wider than the panel (${layout.width} px)`);
    const step = await readStep(1);
    assert.equal(step.words, "Clicked link 'Tokyo Tower'");
    assert.match(/** @type {string} */ (step.result), /^Reached <a> "Tokyo Tower" as real input\.$/);
    assert.equal(step.hop, 'Completed hop 1 (Read about the Tokyo Tower).');
    assert.match(/** @type {string} */ (step.action), /^click \[\d+\]$/);
    await shoot('mid-run');
  });

  test('Resume finishes the run; the verdict and every step show in words', async () => {
    await panel.locator('#pause').click();
    const run = await waitForRunEnd(panel, runId);
    assert.equal(run.verdict.passed, true, JSON.stringify(run.verdict));
    assert.deepEqual(run.verdict.hop_steps, [1, 2, 3]);
    await panel.waitForSelector('.verdict[data-outcome="pass"]');
    assert.match(/** @type {string} */ (await status()), /^PASS · 3 of 3 hops · \d+ steps$/);
    await panel.waitForFunction(() => document.querySelectorAll('.step img.step-thumb[src]').length === 3);
    const steps = await Promise.all([1, 2, 3].map(readStep));
    assert.deepEqual(
      steps.map((s) => s.words),
      ["Clicked link 'Tokyo Tower'", "Clicked link 'the events site'", "Clicked link 'Events in Tokyo'"],
    );
    for (const s of steps) assert.doesNotMatch(`${s.result} ${s.hop}`, /[{}]/, 'results are words, not JSON');
    assert.match(/** @type {string} */ (await panel.locator('#bar .verdict').textContent()), /^PASS3 of 3 hops; all hops completed/);
    assert.equal(await panel.locator('#new-run').isVisible(), true);
    await panel.evaluate(() => window.scrollTo(0, 0));
    await shoot('finished');
  });

  test('New run goes back to the picker', async () => {
    await panel.locator('#new-run').click();
    assert.equal(await panel.locator('#setup').isVisible(), true);
    assert.equal(await panel.locator('#task').inputValue(), 'imported:three-hops.json');
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });

  /** @param {number} n */
  function readStep(n) {
    return panel.evaluate((number) => {
      // The step is listed by the time a test reads it.
      const li = /** @type {Element} */ (document.querySelector(`.step[data-step="${number}"]`));
      /** @param {string} selector */
      const text = (selector) => li.querySelector(selector)?.textContent ?? null;
      return { words: text('.step-words'), result: text('.step-result'), hop: text('.step-hop'), action: text('.step-action') };
    }, n);
  }
});
