// Driving a Chromium that is already running (`--browser-endpoint`): a browser farm, a
// remote desktop, a grid that exposes the DevTools protocol. The runner connects over
// CDP instead of launching, finds the hopbench extension in the browser's default
// profile, and on close only disconnects: the browser is not the runner's to end.
// docs/runner.md "Browsers you start yourself".

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const CONNECT_TIMEOUT_MS = 15_000;
const WORKER_TIMEOUT_MS = 15_000;

/**
 * Checks an endpoint as given on the command line: `ws://` or `wss://` (the browser's
 * DevTools WebSocket, as Chromium prints it at start), or `http://host:port` (its
 * remote debugging port, from which the WebSocket is found).
 * @param {string} text
 * @returns {string|null} what is wrong, or null
 */
export function endpointProblem(text) {
  let url;
  try {
    url = new URL(text);
  } catch {
    return `${JSON.stringify(text)} is not a URL (e.g. ws://127.0.0.1:9222/devtools/browser/<id> or http://127.0.0.1:9222)`;
  }
  if (!['ws:', 'wss:', 'http:', 'https:'].includes(url.protocol)) {
    return `${JSON.stringify(text)}: a browser endpoint is ws://, wss://, http:// or https://`;
  }
  return null;
}

/**
 * Connects to the browser at `endpoint` and checks that it runs the extension built in
 * `extensionDir` (same id, from the manifest's key, and same version). The result has
 * the shape of `launchWithExtension`'s, so a lane uses either alike; `close`
 * disconnects and leaves the browser running.
 * @param {{ endpoint: string, extensionDir: string,
 *   onContext?: (context: import('playwright-core').BrowserContext) => void }} options
 */
export async function connectWithExtension({ endpoint, extensionDir, onContext }) {
  const expected = builtExtension(extensionDir);
  let browser;
  try {
    browser = await chromium.connectOverCDP(endpoint, { timeout: CONNECT_TIMEOUT_MS });
  } catch (error) {
    throw new Error(`cannot reach the browser at ${endpoint}: ${firstLine(error)}`, { cause: error });
  }
  try {
    // The default context is the browser's own profile, where an extension loaded
    // with --load-extension lives; a context the runner created would have none.
    const [context] = browser.contexts();
    if (!context) throw new Error(`the browser at ${endpoint} has no default profile to use`);
    onContext?.(context);
    const extensionUrl = (/** @type {string} */ path) => `chrome-extension://${expected.id}/${path}`;
    const connected = /** @type {import('playwright-core').Browser} */ (browser);
    const newPage = () => pageInOwnWindow(connected, context);
    await checkExtension(newPage, extensionUrl, endpoint, expected);
    return {
      context,
      extensionId: expected.id,
      remote: true,
      extensionUrl,
      newPage,
      async close() {
        // Disconnecting leaves the browser and its windows as they are; the runner's
        // own extension page is closed by the lane before this.
        await browser.close();
      },
    };
  } catch (error) {
    await browser.close().catch(() => undefined);
    throw error;
  }
}

/**
 * The id and version of the built extension: Chrome derives an unpacked extension's id
 * from the manifest's "key" (the first 32 hex digits of sha256 of the key, as a-p), so
 * the same dist/ has the same id in every browser that loads it.
 * @param {string} extensionDir
 */
export function builtExtension(extensionDir) {
  const manifest = JSON.parse(readFileSync(join(extensionDir, 'manifest.json'), 'utf8'));
  if (typeof manifest.key !== 'string') throw new Error(`${extensionDir}/manifest.json has no "key"`);
  const hex = createHash('sha256').update(Buffer.from(manifest.key, 'base64')).digest('hex');
  const id = [...hex.slice(0, 32)].map((d) => String.fromCharCode(97 + parseInt(d, 16))).join('');
  return { id, version: String(manifest.version) };
}

/**
 * A page of the runner's own in a new window of the browser. Not a tab of whatever
 * window has the focus: Chrome gives a tab opened there that window's page as its
 * opener, so in a window a run opened (the person's, another runner's, one a stopped
 * worker left) the page would be taken for that run's, and closed with it.
 * @param {import('playwright-core').Browser} browser
 * @param {import('playwright-core').BrowserContext} context
 * @returns {Promise<import('playwright-core').Page>}
 */
export async function pageInOwnWindow(browser, context) {
  const cdp = await browser.newBrowserCDPSession();
  /** @type {import('playwright-core').Page[]} */
  const opened = [];
  const onPage = (/** @type {import('playwright-core').Page} */ page) => opened.push(page);
  context.on('page', onPage);
  try {
    const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank', newWindow: true, background: true });
    const deadline = Date.now() + WORKER_TIMEOUT_MS;
    for (;;) {
      // Pages someone else opened meanwhile are told apart by their target.
      while (opened.length > 0) {
        const page = /** @type {import('playwright-core').Page} */ (opened.shift());
        if ((await targetIdOf(page)) === targetId) return page;
      }
      if (Date.now() > deadline) throw new Error(`the browser opened no window for the runner's page within ${WORKER_TIMEOUT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    context.off('page', onPage);
    await cdp.detach().catch(() => undefined);
  }
}

/**
 * The DevTools target id of a page, or null once it is gone.
 * @param {import('playwright-core').Page} page
 */
async function targetIdOf(page) {
  const session = await page.context().newCDPSession(page).catch(() => null);
  if (!session) return null;
  try {
    const { targetInfo } = await session.send('Target.getTargetInfo');
    return targetInfo.targetId;
  } catch {
    return null;
  } finally {
    await session.detach().catch(() => undefined);
  }
}

/**
 * Opens one of the extension's pages (which also wakes its worker) and reads its
 * version. A browser without it, or with another version, is refused with what to do:
 * the runner's messages follow its own build.
 * @param {() => Promise<import('playwright-core').Page>} newPage
 * @param {(path: string) => string} extensionUrl
 * @param {string} endpoint
 * @param {{ id: string, version: string }} expected
 */
async function checkExtension(newPage, extensionUrl, endpoint, expected) {
  const page = await newPage();
  try {
    const version = await page
      .goto(extensionUrl('popup.html'), { waitUntil: 'load', timeout: WORKER_TIMEOUT_MS })
      .then(() => page.evaluate(() => chrome.runtime.getManifest().version))
      .catch(() => null);
    if (version === null) {
      throw new Error(
        `no hopbench extension in the browser at ${endpoint}: start it with ` +
          `--load-extension=DIST --disable-extensions-except=DIST, DIST being the runner's dist/`,
      );
    }
    if (version !== expected.version) {
      throw new Error(
        `the browser at ${endpoint} has hopbench ${version}, this runner's build is ` +
          `${expected.version}: load the same dist/ in that browser`,
      );
    }
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** @param {unknown} error */
function firstLine(error) {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0].trim();
}
