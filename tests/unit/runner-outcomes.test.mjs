// A model run is the agent's FAIL only when the agent acted (runner/attempts.mjs
// neverActed; docs/runner.md "What counts as infrastructure"): a task whose model calls
// all failed is an infrastructure ERROR whatever --max-steps was and whatever their
// kind; one whose model answered but nothing it chose was carried out is a `run` ERROR.
// Through runTask, on a lane without a browser (fake-lane.mjs).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { neverActed } from '../../runner/attempts.mjs';
import { runTask } from '../../runner/task-run.mjs';
import { fakeLane } from './fake-lane.mjs';

/** @param {string} kind @param {number} step */
const failedCall = (kind, step) => ({
  step, action: null, result: null, reply: null, observation: { url: 'http://127.0.0.1:8601/' },
  model_error: { error: { kind, message: `HTTP 503 (${kind}) at step ${step}` } },
});
/** @param {string} action @param {number} step @param {string | null} [error] */
const acted = (action, step, error = null) => ({
  step, action: { text: action }, result: { effect: null, error }, reply: { text: '...' }, model_error: null,
  observation: { url: 'http://127.0.0.1:8601/' },
});
/** A model run the step limit ended, without a hop: FAIL by its verdict. */
const stepLimit = (/** @type {number} */ steps) => ({
  status: 'finished', step: steps, cause: 'early_stop', rule: 'max_steps',
  reason: `Early stop: reached the step limit (${steps} of ${steps} steps)`,
  progress: { done: 0, total: 1, hops: [{ state: 'current' }] },
  verdict: { passed: false, hops_done: 0, hops_total: 1, hop_steps: [], answer: null, reason: 'stopped at hop 1 of 1' },
});

describe('a model run is the agent\'s FAIL only when it acted', () => {
  /** @type {string} */ let dir;
  /** @type {import('../../runner/tasks.mjs').TaskEntry} */ let task;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hopbench-outcomes-'));
    writeFileSync(join(dir, 't.json'), '{}');
    task = { file: join(dir, 't.json'), fileName: 'suite/t.json', id: 'suite/t', hops: 1, startUrls: [], referenceSteps: 1, siteHosts: [] };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * One attempt whose run ended as `run`, with `steps` in its export.
   * @param {object} run @param {object[]} steps @param {string} [provider]
   */
  const attempt = async (run, steps, provider = 'openai') => {
    const { lane } = fakeLane({
      startRun: async () => ({ runId: 'r1' }),
      getRun: async () => run,
      exportRun: async () => ({ run, steps }),
    });
    return (await runTask(lane, task, { overrides: { provider }, timeoutMs: 5_000, attempt: 1, onProgress: () => undefined })).line;
  };

  test('--max-steps 2 with every model call failing: an infrastructure ERROR, not FAIL', async () => {
    const line = await attempt(stepLimit(2), [failedCall('server', 1), failedCall('timeout', 2)]);
    assert.deepEqual([line.verdict, line.error_kind, line.end], ['ERROR', 'infrastructure', 'early_stop']);
    assert.equal(line.error, 'no model call succeeded: the model call of each of the 2 steps failed (server, timeout), so the agent never acted: HTTP 503 (timeout) at step 2');
  });

  test('whatever the kind: calls refused as bad requests on every step are no result of the agent\'s', async () => {
    const run = { ...stepLimit(3), rule: 'parse_failures', reason: 'Early stop: the last 3 steps gave no action' };
    const line = await attempt(run, [1, 2, 3].map((n) => failedCall('bad_request', n)));
    assert.deepEqual([line.verdict, line.error_kind], ['ERROR', 'infrastructure']);
  });

  test('an agent that acted once fails as the agent; one whose actions all failed, or that never chose one, did not act', async () => {
    const once = await attempt(stepLimit(3), [acted('click [3]', 1), failedCall('server', 2), failedCall('server', 3)]);
    assert.deepEqual([once.verdict, once.error_kind, once.error], ['FAIL', null, null]);
    const missed = await attempt(stepLimit(2), [acted('click [99]', 1, 'no element [99]'), acted('click [98]', 2, 'no element [98]')]);
    assert.deepEqual([missed.verdict, missed.error_kind], ['ERROR', 'run']);
    assert.equal(missed.error, 'the agent never acted: none of its 2 steps gave an action that was carried out, and it gave no answer (the 2 actions it chose failed, the last: no element [98])');
    const noAction = { step: 1, action: null, result: null, reply: { text: 'I think...' }, model_error: null, note: 'malformed reply' };
    const mute = neverActed(stepLimit(1), { steps: [noAction] });
    assert.deepEqual(mute, { kind: 'run', error: 'the agent never acted: none of its 1 step gave an action that was carried out, and it gave no answer (its replies had no usable action)' });
  });

  test('an answer is acting; replay, a PASS and a run without an export are judged as they end', async () => {
    const answered = { ...stepLimit(1), cause: 'answered', verdict: { ...stepLimit(1).verdict, answer: { text: 'Tokyo' } } };
    assert.equal(neverActed(answered, { steps: [failedCall('server', 1)] }), null);
    assert.equal(neverActed({ ...stepLimit(1), verdict: { ...stepLimit(1).verdict, passed: true } }, { steps: [failedCall('server', 1)] }), null);
    assert.equal(neverActed(stepLimit(1), null), null);
    assert.equal(neverActed({ ...stepLimit(1), status: 'error' }, { steps: [failedCall('server', 1)] }), null);
    const replay = await attempt({ ...stepLimit(1), cause: 'replay_failed' }, [{ step: 1, action: null, result: null, model_error: null }], 'replay');
    assert.equal(replay.verdict, 'FAIL');
  });
});
