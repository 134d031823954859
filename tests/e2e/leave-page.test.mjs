// Pages that ask "leave this page?" in runs started from the real toolbar popup. A page
// with a beforeunload handler asks once it has seen a trusted gesture, and any form
// typed into does: before, the end of such a run waited for good on closing its tab,
// holding the sessions lock, so its window and fence rules stayed (the person's new tab
// got ERR_BLOCKED_BY_CLIENT) and the next Run never answered. Now the agent's own
// navigation leaves such a page, and a run's end closes its tabs whatever they ask.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { leftovers, runFileFromRealPopup } from './popup-run.mjs';
import { person, waitForSteps } from './human-helpers.mjs';
import { waitForRunEnd } from './run-helpers.mjs';
import { waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

describe('"leave this page?" in runs from the real popup', { timeout: 240_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let control;
  /** @type {string} */ let files;

  /**
   * @param {string} name
   * @param {object} task
   */
  const taskFile = (name, task) => {
    const file = join(files, `${name}.json`);
    writeFileSync(file, JSON.stringify(task));
    return file;
  };
  /** @param {string} file */
  const run = (file) => runFileFromRealPopup(ext, control, { file, overUrl: sites.url('dialogs', '/hello.html?name=person') });

  before(async () => {
    sites = await startSites({ names: ['dialogs'] });
    ext = await launchExtension();
    // Nothing but the extension answers dialogs, as in a person's Chrome.
    ext.context.on('dialog', () => undefined);
    control = await ext.openExtensionPage('runs.html');
    files = mkdtempSync(join(tmpdir(), 'hopbench-leave-'));
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
    if (files) rmSync(files, { recursive: true, force: true });
  });

  test('a run that ends on a form with unsaved text closes its window at once and leaves no rule; the next Run passes', async () => {
    const dirty = taskFile('dirty', {
      id: 'e2e/leave-dirty',
      intent: 'Write "milk" as a note and say what you wrote, without saving.',
      start_urls: [sites.url('dialogs', '/draft.html')],
      hops: [{ condition: { kind: 'answer', must_include: ['milk'] } }],
      reference_trajectory: ["type {textbox 'Your note'} [milk] [0]", 'stop [milk]'],
    });
    const runId = await run(dirty);
    const ended = await waitForRunEnd(control, runId, 60_000);
    assert.equal(ended.verdict?.passed, true, JSON.stringify(ended));
    // The window goes with the run: its tab asked "leave this page?" when closed.
    const deadline = Date.now() + 15_000;
    let left = await leftovers(control);
    while ((left.sessions > 0 || left.rules > 0 || left.tabs.some((u) => u.includes('/draft.html'))) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      left = await leftovers(control);
    }
    assert.deepEqual({ rules: left.rules, sessions: left.sessions, drafts: left.tabs.filter((u) => u.includes('/draft.html')) }, { rules: 0, sessions: 0, drafts: [] });
    // The person's own new tab is not fenced.
    const mine = await ext.openPage(sites.url('dialogs', '/hello.html?name=mine'));
    assert.equal(await mine.textContent('#who'), 'mine');
    await mine.close();

    const next = taskFile('next', {
      id: 'e2e/leave-next',
      intent: 'Say hello as next.',
      start_urls: [sites.url('dialogs', '/index.html')],
      hops: [{ condition: { kind: 'url', part: 'param', param: 'name', op: 'equals', value: 'next' } }],
      reference_trajectory: [`goto [${sites.url('dialogs', '/hello.html?name=next')}]`],
    });
    const nextRun = await waitForRunEnd(control, await run(next), 60_000);
    assert.equal(nextRun.verdict?.passed, true, JSON.stringify(nextRun));
  });

  test("the agent's goto away from a form with unsaved text leaves it; the agent is told what was lost", async () => {
    const away = taskFile('away', {
      id: 'e2e/leave-away',
      intent: 'Write "milk" as a note, then go to the hello page as away.',
      start_urls: [sites.url('dialogs', '/draft.html')],
      hops: [
        { condition: { kind: 'url', part: 'param', param: 'name', op: 'equals', value: 'away' } },
        { condition: { kind: 'answer', must_include: ['away'] } },
      ],
      reference_trajectory: [
        "type {textbox 'Your note'} [milk] [0]",
        `goto [${sites.url('dialogs', '/hello.html?name=away')}]`,
        'stop [away]',
      ],
    });
    const runId = await run(away);
    const ended = await waitForRunEnd(control, runId, 60_000);
    assert.equal(ended.verdict?.passed, true, JSON.stringify(ended));
    assert.deepEqual(ended.verdict.hop_steps, [2, 3]);
    const { trajectory } = await sendOk(control, 'exportRun', { runId });
    const step = (/** @type {number} */ n) => trajectory.steps.find((/** @type {{ step: number }} */ s) => s.step === n);
    assert.deepEqual(step(2).notices?.map((/** @type {Record<string, string>} */ d) => [d.type, d.answer]), [['beforeunload', 'accepted']]);
    assert.match(step(3).observation.text, /The page asked "leave this page\?" \(it had changes not saved\); it was left, and what was typed there is gone\./);
    assert.equal((await leftovers(control)).rules, 0);
  });

  test("a person's session ended with unsaved text in a form closes its window; no dialog waits for them", async () => {
    const taskText = JSON.stringify({
      id: 'e2e/leave-person',
      intent: 'Write "milk" as a note and say what you wrote.',
      start_urls: [sites.url('dialogs', '/draft.html')],
      hops: [{ condition: { kind: 'answer', must_include: ['milk'] } }],
    });
    const { runId } = await sendOk(control, 'startHuman', { taskText, fileName: 'leave-person.json' });
    const page = await waitForPage(ext.context, (url) => url.startsWith(sites.url('dialogs', '/draft.html')));
    await sendOk(control, 'humanControl', { runId, command: 'start' });
    await person(page).type('#note', 'milk');
    // Typing is one step once the person moves on (the recorder closes it then).
    await person(page).click('h1');
    await waitForSteps(control, runId, 1);
    const { run } = await sendOk(control, 'humanFinish', { runId, answer: 'milk' });
    assert.equal(run.verdict?.passed, true, JSON.stringify(run));
    const deadline = Date.now() + 15_000;
    let left = await leftovers(control);
    while ((left.sessions > 0 || left.tabs.some((u) => u.includes('/draft.html'))) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      left = await leftovers(control);
    }
    assert.deepEqual({ sessions: left.sessions, drafts: left.tabs.filter((u) => u.includes('/draft.html')), rules: left.rules }, { sessions: 0, drafts: [], rules: 0 });
  });
});
