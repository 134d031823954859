// Unit tests (no browser) of where "Save as task" puts a person's recording
// (extension/authoring.js): the reference of a task without one, else one more
// alternative path, never the same path twice.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { savedMessage, slugOf, withRecording } from '../../extension/authoring.js';

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

test('a new task by doing: the draft, the proposed condition and the saved task', async () => {
  const { authoredTask, draftTask, hopOf, isDraft, proposeHop } = await import('../../extension/authoring.js');
  const draft = draftTask({ intent: '  Find the jazz night  ', startUrl: 'http://127.0.0.1:9/' });
  assert.equal(draft.id, 'authored/find-the-jazz-night');
  // A draft is a task file; isDraft reads only its hops.
  assert.equal(isDraft(/** @type {Parameters<typeof isDraft>[0]} */ (draft)), true);
  assert.equal(isDraft({ hops: [{ condition: { value: 'x' } }] }), false);
  assert.throws(() => draftTask({ intent: '', startUrl: 'http://x/' }), /write the task/);
  assert.throws(() => draftTask({ intent: 'x', startUrl: 'ftp://x/' }), /must be http\(s\)/);
  assert.throws(() => draftTask({ intent: 'x', startUrl: 'not a url' }), /full http\(s\) URL/);
  // Query values and the parts of a #/route are the words that tell pages apart.
  // The page's title proposes what the hop is.
  assert.deepEqual(proposeHop('http://127.0.0.1:9/events?city=Paris&cat=music#/event/42', ' Jazz Night - City Events '), {
    site: 'http://127.0.0.1:9/', path: '/events', words: ['Paris', 'music', 'event', '42'], description: 'Reach the page "Jazz Night - City Events"',
  });
  assert.deepEqual(proposeHop('https://wiki.test/'), { site: 'https://wiki.test/', path: '', words: [], description: '' });
  // Without a description the hop is told by its URL; with one, in those words.
  assert.deepEqual(hopOf({ site: 'https://wiki.test/', path: '', words: [] }, 1), {
    description: 'Hop 1: https://wiki.test/',
    condition: { kind: 'url', part: 'url', op: 'prefix', value: 'https://wiki.test/' },
  });
  assert.equal(hopOf({ site: 'https://wiki.test/', path: '', words: ['x'], description: ' Open the wiki ' }, 2).description, 'Hop 2: Open the wiki');
  assert.equal(hopOf({ site: 'https://wiki.test/', path: '', words: ['x'], description: '  ' }, 2).description, 'Hop 2: https://wiki.test/ with "x"');
  assert.deepEqual(hopOf({ site: 'http://a.test/', path: '/wiki/Tokyo', words: [' tower '] }, 2).condition, {
    kind: 'all',
    of: [
      { kind: 'url', part: 'url', op: 'prefix', value: 'http://a.test/' },
      { kind: 'url', part: 'path', op: 'equals', value: '/wiki/Tokyo' },
      { kind: 'url', part: 'url', op: 'contains', value: 'tower' },
    ],
  });
  assert.throws(() => hopOf({ site: 'a.test', path: '', words: [] }, 1), /site must look like http:\/\/host\//);
  assert.throws(() => hopOf({ site: 'http://a.test/', path: 'wiki', words: [] }, 1), /path must start with \//);
  const marked = [{ site: 'http://a.test/', path: '/x', words: [] }];
  assert.throws(() => authoredTask(draft, [], 'A', []), /mark at least one page/);
  const task = authoredTask(draft, marked, ' Tokyo ', ['click {link \'x\'}', 'stop [Tokyo]']);
  assert.deepEqual(Object.keys(task), ['id', 'intent', 'start_urls', 'hops', 'reference_trajectory', 'final_answer']);
  assert.deepEqual(task.final_answer, { condition: { must_include: ['Tokyo'] }, required: true });
  // N/A or no answer: no final check (the task is about reaching the pages).
  assert.equal('final_answer' in authoredTask(draft, marked, 'N/A', []), false);
  assert.equal('final_answer' in authoredTask(draft, marked, null, []), false);
});

test("a study's order: as listed, or a shuffle fixed by the seed", async () => {
  const { seedOf, studyOrder } = await import('../../extension/study-order.js');
  const tasks = ['a', 'b', 'c', 'd', 'e', 'f'];
  assert.deepEqual(studyOrder(tasks, 'fixed', 1), tasks);
  const seed = seedOf('study-2026-11-25-P07:P07');
  assert.equal(seed, seedOf('study-2026-11-25-P07:P07'));
  assert.notEqual(seed, seedOf('study-2026-11-25-P08:P08'));
  const once = studyOrder(tasks, 'shuffled', seed);
  assert.deepEqual(studyOrder(tasks, 'shuffled', seed), once, 'the same seed gives the same order');
  assert.deepEqual([...once].sort(), tasks, 'every task once');
  // Over many seeds every task is first at some point: the shuffle is not stuck.
  const firsts = new Set(Array.from({ length: 200 }, (_, i) => studyOrder(tasks, 'shuffled', seedOf(`s${i}`))[0]));
  assert.equal(firsts.size, tasks.length);
  assert.deepEqual(tasks, ['a', 'b', 'c', 'd', 'e', 'f'], 'the input is left as it was');
});

test("an authored task's id ends at a whole word of its intent, never mid-word", () => {
  const intent = 'Show the music events in Paris, open Jazz Night, then find Taiko Drums and say its city.';
  assert.equal(slugOf(intent), 'show-the-music-events-in-paris-open-jazz-night');
  assert.ok(slugOf(intent).length <= 48);
  assert.equal(slugOf('Short one'), 'short-one');
  assert.equal(slugOf('x'.repeat(60)), 'x'.repeat(48), 'one word longer than the limit is cut: the id needs a name');
  assert.equal(slugOf('!!!'), 'task');
});
