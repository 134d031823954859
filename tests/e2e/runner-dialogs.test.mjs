// The runner on pages that open JavaScript dialogs and on a blank tab: the same task
// the popup test runs (dialogs.test.mjs) passes headless, each dialog in its step's
// record as dismissed, and the blank tab's step says what the agent can do there.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { taskFileStem } from '../../runner/paths.mjs';
import { readLines, runRunner } from './runner-process.mjs';
import { startSites } from './sites.mjs';

describe('the runner on dialogs, a blank tab, and the rest of what pages do beside themselves', { timeout: 240_000 }, () => {
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {string} */ let dir;

  before(async () => {
    sites = await startSites({ names: ['dialogs'] });
    dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-dialogs-'));
    mkdirSync(join(dir, 'tasks'));
    writeFileSync(join(dir, 'tasks', 'dialogs.json'), JSON.stringify({
      id: 'e2e-dialogs/notes',
      intent: 'Save the notes, try to delete them, say hello, then open a new tab and come back to hello.',
      start_urls: [sites.url('dialogs', '/index.html')],
      hops: [
        { condition: { kind: 'url', part: 'path', op: 'contains', value: 'saved.html' } },
        { condition: { kind: 'url', part: 'path', op: 'contains', value: 'kept.html' } },
        { condition: { kind: 'url', part: 'param', param: 'name', op: 'equals', value: 'nobody' } },
        { condition: { kind: 'url', part: 'param', param: 'name', op: 'equals', value: 'blank' } },
      ],
      reference_trajectory: [
        "click {button 'Save'}",
        "click {button 'Delete'}",
        "click {button 'Say hello'}",
        'new_tab',
        'scroll [down]',
        `goto [${sites.url('dialogs', '/hello.html?name=blank')}]`,
      ],
    }));
    const page = (/** @type {string} */ path) => sites.url('dialogs', path);
    writeFileSync(join(dir, 'tasks', 'others.json'), JSON.stringify({
      id: 'e2e-dialogs/others',
      intent: 'Upload, download, print, close a tab and ask for permissions, going on each time.',
      start_urls: [page('/files.html')],
      hops: ['files', 'printed', 'closed', 'asked'].map((name) => ({ condition: { kind: 'url', part: 'param', param: 'name', op: 'equals', value: name } })),
      reference_trajectory: [
        "click {button 'Upload a photo'}",
        "click {link 'Download the notes'}",
        "click {link 'Go on'}",
        `goto [${page('/print.html')}]`,
        "click {button 'Print the ticket'}",
        `goto [${page('/opener.html')}]`,
        "click {link 'Open the closer'}",
        "click {button 'Close this tab'}",
        "click {link 'Go on'}",
        `goto [${page('/ask.html')}]`,
        "click {button 'Ask for everything'}",
        "click {link 'Go on'}",
      ],
    }));
  });

  after(async () => {
    await sites?.close();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  test('passes, with each dialog dismissed in its step and the blank tab told in words', async () => {
    const out = join(dir, 'out');
    const result = await runRunner(['--tasks', join(dir, 'tasks'), '--out', out, '--task-timeout', '90']);
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    const lines = readLines(join(out, 'results.jsonl'));
    const line = lines.find((l) => l.id === 'e2e-dialogs/notes');
    assert.equal(line?.verdict, 'PASS', JSON.stringify(lines));
    assert.deepEqual(line.hop_steps, [1, 2, 3, 6]);
    const trajectory = JSON.parse(readFileSync(join(out, 'trajectories', `${taskFileStem('e2e-dialogs/notes')}.json`), 'utf8'));
    const step = (/** @type {number} */ n) => trajectory.steps.find((/** @type {{ step: number }} */ s) => s.step === n);
    // The run's record has every dialog with the step whose click opened it, and so
    // does each step's: the runner leaves dialogs to the extension (runner/browser.mjs),
    // which answers them before the page goes on.
    assert.deepEqual(
      trajectory.run.notices.map((/** @type {Record<string, string>} */ d) => `${d.step} ${d.kind} ${d.type}: ${d.message} (${d.answer})`),
      ['1 dialog alert: Saved! (dismissed)', '2 dialog confirm: Delete every note? (dismissed)', '3 dialog prompt: Your name? (dismissed)'],
    );
    assert.deepEqual([1, 2, 3].map((n) => step(n).notices?.map((/** @type {Record<string, string>} */ d) => d.type)), [['alert'], ['confirm'], ['prompt']]);
    // Each is told to the agent once, in an observation after the click.
    const told = (/** @type {RegExp} */ words) => trajectory.steps.filter((/** @type {{ observation: { text: string } }} */ s) => words.test(s.observation.text)).map((/** @type {{ step: number }} */ s) => s.step);
    assert.equal(told(/The page opened an alert dialog saying "Saved!" \(dismissed\)\./).length, 1);
    assert.ok(told(/The page opened an alert dialog saying "Saved!"/)[0] >= 2);
    assert.equal(told(/The page opened a confirm dialog saying "Delete every note\?" \(dismissed\)\./).length, 1);
    assert.equal(told(/The page opened a prompt dialog saying "Your name\?" \(dismissed\)\./).length, 1);
    assert.equal(step(5).observation.url, 'about:blank');
    assert.match(step(5).result.error, /^cannot scroll here: This tab shows a blank page \(about:blank\): it has no content to act on\./);

    // The other task: a file chooser, a download, a print, a tab its page closed and
    // permission prompts, each noted with its step; nothing held the run.
    const others = lines.find((l) => l.id === 'e2e-dialogs/others');
    assert.equal(others?.verdict, 'PASS', JSON.stringify(lines));
    assert.deepEqual(others.hop_steps, [3, 5, 9, 12]);
    const second = JSON.parse(readFileSync(join(out, 'trajectories', `${taskFileStem('e2e-dialogs/others')}.json`), 'utf8'));
    assert.deepEqual(second.run.notices.map((/** @type {{ step: number, kind: string }} */ n) => `${n.step} ${n.kind}`), ['1 file_chooser', '2 download', '5 print', '8 tab_closed']);
  });
});
