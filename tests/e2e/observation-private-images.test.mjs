// Images never reach the model through the person's cookies. A page on one site shows
// an image of another site that only a logged-in person may see (a SameSite=Strict
// session cookie, set by a top-level visit); the page's own request does not carry
// that cookie, so the page shows a broken image. The observation must report the
// image as not loaded, and the image's site must never see a request carrying the
// cookie: no download by the extension with the person's identity.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchExtension, observe, tabIdOf } from '../../runner/driver.mjs';
import { lineWith } from './observe-helpers.mjs';
import { portOfServer, sitesRoot } from './sites.mjs';

const RED_PNG = readFileSync(join(sitesRoot, 'obs-page', 'img', 'red.png'));
const PURPLE_PNG = readFileSync(join(sitesRoot, 'obs-page', 'img', 'purple.png'));
const SESSION = 'sid=person-secret';

/**
 * Starts `handle` on a free 127.0.0.1 port; records each request with its cookies.
 * @param {import('node:http').RequestListener} handle
 */
async function serve(handle) {
  /** @type {{ path: string | undefined, cookie: string }[]} */ const requests = [];
  const server = createServer((req, res) => {
    requests.push({ path: req.url, cookie: req.headers.cookie ?? '' });
    handle(req, res);
  });
  await /** @type {Promise<void>} */ (new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  }));
  const close = () =>
    /** @type {Promise<void>} */ (new Promise((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    }));
  return { port: portOfServer(server), requests, close };
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {string} type
 * @param {string | Buffer} body
 */
function reply(res, status, type, body) {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

// No favicon requests: a page's icon request to its own site would carry the cookie
// legitimately and blur what the test checks.
const HEAD = '<meta charset="utf-8"><link rel="icon" href="data:,">';

describe('images with the person\'s cookies', { timeout: 120_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  let extPage;
  /** @type {Awaited<ReturnType<typeof serve>>} */ let privateSite; // reached as http://localhost:<port>: another site than 127.0.0.1
  /** @type {Awaited<ReturnType<typeof serve>>} */ let pageSite;
  /** @type {Awaited<ReturnType<typeof tabIdOf>>} */ let tabId;
  /** @type {Awaited<ReturnType<typeof observe>>} */ let obs;

  before(async () => {
    privateSite = await serve((req, res) => {
      if (req.url === '/login') {
        res.setHeader('set-cookie', `${SESSION}; SameSite=Strict; Path=/; HttpOnly`);
        return reply(res, 200, 'text/html', `<!doctype html><html><head>${HEAD}<title>Logged in</title></head><body>ok</body></html>`);
      }
      if (req.url === '/private.png') {
        if ((req.headers.cookie ?? '').includes(SESSION)) return reply(res, 200, 'image/png', RED_PNG);
        return reply(res, 403, 'text/plain', 'forbidden: log in first');
      }
      return reply(res, 404, 'text/plain', 'not found');
    });
    pageSite = await serve((req, res) => {
      if (req.url === '/') {
        return reply(res, 200, 'text/html', `<!doctype html><html><head>${HEAD}<title>Gallery</title></head><body>
          <h1>Gallery</h1>
          <img src="http://localhost:${privateSite.port}/private.png" alt="Private picture" width="120" height="90">
          <img src="/own.png" alt="Own picture" width="120" height="90">
          <iframe src="/frame.html" title="Same-site frame" width="300" height="140"></iframe>
        </body></html>`);
      }
      if (req.url === '/frame.html') {
        return reply(res, 200, 'text/html', `<!doctype html><html><head>${HEAD}</head><body>
          <img src="/framed.png" alt="Framed picture" width="80" height="60"></body></html>`);
      }
      if (req.url === '/own.png') return reply(res, 200, 'image/png', RED_PNG);
      if (req.url === '/framed.png') return reply(res, 200, 'image/png', PURPLE_PNG);
      return reply(res, 404, 'text/plain', 'not found');
    });
    ext = await launchExtension();
    // The person logs in to the private site in a tab of their own.
    await ext.openPage(`http://localhost:${privateSite.port}/login`);
    const page = await ext.openPage(`http://127.0.0.1:${pageSite.port}/`);
    extPage = await ext.openExtensionPage('popup.html');
    tabId = await tabIdOf(extPage, page.url());
    obs = await observe(extPage, tabId, { mode: 'text+images' });
  });

  after(async () => {
    await ext?.close();
    await privateSite?.close();
    await pageSite?.close();
  });

  test('the page itself could not load the private image (the cookie stays home)', () => {
    const imageRequests = privateSite.requests.filter((r) => r.path === '/private.png');
    assert.ok(imageRequests.length >= 1, JSON.stringify(privateSite.requests));
    assert.ok(
      !imageRequests[0].cookie.includes(SESSION),
      `the page's own request must not carry the SameSite=Strict cookie: ${JSON.stringify(imageRequests[0])}`,
    );
  });

  test('the observation reports the private image as not loaded', () => {
    const line = lineWith(obs.text, "image 'Private picture'");
    assert.ok(line, obs.text);
    assert.deepEqual(
      obs.imagesNotLoaded.map((/** @type {import('../types.mjs').Json} */ { id, name, reason }) => ({ id, name, reason })),
      [{ id: line.id, name: 'Private picture', reason: 'the page could not load it' }],
    );
    assert.ok(!obs.images.some((/** @type {import('../types.mjs').Json} */ image) => image.id === line.id), 'no picture for the private image');
  });

  test('no request carrying the cookie ever reached the private site', () => {
    const withCookie = privateSite.requests.filter((r) => r.cookie.includes(SESSION));
    assert.deepEqual(withCookie, [], JSON.stringify(privateSite.requests));
  });

  test("the page's own images keep their ids and come from the bytes it loaded", () => {
    const loaded = new Map(obs.images.map((/** @type {import('../types.mjs').Json} */ image) => [image.name, image]));
    assert.deepEqual([...loaded.keys()].sort(), ['Framed picture', 'Own picture']);
    for (const [name, image] of loaded) {
      assert.equal(image.id, /** @type {import('./observe-helpers.mjs').ObsLine} */ (lineWith(obs.text, `image '${name}'`)).id, name);
      assert.equal(image.from, 'page', name);
    }
    // Each was requested once, by the page: the observation fetched nothing again.
    const paths = pageSite.requests.map((r) => r.path);
    assert.equal(paths.filter((p) => p === '/own.png').length, 1, paths.join(' '));
    assert.equal(paths.filter((p) => p === '/framed.png').length, 1, paths.join(' '));
  });

  test('the observation view lists the image as not loaded', async () => {
    const view = await ext.openExtensionPage(`observation.html?tab=${tabId}`);
    await view.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('observation')).dataset.state !== 'loading', null, {
      timeout: 20_000,
    });
    const modeText = /** @type {string} */ (await view.locator('#status').textContent());
    if (!modeText.includes('text+images')) {
      await view.selectOption('#mode', 'text+images');
      await view.click('#refresh');
      await view.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('status')).textContent.includes('text+images'), null, {
        timeout: 20_000,
      });
    }
    const items = await view.locator('#not-loaded li').allTextContents();
    assert.equal(items.length, 1, items.join('\n'));
    assert.match(items[0], /^\[\d+\] Private picture: the page could not load it \(http:\/\/localhost:\d+\/private\.png\)$/);
    assert.deepEqual(privateSite.requests.filter((r) => r.cookie.includes(SESSION)), []);
  });

  test('the extension logged no error', () => {
    // The gallery page itself logs its failed image load (403); that is the page's.
    assert.deepEqual(ext.extensionErrors(), [], `errors logged:\n${ext.describeErrors()}`);
  });
});
