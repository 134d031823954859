// What the real sites of the tier serve, written down as tests: the URLs a person and
// an agent see on Debian 12's kiwix-serve 3.3.0 and MediaWiki 1.39, and their search
// boxes with suggestions, used in a plain headless Chromium as a person would. Task
// files and the agent's steps (cases.mjs) rely on exactly these shapes.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchPlain } from '../../runner/browser.mjs';
import { chromiumPath } from '../e2e/paths.mjs';
import { BOOK, KIWIX_HOST } from './kiwix.mjs';
import { SITE_NAME } from './mediawiki.mjs';
import { describeTier } from './packages.mjs';
import { startRealSites } from './real-sites.mjs';

/**
 * Status, Location and body of one request, redirects not followed. Node's resolver
 * knows no `*.localhost` name (Chromium maps them all to loopback), so node asks the
 * same server at 127.0.0.1 with the browser's Host header.
 * @param {string} url
 */
async function get(url) {
  const target = new URL(url);
  const headers = { host: target.host };
  if (target.hostname.endsWith('.localhost')) target.hostname = '127.0.0.1';
  const response = await fetch(target, { redirect: 'manual', headers });
  return { status: response.status, location: response.headers.get('location'), body: await response.text() };
}

await describeTier('real-software tier: the URLs of kiwix-serve and MediaWiki', { timeout: 180_000 }, () => {
  /** @type {Awaited<ReturnType<typeof startRealSites>>} */ let sites;
  /** @type {Awaited<ReturnType<typeof launchPlain>>} */ let browser;

  before(async () => {
    sites = await startRealSites();
    browser = await launchPlain({ chromiumPath });
  });

  after(async () => {
    await browser?.close();
    await sites?.stop();
  });

  test('kiwix-serve 3.3.0: articles at /kiwix/<book>/A/<Article>, the book name redirects to its welcome page', async () => {
    const { base } = sites.kiwix;
    assert.equal(base, `http://${KIWIX_HOST}:${sites.kiwix.port}/kiwix`);
    assert.equal(sites.kiwix.article('San Francisco'), `${base}/${BOOK}/A/San_Francisco`);
    assert.deepEqual(await get(`${base}/${BOOK}`).then((r) => [r.status, r.location]),
      [302, `/kiwix/${BOOK}/A/Main_Page`]);
    const tokyo = await get(sites.kiwix.article('Tokyo'));
    assert.equal(tokyo.status, 200);
    assert.match(tokyo.body, /<h1>Tokyo<\/h1>/);
    // Kiwix's toolbar is injected into the article itself: no frame around it.
    assert.match(tokyo.body, /<form class="kiwixsearch" method="GET" action="\/kiwix\/search"/);
    // 3.3.0 has no /viewer (the viewer#book/A/Path frame of library.kiwix.org came with 3.4).
    assert.equal((await get(`${base}/viewer`)).status, 404);
  });

  test('kiwix-serve: suggestions and full-text search', async () => {
    const { base } = sites.kiwix;
    const suggest = JSON.parse((await get(`${base}/suggest?content=${BOOK}&term=Tok`)).body);
    assert.deepEqual(suggest[0], { value: 'Tokyo', label: '&lt;b&gt;Tokyo&lt;/b&gt;', kind: 'path', path: 'A/Tokyo' });
    const results = await get(`${base}/search?content=${BOOK}&pattern=Eiffel`);
    assert.equal(results.status, 200);
    assert.match(results.body, /<a href="\/kiwix\/cities\/A\/Paris">/);
  });

  test("kiwix's search box: a picked suggestion opens the article, Enter alone the full-text results", async () => {
    const page = await browser.newPage();
    try {
      await page.goto(sites.kiwix.welcome);
      await page.click('#kiwixsearchbox');
      await page.keyboard.type('Tok');
      await page.locator('.ui-menu-item', { hasText: 'Tokyo' }).click();
      await page.waitForURL(sites.kiwix.article('Tokyo'));
      await page.click('#kiwixsearchbox');
      await page.keyboard.type('Paris');
      await Promise.all([page.waitForURL(/\/search\?/), page.keyboard.press('Enter')]);
      assert.equal(page.url(), `${sites.kiwix.base}/search?content=${BOOK}&pattern=Paris`);
      // An in-article link changes only the fragment.
      await page.goto(sites.kiwix.article('Tokyo'));
      await page.getByRole('link', { name: 'History' }).click();
      assert.equal(page.url(), `${sites.kiwix.article('Tokyo')}#History`);
    } finally {
      await page.close();
    }
  });

  test('MediaWiki 1.39 on SQLite: /wiki/<Title>, the Go search redirects, full-text results', async () => {
    const { origin } = sites.wiki;
    assert.deepEqual(await get(`${origin}/`).then((r) => [r.status, r.location]), [301, `${origin}/wiki/Main_Page`]);
    const tokyo = await get(sites.wiki.article('Tokyo'));
    assert.equal(tokyo.status, 200);
    assert.match(tokyo.body, new RegExp(`<title>Tokyo - ${SITE_NAME}</title>`));
    assert.equal((await get(sites.wiki.article('San Francisco'))).status, 200);
    const go = await get(`${origin}/index.php?search=Tokyo&title=Special%3ASearch&go=Go`);
    assert.deepEqual([go.status, go.location], [302, `${origin}/wiki/Tokyo`]);
    const fulltext = await get(`${origin}/index.php?search=Eiffel&title=Special%3ASearch&fulltext=Search`);
    assert.equal(fulltext.status, 200);
    assert.match(fulltext.body, /<a href="\/wiki\/Paris" title="Paris"/);
  });

  test('MediaWiki: the suggestion APIs (opensearch, REST) answer with the articles', async () => {
    const { origin } = sites.wiki;
    const opensearch = JSON.parse((await get(`${origin}/api.php?action=opensearch&search=San&format=json`)).body);
    assert.deepEqual(opensearch, ['San', ['San Francisco'], [''], [`${origin}/wiki/San_Francisco`]]);
    const rest = JSON.parse((await get(`${origin}/rest.php/v1/search/title?q=Tok&limit=5`)).body);
    assert.deepEqual(rest.pages.map((/** @type {import('../types.mjs').Json} */ p) => p.title), ['Tokyo']);
  });

  test("MediaWiki's search box shows suggestions while typing; Enter on typed text opens the article", async () => {
    const page = await browser.newPage();
    try {
      await page.goto(sites.wiki.article('Paris'));
      await page.click('#searchInput');
      await page.keyboard.type('Tok');
      await page.locator('.suggestions-result', { hasText: 'Tokyo' }).waitFor();
      await page.keyboard.type('yo');
      await Promise.all([page.waitForURL(sites.wiki.article('Tokyo')), page.keyboard.press('Enter')]);
    } finally {
      await page.close();
    }
  });
});
