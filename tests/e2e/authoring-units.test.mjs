// Unit tests (no browser) of where "Save as task" puts a person's recording
// (extension/authoring.js): the reference of a task without one, else one more
// alternative path, never the same path twice.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { savedMessage, withRecording } from '../../extension/authoring.js';

const base = { id: 'demo/t1', intent: 'Find it.', start_urls: ['http://x.test/'], hops: [] };
const mine = ["click {link 'Tokyo'}", 'stop [Tokyo]'];
const theirs = ["type {searchbox 'Search'} [Tokyo] [1]", 'stop [Tokyo]'];

test('a task without a reference gets the recording as its reference', () => {
  for (const task of [base, { ...base, reference_trajectory: [] }]) {
    const placed = withRecording(task, mine);
    assert.deepEqual(placed.task, { ...base, reference_trajectory: mine });
    assert.deepEqual([placed.placed, placed.index], ['reference', 0]);
    assert.equal(savedMessage('t1.json', placed, 2), 'Saved t1.json with 2 reference steps.');
  }
});

test("a task with a reference keeps it and gains the recording as an alternative path", () => {
  const task = { ...base, reference_trajectory: theirs, alternative_trajectories: [['go_back']] };
  const placed = withRecording(task, mine);
  assert.deepEqual(placed.task.reference_trajectory, theirs);
  assert.deepEqual(placed.task.alternative_trajectories, [['go_back'], mine]);
  assert.deepEqual([placed.placed, placed.index], ['alternative', 2]);
  assert.match(savedMessage('t1.json', placed, 2), /reference kept, your 2 steps added as alternative path 2/);
  // The input is left as it was (the page may save again).
  assert.deepEqual(task.alternative_trajectories, [['go_back']]);
});

test('the same path is not added twice', () => {
  const asReference = withRecording({ ...base, reference_trajectory: mine }, mine);
  assert.deepEqual([asReference.placed, asReference.index], ['already there', 0]);
  assert.equal(asReference.task.alternative_trajectories, undefined);
  const asAlternative = withRecording({ ...base, reference_trajectory: theirs, alternative_trajectories: [mine] }, mine);
  assert.deepEqual([asAlternative.placed, asAlternative.index], ['already there', 1]);
  assert.deepEqual(asAlternative.task.alternative_trajectories, [mine]);
  assert.match(savedMessage('t1.json', asAlternative, 2), /already the task's alternative path 1/);
});
