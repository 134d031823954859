// JavaScript dialogs in a run started from the real toolbar popup, as in a person's
// Chrome: nothing else answers them (the test's own Playwright is told to leave every
// dialog alone, as a person's browser would). Before, the click whose handler called
// alert() held the run's step for good. Now each dialog is answered as MMInA's
// harness does (dismissed, but "leave this page?", which is accepted), recorded in
// its step, and told to the agent in the next observation; a page that keeps its
// thread busy past the bound of a DevTools command ends that step with a `timeout`
// error naming the command, and the run goes on.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { runFileFromRealPopup } from './popup-run.mjs';
import { waitForRunEnd } from './run-helpers.mjs';
import { waitForPage } from './session-helpers.mjs';
import { startSites } from './sites.mjs';

describe('dialogs, busy pages, closing tabs and blank tabs in a run started from the real popup', { timeout: 300_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let page;
  /** @type {string} */ let files;
  /** @type {import('playwright-core').Dialog[]} */
  const leftAlone = [];

  /**
   * Writes FILE.json: a task on the dialogs site that starts at `start` and whose one
   * hop is reaching hello.html?name=NAME, with the replay's reference.
   * @param {string} file
   * @param {{ id: string, intent: string, start: string, name: string, reference: string[] }} task
   */
  const oneHop = (file, { id, intent, start, name, reference }) => writeFileSync(join(files, `${file}.json`), JSON.stringify({
    id,
    intent,
    start_urls: [sites.url('dialogs', start)],
    hops: [{ condition: { kind: 'url', part: 'param', param: 'name', op: 'equals', value: name } }],
    reference_trajectory: reference,
  }));

  before(async () => {
    sites = await startSites({ names: ['dialogs'] });
    ext = await launchExtension();
    // A listener that answers nothing: Playwright then leaves every dialog open, so
    // only the extension can answer it (without one, Playwright dismisses them all).
    ext.context.on('dialog', (dialog) => {
      leftAlone.push(dialog);
    });
    page = await ext.openExtensionPage('runs.html');
    files = mkdtempSync(join(tmpdir(), 'hopbench-dialogs-'));
    writeFileSync(join(files, 'dialogs.json'), JSON.stringify({
      id: 'e2e/dialogs',
      intent: 'Save the notes, try to delete them and say hello.',
      start_urls: [sites.url('dialogs', '/index.html')],
      hops: [
        { description: 'Save the notes', condition: { kind: 'url', part: 'path', op: 'contains', value: 'saved.html' } },
        { description: 'Keep them (cancel the deletion)', condition: { kind: 'url', part: 'path', op: 'contains', value: 'kept.html' } },
        { description: 'Say hello without a name', condition: { kind: 'url', part: 'param', param: 'name', op: 'equals', value: 'nobody' } },
      ],
      reference_trajectory: ["click {button 'Save'}", "click {button 'Delete'}", "click {button 'Say hello'}"],
    }));
    oneHop('busy', { id: 'e2e/busy', intent: 'Make the page work hard, then go on.', start: '/busy.html', name: 'patient', reference: ["click {button 'Work hard'}", "click {link 'Done: go on'}"] });
    oneHop('files', { id: 'e2e/files', intent: 'Try to upload a photo, download the notes, then go on.', start: '/files.html', name: 'files', reference: ["click {button 'Upload a photo'}", "click {link 'Download the notes'}", "click {link 'Go on'}"] });
    oneHop('closer', { id: 'e2e/closer', intent: 'Open the closer, close it, then go on.', start: '/opener.html', name: 'closed', reference: ["click {link 'Open the closer'}", "click {button 'Close this tab'}", "click {link 'Go on'}"] });
    oneHop('ask', { id: 'e2e/ask', intent: 'Ask for every permission, then go on.', start: '/ask.html', name: 'asked', reference: ["click {button 'Ask for everything'}", "click {link 'Go on'}"] });
    oneHop('print', { id: 'e2e/print', intent: 'Print the ticket.', start: '/print.html', name: 'printed', reference: ["click {button 'Print the ticket'}"] });
    oneHop('draft', { id: 'e2e/draft', intent: 'Write a note, then leave without saving it.', start: '/draft.html', name: 'left', reference: ["type {textbox 'Your note'} [milk] [0]", "click {link 'Leave'}"] });
    writeFileSync(join(files, 'pdf.json'), JSON.stringify({
      id: 'e2e/pdf',
      intent: 'Read the ticket, then go on.',
      start_urls: [sites.url('dialogs', '/tickets.html')],
      hops: [
        { condition: { kind: 'url', part: 'path', op: 'contains', value: 'ticket.pdf' } },
        { condition: { kind: 'url', part: 'param', param: 'name', op: 'equals', value: 'after-pdf' } },
      ],
      reference_trajectory: ["click {link 'Read the ticket'}", `goto [${sites.url('dialogs', '/hello.html?name=after-pdf')}]`],
    }));
    oneHop('blank', { id: 'e2e/blank', intent: 'Open a new tab, then say hello from it.', start: '/index.html', name: 'blank', reference: ['new_tab', 'scroll [down]', `goto [${sites.url('dialogs', '/hello.html?name=blank')}]`] });
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
    if (files) rmSync(files, { recursive: true, force: true });
  });

  /**
   * Imports the file in the real popup over a normal tab, chooses the replay agent and
   * presses Run once; resolves to the new run's id.
   * @param {string} file
   */
  const runFromRealPopup = (file) =>
    runFileFromRealPopup(ext, page, { file: join(files, file), overUrl: sites.url('dialogs', `/hello.html?name=${file}`) });

  /** @param {string} runId */
  const stepsOf = async (runId) => (await sendOk(page, 'exportRun', { runId })).trajectory.steps;

  test('alert, confirm and prompt are dismissed, recorded in their steps and told to the agent; the task passes', async () => {
    const runId = await runFromRealPopup('dialogs.json');
    const run = await waitForRunEnd(page, runId, 60_000);
    assert.equal(run.status, 'finished', JSON.stringify(run));
    assert.equal(run.verdict.passed, true, JSON.stringify(run.verdict));
    assert.deepEqual(run.verdict.hop_steps, [1, 2, 3]);
    const steps = await stepsOf(runId);
    const dialogsOfStep = (/** @type {number} */ n) => steps.find((/** @type {{ step: number }} */ s) => s.step === n)?.notices?.filter((/** @type {{ kind: string }} */ d) => d.kind === 'dialog');
    assert.deepEqual(dialogsOfStep(1)?.map((/** @type {Record<string, string>} */ d) => [d.type, d.message, d.answer]), [['alert', 'Saved!', 'dismissed']]);
    assert.deepEqual(dialogsOfStep(2)?.map((/** @type {Record<string, string>} */ d) => [d.type, d.message, d.answer]), [['confirm', 'Delete every note?', 'dismissed']]);
    assert.deepEqual(dialogsOfStep(3)?.map((/** @type {Record<string, string>} */ d) => [d.type, d.message, d.answer]), [['prompt', 'Your name?', 'dismissed']]);
    // The agent reads, at the top of what follows, what the dialog said and what became of it.
    const observation = (/** @type {number} */ n) => String(steps.find((/** @type {{ step: number }} */ s) => s.step === n)?.observation?.text ?? '');
    assert.match(observation(2), /The page opened an alert dialog saying "Saved!" \(dismissed\)\./);
    assert.match(observation(3), /The page opened a confirm dialog saying "Delete every note\?" \(dismissed\)\./);
    assert.doesNotMatch(observation(1), /The page opened/);
    // Nothing but the extension answered them.
    assert.deepEqual(leftAlone.map((d) => d.type()), ['alert', 'confirm', 'prompt']);
  });

  test('a "leave this page?" dialog is accepted: the agent\'s click leaves the page, and the agent is told', async () => {
    const runId = await runFromRealPopup('draft.json');
    const run = await waitForRunEnd(page, runId, 60_000);
    assert.equal(run.verdict?.passed, true, JSON.stringify(run));
    // Left on the click that asked, as MMInA's harness leaves (dismissing kept the agent
    // on the page for good: every way off it met the same dialog).
    assert.deepEqual(run.verdict.hop_steps, [2]);
    const steps = await stepsOf(runId);
    const step = (/** @type {number} */ n) => steps.find((/** @type {{ step: number }} */ s) => s.step === n);
    assert.deepEqual(step(2).notices?.map((/** @type {Record<string, string>} */ d) => [d.kind, d.type, d.answer]), [['dialog', 'beforeunload', 'accepted']]);
    const { trajectory } = await sendOk(page, 'exportRun', { runId });
    assert.deepEqual(trajectory.run.notices?.map((/** @type {Record<string, string>} */ d) => [d.step, d.type, d.answer]), [[2, 'beforeunload', 'accepted']]);
  });

  test('a command held past its bound ends its step with a timeout naming the command; the run goes on and passes', async () => {
    const runId = await runFromRealPopup('busy.json');
    const run = await waitForRunEnd(page, runId, 120_000);
    assert.equal(run.status, 'finished', JSON.stringify(run));
    assert.equal(run.verdict.passed, true, JSON.stringify(run.verdict));
    const steps = await stepsOf(runId);
    const first = steps.find((/** @type {{ step: number }} */ s) => s.step === 1);
    assert.match(String(first?.result?.error), /^timeout: Input\.dispatchMouseEvent on tab \d+ gave no answer in 20 s/);
  });

  test('a blank tab is observed as about:blank with no content to act on; acting on it says so in words', async () => {
    const runId = await runFromRealPopup('blank.json');
    const run = await waitForRunEnd(page, runId, 60_000);
    assert.equal(run.verdict?.passed, true, JSON.stringify(run));
    const steps = await stepsOf(runId);
    const second = steps.find((/** @type {{ step: number }} */ s) => s.step === 2);
    assert.equal(second.observation.url, 'about:blank');
    assert.match(second.observation.text, /^Tab 0: Notes \| Tab 1 \(current\): .*\n\nThis tab shows a blank page \(about:blank\): it has no content to act on\. Open a page with goto \[url\]/);
    // Not Chrome's "Cannot access contents of the page. Extension manifest must request permission…".
    assert.equal(
      second.result.error,
      'cannot scroll here: This tab shows a blank page (about:blank): it has no content to act on. Open a page with goto [url], go back with go_back, or switch to another tab with tab_focus.',
    );
  });

  test('a file chooser is closed and a download noted, each told to the agent; the task passes', async () => {
    const runId = await runFromRealPopup('files.json');
    const run = await waitForRunEnd(page, runId, 60_000);
    assert.equal(run.verdict?.passed, true, JSON.stringify(run));
    const steps = await stepsOf(runId);
    const step = (/** @type {number} */ n) => steps.find((/** @type {{ step: number }} */ s) => s.step === n);
    assert.deepEqual(step(1).notices, [{ kind: 'file_chooser', answer: 'closed', url: '', step: 1 }]);
    assert.match(step(2).observation.text, /\n\nThe page opened a file chooser; no file can be chosen here, so it was closed\.$/);
    // Chrome creates the download about when the click's step has settled: the step's
    // record has it when it came before; the run's record and the next observation have it always.
    const { trajectory } = await sendOk(page, 'exportRun', { runId });
    assert.deepEqual(trajectory.run.notices, [
      { kind: 'file_chooser', answer: 'closed', url: '', step: 1 },
      { kind: 'download', file: 'notes.txt', url: sites.url('dialogs', '/notes.txt'), step: 2 },
    ]);
    assert.match(step(3).observation.text, new RegExp(`\\n\\nThe page started a download of "notes\\.txt" \\(${sites.url('dialogs', '/notes.txt').replace(/[.?]/g, '\\$&')}\\); downloaded files are not shown to you\\.$`));
  });

  test('a page that closes its own tab: the run goes on in the tab left, and the agent is told', async () => {
    const runId = await runFromRealPopup('closer.json');
    const run = await waitForRunEnd(page, runId, 60_000);
    assert.equal(run.verdict?.passed, true, JSON.stringify(run));
    const steps = await stepsOf(runId);
    const step = (/** @type {number} */ n) => steps.find((/** @type {{ step: number }} */ s) => s.step === n);
    assert.equal(step(2).result.error, null, JSON.stringify(step(2).result));
    assert.deepEqual(step(2).notices, [{ kind: 'tab_closed', url: '', step: 2 }]);
    assert.match(step(3).observation.text, /^Tab 0 \(current\): Opener\n/);
    assert.match(step(3).observation.text, /\n\nA tab of this task was closed, not by your actions \(its page closed itself, or a person closed it\); the tabs line shows the tabs left\.$/);
  });

  test("a page that closes its own tab before Chrome answers the click: the click is its action, not an error", async () => {
    // The order a loaded machine gives now and then: the click handler's window.close()
    // closes the tab before Chrome answers the release, and Chrome fails the command
    // ("Detached while handling command"). Forced here: the closer's releases are
    // answered only once their tab is gone, as that failure.
    await ext.worker.evaluate(() => {
      const g = /** @type {typeof globalThis & { realSendCommand?: typeof chrome.debugger.sendCommand }} */ (globalThis);
      const real = chrome.debugger.sendCommand.bind(chrome.debugger);
      g.realSendCommand = chrome.debugger.sendCommand;
      /** @type {(target: chrome.debugger.Debuggee, method: string, params?: { type?: string }) => Promise<unknown>} */
      const lateOnCloser = async (target, method, params) => {
        const tab = target.tabId === undefined ? null : await chrome.tabs.get(target.tabId).catch(() => null);
        if (method !== 'Input.dispatchMouseEvent' || params?.type !== 'mouseReleased' || !tab?.url?.includes('/closer.html')) {
          return real(target, method, params);
        }
        const gone = new Promise((resolve) => {
          /** @param {number} id */
          const removed = (id) => {
            if (id !== tab.id) return;
            chrome.tabs.onRemoved.removeListener(removed);
            resolve(true);
          };
          chrome.tabs.onRemoved.addListener(removed);
          setTimeout(() => resolve(false), 10_000);
        });
        const answer = await real(target, method, params).catch((error) => error);
        if (await gone) throw new Error('Detached while handling command.');
        if (answer instanceof Error) throw answer;
        return answer;
      };
      chrome.debugger.sendCommand = /** @type {typeof chrome.debugger.sendCommand} */ (/** @type {unknown} */ (lateOnCloser));
    });
    try {
      const runId = await runFromRealPopup('closer.json');
      const run = await waitForRunEnd(page, runId, 60_000);
      assert.equal(run.verdict?.passed, true, JSON.stringify(run));
      const steps = await stepsOf(runId);
      const step = (/** @type {number} */ n) => steps.find((/** @type {{ step: number }} */ s) => s.step === n);
      assert.deepEqual(step(2).result, { error: null, effect: { element: '<button> "Close this tab"', path: 'trusted', closedItsTab: true } }, JSON.stringify(step(2).result));
      assert.deepEqual(step(2).notices, [{ kind: 'tab_closed', url: '', step: 2 }]);
      assert.match(step(3).observation.text, /^Tab 0 \(current\): Opener\n/);
    } finally {
      await ext.worker.evaluate(() => {
        const g = /** @type {typeof globalThis & { realSendCommand?: typeof chrome.debugger.sendCommand }} */ (globalThis);
        if (g.realSendCommand) chrome.debugger.sendCommand = g.realSendCommand;
      });
    }
  });

  test('print() opens no print preview in an agent\'s tab: it is noted and told, and the page goes on', async () => {
    const runId = await runFromRealPopup('print.json');
    const run = await waitForRunEnd(page, runId, 60_000);
    assert.equal(run.verdict?.passed, true, JSON.stringify(run));
    const steps = await stepsOf(runId);
    const step = (/** @type {number} */ n) => steps.find((/** @type {{ step: number }} */ s) => s.step === n);
    assert.deepEqual(step(1).notices, [{ kind: 'print', url: '', step: 1 }]);
    const { trajectory } = await sendOk(page, 'exportRun', { runId });
    assert.deepEqual(trajectory.run.notices, [{ kind: 'print', url: '', step: 1 }]);
  });

  test('permission prompts (notifications, location, microphone) hold nothing: the run goes on and passes', async () => {
    const runId = await runFromRealPopup('ask.json');
    const run = await waitForRunEnd(page, runId, 60_000);
    assert.equal(run.verdict?.passed, true, JSON.stringify(run));
    const steps = await stepsOf(runId);
    assert.equal(steps.find((/** @type {{ step: number }} */ s) => s.step === 1).result.error, null);
  });

  test("a PDF in the browser's viewer: the observation says its text is not available", async () => {
    const runId = await runFromRealPopup('pdf.json');
    const run = await waitForRunEnd(page, runId, 60_000);
    assert.equal(run.verdict?.passed, true, JSON.stringify(run));
    const steps = await stepsOf(runId);
    const second = steps.find((/** @type {{ step: number }} */ s) => s.step === 2);
    const pdfUrl = sites.url('dialogs', '/ticket.pdf');
    assert.equal(second.observation.url, pdfUrl);
    assert.ok(
      second.observation.text.endsWith(`\n\nThis tab shows a PDF document in the browser's PDF viewer (${pdfUrl}): its text is not available to you, only the viewer's own buttons. Open another page with goto [url], or go back with go_back.`),
      second.observation.text,
    );
    // The first page, a web page like any, says nothing of the kind.
    assert.doesNotMatch(steps.find((/** @type {{ step: number }} */ s) => s.step === 1).observation.text, /PDF viewer/);
  });

  test("in a person's session the dialog is the person's: left open, answered by them, recorded with their answer", async () => {
    const taskText = JSON.stringify({
      id: 'e2e/dialogs-person',
      intent: 'Save the notes, then delete them.',
      start_urls: [sites.url('dialogs', '/index.html')],
      hops: [{ condition: { kind: 'url', part: 'path', op: 'contains', value: 'deleted.html' } }],
    });
    const { runId } = await sendOk(page, 'startHuman', { taskText, fileName: 'dialogs-person.json' });
    const person = await waitForPage(ext.context, (url) => url.startsWith(sites.url('dialogs', '/index.html')));
    await sendOk(page, 'humanControl', { runId, command: 'start' });
    /**
     * Clicks `selector`, waits for the dialog the click opens to be still open a
     * moment later (no one else answered it), and accepts it as the person.
     * @param {string} selector
     */
    const clickAndAccept = async (selector) => {
      const before = leftAlone.length;
      const clicked = person.click(selector);
      const deadline = Date.now() + 10_000;
      while (leftAlone.length === before) {
        assert.ok(Date.now() < deadline, `no dialog opened after clicking ${selector}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      await leftAlone[leftAlone.length - 1].accept();
      await clicked;
    };
    await clickAndAccept('#save');
    await person.waitForURL(/saved\.html$/);
    await clickAndAccept('#delete');
    await person.waitForURL(/deleted\.html$/);
    const { run } = await sendOk(page, 'humanFinish', { runId, answer: 'done' });
    assert.equal(run.verdict.passed, true, JSON.stringify(run.verdict));
    const { trajectory } = await sendOk(page, 'exportRun', { runId });
    assert.deepEqual(
      trajectory.run.notices.map((/** @type {Record<string, string>} */ d) => [d.kind, d.type, d.message, d.answer]),
      [['dialog', 'alert', 'Saved!', 'accepted'], ['dialog', 'confirm', 'Delete every note?', 'accepted']],
    );
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
