// The runner leaves reachability to the browser (docs/runner.md): a task whose start
// URL is `http://wiki.localhost:<port>/` runs, because Chromium maps every *.localhost
// name to loopback, although node's resolver (which the runner's old start URL check
// used) says ENOTFOUND for it. The local site listens on 127.0.0.1 only.

import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readLines, runRunner } from './runner-process.mjs';
import { startSites } from './sites.mjs';

describe('the runner on a *.localhost start URL', { timeout: 180_000 }, () => {
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {string} */ let dir;
  let startUrl;

  before(async () => {
    sites = await startSites({ names: ['wiki'] });
    const { port } = new URL(sites.origin('wiki'));
    startUrl = `http://wiki.localhost:${port}/index.html`;
    dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-localhost-'));
    mkdirSync(join(dir, 'tasks'));
    writeFileSync(
      join(dir, 'tasks', 'tower.json'),
      JSON.stringify({
        id: 'e2e-localhost/tower',
        intent: 'Open the Tokyo Tower article.',
        start_urls: [startUrl],
        hops: [
          {
            condition: {
              kind: 'all',
              of: [
                { kind: 'url', part: 'host', op: 'equals', value: 'wiki.localhost' },
                { kind: 'url', part: 'path', op: 'contains', value: 'Tokyo_Tower' },
              ],
            },
          },
        ],
        reference_trajectory: ["click {link 'Tokyo Tower'}"],
      }),
    );
  });

  after(async () => {
    await sites?.close();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  test('runs it and passes: the browser, not node, decides what loads', async () => {
    // What node's resolver makes of the name (ENOTFOUND on Debian), shown if the run fails.
    const nodeSees = await lookup('wiki.localhost').then(
      () => 'resolved',
      (error) => error.code,
    );
    const out = join(dir, 'out');
    const result = await runRunner(['--tasks', join(dir, 'tasks'), '--out', out, '--task-timeout', '90']);
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    const [line] = readLines(join(out, 'results.jsonl'));
    assert.equal(line.verdict, 'PASS', `${JSON.stringify(line)} (node's resolver: ${nodeSees})\n${result.stdout}`);
    assert.deepEqual(line.hop_steps, [1]);
    assert.equal(line.error, null);
    assert.match(result.stdout, /^task 1\/1 e2e-localhost\/tower {2}PASS {2}hops 1\/1/m);
    assert.ok(sites.requests.some((r) => r.site === 'wiki' && r.path === '/Tokyo_Tower.html'), 'the page was served by the 127.0.0.1 site');
  });
});
