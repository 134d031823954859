// Pages the browser cannot load end a popup run as `error` with the browser's own
// network error (docs/agent-run.md "Pages that do not load"), not as the agent's
// failure: a start URL whose connection is refused ends the run before any step; a
// step whose navigation fails says so in its record, and the run ends after it.

import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { launchExtension } from '../../runner/driver.mjs';
import { runFromPopup, store, waitForRunEnd } from './run-helpers.mjs';
import { panelView } from './run-outcome.mjs';
import { portOfServer, startSites } from './sites.mjs';

/** http://127.0.0.1:<port>/ for a port nothing listens on (taken, then released). */
async function refusedUrl() {
  const server = createServer();
  await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve())));
  const port = portOfServer(server);
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/`;
}

describe('runs on pages the browser cannot load', { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').Page} */ let popup;

  before(async () => {
    sites = await startSites({ names: ['wiki'] });
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
  });

  test('a start URL that refuses the connection: error with the browser\'s text, no step', async () => {
    const dead = await refusedUrl();
    const taskText = JSON.stringify({
      id: 'e2e/refused-start',
      intent: 'Open the page.',
      start_urls: [dead],
      hops: [{ condition: { kind: 'url', op: 'contains', value: 'never' } }],
      // Replay would otherwise fail on the error page with "no element {link 'Cities'}".
      reference_trajectory: ["click {link 'Cities'}"],
    });
    const runId = await runFromPopup(popup, { taskText, fileName: 'refused-start.json', agent: 'replay' });
    const run = await waitForRunEnd(popup, runId);
    assert.equal(run.status, 'error', JSON.stringify(run));
    assert.equal(run.cause, 'interrupted');
    assert.equal(run.error, `start URL unreachable: ${dead} (net::ERR_CONNECTION_REFUSED)`);
    assert.equal(run.errorKind, null, 'the page, not the harness: a retry would meet it again');
    assert.equal(run.reason, run.error);
    assert.equal(run.step, 0);
    assert.deepEqual(await store(popup, 'getSteps', runId), [], 'no step began on the error page');
    assert.equal(run.verdict.passed, false);
  });

  test('a step whose navigation fails: its record says so and the run ends after it as error', async () => {
    const dead = 'http://no-such-host.invalid/';
    const taskText = JSON.stringify({
      id: 'e2e/unresolved-mid-run',
      intent: 'Read about the Tokyo Tower, then go on elsewhere.',
      start_urls: [sites.url('wiki', '/index.html')],
      // Named by the task, so inside the site fence of a run started from the popup.
      reference_sites: [{ label: 'Elsewhere', url: dead }],
      hops: [
        { condition: { kind: 'url', part: 'path', op: 'contains', value: 'Tokyo_Tower' } },
        { condition: { kind: 'url', op: 'contains', value: 'no-such-host' } },
      ],
      reference_trajectory: ["click {link 'Tokyo Tower'}", `goto [${dead}]`, 'stop [never reached]'],
    });
    const runId = await runFromPopup(popup, { taskText, fileName: 'unresolved-mid-run.json', agent: 'replay' });
    const run = await waitForRunEnd(popup, runId);
    assert.equal(run.status, 'error', JSON.stringify(run));
    assert.equal(run.cause, 'interrupted');
    assert.equal(run.error, `page unreachable: ${dead} (net::ERR_NAME_NOT_RESOLVED) after the action of step 2`);
    const steps = await store(popup, 'getSteps', runId);
    assert.deepEqual(steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2], 'step 3 never began');
    assert.equal(steps[0].result.error, null);
    assert.equal(steps[1].action.text, `goto [${dead}]`);
    assert.equal(steps[1].result.error, `the page could not load: ${dead} (net::ERR_NAME_NOT_RESOLVED)`);
    assert.deepEqual([run.verdict.hop_steps, run.verdict.hops_done, run.verdict.hops_total], [[1], 1, 2], 'the hop done before the failure counts');

    // What the person sees: the run's error and the step's, in the browser's words.
    const panel = await panelView(ext, runId);
    assert.match(/** @type {string} */ (panel.status), /^error: page unreachable: /);
    assert.equal(panel.error, run.error);
    assert.equal(panel.steps[1].error, steps[1].result.error);
  });

  test('any HTTP answer, even an error status without a body, or a slow one is not unreachable; a second start URL refused is', async () => {
    const answering = createHttpServer((req, res) => {
      if (req.url === '/slow') return; // Never answers: slow is not unreachable.
      if (req.url === '/empty-404') return res.writeHead(404).end(); // Chrome shows its own error page.
      if (req.url === '/500') return res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Server error</h1>');
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Fine</h1>');
    });
    await /** @type {Promise<void>} */ (new Promise((resolve) => answering.listen(0, '127.0.0.1', () => resolve())));
    const base = `http://127.0.0.1:${portOfServer(answering)}`;
    /**
     * @param {string} name
     * @param {string[]} startUrls
     */
    const run = async (name, startUrls) => {
      const taskText = JSON.stringify({
        id: `e2e/${name}`,
        intent: 'Open the page and stop.',
        start_urls: startUrls,
        hops: [{ condition: { kind: 'url', op: 'contains', value: 'never' } }],
        reference_trajectory: ['stop [done]'],
      });
      return waitForRunEnd(popup, await runFromPopup(popup, { taskText, fileName: `${name}.json`, agent: 'replay' }));
    };
    try {
      for (const path of ['/empty-404', '/500', '/slow']) {
        const r = await run(`answers${path.replace('/', '-')}`, [`${base}${path}`]);
        assert.equal(r.status, 'finished', `${path}: ${JSON.stringify(r)}`);
        assert.equal(r.cause, 'answered', path);
      }
      const dead = await refusedUrl();
      const two = await run('second-start-refused', [`${base}/`, dead]);
      assert.equal(two.status, 'error', JSON.stringify(two));
      assert.equal(two.error, `start URL unreachable: ${dead} (net::ERR_CONNECTION_REFUSED)`);
    } finally {
      answering.closeAllConnections();
      await new Promise((resolve) => answering.close(resolve));
    }
  });

  test('nothing logged an error', () => {
    // The 404 and 500 pages this test serves on purpose make Chrome log their failed
    // loads in those pages' consoles (when Playwright attached in time); any other
    // error, the extension's above all, fails the test.
    /** @param {import('../../runner/driver.mjs').ConsoleEntry} e */
    const served = (e) =>
      e.source === 'page' &&
      /^Failed to load resource: the server responded with a status of (404|500)\b/.test(e.text) &&
      (e.url === 'chrome-error://chromewebdata/' || e.url.endsWith('/500'));
    const errors = ext.errors.filter((e) => !served(e));
    assert.deepEqual(errors, [], ext.describeErrors());
  });
});
