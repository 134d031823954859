// The headless runner end to end (runner/run.mjs, as `./build.sh run` starts it): a
// small task folder over the local test sites, the replay agent, results.jsonl,
// trajectories with their screenshots, summary.json and report.html; an unreachable
// start URL and a task without a reference trajectory recorded as ERROR while the next
// task still runs; a re-run skipping what is recorded; a batch of nothing but ERRORs
// failing.

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { taskFileStem } from '../../runner/paths.mjs';
import { readLines, runRunner } from './runner-process.mjs';
import { portOfServer, startSites } from './sites.mjs';

/** http://127.0.0.1:<port>/ for a port nothing listens on (taken, then released). */
async function freePortUrl() {
  const server = createServer();
  await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve())));
  const port = portOfServer(server);
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/`;
}

describe('the headless runner', { timeout: 240_000 }, () => {
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {string} */ let dir;
  /** @type {string} */ let tasksDir;
  /** @type {string} */ let out;
  /** @type {import('../types.mjs').RunnerResult} */ let first;
  /** @type {Awaited<ReturnType<typeof freePortUrl>>} */ let deadUrl;

  /** @param {string} name @param {object} body */
  const task = (name, body) => writeFileSync(join(tasksDir, `${name}.json`), JSON.stringify(body, null, 1));

  before(async () => {
    sites = await startSites({ names: ['wiki', 'events'] });
    dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-e2e-'));
    tasksDir = join(dir, 'tasks');
    out = join(dir, 'out');
    mkdirSync(tasksDir);
    deadUrl = await freePortUrl();
    // Files run in name order: the unreachable task sits between two that pass.
    task('a-tower', {
      id: 'e2e-runner/tower',
      intent: 'Open the Tokyo Tower article, then the Tokyo events.',
      start_urls: [sites.url('wiki', '/index.html')],
      hops: [
        { description: 'Tokyo Tower article', condition: { kind: 'url', part: 'path', op: 'contains', value: 'Tokyo_Tower' } },
        { description: 'Events in Tokyo', condition: { kind: 'url', op: 'contains', value: 'search.html', tokens: ['tokyo'] } },
      ],
      reference_trajectory: [
        "click {link 'Tokyo Tower'}",
        `goto [${sites.url('events', '/index.html')}]`,
        "click {link 'Events in Tokyo'}",
      ],
    });
    task('b-unreachable', {
      id: 'e2e-runner/unreachable',
      intent: 'A site that is not there.',
      // A port that was free a moment ago: the browser's connection is refused at once.
      start_urls: [deadUrl],
      hops: [{ condition: { kind: 'url', op: 'contains', value: 'never' } }],
      reference_trajectory: ['stop [nothing]'],
    });
    task('c-events', {
      id: 'e2e-runner/events',
      intent: 'Find the events in Tokyo.',
      start_urls: [sites.url('events', '/index.html')],
      hops: [{ condition: { kind: 'url', op: 'contains', value: 'city=tokyo' } }],
      reference_trajectory: ["click {link 'Events in Tokyo'}"],
    });
    task('d-no-reference', {
      id: 'e2e-runner/no-reference',
      intent: 'No reference trajectory: replay cannot run it.',
      start_urls: [sites.url('events', '/index.html')],
      hops: [{ condition: { kind: 'url', op: 'contains', value: 'city=tokyo' } }],
    });
    first = await runRunner(['--tasks', tasksDir, '--out', out, '--observation', 'text+screenshot', '--task-timeout', '90']);
  });

  after(async () => {
    await sites?.close();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  test('the run finishes and prints its progress, the tables and the report path', () => {
    assert.equal(first.status, 0, `${first.stdout}\n${first.stderr}`);
    assert.match(first.stdout, /4 tasks in .*; 0 already recorded in .*; running 4 with replay, 1 at a time/);
    assert.match(first.stdout, /^task 1\/4 e2e-runner\/tower {2}started \(2 hops\)$/m);
    assert.match(first.stdout, /^task 1\/4 e2e-runner\/tower {2}hop 1\/2 {2}step \d+$/m);
    // The last line of a task says why it ended: here every hop was done.
    assert.match(first.stdout, /^task 1\/4 e2e-runner\/tower {2}PASS {2}hops 2\/2 {2}steps \d+ {2}[\d.]+ s {2}all hops done: all hops completed$/m);
    assert.ok(
      first.stdout.split('\n').some((l) => /^task 2\/4 e2e-runner\/unreachable {2}ERROR {2}hops 0\/1 {2}steps 0 {2}[\d.]+ s {2}interrupted: /.test(l) &&
        l.endsWith(`start URL unreachable: ${deadUrl} (net::ERR_CONNECTION_REFUSED)`)),
      first.stdout,
    );
    assert.match(first.stdout, /^task 3\/4 e2e-runner\/events {2}PASS/m);
    assert.match(first.stdout, /^4 tasks: 2 PASS, 0 FAIL, 2 ERROR$/m);
    assert.match(first.stdout, /^\| overall \| 4 \| 60\.00 \| 50\.00 \|$/m);
    assert.ok(first.stdout.includes(`report: ${join(out, 'report.html')}`));
  });

  test('results.jsonl: one line per task, PASS with hop steps, errors with their message', () => {
    const lines = readLines(join(out, 'results.jsonl'));
    assert.deepEqual(lines.map((l) => [l.id, l.verdict, l.hops_completed, l.hops_total]), [
      ['e2e-runner/tower', 'PASS', 2, 2],
      ['e2e-runner/unreachable', 'ERROR', 0, 1],
      ['e2e-runner/events', 'PASS', 1, 1],
      ['e2e-runner/no-reference', 'ERROR', 0, 1],
    ]);
    const [tower, unreachable, , noReference] = lines;
    assert.equal(tower.hop_steps.length, 2);
    assert.ok(tower.hop_steps.every(Number.isInteger), JSON.stringify(tower));
    assert.ok(tower.steps >= 3 && tower.time_ms > 0, JSON.stringify(tower));
    assert.deepEqual(tower.tokens, { input: 0, output: 0, cached_input: 0 });
    assert.equal(tower.error, null);
    assert.equal(unreachable.error, `start URL unreachable: ${deadUrl} (net::ERR_CONNECTION_REFUSED)`);
    assert.deepEqual(unreachable.hop_steps, [null]);
    assert.match(noReference.error, /reference_trajectory/);
  });

  test('trajectories: JSON with the media written out as image files beside it', () => {
    const stem = taskFileStem('e2e-runner/tower');
    const json = join(out, 'trajectories', `${stem}.json`);
    const trajectory = JSON.parse(readFileSync(json, 'utf8'));
    assert.ok(trajectory.steps.length >= 3, `${trajectory.steps.length} steps`);
    const text = readFileSync(json, 'utf8');
    assert.doesNotMatch(text, /data:image\//, 'media left inline');
    const files = [...new Set(text.match(new RegExp(`${stem}-\\d+\\.(png|jpg)`, 'g')) ?? [])];
    assert.ok(files.length >= 1, 'no screenshot files referenced');
    for (const file of files) {
      const bytes = readFileSync(join(out, 'trajectories', file));
      if (file.endsWith('.png')) assert.deepEqual([...bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], file);
    }
    assert.ok(existsSync(join(out, 'trajectories', `${stem}.html`)));
  });

  test('summary.json and report.html are written from the results', () => {
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    assert.deepEqual(summary.counts, { tasks: 4, pass: 2, fail: 0, error: 2 });
    // 1 hop: events PASS, unreachable and no-reference ERROR -> 1/3 hops, 1/3 tasks;
    // 2-4 hops: tower 2/2; overall hops 3/5, tasks 2/4.
    const rows = summary.buckets.map((/** @type {import('../types.mjs').Json} */ b) => [b.bucket, b.tasks, b.tasks_passed, b.hops_completed, b.hops_total]);
    assert.deepEqual(rows, [
      ['one_hop', 3, 1, 1, 3],
      ['two_to_four', 1, 1, 2, 2],
      ['five_plus', 0, 0, 0, 0],
      ['overall', 4, 2, 3, 5],
    ]);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    assert.ok(html.includes(`<a href="trajectories/${taskFileStem('e2e-runner/tower')}.html">e2e-runner/tower</a>`));
  });

  test('a re-run into the same folder skips every recorded task', async () => {
    const before = readFileSync(join(out, 'results.jsonl'), 'utf8');
    const again = await runRunner(['--tasks', tasksDir, '--out', out, '--observation', 'text+screenshot']);
    assert.equal(again.status, 0, `${again.stdout}\n${again.stderr}`);
    assert.match(again.stdout, /4 already recorded in .*; running 0 with replay/);
    assert.doesNotMatch(again.stdout, /^task /m);
    assert.equal(readFileSync(join(out, 'results.jsonl'), 'utf8'), before);
    assert.match(again.stdout, /^4 tasks: 2 PASS, 0 FAIL, 2 ERROR$/m);
  });

  test('a batch in which every task is an ERROR exits 1 and says so', async () => {
    const errorsOnly = join(dir, 'errors-only');
    mkdirSync(errorsOnly);
    for (const name of ['b-unreachable', 'd-no-reference']) {
      writeFileSync(join(errorsOnly, `${name}.json`), readFileSync(join(tasksDir, `${name}.json`)));
    }
    const run = await runRunner(['--tasks', errorsOnly, '--out', join(dir, 'out-errors-only')]);
    assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /^2 tasks: 0 PASS, 0 FAIL, 2 ERROR$/m, 'the report is written all the same');
    assert.match(run.stderr, /^run: every attempt of this batch ended in ERROR \(2 attempts, no PASS or FAIL\): no agent result was recorded/m);
  });

  test('another configuration into the same folder is refused', async () => {
    const other = await runRunner(['--tasks', tasksDir, '--out', out, '--observation', 'text']);
    assert.equal(other.status, 1);
    assert.match(other.stderr, /holds results run with observation="text\+screenshot", not observation="text"/);
  });
});
