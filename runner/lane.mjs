// One lane of a batch: a headless Chromium of its own (its own profile folder), the
// extension page the runner talks through (runner/extension.mjs), and a watch on both.
//
// Deaths it sees: the browser process gone (Playwright's context `close` event: the
// DevTools pipe broke) and the extension's process crashed (the runner's extension
// page `crash`es: MV3 runs the service worker and the extension's pages in one
// process, and Chrome restarts the extension on its next event, but the run in it
// lost its worker mid-command). Either way the lane is dead: the task in flight is
// recorded as an infrastructure error with what `salvage` recovers, and the lane
// gets a fresh browser.
//
// The profile folder is the runner's (named hopbench-runner-<pid>-*), not the
// browser's: after a crash it still holds the run's steps (IndexedDB, committed step
// by step), so `salvage` starts Chromium on it again and exports the run. A folder
// left by a runner that was killed (SIGKILL leaves no time to delete it) is removed
// by the next run (`sweepStaleProfiles`): it may hold the model API key.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROFILE_REMOVAL, launchWithExtension } from './browser.mjs';
import { connectWithExtension } from './remote-browser.mjs';
import { openDriver } from './extension.mjs';
import { chromiumPath, distDir } from './paths.mjs';
import { processExists } from './process-exists.mjs';
import { answerBy } from './wall.mjs';

const PROFILE_PREFIX = 'hopbench-runner-';
/** A browser that does not close within this long is killed. */
const CLOSE_TIMEOUT_MS = 10_000;
/** How long the recovered run gets to be ended by its restarted extension. */
const SALVAGE_WAIT_MS = 5_000;
/** How long a closed extension page waits before it counts as the lane's death. */
const PAGE_CLOSE_GRACE_MS = 500;
/** A call that failed waits this long for the death signal that explains it. */
const DEATH_SETTLE_MS = 2_000;
/**
 * A fresh browser's extension page and settings (SAVE_SETTINGS) get this long: an
 * extension that does not answer them would hold the batch before any task began.
 */
const SETUP_BOUND_MS = 60_000;
/** The messages of a salvage (GET_RUN, STOP_RUN, EXPORT_RUN) get this long in all. */
const SALVAGE_BOUND_MS = 30_000;

/** Thrown by `guard` when the lane died while the call was pending. */
export class LaneDied extends Error {}

/**
 * What a lane needs of its browser, launched (browser.mjs) or reached where it runs
 * (remote-browser.mjs).
 * @typedef {Pick<import('./browser.mjs').LaunchedBrowser, 'context' | 'extensionId' | 'extensionUrl' | 'close'>} LaunchedBrowser
 */
/** @typedef {import('./extension.mjs').Driver} Driver */
/** @typedef {(driver: Driver, first: boolean) => Promise<void>} Setup */

export class Lane {
  /** @type {LaunchedBrowser | null} */
  #browser = null;
  /** @type {Driver | null} */
  #driver = null;
  /** @type {string | null} */
  #profile = null;
  /** @type {string | null} */
  #dead = null;
  /** Resolves with the reason when the current browser dies: one promise per browser,
   * shared by every call waiting on it (a poll every 500 ms must not pile up waiters).
   * @type {Promise<string> | null} */
  #death = null;
  /** @type {((reason: string) => void) | null} */
  #resolveDeath = null;
  /** Counts browsers: events of an earlier one (closed or died) must not touch the next. */
  #generation = 0;
  /** The close in progress: Ctrl-C and the batch's end may both close the lane.
   * @type {Promise<void> | null} */
  #closing = null;

  /**
   * @param {number} number 1-based, for messages
   * @param {{ setup?: Setup | undefined, endpoint?: string | null, otherExtensions?: string[], browserArgs?: string[] }} [options]
   *   `setup` runs on each fresh browser's driver (SAVE_SETTINGS for a model run);
   *   `endpoint`: drive the browser already running there (--browser-endpoint)
   *   instead of launching one; the lane then never ends that browser
   */
  constructor(number, { setup, endpoint = null, otherExtensions = [], browserArgs = [] } = {}) {
    this.number = number;
    this.setup = setup;
    this.endpoint = endpoint;
    /** Unpacked extensions loaded beside ours (--with-extension). */
    this.otherExtensions = otherExtensions;
    /** More flags for the browsers it launches (the name guard's, private-names.mjs). */
    this.browserArgs = browserArgs;
    /** @type {number | null} */
    this.pid = null;
    /** Browser deaths (and failed launches) since this lane last finished a task. */
    this.deathsInARow = 0;
    this.launches = 0;
  }

  get driver() {
    return this.#driver;
  }

  /** Why the lane's browser died, or null while it lives. */
  get dead() {
    return this.#dead;
  }

  /** Starts a fresh browser on a fresh profile; resolves once the extension answers. */
  async launch() {
    this.#profile = this.endpoint ? null : newRunnerProfile();
    this.#dead = null;
    this.#death = new Promise((/** @type {(reason: string) => void} */ resolve) => {
      this.#resolveDeath = resolve;
    });
    this.#generation += 1;
    const died = this.#dying(this.#generation);
    /** @type {LaunchedBrowser} */
    let browser;
    try {
      const onContext = (/** @type {import('playwright-core').BrowserContext} */ context) =>
        context.on('close', () => died(this.#browserGone()));
      browser = this.endpoint
        ? await connectWithExtension({ endpoint: this.endpoint, extensionDir: distDir, onContext })
        : await launchWithExtension({
          extensionDir: distDir,
          chromiumPath,
          profileDir: this.#profile ?? undefined,
          onContext,
          callerHandlesSignals: true,
          otherExtensions: this.otherExtensions,
          extraArgs: this.browserArgs,
        });
      this.#browser = browser;
      this.pid = this.endpoint ? null : await browserPid(browser);
      const setupBy = Date.now() + SETUP_BOUND_MS;
      const driver = await answerBy(openDriver(browser), setupBy, "the runner's extension page");
      driver.page.on('crash', () => died("the extension's process crashed (its service worker and pages went with it)"));
      // A browser that dies closes its pages first, then the context: the page's
      // close only means the page itself once the browser has had a moment to go.
      driver.page.on('close', () => {
        setTimeout(() => {
          const browserGone = browser.context.browser()?.isConnected() === false;
          died(browserGone ? this.#browserGone() : "the runner's extension page was closed");
        }, PAGE_CLOSE_GRACE_MS);
      });
      if (this.setup) await answerBy(this.setup(driver, this.launches === 0), setupBy, 'SAVE_SETTINGS');
      this.#driver = driver;
      this.launches += 1;
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  /** Resolves with the reason once the lane dies. */
  whenDead() {
    if (this.#dead) return Promise.resolve(this.#dead);
    // No browser (closed): nothing can die any more.
    return this.#death ?? new Promise(() => undefined);
  }

  /**
   * `promise`, or a LaneDied rejection as soon as the lane dies.
   * @template T
   * @param {Promise<T>} promise
   * @returns {Promise<T>}
   */
  guard(promise) {
    return Promise.race([
      promise,
      this.whenDead().then((reason) => {
        throw new LaneDied(reason);
      }),
    ]);
  }

  /**
   * After a call failed: the death that explains it, if one comes within a moment
   * (the failed call and the close event race), else null.
   */
  async deathExplaining() {
    // Closed by the runner (Ctrl-C): nothing died, and nothing is worth waiting for.
    if (this.#dead || !this.#browser) return this.#dead;
    let timer;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => resolve(null), DEATH_SETTLE_MS);
    });
    try {
      return await Promise.race([this.whenDead(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * What a dead lane's run recorded before it died: closes the browser if it still
   * runs (an extension that crashed inside it), starts Chromium on the same profile,
   * lets the extension end the run (its session did not survive: "interrupted by
   * browser exit"), Stops it if it goes on, and exports it. Every step
   * in the export was recorded before the death, or is the step the Stop ended.
   * @param {string} runId
   * @returns {Promise<{ run: import('./extension.mjs').ExtensionData | null,
   *   trajectory: import('./extension.mjs').ExtensionData | null, error: string | null }>}
   */
  async salvage(runId) {
    await this.#closeBrowser();
    /** @type {LaunchedBrowser | null} */
    let recovery = null;
    let recoveryPage = null;
    try {
      // A browser of our own starts again on its profile; one we were given is
      // reached again where it was (its farm may have restarted it).
      recovery = this.endpoint
        ? await connectWithExtension({ endpoint: this.endpoint, extensionDir: distDir })
        : await launchWithExtension({
          extensionDir: distDir,
          chromiumPath,
          // Set by launch, which always comes first: the dead browser's own profile.
          profileDir: /** @type {string} */ (this.#profile),
          callerHandlesSignals: true,
          otherExtensions: this.otherExtensions,
          extraArgs: this.browserArgs,
        });
      // Each message is bounded: a recovered extension that does not answer ends the
      // salvage with that, and the finally below closes its browser.
      const bound = Date.now() + SALVAGE_BOUND_MS;
      const driver = await answerBy(openDriver(recovery), bound, "the recovered browser's extension page");
      recoveryPage = driver.page;
      // The restarted worker resumes the run at once and, finding its session gone,
      // ends it. A command that needs no session (a model call) would go on: Stop it.
      let run = await answerBy(driver.getRun(runId), bound, 'GET_RUN');
      const deadline = Math.min(Date.now() + SALVAGE_WAIT_MS, bound);
      while (run.status === 'running' && Date.now() < deadline) {
        await sleep(250);
        run = await answerBy(driver.getRun(runId), bound, 'GET_RUN');
      }
      if (run.status === 'running') run = (await answerBy(driver.stopRun(runId), bound, 'STOP_RUN')).run ?? run;
      return { run, trajectory: await answerBy(driver.exportRun(runId), bound, 'EXPORT_RUN'), error: null };
    } catch (error) {
      return { run: null, trajectory: null, error: firstLine(error) };
    } finally {
      if (this.endpoint) await closePageWithin(recoveryPage);
      await closeWithin(recovery, null);
    }
  }

  /**
   * Closes the browser (killing it if it hangs) and deletes the profile. The lane is
   * then neither alive nor dead: `launch` gives it a fresh browser.
   */
  close() {
    this.#closing ??= (async () => {
      // Playwright's pipe to the browser does not keep node running: without this the
      // process could end mid-close (after Ctrl-C, say), leaving the profile behind.
      const keepAlive = setInterval(() => undefined, 1000);
      try {
        await this.#closeBrowser();
        // Only once the browser is gone: one still shutting down writes into it again.
        if (this.#profile) rmSync(this.#profile, PROFILE_REMOVAL);
        this.#profile = null;
        this.#dead = null;
        this.#death = null;
      } finally {
        clearInterval(keepAlive);
        this.#closing = null;
      }
    })();
    return this.#closing;
  }

  async #closeBrowser() {
    // Closing is not dying: whatever this browser reports from now on is ignored.
    this.#generation += 1;
    const browser = this.#browser;
    const driver = this.#driver;
    this.#browser = null;
    this.#driver = null;
    // A browser we were given stays up: only the runner's own page goes.
    if (this.endpoint) await closePageWithin(driver?.page ?? null);
    await closeWithin(browser, this.pid);
  }

  #browserGone() {
    if (this.endpoint) {
      return `the browser at ${this.endpoint} went away: closed, crashed, or the connection dropped`;
    }
    return `the browser (pid ${this.pid ?? 'unknown'}) died: killed, crashed or out of memory`;
  }

  /**
   * Marks the lane dead, for the browser of `generation` only (while it is current).
   * @param {number} generation
   */
  #dying(generation) {
    return (/** @type {string} */ reason) => {
      if (generation !== this.#generation || this.#dead) return;
      this.#dead = reason;
      this.#resolveDeath?.(reason);
    };
  }
}

/**
 * The browser process's id, from Chromium itself (SystemInfo.getProcessInfo).
 * @param {LaunchedBrowser} browser
 * @returns {Promise<number | null>}
 */
async function browserPid(browser) {
  // A persistent context always has its browser (null is for Android/Electron).
  const chromium = /** @type {import('playwright-core').Browser} */ (browser.context.browser());
  const session = await chromium.newBrowserCDPSession();
  try {
    const { processInfo } = await session.send('SystemInfo.getProcessInfo');
    return processInfo.find((p) => p.type === 'browser')?.id ?? null;
  } finally {
    await session.detach();
  }
}

/**
 * @param {LaunchedBrowser | null} browser
 * @param {number | null} pid
 */
async function closeWithin(browser, pid) {
  if (!browser) return;
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const timedOut = new Promise((resolve) => {
    timer = setTimeout(() => resolve('timeout'), CLOSE_TIMEOUT_MS);
  });
  const closed = browser.close().then(
    () => 'closed',
    // Closing a browser that already died fails; it is gone, which was the point.
    () => 'gone',
  );
  const outcome = await Promise.race([closed, timedOut]);
  clearTimeout(timer);
  if (outcome === 'timeout' && pid) killQuietly(pid);
}

/**
 * Closes a page of the runner's in a browser it was given, waiting CLOSE_TIMEOUT_MS at
 * most (a browser that does not answer keeps the page; the lane goes on without it).
 * @param {import('playwright-core').Page | null} page
 */
async function closePageWithin(page) {
  if (!page) return;
  await answerBy(page.close(), Date.now() + CLOSE_TIMEOUT_MS, 'closing the page').catch(() => undefined);
}

/** @param {number} pid */
function killQuietly(pid) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch (error) {
    // ESRCH: it exited in the meantime, as hoped.
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ESRCH') throw error;
  }
}

function newRunnerProfile() {
  return mkdtempSync(join(tmpdir(), `${PROFILE_PREFIX}${process.pid}-`));
}

/**
 * Removes the profile folders of runners that are no longer running (killed before
 * they could delete them). Returns how many were removed.
 */
export function sweepStaleProfiles(dir = tmpdir()) {
  let removed = 0;
  for (const name of readdirSync(dir)) {
    const match = new RegExp(`^${PROFILE_PREFIX}(\\d+)-`).exec(name);
    if (!match || Number(match[1]) === process.pid || processExists(Number(match[1]))) continue;
    rmSync(join(dir, name), PROFILE_REMOVAL);
    removed += 1;
  }
  return removed;
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** @param {unknown} error */
export function firstLine(error) {
  const text = error instanceof Error ? error.message : String(error);
  // Playwright appends the browser's whole log to a closed browser's errors.
  return text.split('\n')[0].trim();
}
