// Unit tests of the runner's pure parts (no browser): file stems, options, shards,
// result lines, media extraction.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { taskFileStem } from '../../runner/paths.mjs';

// The same examples are in src/report/stem.rs: the report finds the runner's files.
test('task file stems match the report', () => {
  assert.equal(taskFileStem('mmina/normal/3'), 'mmina~2Fnormal~2F3');
  assert.equal(taskFileStem('demo/tower-events'), 'demo~2Ftower-events');
  assert.equal(taskFileStem('a b.c~é'), 'a~20b~2Ec~7E~C3~A9');
  assert.equal(taskFileStem('../x'), '~2E~2E~2Fx');
  const stem = taskFileStem('x'.repeat(300));
  assert.equal(stem.length, 160 + 17);
  assert.equal(stem, `${'x'.repeat(160)}~e78ddf9f1ba85555`);
});
