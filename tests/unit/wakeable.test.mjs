// The sleep the settle waits use (worker/act/wakeable.js): a signal ends it at once.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wakeable } from '../../extension/worker/act/wakeable.js';

test('wake() ends a sleep before its time; a later sleep is not cut short by it', async () => {
  const waiting = wakeable();
  let woke = false;
  const long = waiting.sleep(60_000).then(() => (woke = true));
  setTimeout(() => waiting.wake(), 5);
  await long;
  assert.equal(woke, true);
  waiting.wake(); // no sleep running: nothing to end, and nothing remembered
  let ended = false;
  const next = waiting.sleep(30).then(() => (ended = true));
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(ended, false, 'an earlier wake() ended a sleep that started after it');
  await next;
  assert.equal(ended, true);
});
