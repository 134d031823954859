// Run messages and settings helpers, in node without a browser: the guards accept what
// the constructors build and refuse malformed input; the settings kept with a run
// never hold an API key.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deleteRun, exportRun, getRun, listRuns, runOverrideProblems, startRun, stopRun } from '../../extension/messages.js';

// Each message's guard is its declaration's `is`.
const [isStartRun, isStopRun, isGetRun, isListRuns, isExportRun, isDeleteRun] = [startRun, stopRun, getRun, listRuns, exportRun, deleteRun].map((m) => m.is);
import { withoutKeys } from '../../extension/worker/run/settings.js';

describe('run messages', () => {
  test('every constructor builds a message its guard accepts', () => {
    assert.ok(isStartRun(startRun({ taskText: '{}' })));
    assert.ok(isStartRun(startRun({ taskText: '{}', fileName: 'normal/3.json', overrides: { provider: 'replay', max_steps: 4, observation_mode: 'som', keep_window: true } })));
    assert.ok(isStopRun(stopRun({ runId: 'r' })));
    assert.ok(isGetRun(getRun({ runId: 'r' })));
    assert.ok(isGetRun(getRun({ runId: 'r', withSteps: true })));
    assert.ok(isListRuns(listRuns()));
    assert.ok(isExportRun(exportRun({ runId: 'r' })));
    assert.ok(isDeleteRun(deleteRun({ runId: 'r' })));
  });

  test('guards refuse missing ids and other types', () => {
    assert.equal(isStopRun(stopRun({ runId: '' })), false);
    assert.equal(isGetRun({ ...getRun({ runId: 'r' }), withSteps: 'yes' }), false);
    assert.equal(isDeleteRun({ ...exportRun({ runId: 'r' }) }), false);
    assert.equal(isStartRun({ ...startRun({ taskText: '{}' }), taskText: 3 }), false);
  });

  test('overrides: unknown keys and bad values are named', () => {
    assert.deepEqual(runOverrideProblems({}), []);
    assert.deepEqual(runOverrideProblems({ max_step: 3 }), [
      'unknown override max_step (known: provider, max_steps, observation_mode, observation_format, max_obs_tokens, keep_window, memory_k, memory_policy, memory_records, agent, grounding, select, sites)',
    ]);
    assert.deepEqual(runOverrideProblems({ memory_k: 2, memory_policy: 'similar', memory_records: [{ task_id: 'a' }], agent: 'modular' }), []);
    assert.deepEqual(runOverrideProblems({ memory_k: 11, memory_policy: 'random', memory_records: ['x'], agent: 'seeact' }), [
      'override memory_k has an invalid value 11',
      'override memory_policy has an invalid value "random"',
      'override memory_records has an invalid value ["x"]',
      'override agent has an invalid value "seeact"',
    ]);
    assert.deepEqual(runOverrideProblems({ grounding: 'visual', select: 'first_viable' }), []);
    assert.deepEqual(runOverrideProblems({ grounding: 'pixels', select: 'best' }), [
      'override grounding has an invalid value "pixels"',
      'override select has an invalid value "best"',
    ]);
    assert.deepEqual(runOverrideProblems({ observation_format: 'compact' }), []);
    assert.deepEqual(runOverrideProblems({ observation_format: 'tiny' }), ['override observation_format has an invalid value "tiny"']);
    assert.deepEqual(runOverrideProblems({ sites: 'task' }), []);
    assert.deepEqual(runOverrideProblems({ sites: 'all' }), ['override sites has an invalid value "all"']);
    assert.deepEqual(runOverrideProblems({ max_steps: 0, observation_mode: 'pixels' }), [
      'override max_steps has an invalid value 0',
      'override observation_mode has an invalid value "pixels"',
    ]);
    // A string where a boolean belongs: what the guard must refuse.
    const notABoolean = /** @type {boolean} */ (/** @type {unknown} */ ('no'));
    assert.equal(isStartRun(startRun({ taskText: '{}', overrides: { keep_window: notABoolean } })), false);
  });
});

describe('settings kept with a run', () => {
  test('hold no API key, for the model and the judge', () => {
    const stored = withoutKeys({
      model: { provider: 'openai', model: 'm', api_key: 'sk-secret' },
      judge: { provider: 'anthropic', model: 'j', api_key: 'sk-judge' },
      max_steps: 30,
    });
    assert.deepEqual(stored, {
      model: { provider: 'openai', model: 'm' },
      judge: { provider: 'anthropic', model: 'j' },
      max_steps: 30,
    });
    assert.doesNotMatch(JSON.stringify(stored), /sk-/);
    assert.deepEqual(withoutKeys({ model: null, judge: null }), { model: null, judge: null });
  });
});
