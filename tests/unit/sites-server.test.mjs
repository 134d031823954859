// The test-site server itself: separate origins, placeholders filled, no escapes.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSites } from '../e2e/sites.mjs';

describe('test sites server', () => {
  /** @type {import('../types.mjs').Sites} */ let sites;
  before(async () => {
    sites = await startSites({ names: ['alpha', 'beta'] });
  });
  after(async () => {
    await sites?.close();
  });

  test('each site has its own port and links are filled in', async () => {
    assert.notEqual(sites.ports.get('alpha'), sites.ports.get('beta'));
    const html = await (await fetch(sites.url('alpha', '/'))).text();
    assert.ok(html.includes(`href="${sites.origin('beta')}/index.html"`), html);
  });

  test('unknown files are 404 and paths cannot leave the site folder', async () => {
    assert.equal((await fetch(sites.url('alpha', '/nope.html'))).status, 404);
    assert.equal((await fetch(sites.url('alpha', '/..%2Fbeta%2Findex.html'))).status, 403);
  });
});
