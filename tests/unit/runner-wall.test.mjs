// The per-task wall (runner/task-run.mjs, runner/wall.mjs): an attempt whose extension
// never answers a message ends within --task-timeout plus the bounded grace, as an
// infrastructure ERROR that names the message, and says the lane needs a fresh
// browser. The lane here is a fake whose driver leaves chosen messages unanswered
// for good, as an extension holding its session lock forever does.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runTask } from '../../runner/task-run.mjs';
import { NoAnswer, answerBy } from '../../runner/wall.mjs';
import { fakeLane, never } from './fake-lane.mjs';

const finished = {
  status: 'finished', step: 2, cause: 'all_hops_done', progress: { done: 1, total: 1, hops: [{ state: 'done', step: 2 }] },
  verdict: { passed: true, hops_done: 1, hops_total: 1, hop_steps: [2], answer: null, reason: 'all hops completed' },
};
const running = { status: 'running', step: 1, progress: { done: 0, total: 1, hops: [{ state: 'current' }] } };

describe('the per-task wall', { timeout: 30_000 }, () => {
  /** @type {string} */ let dir;
  /** @type {import('../../runner/tasks.mjs').TaskEntry} */ let task;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hopbench-wall-'));
    const file = join(dir, 't.json');
    writeFileSync(file, '{}');
    task = { file, fileName: 'suite/t.json', id: 'suite/t', hops: 1, startUrls: [], referenceSteps: 1, siteHosts: [] };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * @param {ReturnType<typeof fakeLane>['lane']} lane
   * @param {number} timeoutMs
   * @param {number} graceMs
   */
  const attempt = async (lane, timeoutMs, graceMs) => {
    const started = Date.now();
    const done = await runTask(lane, task, { overrides: { provider: 'replay' }, timeoutMs, graceMs, attempt: 1, onProgress: () => undefined });
    return { done, took: Date.now() - started };
  };

  test('a START_RUN that never answers ends the attempt at the timeout, naming it', async () => {
    const { lane, sent } = fakeLane({});
    const { done, took } = await attempt(lane, 1_000, 1_000);
    assert.ok(took >= 1_000 && took < 1_500, `took ${took} ms`);
    assert.equal(done.line.verdict, 'ERROR');
    assert.equal(done.line.error, 'START_RUN gave no answer in 1 s (per-task timeout, --task-timeout)');
    assert.equal(done.line.error_kind, 'infrastructure');
    assert.equal(done.line.end, 'timeout');
    assert.equal(done.hung, 'START_RUN gave no answer in 1 s', 'the lane is told to take a fresh browser');
    assert.deepEqual(sent, ['startRun'], 'no run id: nothing to stop or export');
  });

  test('GET_RUN, STOP_RUN and EXPORT_RUN that never answer: the hops last seen are kept, within the grace', async () => {
    let polls = 0;
    const { lane, sent } = fakeLane({
      startRun: async () => ({ runId: 'r1', sessionId: 's1' }),
      // Answers twice, then never again.
      getRun: () => (++polls <= 2 ? Promise.resolve(running) : never()),
    });
    const { done, took } = await attempt(lane, 2_000, 1_000);
    assert.ok(took >= 2_000 && took < 3_500, `took ${took} ms`);
    assert.match(/** @type {string} */ (done.line.error), /^timed out after 2 s \(per-task timeout, --task-timeout\): GET_RUN gave no answer in \d s$/);
    assert.deepEqual([done.line.error_kind, done.line.end, done.line.steps], ['infrastructure', 'timeout', 1]);
    assert.match(/** @type {string} */ (done.hung), /^GET_RUN gave no answer/);
    assert.match(/** @type {string} */ (done.exportError), /^EXPORT_RUN gave no answer in \d s$/);
    assert.deepEqual(sent.filter((n) => n !== 'getRun'), ['startRun', 'stopRun', 'exportRun']);
  });

  test('a run that ended keeps its verdict when only its export hangs; the lane is still refreshed', async () => {
    const { lane } = fakeLane({ startRun: async () => ({ runId: 'r1' }), getRun: async () => finished });
    const { done, took } = await attempt(lane, 1_000, 1_000);
    assert.ok(took < 2_500, `took ${took} ms`);
    assert.deepEqual([done.line.verdict, done.line.hops_completed], ['PASS', 1]);
    assert.equal(done.exportError, 'EXPORT_RUN gave no answer in 2 s');
    assert.equal(done.hung, 'EXPORT_RUN gave no answer in 2 s');
  });

  test('a prompt answer goes through untouched; a late one is dropped without an unhandled rejection', async () => {
    assert.equal(await answerBy(Promise.resolve(7), Date.now() + 1_000, 'X'), 7);
    /** @type {(e: Error) => void} */
    let rejectLate = () => undefined;
    const late = new Promise((_, reject) => {
      rejectLate = reject;
    });
    await assert.rejects(answerBy(late, Date.now() + 50, 'GET_RUN'), (e) => e instanceof NoAnswer && e.what === 'GET_RUN');
    // node:test fails the file on an unhandled rejection.
    rejectLate(new Error('the page closed'));
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
});
