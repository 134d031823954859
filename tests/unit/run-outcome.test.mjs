// How each ending is told (extension/run-outcome.js), in node: the kinds a person sees
// in the panel, the Runs list and the popup, and the line the popup and panel show.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { outcomeLabel, outcomeOf } from '../../extension/run-outcome.js';
import { runStatusText } from '../../extension/run-status.js';

/** @param {Record<string, unknown>} fields */
const run = (fields) => /** @type {import('../../extension/types.js').RunView} */ (/** @type {unknown} */ ({
  status: 'finished', verdict: null, error: null, reason: null, cause: null, step: 3, maxSteps: 30,
  progress: { done: 0, total: 2, hops: [] }, provider: 'replay', paused: null, human: null, call: null, ...fields,
}));

const failed = { passed: false, hops_done: 1, hops_total: 2, hop_steps: [2], answer: null, reason: 'stopped at hop 2 of 2: the Tokyo Tower page' };

describe('outcomes told apart', () => {
  test('a passed task is PASS with its hops', () => {
    const passed = { passed: true, hops_done: 2, hops_total: 2, hop_steps: [1, 2], answer: null, reason: 'all hops completed' };
    assert.deepEqual(outcomeOf(run({ verdict: passed, cause: 'all_hops_done', reason: 'all hops done' })), { kind: 'pass', label: 'PASS', cause: '2 of 2 hops; all hops completed.' });
  });

  test('a failed task is FAIL, naming the hop and why the run ended there', () => {
    const early = run({ verdict: failed, cause: 'early_stop', reason: 'Early stop: the last 3 steps gave no action' });
    assert.deepEqual(outcomeOf(early), { kind: 'fail', label: 'FAIL', cause: 'Stopped at hop 2 of 2: the Tokyo Tower page; Early stop: the last 3 steps gave no action.' });
    // An answer is said by the answer line, not again in the cause.
    const answered = run({ verdict: failed, cause: 'answered', reason: 'answered: Paris' });
    assert.equal(outcomeOf(answered).cause, 'Stopped at hop 2 of 2: the Tokyo Tower page.');
  });

  test('an error is ERROR with its cause, even though the core also gave a failing verdict', () => {
    const error = 'start URL unreachable: http://127.0.0.1:9/ (net::ERR_CONNECTION_REFUSED)';
    const r = run({ status: 'error', verdict: { ...failed, hops_done: 0, hop_steps: [] }, error, reason: error, cause: 'interrupted', step: 0 });
    assert.deepEqual(outcomeOf(r), { kind: 'error', label: 'ERROR', cause: `Start URL unreachable: http://127.0.0.1:9/ (net::ERR_CONNECTION_REFUSED).` });
    assert.equal(runStatusText(r), `ERROR · 0 of 2 hops · 0 steps · Start URL unreachable: http://127.0.0.1:9/ (net::ERR_CONNECTION_REFUSED).`);
  });

  test('a stop is STOPPED with who or what stopped it', () => {
    const byPerson = run({ status: 'stopped', verdict: failed, cause: 'stopped', reason: 'stopped: stopped by the person' });
    assert.deepEqual(outcomeOf(byPerson), { kind: 'stopped', label: 'STOPPED', cause: 'Stopped by the person.' });
    const byWindow = run({ status: 'stopped', verdict: failed, cause: 'stopped', reason: "stopped: the run's window was closed" });
    assert.equal(outcomeOf(byWindow).cause, "The run's window was closed.");
    assert.equal(outcomeLabel(byWindow), 'STOPPED');
  });

  test('an authoring session is told by whether its task was saved, never as FAIL', () => {
    const mark = { site: 'http://x.test/', path: '', words: [] };
    const ended = run({ status: 'finished', verdict: failed, provider: 'human', authoring: { marks: [mark, mark], saved: null } });
    assert.deepEqual(outcomeOf(ended), { kind: 'unsaved', label: 'NOT SAVED', cause: '2 hops marked; press Save task to keep the task file.' });
    assert.equal(runStatusText(ended), 'NOT SAVED · 2 hops marked · 3 steps');
    const saved = run({ ...ended, authoring: { marks: [mark, mark], saved: { fileName: 'authored_x.json', hops: 2, referenceSteps: 4, at: 1 } } });
    assert.deepEqual(outcomeOf(saved), { kind: 'saved', label: 'SAVED TASK', cause: 'Saved as authored_x.json: 2 hops, 4 reference steps.' });
    const none = run({ ...ended, authoring: { marks: [], saved: null } });
    assert.equal(outcomeOf(none).cause, 'No hop was marked, so there is no task to save.');
  });

  test('a running run has no outcome yet; its line counts the wait for the model', () => {
    const now = 1_000_000;
    const waiting = run({ status: 'running', step: 1, call: { step: 2, try: 1, of: 4, since: now - 12_400, trySince: now - 12_400 } });
    assert.equal(outcomeLabel(waiting), 'running');
    assert.equal(runStatusText(waiting, { now }), 'Step 2 of at most 30 · 0 of 2 hops · waiting for the model, 12 s');
    const retried = run({ status: 'running', step: 1, call: { step: 2, try: 2, of: 4, since: now - 40_000, trySince: now - 3_000 } });
    assert.equal(runStatusText(retried, { now }), 'Step 2 of at most 30 · 0 of 2 hops · waiting for the model: try 2 of 4, 3 s (40 s in all)');
  });
});
