// The per-task wall against a real extension that stops answering, and the batch that
// stops after --max-infra-errors: in a browser the runner attaches to, the test takes
// the extension's session lock (hopbench.sessions) and never lets go, as a page whose
// "leave this page?" prompt nobody answers once did while its tab was being closed.
// Every START_RUN then waits for the lock for good. Each task must end at its timeout
// as an infrastructure ERROR naming START_RUN; after two in a row the batch stops,
// says why and prints the command that resumes it, which, run on a browser that
// answers, finishes every task.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { PROFILE_REMOVAL } from '../../runner/browser.mjs';
import { startChromium, stopChromium } from './attached-browser.mjs';
import { repoRoot } from './paths.mjs';
import { readLines, runRunner } from './runner-process.mjs';
import { startSites } from './sites.mjs';

const TIMEOUT_S = 4;

describe('an extension that never answers START_RUN', { timeout: 240_000 }, () => {
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {string} */ let dir;
  /** @type {string} */ let tasks;
  /** @type {import('./attached-browser.mjs').Started[]} */
  const browsers = [];

  before(async () => {
    sites = await startSites({ names: ['events'] });
    dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-wall-'));
    tasks = join(dir, 'tasks');
    mkdirSync(tasks);
    for (const n of [1, 2, 3]) {
      writeFileSync(join(tasks, `events-${n}.json`), JSON.stringify({
        id: `wall/events-${n}`,
        intent: 'Find the events in Tokyo.',
        start_urls: [sites.url('events', '/index.html')],
        hops: [{ condition: { kind: 'url', op: 'contains', value: 'city=tokyo' } }],
        reference_trajectory: ["click {link 'Events in Tokyo'}"],
      }));
    }
  });

  after(async () => {
    await Promise.all(browsers.map(stopChromium));
    await sites?.close();
    // A killed Chromium's helper processes may write into its profile for a few seconds
    // more on a loaded machine: longer patience than the runner's own removal.
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { ...PROFILE_REMOVAL, maxRetries: 50 });
  });

  test('each attempt ends at its timeout naming START_RUN; two in a row stop the batch; the printed command resumes it', async () => {
    const stuck = await startChromium(dir, 'stuck');
    browsers.push(stuck);
    // The extension's worker, reached the way a developer would: over DevTools.
    const devtools = await chromium.connectOverCDP(stuck.endpoint);
    const [context] = devtools.contexts();
    const worker = context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
      (await context.waitForEvent('serviceworker', { predicate: (w) => w.url().startsWith('chrome-extension://') }));
    // Resolves once the lock is held (the worker then keeps it: its promise never settles).
    await worker.evaluate(() => new Promise((held) => {
      navigator.locks.request('hopbench.sessions', () => {
        held(undefined);
        return new Promise(() => undefined);
      });
    }));

    const out = join(dir, 'out');
    const started = Date.now();
    const run = await runRunner(['--tasks', tasks, '--out', out, '--browser-endpoint', stuck.endpoint,
      '--task-timeout', String(TIMEOUT_S), '--max-infra-errors', '2']);
    const took = Date.now() - started;
    await devtools.close();
    assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
    const lines = readLines(join(out, 'results.jsonl'));
    assert.deepEqual(lines.map((l) => [l.id, l.attempt, l.verdict, l.error_kind, l.end]), [
      ['wall/events-1', 1, 'ERROR', 'infrastructure', 'timeout'],
      ['wall/events-2', 1, 'ERROR', 'infrastructure', 'timeout'],
    ], 'two infrastructure errors in a row, then the batch stopped: the third task and the retries are left');
    for (const line of lines) {
      assert.equal(line.error, `START_RUN gave no answer in ${TIMEOUT_S} s (per-task timeout, --task-timeout)`);
      assert.ok(line.time_ms >= TIMEOUT_S * 1000 && line.time_ms < TIMEOUT_S * 1000 + 2_000, String(line.time_ms));
    }
    // Two walls and two connections to the browser, not a batch held for good.
    assert.ok(took < 60_000, `the runner took ${took} ms`);
    assert.match(run.stdout, /^task 1\/3 wall\/events-1 {2}ERROR \(infrastructure\) .*; retrying \(attempt 2 goes to the end of the queue\)$/m);
    // The second ends the streak's run: its retry is left to the resumed batch.
    assert.match(run.stdout, /^task 2\/3 wall\/events-2 {2}ERROR \(infrastructure\) .*--task-timeout\)$/m);
    assert.match(run.stderr, /^run: 2 infrastructure errors in a row \(--max-infra-errors 2\), the last: START_RUN gave no answer in 4 s/m);
    const resume = /^run: to go on where it stopped, run: (\S*build\.sh) run (.*)$/m.exec(run.stderr);
    assert.ok(resume, run.stderr);
    assert.equal(join(process.cwd(), resume[1]), join(repoRoot, 'build.sh'));
    // The summary is written for what was recorded.
    assert.match(run.stdout, /^2 tasks: 0 PASS, 0 FAIL, 2 ERROR$/m);

    // The same command on a browser that answers (the stuck one is gone) goes on: the
    // two errors as their second attempt, the task never run as its first.
    await stopChromium(stuck);
    const fresh = await startChromium(dir, 'fresh');
    browsers.push(fresh);
    const args = resume[2].split(' ');
    assert.ok(args.every((a) => !a.startsWith("'")), `no argument here needs quoting: ${resume[2]}`);
    assert.deepEqual(args.slice(-2), ['--out', out]);
    args[args.indexOf(stuck.endpoint)] = fresh.endpoint;
    const resumed = await runRunner(args);
    assert.equal(resumed.status, 0, `${resumed.stdout}\n${resumed.stderr}`);
    assert.match(resumed.stdout, /3 tasks in .*; 0 already recorded in .*; 2 errors to retry; running 3/);
    const after = readLines(join(out, 'results.jsonl')).slice(2);
    assert.deepEqual(after.map((l) => [l.id, l.attempt, l.verdict]).sort(), [
      ['wall/events-1', 2, 'PASS'],
      ['wall/events-2', 2, 'PASS'],
      ['wall/events-3', 1, 'PASS'],
    ]);
  });
});
