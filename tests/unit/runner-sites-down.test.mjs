// A site that served earlier in the batch and now refuses connections is down, an
// infrastructure error, not the task's wrong URL (runner/site-watch.mjs; docs/runner.md
// "What counts as infrastructure"): node's probe against real sockets, the rule with a
// probe the test decides.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { probeOrigin, siteWatch } from '../../runner/site-watch.mjs';

describe('a site that stops answering mid-batch', () => {
  /** @type {import('node:http').Server} */ let server;
  /** @type {string} */ let origin;
  before(async () => {
    server = createServer((_req, res) => res.writeHead(404).end());
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
    const address = /** @type {import('node:net').AddressInfo} */ (server.address());
    origin = `http://127.0.0.1:${address.port}`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  /**
   * @param {string} id @param {string} start @param {object} line
   * @param {string[]} [visited] the URL of each step's observation
   */
  const attemptOf = (id, start, line, visited = []) => ({
    task: { id, startUrls: [start] },
    done: { line: { verdict: 'PASS', error: null, error_kind: null, end: 'all_hops_done', steps: visited.length, ...line }, trajectory: { steps: visited.map((url) => ({ observation: { url } })) } },
  });
  const unreachable = { verdict: 'ERROR', error: 'start URL unreachable: ...', error_kind: 'run', end: 'interrupted', steps: 0 };

  test('node\'s probe: any HTTP answer is an answer (a 404 too); a closed port is gone', async () => {
    assert.deepEqual(await probeOrigin(origin), { state: 'answered' });
    const closed = createServer();
    await new Promise((resolve) => closed.listen(0, '127.0.0.1', () => resolve(undefined)));
    const port = /** @type {import('node:net').AddressInfo} */ (closed.address()).port;
    await new Promise((resolve) => closed.close(resolve));
    assert.deepEqual(await probeOrigin(`http://127.0.0.1:${port}`), { state: 'gone', code: 'ECONNREFUSED' });
    assert.deepEqual(await probeOrigin(`http://wiki.localhost:${port}`), { state: 'gone', code: 'ECONNREFUSED' }, '*.localhost is loopback, as in Chromium');
  });

  test('an origin that served earlier and now refuses: infrastructure; one that never served: the task\'s run error', async () => {
    /** @type {string[]} */
    const probed = [];
    const watch = siteWatch({ probe: async (o) => (probed.push(o), { state: 'gone', code: 'ECONNREFUSED' }) });
    const first = attemptOf('suite/a', 'http://127.0.0.1:8601/index.html', {}, ['http://127.0.0.1:8601/index.html', 'http://127.0.0.1:8602/x']);
    await watch.check(first.task, first.done);
    assert.deepEqual(probed, [], 'a PASS is not probed');
    const wrong = attemptOf('suite/wrong', 'http://127.0.0.1:8699/', unreachable);
    await watch.check(wrong.task, wrong.done);
    assert.deepEqual([wrong.done.line.error_kind, probed], ['run', []], 'never served: not probed, the URL is the task\'s');
    const down = attemptOf('suite/b', 'http://127.0.0.1:8602/start', unreachable);
    await watch.check(down.task, down.done);
    assert.equal(down.done.line.error_kind, 'infrastructure');
    assert.equal(down.done.line.error, 'the site http://127.0.0.1:8602 stopped answering: it served suite/a earlier in this batch, and now refuses connections (ECONNREFUSED); the run reported: start URL unreachable: ...');
    // Mid-task: its own start page loaded (1 step), then the site went.
    const midway = attemptOf('suite/c', 'http://127.0.0.1:8603/', { ...unreachable, error: 'page unreachable: ...', steps: 1 }, ['http://127.0.0.1:8603/']);
    await watch.check(midway.task, midway.done);
    assert.match(String(midway.done.line.error), /^the site http:\/\/127\.0\.0\.1:8603 stopped answering: it served this task earlier/);
  });

  test('a site that still answers leaves the run error as it is; so does a probe that learns nothing', async () => {
    for (const state of /** @type {const} */ (['answered', 'unknown'])) {
      const watch = siteWatch({ probe: async () => ({ state }) });
      const first = attemptOf('suite/a', `${origin}/`, {}, [`${origin}/`]);
      await watch.check(first.task, first.done);
      const later = attemptOf('suite/b', `${origin}/other`, unreachable);
      await watch.check(later.task, later.done);
      assert.deepEqual([later.done.line.error_kind, later.done.line.error], ['run', 'start URL unreachable: ...'], state);
    }
  });
});
