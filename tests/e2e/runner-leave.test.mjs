// The runner on pages that ask "leave this page?": a task that ends on a form with
// unsaved text, and one whose agent goes elsewhere from such a form. Before, the end of
// the first waited for good on closing its tab (the extension held the sessions lock),
// so the next task printed `started` and never went on, and --task-timeout never fired.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readLines, runRunnerWithin } from './runner-process.mjs';
import { startSites } from './sites.mjs';

describe('the runner on pages that ask "leave this page?"', { timeout: 240_000 }, () => {
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {string} */ let dir;

  before(async () => {
    sites = await startSites({ names: ['dialogs'] });
    dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-leave-'));
    mkdirSync(join(dir, 'tasks'));
    const url = (/** @type {string} */ path) => sites.url('dialogs', path);
    const task = (/** @type {string} */ file, /** @type {object} */ body) => writeFileSync(join(dir, 'tasks', file), JSON.stringify(body));
    task('1-dirty.json', {
      id: 'leave/dirty',
      intent: 'Write "milk" as a note and say what you wrote, without saving.',
      start_urls: [url('/draft.html')],
      hops: [{ condition: { kind: 'answer', must_include: ['milk'] } }],
      reference_trajectory: ["type {textbox 'Your note'} [milk] [0]", 'stop [milk]'],
    });
    task('2-away.json', {
      id: 'leave/away',
      intent: 'Write "milk" as a note, then go to the hello page as away.',
      start_urls: [url('/draft.html')],
      hops: [{ condition: { kind: 'url', part: 'param', param: 'name', op: 'equals', value: 'away' } }],
      reference_trajectory: ["type {textbox 'Your note'} [milk] [0]", `goto [${url('/hello.html?name=away')}]`],
    });
    task('3-next.json', {
      id: 'leave/next',
      intent: 'Say hello as next.',
      start_urls: [url('/index.html')],
      hops: [{ condition: { kind: 'url', part: 'param', param: 'name', op: 'equals', value: 'next' } }],
      reference_trajectory: [`goto [${url('/hello.html?name=next')}]`],
    });
  });

  after(async () => {
    await sites?.close();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  test('every task passes in one browser, each well inside its timeout', async () => {
    const out = join(dir, 'out');
    const result = await runRunnerWithin(['--tasks', join(dir, 'tasks'), '--out', out, '--task-timeout', '60'], 150_000);
    assert.equal(result.timedOut, false, `the runner hung:\n${result.stdout}\n${result.stderr}`);
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    const lines = readLines(join(out, 'results.jsonl'));
    assert.deepEqual(lines.map((l) => [l.id, l.verdict]), [['leave/dirty', 'PASS'], ['leave/away', 'PASS'], ['leave/next', 'PASS']]);
    assert.deepEqual(lines.find((l) => l.id === 'leave/away')?.hop_steps, [2]);
    for (const line of lines) assert.ok(line.time_ms < 30_000, `${line.id} took ${line.time_ms} ms`);
  });
});
