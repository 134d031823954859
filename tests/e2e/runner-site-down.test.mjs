// A task site that stops answering mid-batch (runner/site-watch.mjs): the runner runs
// a task on the wiki site (PASS), then the wiki server goes away while the next task's
// start page is being requested, so that task's start URL does not load. Its origin
// served the first task, and node's probe now finds nothing listening: an
// infrastructure ERROR, retried at the end (still down: infrastructure again). A task
// whose start URL never answered in the batch stays the task's own `run` error.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readLines, runRunner } from './runner-process.mjs';
import { portOfServer, startSites } from './sites.mjs';

describe('a site that goes down mid-batch', { timeout: 180_000 }, () => {
  /** @type {import('../types.mjs').Sites} */ let wiki;
  /** @type {string} */ let dir;

  before(async () => {
    wiki = await startSites({ names: ['wiki'] });
    dir = mkdtempSync(join(tmpdir(), 'hopbench-site-down-'));
  });

  after(async () => {
    await wiki?.close();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  test('an origin that served earlier and now refuses is infrastructure; one that never served is the task\'s', async () => {
    const tasks = join(dir, 'tasks');
    mkdirSync(tasks);
    // A port that was free a moment ago: nothing there, ever, in this batch.
    const probe = createServer();
    await /** @type {Promise<void>} */ (new Promise((resolve) => probe.listen(0, '127.0.0.1', () => resolve())));
    const deadUrl = `http://127.0.0.1:${portOfServer(probe)}/`;
    await new Promise((resolve) => probe.close(resolve));
    /** @param {string} name @param {object} body */
    const write = (name, body) => writeFileSync(join(tasks, `${name}.json`), JSON.stringify(body));
    write('a-tower', {
      id: 'down/tower',
      intent: 'Open the Tokyo Tower article.',
      start_urls: [wiki.url('wiki', '/index.html')],
      hops: [{ condition: { kind: 'url', part: 'path', op: 'contains', value: 'Tokyo_Tower' } }],
      reference_trajectory: ["click {link 'Tokyo Tower'}"],
    });
    write('b-portal', {
      id: 'down/portal',
      intent: 'Open the portal, on the same site.',
      start_urls: [wiki.url('wiki', '/portal.html')],
      hops: [{ condition: { kind: 'url', op: 'contains', value: 'never' } }],
      reference_trajectory: ['stop [done]'],
    });
    write('c-typo', {
      id: 'down/typo',
      intent: 'A start URL on a port where nothing ever listened.',
      start_urls: [deadUrl],
      hops: [{ condition: { kind: 'url', op: 'contains', value: 'never' } }],
      reference_trajectory: ['stop [nothing]'],
    });
    // The first task never loads the portal: its request is the second task's start
    // page, and the server goes, its connections with it, as that request comes in.
    const held = wiki.hold('wiki', '/portal.html');
    const gone = held.arrived.then(() => wiki.close());
    const out = join(dir, 'out');
    const run = await runRunner(['--tasks', tasks, '--out', out, '--task-timeout', '60']);
    await gone;
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    const lines = readLines(join(out, 'results.jsonl'));
    assert.deepEqual(
      lines.map((l) => [l.id, l.attempt, l.verdict, l.error_kind]),
      [
        ['down/tower', 1, 'PASS', null],
        ['down/portal', 1, 'ERROR', 'infrastructure'],
        ['down/typo', 1, 'ERROR', 'run'],
        ['down/portal', 2, 'ERROR', 'infrastructure'],
      ],
      JSON.stringify(lines, null, 1),
    );
    const origin = wiki.origin('wiki');
    for (const portal of [lines[1], lines[3]]) {
      assert.equal(portal.end, 'interrupted');
      assert.ok(
        portal.error.startsWith(`the site ${origin} stopped answering: it served down/tower earlier in this batch, and now refuses connections (ECONNREFUSED); the run reported: start URL unreachable: ${origin}/portal.html (net::ERR_`),
        portal.error,
      );
    }
    assert.equal(lines[2].error, `start URL unreachable: ${deadUrl} (net::ERR_CONNECTION_REFUSED)`);
    assert.match(run.stdout, /^task 2\/3 down\/portal {2}ERROR \(infrastructure\) .*; retrying \(attempt 2 goes to the end of the queue\)$/m);
  });
});
