// Which requests the settle wait counts as the page's work (worker/page-requests.js),
// with the fields Chrome's Network.requestWillBeSent gives for each kind.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPageWork } from '../../extension/worker/page-requests.js';

test('requests the page makes count; the favicon and never-ending connections do not', () => {
  const request = (/** @type {string} */ type, /** @type {string} */ initiator) => ({ type, initiator: { type: initiator } });
  assert.equal(isPageWork(request('Document', 'other')), true, 'a navigation the browser starts');
  assert.equal(isPageWork(request('Image', 'parser')), true);
  assert.equal(isPageWork(request('Fetch', 'script')), true);
  assert.equal(isPageWork(request('XHR', 'script')), true);
  assert.equal(isPageWork(request('Other', 'script')), true, 'a script-started request of another kind');
  assert.equal(isPageWork(request('Other', 'other')), false, 'the favicon, fetched by the browser after load');
  for (const never of ['WebSocket', 'EventSource', 'Ping']) assert.equal(isPageWork(request(never, 'script')), false, never);
  assert.equal(isPageWork(undefined), true, 'no details: waited for, as before');
});
