// Launches headless Chromium with the built extension and records every console
// error and uncaught error from its service worker and pages (and, for tests that
// search them, every console message at any level).
//
// Usage in a test file:
//   let ext;
//   before(async () => { ext = await launchExtension(); });
//   after(async () => { await ext?.close(); });
//
// Later tests can serve local sites on 127.0.0.1 and open them with ext.openPage(url);
// their errors are collected the same way (filter by ConsoleEntry.url if needed).

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumPath, distDir } from './paths.mjs';

const WORKER_TIMEOUT_MS = 15_000;

/** Flags from the platform notes: without them the extension is not loaded or
 * Chromium tries to reach the internet, which this machine refuses. */
function chromiumArgs(extensionDir) {
  return [
    '--headless=new',
    // Playwright passes --disable-extensions; this re-enables ours only.
    `--disable-extensions-except=${extensionDir}`,
    `--load-extension=${extensionDir}`,
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ];
}

/**
 * @typedef {{ source: string, kind: string, text: string, url: string }} ConsoleEntry
 * @param {{ extensionDir?: string, profileDir?: string }} [options] `profileDir`: a
 *   browser profile the caller owns and removes, so a test can close the browser and
 *   launch it again on the same profile (what survives a restart); default: a fresh
 *   temporary profile removed on close.
 */
export async function launchExtension({ extensionDir = distDir, profileDir } = {}) {
  if (!existsSync(join(extensionDir, 'manifest.json'))) {
    throw new Error(`no built extension at ${extensionDir}: run ./build.sh first`);
  }
  if (!existsSync(chromiumPath)) {
    throw new Error(`no Chromium at ${chromiumPath}: run ./build.sh test to install it`);
  }
  const ownsProfile = profileDir === undefined;
  const userDataDir = profileDir ?? newProfileDir();
  /** @type {ConsoleEntry[]} */
  const errors = [];
  /** @type {ConsoleEntry[]} every console message, any level */
  const messages = [];
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath,
      headless: true,
      args: chromiumArgs(extensionDir),
      // Playwright turns Chrome's popup blocker off; keep it on, as in a person's
      // browser, so tests prove that target=_blank and window.open work from actions
      // (they need the user activation only trusted input carries).
      ignoreDefaultArgs: ['--disable-popup-blocking'],
    });
    watchContext(context, errors, messages);
    const worker = await findServiceWorker(context);
    const extensionId = new URL(worker.url()).host;
    return makeHandle({ context, worker, extensionId, errors, messages, userDataDir: ownsProfile ? userDataDir : null });
  } catch (error) {
    await context?.close();
    if (ownsProfile) rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
}

/** A new empty browser profile folder; whoever asked for it removes it. */
export function newProfileDir() {
  return mkdtempSync(join(tmpdir(), 'hopbench-e2e-'));
}

async function findServiceWorker(context) {
  const isOurs = (w) => w.url().startsWith('chrome-extension://');
  const existing = context.serviceWorkers().find(isOurs);
  if (existing) return existing;
  try {
    return await context.waitForEvent('serviceworker', {
      predicate: isOurs,
      timeout: WORKER_TIMEOUT_MS,
    });
  } catch (error) {
    throw new Error(
      `the extension's service worker did not start within ${WORKER_TIMEOUT_MS} ms ` +
        `(manifest or background.js broken?): ${error.message}`,
    );
  }
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

function makeHandle({ context, worker, extensionId, errors, messages, userDataDir }) {
  const extensionUrl = (path) => `chrome-extension://${extensionId}/${path}`;
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
    async close() {
      try {
        await context.close();
      } finally {
        if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
      }
    },
  };
}
