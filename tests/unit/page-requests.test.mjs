// Which requests the settle wait counts as the page's work (worker/page/requests.js),
// with the fields Chrome's Network.requestWillBeSent gives for each kind.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPageWork, trackRequest } from '../../extension/worker/page/requests.js';

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

test('requests in flight: started and ended per session, the favicon and unknown ends change nothing', () => {
  /** @type {Set<string>} */
  const inflight = new Set();
  const main = { tabId: 1 };
  const frame = { tabId: 1, sessionId: 'frame' };
  const fetch = { requestId: '7', type: 'Fetch', initiator: { type: 'script' } };
  assert.equal(trackRequest(inflight, main, 'Network.requestWillBeSent', fetch), 'started');
  assert.equal(trackRequest(inflight, frame, 'Network.requestWillBeSent', fetch), 'started', 'the same id in an iframe session is another request');
  assert.equal(inflight.size, 2);
  assert.equal(trackRequest(inflight, main, 'Network.loadingFinished', { requestId: '7' }), 'ended');
  assert.equal(trackRequest(inflight, main, 'Network.loadingFinished', { requestId: '7' }), null, 'already ended');
  assert.equal(trackRequest(inflight, frame, 'Network.loadingFailed', { requestId: '7' }), 'ended');
  assert.equal(trackRequest(inflight, main, 'Network.requestWillBeSent', { requestId: '8', type: 'Other', initiator: { type: 'other' } }), null);
  assert.equal(trackRequest(inflight, main, 'Network.loadingFinished', { requestId: '8' }), null, 'the favicon was never counted');
  assert.equal(trackRequest(inflight, main, 'Network.responseReceived', { requestId: '9' }), null);
  assert.equal(inflight.size, 0);
});
