// The runner's per-task timeout: a task whose page never finishes loading is stopped
// after --task-timeout, recorded as an infrastructure ERROR with the hops it had done,
// the next task runs, and the timed-out task is run again at the end of the queue (the
// page answers this time). Also --parallel 2 and --shard on the same small suite.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readLines, runRunner } from './runner-process.mjs';
import { startSites } from './sites.mjs';

describe('per-task timeout, parallel runs and shards', { timeout: 240_000 }, () => {
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {ReturnType<import('../types.mjs').Sites['hold']>} */ let held;
  /** @type {string} */ let dir;
  /** @type {string} */ let tasks;

  before(async () => {
    sites = await startSites({ names: ['wiki', 'events'] });
    dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-timeout-'));
    tasks = join(dir, 'tasks');
    mkdirSync(tasks);
    /** @param {string} name @param {object} body */
    const write = (name, body) => writeFileSync(join(tasks, `${name}.json`), JSON.stringify(body));
    // Hop 1 is done on the start page's link; the events page it then opens never
    // answers (held below), so the run cannot end by itself.
    write('a-hangs', {
      id: 'timeout/hangs',
      intent: 'Open the tower, then the events page that never loads.',
      start_urls: [sites.url('wiki', '/index.html')],
      hops: [
        { condition: { kind: 'url', part: 'path', op: 'contains', value: 'Tokyo_Tower' } },
        { condition: { kind: 'url', op: 'contains', value: 'search.html' } },
      ],
      reference_trajectory: ["click {link 'Tokyo Tower'}", `goto [${sites.url('events', '/search.html?city=tokyo')}]`, 'stop [done]'],
    });
    for (const n of [1, 2, 3]) {
      write(`b-events-${n}`, {
        id: `timeout/events-${n}`,
        intent: 'Find the events in Tokyo.',
        start_urls: [sites.url('events', '/index.html')],
        hops: [{ condition: { kind: 'url', op: 'contains', value: 'city=tokyo' } }],
        reference_trajectory: ["click {link 'Events in Tokyo'}"],
      });
    }
  });

  after(async () => {
    held?.release();
    await sites?.close();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  test('a hung task is stopped at the timeout and recorded as ERROR; the others run; it is retried last', async () => {
    held = sites.hold('events', '/search.html');
    const out = join(dir, 'out-timeout');
    const run = await runRunner(['--tasks', tasks, '--out', out, '--task-timeout', '8', '--shard', '1/2']);
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    // Shard 1/2 of four tasks: the 1st and the 3rd, then the 1st's second attempt.
    const lines = readLines(join(out, 'results.jsonl'));
    assert.deepEqual(lines.map((l) => [l.id, l.attempt]), [['timeout/hangs', 1], ['timeout/events-2', 1], ['timeout/hangs', 2]]);
    const [hung, next, retried] = lines;
    assert.equal(hung.verdict, 'ERROR');
    assert.match(hung.error, /^timed out after 8 s/);
    assert.equal(hung.error_kind, 'infrastructure');
    assert.equal(hung.hops_completed, 1);
    assert.ok(hung.time_ms >= 8_000, String(hung.time_ms));
    assert.match(run.stdout, /4 tasks in .* \(shard 1\/2: 2\)/);
    assert.match(run.stdout, /^task 1\/2 timeout\/hangs {2}ERROR \(infrastructure\) .*; retrying \(attempt 2 goes to the end of the queue\)$/m);
    held.release();
    // The events page is served again for the next task, and for the retry.
    assert.equal(next.verdict, 'PASS', JSON.stringify(next));
    assert.deepEqual([retried.verdict, retried.hops_completed], ['PASS', 2], JSON.stringify(retried));
  });

  test('--parallel 2 runs the tasks two at a time with the same verdicts', async () => {
    const out = join(dir, 'out-parallel');
    const run = await runRunner(['--tasks', tasks, '--out', out, '--parallel', '2', '--shard', '2/2']);
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /running 2 with replay, 2 at a time/);
    const lines = readLines(join(out, 'results.jsonl'));
    assert.deepEqual(lines.map((l) => [l.id, l.verdict]).sort(), [['timeout/events-1', 'PASS'], ['timeout/events-3', 'PASS']]);
    // Both started before either finished.
    const order = run.stdout.split('\n').filter((l) => /^task \d\/2 \S+ {2}(started|PASS)/.test(l)).map((l) => l.split('  ')[1].split(' ')[0]);
    assert.deepEqual(order.slice(0, 2), ['started', 'started'], run.stdout);
  });
});
