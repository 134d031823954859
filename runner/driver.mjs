// The browser driver of the dev tools and the e2e tests: headless Chromium with the
// built extension (runner/browser.mjs, the runner's own launch), recording every console
// error and uncaught error of its service worker and pages (and, for tests that search
// them, every console message at any level), plus the protocol messages sent from an
// extension page the way the popup sends them. It lives in runner/ because the dev
// tools (runner/observe.mjs, runner/walk.mjs) drive the browser with it too.
//
// Usage in a test file:
//   /** @type {import('../../runner/driver.mjs').Extension} */ let ext;
//   before(async () => { ext = await launchExtension(); });
//   after(async () => { await ext?.close(); });
//
// Tests can serve local sites on 127.0.0.1 and open them with ext.openPage(url); their
// errors are collected the same way (filter by ConsoleEntry.url if needed).

import { PROFILE_REMOVAL, launchWithExtension, newProfileDir } from './browser.mjs';
import { chromiumPath, distDir } from './paths.mjs';

export { PROFILE_REMOVAL, newProfileDir };

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').BrowserContext} BrowserContext */
/** @typedef {import('playwright-core').Worker} Worker */
/**
 * @typedef {{ source: string, kind: string, text: string, url: string, at?: string }} ConsoleEntry
 *   `url`: the page or worker that logged it; `at`: where the message points when that
 *   is elsewhere (for "Failed to load resource", the resource that failed)
 */
/** @typedef {Awaited<ReturnType<typeof launchExtension>>} Extension */

/**
 * @param {{ extensionDir?: string, profileDir?: string, otherExtensions?: string[] }} [options]
 *   `otherExtensions`: unpacked extensions loaded beside ours (as people's browsers
 *   have them). `profileDir`: a
 *   browser profile the caller owns and removes, so a test can close the browser and
 *   launch it again on the same profile (what survives a restart); default: a fresh
 *   temporary profile removed on close.
 */
export async function launchExtension({ extensionDir = distDir, profileDir, otherExtensions = [] } = {}) {
  /** @type {ConsoleEntry[]} */
  const errors = [];
  /** @type {ConsoleEntry[]} every console message, any level */
  const messages = [];
  const browser = await launchWithExtension({
    extensionDir,
    chromiumPath,
    ...(profileDir === undefined ? {} : { profileDir }),
    otherExtensions,
    onContext: (context) => watchContext(context, errors, messages),
  });
  return makeHandle(browser, errors, messages);
}

/**
 * Records console messages and uncaught errors of the worker and every page.
 * @param {BrowserContext} context
 * @param {ConsoleEntry[]} errors
 * @param {ConsoleEntry[]} messages
 */
function watchContext(context, errors, messages) {
  /**
   * @param {string} source
   * @param {Page | Worker} target
   * @param {() => string} url
   */
  const watchConsole = (source, target, url) =>
    target.on('console', (/** @type {import('playwright-core').ConsoleMessage} */ msg) => {
      const from = url();
      const location = msg.location().url;
      const at = location && location !== from ? { at: location } : {};
      messages.push({ source, kind: msg.type(), text: msg.text(), url: from, ...at });
      if (msg.type() === 'error') {
        errors.push({ source, kind: 'console.error', text: msg.text(), url: from, ...at });
      }
    });
  /** @param {Page} page */
  const watchPage = (page) => {
    watchConsole('page', page, () => page.url());
    page.on('pageerror', (error) =>
      errors.push({ source: 'page', kind: 'pageerror', text: String(error), url: page.url() }),
    );
  };
  /** @param {Worker} worker */
  const watchWorker = (worker) => watchConsole('service-worker', worker, () => worker.url());
  context.pages().forEach(watchPage);
  context.on('page', watchPage);
  context.serviceWorkers().forEach(watchWorker);
  context.on('serviceworker', watchWorker);
}

/**
 * @param {Awaited<ReturnType<typeof launchWithExtension>>} browser
 * @param {ConsoleEntry[]} errors
 * @param {ConsoleEntry[]} messages
 */
function makeHandle({ context, worker, extensionId, extensionUrl, close }, errors, messages) {
  /**
   * Opens a URL in a new tab and waits for its load event.
   * @param {string} url
   */
  const openPage = async (url) => {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    return page;
  };
  return {
    context,
    worker,
    extensionId,
    /** Console errors and uncaught errors so far, from the worker and all pages. */
    errors,
    /** Every console message so far (any level), from the worker and all pages. */
    consoleMessages: messages,
    extensionUrl,
    openPage,
    /**
     * Opens an extension page such as `popup.html` in a new tab.
     * @param {string} path
     */
    openExtensionPage: (path) => openPage(extensionUrl(path)),
    /**
     * The errors of the extension itself: its worker's and its pages'. A web page logs
     * its own as well (a 404 for a favicon its site does not have, a refused image).
     */
    extensionErrors: () => errors.filter((e) => e.source === 'service-worker' || e.url.startsWith('chrome-extension://')),
    /** Readable list of the collected errors for assertion messages. */
    describeErrors() {
      return errors.map((e) => `[${e.source} ${e.kind}] ${e.text} (${e.url}${e.at ? `; at ${e.at}` : ''})`).join('\n');
    },
    close,
  };
}

/**
 * Sends `messages[constructorName](...args)` from an extension page; returns the reply
 * (the worker's reply object, as chrome.runtime.sendMessage gives it).
 * @param {Page} extPage
 * @param {string} constructorName
 * @param {...unknown} args
 */
export function send(extPage, constructorName, ...args) {
  return extPage.evaluate(
    async ([name, constructorArgs]) => {
      /** @type {Record<string, (...a: unknown[]) => unknown>} */
      const messages = await import(/** @type {string} */ ('./messages.js'));
      return chrome.runtime.sendMessage(messages[name](...constructorArgs));
    },
    /** @type {[string, unknown[]]} */ ([constructorName, args]),
  );
}

/**
 * Like `send`, but throws unless the reply is ok.
 * @param {Page} extPage
 * @param {string} constructorName
 * @param {...unknown} args
 */
export async function sendOk(extPage, constructorName, ...args) {
  const reply = await send(extPage, constructorName, ...args);
  if (reply?.ok !== true) {
    throw new Error(`${constructorName} failed: ${JSON.stringify(reply)}`);
  }
  return reply;
}

/**
 * The chrome.tabs id of the tab showing `url`, asked from an extension page.
 * @param {Page} extPage
 * @param {string} url
 * @returns {Promise<number>}
 */
export async function tabIdOf(extPage, url) {
  return extPage.evaluate(async (wanted) => {
    const tabs = await chrome.tabs.query({});
    const tab = tabs.find((t) => t.url === wanted);
    if (!tab) throw new Error(`no tab shows ${wanted}: ${tabs.map((t) => t.url)}`);
    // A tab shown in a window always has an id (only devtools/session tabs lack one).
    return /** @type {number} */ (tab.id);
  }, url);
}

/**
 * Sends OBSERVE_TAB from an extension page; returns the reply as it arrives.
 * @param {Page} extPage
 * @param {number} tabId
 * @param {Record<string, unknown>} [options]
 */
export function observeThroughWorker(extPage, tabId, options = {}) {
  return send(extPage, 'observeTab', tabId, options);
}

/**
 * Like observeThroughWorker, but fails with the worker's error text.
 * @param {Page} extPage
 * @param {number} tabId
 * @param {Record<string, unknown>} [options]
 * @returns {Promise<import('./extension.mjs').ExtensionData>} the observation (text, url, images, timings, ...)
 */
export async function observe(extPage, tabId, options = {}) {
  const reply = await observeThroughWorker(extPage, tabId, options);
  if (!reply?.ok) throw new Error(`observation failed: ${JSON.stringify(reply)}`);
  return reply.observation;
}
