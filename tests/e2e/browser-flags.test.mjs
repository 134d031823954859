// The runner's Chromium keeps the protections a person's Chrome has on, which
// Playwright's default flags turn off (runner/browser.mjs KEPT_CHROME_DEFAULTS): read
// from the browser process's own command line (/proc/<pid>/cmdline), and, for IPC
// flooding protection, seen at work: a page that changes its URL a thousand times in
// a loop is throttled, and Chrome says so on the page's console.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { KEPT_CHROME_DEFAULTS } from '../../runner/browser.mjs';
import { launchExtension } from '../../runner/driver.mjs';
import { portOfServer } from './sites.mjs';

/** A page that floods the browser with same-document navigations. */
const FLOODING_PAGE = `<!doctype html><title>flood</title><script>
  for (let i = 0; i < 1000; i += 1) history.replaceState(null, '', '?n=' + i);
</script>`;

describe('the launched browser keeps Chrome\'s protections on', { timeout: 60_000 }, () => {
  /** @type {import('../../runner/driver.mjs').Extension} */ let ext;
  /** @type {import('node:http').Server} */ let server;

  before(async () => {
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(FLOODING_PAGE));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
    ext = await launchExtension();
  });

  after(async () => {
    await ext?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  test('the browser process was started without the flags that turn them off', async () => {
    // A persistent context always has its browser (null is for Android/Electron).
    const browser = /** @type {import('playwright-core').Browser} */ (ext.context.browser());
    const session = await browser.newBrowserCDPSession();
    const { processInfo } = await session.send('SystemInfo.getProcessInfo');
    await session.detach();
    const pid = processInfo.find((p) => p.type === 'browser')?.id;
    assert.ok(pid, JSON.stringify(processInfo));
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    // The command line is Chromium's own, not the Debian wrapper's: it has our flags.
    assert.ok(args.some((a) => a.startsWith('--load-extension=')), args.join(' '));
    for (const flag of ['--disable-ipc-flooding-protection', '--disable-popup-blocking']) {
      assert.ok(KEPT_CHROME_DEFAULTS.includes(flag), flag);
      assert.ok(!args.includes(flag), `${flag} is on the browser's command line: ${args.join(' ')}`);
    }
  });

  test('a page flooding the browser with URL changes is throttled, as in a person\'s Chrome', async () => {
    const page = await ext.context.newPage();
    /** @type {string[]} */
    const warnings = [];
    page.on('console', (msg) => warnings.push(msg.text()));
    try {
      await page.goto(`http://127.0.0.1:${portOfServer(server)}/`, { waitUntil: 'load' });
      // Chrome's words when it throttles (content/browser/renderer_host/navigator.cc).
      const throttled = () => warnings.some((w) => w.includes('Throttling navigation to prevent the browser from hanging'));
      const deadline = Date.now() + 5_000;
      while (!throttled() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(throttled(), `no throttling reported; the page's console said: ${warnings.join(' | ') || '(nothing)'}`);
    } finally {
      await page.close();
    }
  });
});
