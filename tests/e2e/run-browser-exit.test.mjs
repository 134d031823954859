// A browser killed in the middle of a run (SIGKILL: no clean shutdown, as in a crash or
// a killed session), then started again on the same profile. What docs/agent-run.md
// "Browser restarts" promises: the run does not resume (its window, pages and hop
// tracker died with the browser); as soon as the browser is back, with no page open,
// it ends as `error: interrupted by browser exit`, with every step recorded before the
// kill kept, the step in progress recorded as it stood, no step twice, and the action
// that was in flight never sent again.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { PROFILE_REMOVAL, launchExtension, newProfileDir, sendOk } from '../../runner/driver.mjs';
import { runFromPopup, store, threeHopTask, waitForHeldRequest } from './run-helpers.mjs';
import { startSites } from './sites.mjs';

/**
 * The pid of the Chromium browser process using `profileDir` (the one without a
 * `--type=` switch; renderers and helpers have one). Found in /proc: Playwright does
 * not expose the process of a persistent context.
 * @param {string} profileDir
 */
function browserPid(profileDir) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args;
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch (error) {
      const { code } = /** @type {NodeJS.ErrnoException} */ (error);
      if (code === 'ENOENT' || code === 'ESRCH') continue; // Exited meanwhile.
      throw error;
    }
    if (args.includes(`--user-data-dir=${profileDir}`) && !args.some((a) => a.startsWith('--type='))) {
      return Number(entry);
    }
  }
  throw new Error(`no Chromium browser process runs with the profile ${profileDir}`);
}

/**
 * @template T
 * @param {string} what
 * @param {() => Promise<T>} check
 * @param {number} [timeoutMs]
 * @returns {Promise<T>}
 */
async function waitFor(what, check, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a run whose browser is killed mid-run', { timeout: 150_000 }, () => {
  const profileDir = newProfileDir();
  /** @type {import('../types.mjs').Extension | undefined} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;

  before(async () => {
    sites = await startSites({ names: ['wiki', 'events'] });
  });

  after(async () => {
    await ext?.close();
    await sites?.close();
    rmSync(profileDir, PROFILE_REMOVAL);
  });

  test('ends as "interrupted by browser exit" when the browser is back: no step lost, none repeated', async () => {
    ext = await launchExtension({ profileDir });
    const popup = await ext.openExtensionPage('popup.html');
    // Step 2 clicks through to the events site, whose page is held: the browser dies
    // while step 2's action is in flight, after step 1 was recorded.
    const held = sites.hold('events', '/');
    const runId = await runFromPopup(popup, { taskText: threeHopTask(sites, { id: 'e2e/killed' }), fileName: 'killed.json', agent: 'replay' });
    await waitForHeldRequest(popup, runId, held);
    const before = await store(popup, 'getSteps', runId);
    assert.deepEqual(before.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1], 'step 1 was recorded before the kill');

    process.kill(browserPid(profileDir), 'SIGKILL');
    await ext.close().catch((error) => {
      // Playwright may report the browser it lost; the process is gone either way.
      console.log(`closing the killed browser's context: ${error.message}`);
    });
    ext = undefined;
    held.release();
    const eventsRequests = () => sites.requests.filter((r) => r.site === 'events').length;
    const requestsAtKill = eventsRequests();

    const restarted = await launchExtension({ profileDir });
    ext = restarted;
    // No page is opened until the run has ended: the browser's start alone ends it
    // (the worker reads its storage directly; that sends it no event).
    const record = () => restarted.worker.evaluate(async (key) => /** @type {import('../types.mjs').Json} */ ((await chrome.storage.local.get(key))[key]) ?? null, `run.${runId}`);
    await waitFor('the run record going away after the restart', async () => (await record()) === null);

    const page = await ext.openExtensionPage('runs.html');
    const { run, steps } = await sendOk(page, 'getRun', { runId, withSteps: true });
    assert.equal(run.status, 'error', JSON.stringify(run));
    assert.equal(run.cause, 'interrupted');
    assert.match(run.error, /^interrupted by browser exit: /);
    assert.equal(run.errorKind, 'browser_exit', 'the harness ended it, by name');
    assert.deepEqual(steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2], 'every step once: step 1 as recorded, step 2 as it stood');
    // Stored step against stored step: GET_RUN adds derived fields for the views (`words`).
    const stored = await store(page, 'getSteps', runId);
    assert.deepEqual(stored[0], before[0], 'step 1 unchanged by the restart');
    assert.equal(steps[1].note, run.error);
    assert.match(steps[1].action.text, /^click \[\d+\]$/);
    assert.equal(steps[1].result, null, 'the action in flight never reported back');
    assert.equal(eventsRequests(), requestsAtKill, 'the action in flight was not sent again');
    const { trajectory } = await sendOk(page, 'exportRun', { runId });
    assert.deepEqual(trajectory.steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), [1, 2]);
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
