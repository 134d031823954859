// Launches headless Chromium with the built extension (runner/browser.mjs, shared with
// the runner) and records every console error and uncaught error from its service
// worker and pages (and, for tests that search them, every console message at any level).
//
// Usage in a test file:
//   let ext;
//   before(async () => { ext = await launchExtension(); });
//   after(async () => { await ext?.close(); });
//
// Later tests can serve local sites on 127.0.0.1 and open them with ext.openPage(url);
// their errors are collected the same way (filter by ConsoleEntry.url if needed).

import { launchWithExtension, newProfileDir } from '../../runner/browser.mjs';
import { chromiumPath, distDir } from './paths.mjs';

export { newProfileDir };

/**
 * @typedef {{ source: string, kind: string, text: string, url: string }} ConsoleEntry
 * @param {{ extensionDir?: string, profileDir?: string }} [options] `profileDir`: a
 *   browser profile the caller owns and removes, so a test can close the browser and
 *   launch it again on the same profile (what survives a restart); default: a fresh
 *   temporary profile removed on close.
 */
export async function launchExtension({ extensionDir = distDir, profileDir } = {}) {
  /** @type {ConsoleEntry[]} */
  const errors = [];
  /** @type {ConsoleEntry[]} every console message, any level */
  const messages = [];
  const browser = await launchWithExtension({
    extensionDir,
    chromiumPath,
    profileDir,
    onContext: (context) => watchContext(context, errors, messages),
  });
  return makeHandle(browser, errors, messages);
}

/** Records console messages and uncaught errors of the worker and every page. */
function watchContext(context, errors, messages) {
  const watchConsole = (source, target, url) =>
    target.on('console', (msg) => {
      messages.push({ source, kind: msg.type(), text: msg.text(), url: url() });
      if (msg.type() === 'error') {
        errors.push({ source, kind: 'console.error', text: msg.text(), url: url() });
      }
    });
  const watchPage = (page) => {
    watchConsole('page', page, () => page.url());
    page.on('pageerror', (error) =>
      errors.push({ source: 'page', kind: 'pageerror', text: String(error), url: page.url() }),
    );
  };
  const watchWorker = (worker) => watchConsole('service-worker', worker, () => worker.url());
  context.pages().forEach(watchPage);
  context.on('page', watchPage);
  context.serviceWorkers().forEach(watchWorker);
  context.on('serviceworker', watchWorker);
}

function makeHandle({ context, worker, extensionId, extensionUrl, close }, errors, messages) {
  return {
    context,
    worker,
    extensionId,
    /** Console errors and uncaught errors so far, from the worker and all pages. */
    errors,
    /** Every console message so far (any level), from the worker and all pages. */
    consoleMessages: messages,
    extensionUrl,
    /** Opens a URL in a new tab and waits for its load event. */
    async openPage(url) {
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'load' });
      return page;
    },
    /** Opens an extension page such as `popup.html` in a new tab. */
    openExtensionPage(path) {
      return this.openPage(extensionUrl(path));
    },
    /** Readable list of the collected errors for assertion messages. */
    describeErrors() {
      return errors.map((e) => `[${e.source} ${e.kind}] ${e.text} (${e.url})`).join('\n');
    },
    close,
  };
}
