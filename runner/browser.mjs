// Launching headless Chromium with the hopbench extension loaded: shared by the runner
// (runner/run.mjs) and the driver of the dev tools and e2e tests (runner/driver.mjs), so
// both drive exactly the same browser setup.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const WORKER_TIMEOUT_MS = 15_000;

/**
 * rmSync options for a browser profile: Chromium's helper processes outlive the browser
 * by a moment and may still write into it (ENOTEMPTY), so the removal is retried.
 */
export const PROFILE_REMOVAL = Object.freeze({ recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
/** How Playwright's launch error names a browser that crashed (its process log). */
const CRASH_SIGNAL = /process did exit: exitCode=null, signal=(SIGSEGV|SIGABRT|SIGBUS|SIGILL|SIGTRAP|SIGFPE)\b/;

/**
 * The features Playwright turns on (its own `--enable-features`), and ours. Chromium
 * keeps only the last `--enable-features` on its command line, so ours repeats
 * Playwright's. `WebContentsDiscard`: a discarded tab keeps its tab and its id, as in
 * Chrome's current discarding. Without it Chromium 148 replaces the tab by a new one,
 * and its browser process died doing so (SIGSEGV) in 7 of 12 tries with our extension
 * and 1 of 10 with an empty one (a tab discarded by chrome.tabs.discard, as Memory
 * Saver does); with it, 0 of 8.
 */
const FEATURES_ARG = `--enable-features=${['CDPScreenshotNewSurface', 'SkipListAccountsWithoutGaiaCookies', 'WebContentsDiscard'].join(',')}`;

/** Flags from the platform notes: without them Chromium tries to reach the internet,
 * which this machine refuses. */
export const BASE_ARGS = Object.freeze([
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  FEATURES_ARG,
]);

/**
 * Playwright's default flags that turn off what a person's Chrome has on; the runner
 * leaves them out so the agent meets the browser people use:
 * - `--disable-popup-blocking`: with the popup blocker on, target=_blank and
 *   window.open need the user activation only trusted input carries, as for real users;
 * - `--disable-ipc-flooding-protection`: Chrome throttles a page that floods the
 *   browser with history.pushState / location changes (IPC flooding protection); a
 *   page that does so behaves for the agent as it does for a person.
 */
export const KEPT_CHROME_DEFAULTS = Object.freeze(['--disable-popup-blocking', '--disable-ipc-flooding-protection']);

/** @typedef {Awaited<ReturnType<typeof launchWithExtension>>} LaunchedBrowser */

/**
 * The base flags plus loading our unpacked extension, and any others beside it (the
 * extensions a person's browser has: `otherExtensions`, unpacked folders).
 * @param {string} extensionDir
 * @param {string[]} [otherExtensions]
 */
export function chromiumArgs(extensionDir, otherExtensions = []) {
  const all = [extensionDir, ...otherExtensions].join(',');
  return [
    ...BASE_ARGS,
    // Playwright passes --disable-extensions; this re-enables ours (and those asked for).
    `--disable-extensions-except=${all}`,
    `--load-extension=${all}`,
  ];
}

/**
 * A plain headless Chromium without the extension (e.g. to open a report).
 * @param {{ chromiumPath: string }} options
 */
export function launchPlain({ chromiumPath }) {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: [...BASE_ARGS] });
}

/** A new empty browser profile folder; whoever asked for it removes it. */
export function newProfileDir() {
  return mkdtempSync(join(tmpdir(), 'hopbench-chromium-'));
}

/**
 * Starts Chromium with the unpacked extension in `extensionDir`. Without `profileDir`
 * it uses a fresh profile under the system temp folder, deleted by `close` with
 * whatever the extension stored in it (settings, keys); with one, the caller owns and
 * removes it (a test that restarts the browser on the same profile). `onContext` runs
 * before the extension's worker is awaited, so a caller can watch every page and
 * worker from the start. `callerHandlesSignals`: the caller closes the browser on
 * Ctrl-C / SIGTERM / SIGHUP itself (the runner); Playwright's own handlers would close
 * it and exit the process first, before the caller's cleanup (the profile) ran.
 * `otherExtensions`: unpacked extension folders loaded beside ours.
 * @param {{ extensionDir: string, chromiumPath: string, profileDir?: string,
 *   onContext?: (context: import('playwright-core').BrowserContext) => void,
 *   callerHandlesSignals?: boolean, otherExtensions?: string[], extraArgs?: string[] }} options
 *   `extraArgs`: more Chromium flags
 * @returns {Promise<{ context: import('playwright-core').BrowserContext,
 *   worker: import('playwright-core').Worker, extensionId: string,
 *   extensionUrl: (path: string) => string, close: () => Promise<void> }>}
 */
export async function launchWithExtension({ extensionDir, chromiumPath, profileDir, onContext, callerHandlesSignals = false, otherExtensions = [], extraArgs = [] }) {
  if (!existsSync(join(extensionDir, 'manifest.json'))) {
    throw new Error(`no built extension at ${extensionDir}: run ./build.sh first`);
  }
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `no Chromium at ${chromiumPath}: run ./build.sh test to install it, ` +
        'or set HOPBENCH_CHROMIUM=/path/to/chromium',
    );
  }
  const ownsProfile = profileDir === undefined;
  let userDataDir = profileDir ?? newProfileDir();
  const removeProfile = () => ownsProfile && rmSync(userDataDir, PROFILE_REMOVAL);
  /** @type {import('playwright-core').BrowserContext | undefined} */
  let context;
  try {
    const launch = () =>
      chromium.launchPersistentContext(userDataDir, {
        executablePath: chromiumPath,
        headless: true,
        args: [...chromiumArgs(extensionDir, otherExtensions), ...extraArgs],
        ignoreDefaultArgs: [...KEPT_CHROME_DEFAULTS],
        ...(callerHandlesSignals ? { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false } : {}),
      });
    try {
      context = await launch();
    } catch (error) {
      // Chromium that crashes while it starts (seen on a loaded machine: SIGSEGV before
      // its first page) is started once more, on a fresh profile when the profile is
      // ours; a second failure is the error. Anything else (a browser stopped by a
      // signal we or the person sent, no extension worker) is not retried.
      const crash = CRASH_SIGNAL.exec(error instanceof Error ? error.message : '');
      if (!crash) throw error;
      console.error(`Chromium crashed while starting (${crash[1]}); starting it once more`);
      if (ownsProfile) {
        removeProfile();
        userDataDir = newProfileDir();
      }
      context = await launch();
    }
    // Dialogs are the extension's to answer, as in a person's Chrome, where nothing
    // else would (extension/worker/page/notices.js). Without a listener Playwright
    // dismisses every dialog itself, often before the extension hears of it, and the
    // run would then not record or tell it. A listener that does nothing leaves them.
    context.on('dialog', () => undefined);
    onContext?.(context);
    const worker = await findServiceWorker(context);
    const extensionId = new URL(worker.url()).host;
    const launched = context;
    return {
      context: launched,
      worker,
      extensionId,
      extensionUrl: (path) => `chrome-extension://${extensionId}/${path}`,
      async close() {
        try {
          await launched.close();
        } finally {
          removeProfile();
        }
      },
    };
  } catch (error) {
    await context?.close();
    removeProfile();
    throw error;
  }
}

/** @param {import('playwright-core').BrowserContext} context */
async function findServiceWorker(context) {
  /** @param {import('playwright-core').Worker} w */
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
        `(manifest or background.js broken?): ${/** @type {Error} */ (error).message}`,
      { cause: error },
    );
  }
}
