// `--browser-endpoint`: the runner drives Chromium instances it did not start (a browser
// farm's, say), here two started by the test with dist/ loaded and a DevTools port. The
// tasks are shared between them, each browser keeps the runs it ran, and both are
// still running, with no page of the runner's left open, when the runner is done. A
// browser without the extension is refused with what to do.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PROFILE_REMOVAL } from '../../runner/browser.mjs';
import { startSandbox } from '../../runner/sandbox.mjs';
import { browserRecord, startChromium, stopChromium } from './attached-browser.mjs';
import { copyBundledTasks } from './bundled-tasks.mjs';
import { freePortBase, processRunning } from './free-ports.mjs';
import { hopbenchBin } from './native.mjs';
import { readLines, runRunner } from './runner-process.mjs';
import { startSites } from './sites.mjs';

const TASKS = ['sb-01-beanie-colour', 'sb-03-tower-height', 'sb-07-euro-to-pound', 'sb-14-sandals-colour'];

describe('the runner on browsers it did not start (--browser-endpoint)', { timeout: 300_000 }, () => {
  /** @type {string} */
  let dir;
  /** @type {number} */
  let base;
  /** @type {{ stop: () => Promise<void> } | undefined} */
  let sandbox;
  /** @type {import('./attached-browser.mjs').Started[]} */
  const browsers = [];
  /** @type {string} */
  let tasksDir;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-endpoint-'));
    base = await freePortBase();
    sandbox = await startSandbox(hopbenchBin(), () => undefined, ['--port-base', String(base)]);
    tasksDir = join(dir, 'tasks');
    mkdirSync(tasksDir);
    copyBundledTasks(TASKS, tasksDir, base);
    browsers.push(await startChromium(dir, 'farm-1'), await startChromium(dir, 'farm-2'));
  });

  after(async () => {
    await Promise.all(browsers.map(stopChromium));
    await sandbox?.stop();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, PROFILE_REMOVAL);
  });

  test('two running browsers share the tasks; both keep running afterwards', async () => {
    const out = join(dir, 'out');
    const [a, b] = browsers;
    const run = await runRunner(['--tasks', tasksDir, '--out', out, '--browser-endpoint', a.endpoint, '--browser-endpoint', b.endpoint]);
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, new RegExp(`^browser 1 connected \\(${escape(a.endpoint)}\\)$`, 'm'));
    assert.match(run.stdout, new RegExp(`^browser 2 connected \\(${escape(b.endpoint)}\\)$`, 'm'));
    const lines = readLines(join(out, 'results.jsonl'));
    assert.deepEqual(lines.map((l) => l.verdict), TASKS.map(() => 'PASS'), JSON.stringify(lines));
    // A browser the runner did not launch may hold someone's logins: fenced by default.
    assert.equal(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).sites, 'task');
    assert.doesNotMatch(run.stdout, /warning: --sites any/);

    for (const browser of browsers) assert.ok(processRunning(browser.pid), `browser ${browser.pid} was ended by the runner`);
    const records = [await browserRecord(a.endpoint), await browserRecord(b.endpoint)];
    for (const [i, record] of records.entries()) {
      assert.ok(record.taskIds.length >= 1, `browser ${i + 1} ran no task: ${JSON.stringify(records)}`);
      // Only what the browser had before the runner came: its own blank tab.
      assert.deepEqual(record.pages, ['about:blank'], `browser ${i + 1} was left with pages of the run`);
    }
    const ranIds = records.flatMap((r) => r.taskIds).sort();
    assert.deepEqual(ranIds, lines.map((l) => l.id).sort(), 'each task ran once, in one of the two browsers');
  });

  test('in a browser the runner attached to, a popup window a task opened does not outlive its run', async () => {
    const sites = await startSites({ names: ['fence', 'alpha'] });
    try {
      const popupTasks = join(dir, 'popup-tasks');
      mkdirSync(popupTasks);
      // Its page opens a small window that goes to another site 5 s later.
      writeFileSync(join(popupTasks, 'opener.json'), JSON.stringify({
        id: 'e2e-endpoint/opener',
        intent: 'Open the small window, then stop.',
        start_urls: [sites.url('fence', '/opener.html')],
        hops: [{ condition: { kind: 'url', part: 'path', op: 'equals', value: '/opener.html' } }],
        reference_trajectory: ["click {button 'Open the small window'}", 'stop [done]'],
      }));
      const [a] = browsers;
      const pagesBefore = (await browserRecord(a.endpoint)).pages;
      const startedAt = Date.now();
      const run = await runRunner(['--tasks', popupTasks, '--out', join(dir, 'out-popup'), '--browser-endpoint', a.endpoint]);
      assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
      assert.deepEqual(readLines(join(dir, 'out-popup', 'results.jsonl')).map((l) => l.verdict), ['PASS']);
      const after = await browserRecord(a.endpoint);
      assert.deepEqual(after.pages, pagesBefore, 'a page of the run is still open in the browser');
      assert.equal(after.rules, 0, 'a fence rule of the run is left in the browser');
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, startedAt + 12_000 - Date.now())));
      assert.deepEqual(sites.requests.filter((r) => r.site === 'alpha'), [], 'a window of the run went elsewhere after the run');
    } finally {
      await sites.close();
    }
  });

  test('a browser without the extension is refused, saying what to do', async () => {
    const plain = await startChromium(dir, 'plain', { plain: true });
    browsers.push(plain);
    const run = await runRunner(['--tasks', tasksDir, '--out', join(dir, 'out-plain'), '--browser-endpoint', plain.endpoint]);
    assert.notEqual(run.status, 0, run.stdout);
    assert.match(run.stderr + run.stdout, /no hopbench extension in the browser at ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\/\S+: start it with --load-extension=DIST/);
    assert.ok(processRunning(plain.pid), 'the refused browser was ended');
  });
});

/** @param {string} text */
function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
