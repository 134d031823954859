// Another extension's frames in the pages of runs started from the real popup, as
// password managers, translators and wallets show their inline menus: the test
// extension (extensions/frame-injector) puts one frame in a closed shadow root of every
// page and another beside each text field that takes the focus. Chrome refuses an
// extension's debugger on such a page ("Cannot access a chrome-extension:// URL of
// different extension") and detaches it when such a frame appears: before, every
// observation of these pages failed and the run ended in error. Now the frames are
// taken out of the run's tabs (only those) and the observation says what it did not see.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { startSandbox } from '../../runner/sandbox.mjs';
import { copyBundledTasks } from './bundled-tasks.mjs';
import { startFakeProviders } from './fake-providers.mjs';
import { freePortBase } from './free-ports.mjs';
import { hopbenchBin } from './native.mjs';
import { FRAME_INJECTOR, NOT_OBSERVED, WITH_FRAMES } from './frame-injector.mjs';
import { leftovers, runFileFromRealPopup } from './popup-run.mjs';
import { person, stepsOf, waitForSteps } from './human-helpers.mjs';
import { waitForRunEnd } from './run-helpers.mjs';
import { waitForPage } from './session-helpers.mjs';


describe("runs from the real popup on pages that show another extension's frames", { timeout: 300_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Page} */ let control;
  /** @type {Awaited<ReturnType<typeof startSandbox>>} */ let sandbox;
  /** @type {Awaited<ReturnType<typeof startFakeProviders>>} */ let fake;
  /** @type {string} */ let dir;
  /** @type {ReturnType<typeof copyBundledTasks>} */ let tasks;
  /** @type {number} */ let base;

  before(async () => {
    base = await freePortBase();
    sandbox = await startSandbox(hopbenchBin(), () => undefined, ['--port-base', String(base)]);
    dir = mkdtempSync(join(tmpdir(), 'hopbench-foreign-'));
    tasks = copyBundledTasks([...WITH_FRAMES], dir, base);
    fake = await startFakeProviders({ apiKey: null });
    ext = await launchExtension({ otherExtensions: [FRAME_INJECTOR] });
    control = await ext.openExtensionPage('runs.html');
  });

  after(async () => {
    await ext?.close();
    await sandbox?.stop();
    await fake?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the other extension shows its frames in the person\'s own tabs, untouched', async () => {
    const page = await ext.openPage(`http://127.0.0.1:${base + 1}/`);
    await page.waitForFunction(() => document.querySelector('frame-injector-badge') !== null);
    const frames = () => page.frames().filter((f) => f.url().startsWith('chrome-extension://')).length;
    assert.equal(frames(), 1);
    await page.close();
  });

  for (const name of WITH_FRAMES) {
    test(`${name} passes by replay; each observation says the frames were not observed`, async () => {
      const task = /** @type {{ file: string }} */ (tasks.find((t) => t.file.endsWith(`${name}.json`)));
      const runId = await runFileFromRealPopup(ext, control, { file: task.file, overUrl: `http://127.0.0.1:${base}/` });
      const run = await waitForRunEnd(control, runId, 120_000);
      assert.equal(run.status, 'finished', JSON.stringify(run));
      assert.equal(run.verdict?.passed, true, JSON.stringify(run.verdict));
      const { trajectory } = await sendOk(control, 'exportRun', { runId });
      for (const step of trajectory.steps) {
        assert.match(step.observation.text, NOT_OBSERVED, `step ${step.step} of ${name}`);
        assert.equal(step.result?.error ?? null, null, `step ${step.step} of ${name}: ${JSON.stringify(step.result)}`);
      }
      assert.equal((await leftovers(control)).rules, 0);
    });
  }

  test("a model agent's observation names the frame it could not see", async () => {
    await sendOk(control, 'saveSettings', {
      settings: { model: { provider: 'openai', base_url: fake.baseUrl('openai'), model: 'fake-agent' }, max_tries: 1 },
    });
    fake.reset();
    fake.script({ text: 'In summary, the next action I will perform is ```stop [purple]```' });
    const task = /** @type {{ file: string }} */ (tasks[0]);
    const runId = await runFileFromRealPopup(ext, control, { file: task.file, overUrl: `http://127.0.0.1:${base}/`, agent: 'model' });
    const run = await waitForRunEnd(control, runId, 60_000);
    assert.equal(run.status, 'finished', JSON.stringify(run));
    const [request] = fake.requests.filter((r) => r.api === 'openai');
    assert.match(request.text, /\(1 frame of another extension: not observed\)/);
  });

  test("a person's session records every step, the ones after the other extension's menu appeared included", async () => {
    const task = /** @type {{ file: string }} */ (tasks[0]);
    const { readFileSync } = await import('node:fs');
    const { runId } = await sendOk(control, 'startHuman', { taskText: readFileSync(task.file, 'utf8'), fileName: 'beanie-person.json' });
    const page = await waitForPage(ext.context, (url) => url.startsWith(`http://127.0.0.1:${base + 1}/`));
    await sendOk(control, 'humanControl', { runId, command: 'start' });
    const you = person(page);
    // The click into the field is what makes the other extension show its menu there.
    await you.type('input[name="q"]', 'merino beanie', { enter: true });
    await page.waitForURL(/\/search\?/);
    await you.click('a:text-is("Merino Beanie")');
    await page.waitForURL(/beanie/i);
    const steps = await waitForSteps(control, runId, 2, 20_000);
    assert.match(steps[0].action.text, /^type \[\d+\] \[merino beanie\] \[1\]$/, JSON.stringify(steps.map((/** @type {{ action?: { text: string } }} */ st) => st.action?.text)));
    assert.match(steps[1].action.text, /^click \[\d+\]$/);
    const { run } = await sendOk(control, 'humanFinish', { runId, answer: 'purple' });
    assert.equal(run.verdict?.passed, true, JSON.stringify(run));
    assert.equal((await stepsOf(control, runId)).length, 3);
  });
});
