// Helpers of the agent-run e2e tests: the 3-hop task over the local test sites, the
// popup's user path (import a task file, choose the agent, Run), reading the trajectory
// store from an extension page, and waiting for a run to end.

import { sendOk } from '../../runner/driver.mjs';

/**
 * wiki home → Tokyo Tower article → events site → events in Tokyo: three hops on two
 * sites, with the reference trajectory a person would take (the replay agent's script).
 * @param {import('../types.mjs').Sites} sites
 * @param {{ id?: string, reference?: boolean }} [options]
 */
export function threeHopTask(sites, { id = 'e2e/three-hops', reference = true } = {}) {
  /** @type {Record<string, unknown>} */
  const task = {
    id,
    intent: "Starting from the wiki, read the Tokyo Tower article, follow it to the events site and list the events in Tokyo.",
    start_urls: [sites.url('wiki', '/index.html')],
    hops: [
      { description: 'Read about the Tokyo Tower', condition: { kind: 'url', part: 'path', op: 'contains', value: 'Tokyo_Tower' } },
      { description: 'Open the events site', condition: { kind: 'url', op: 'prefix', value: sites.origin('events') } },
      { description: 'List the events in Tokyo', condition: { kind: 'url', part: 'param', param: 'city', op: 'equals', value: 'tokyo' } },
    ],
  };
  if (reference) {
    task.reference_trajectory = [
      "click {link 'Tokyo Tower'}",
      "click {link 'the events site'}",
      "click {link 'Events in Tokyo'}",
    ];
  }
  return JSON.stringify(task, null, 2);
}

/**
 * The popup's user path: import the task file, pick it and the agent, press Run.
 * @param {import('../types.mjs').Page} popup
 * @param {{ taskText: string, fileName?: string, agent: string, keepWindow?: boolean }} run
 * @returns {Promise<string>} the new run's id
 */
export async function runFromPopup(popup, { taskText, fileName = 'three-hops.json', agent, keepWindow = false }) {
  await popup.locator('#import-files').setInputFiles({
    name: fileName,
    mimeType: 'application/json',
    buffer: Buffer.from(taskText),
  });
  await popup.waitForFunction(
    (name) => /** @type {HTMLSelectElement | null} */ (document.querySelector('#task'))?.value === `imported:${name}`,
    fileName,
  );
  await popup.selectOption('#agent', agent);
  await popup.locator('#keep-window').setChecked(keepWindow);
  const before = await currentRunId(popup);
  await popup.locator('#run').click();
  // START_RUN writes runs.current: the new run's id (or the popup shows why not).
  const deadline = Date.now() + 15_000;
  for (;;) {
    const id = await currentRunId(popup);
    if (id && id !== before) return id;
    if (Date.now() > deadline) {
      throw new Error(`no run started within 15 s; the popup says: ${await popup.locator('#run-status').textContent()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * @param {import('../types.mjs').Page} page
 * @returns {Promise<string | null>}
 */
function currentRunId(page) {
  return page.evaluate(async () =>
    /** @type {string | undefined} */ (/** @type {string} */ ((await chrome.storage.local.get('runs.current'))['runs.current'])) ?? null);
}

/**
 * Calls `fn(...args)` of worker/run/trajectories.js inside an extension page.
 * @param {import('../types.mjs').Page} page
 * @param {string} fn
 * @param {...unknown} args
 * @returns {Promise<import('../types.mjs').Json>} what the function gave (stored records)
 */
export function store(page, fn, ...args) {
  return page.evaluate(
    async ([name, fnArgs]) => {
      // A path of the extension page, not of this file: tsc must not resolve it.
      /** @type {Record<string, (...a: unknown[]) => unknown>} */
      const module = await import(/** @type {string} */ ('./worker/run/trajectories.js'));
      return module[name](...fnArgs);
    },
    /** @type {[string, unknown[]]} */ ([fn, args]),
  );
}

/**
 * Polls GET_RUN until the run is no longer running; returns the last view.
 * @param {import('../types.mjs').Page} page
 * @param {string} runId
 * @param {number} [timeoutMs]
 */
export async function waitForRunEnd(page, runId, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { run } = await sendOk(page, 'getRun', { runId });
    if (run.status !== 'running') return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still running after ${timeoutMs} ms: ${JSON.stringify(run)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The page's window with the hop states recorded so far.
 * @typedef {Window & { hopSnapshots: string[] }} HopWindow
 */

/**
 * The hop states the side panel shows, e.g. `done:1 current waiting`.
 * @param {import('../types.mjs').Page} panel
 */
export function watchHopQueue(panel) {
  return panel.evaluate(() => {
    const page = /** @type {HopWindow} */ (/** @type {unknown} */ (window));
    page.hopSnapshots = [];
    const snap = () => {
      const hops = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.hop'))].map((h) =>
        h.dataset.state === 'done' ? `done:${h.dataset.step}` : h.dataset.state,
      );
      const text = hops.join(' ');
      if (hops.length && page.hopSnapshots.at(-1) !== text) page.hopSnapshots.push(text);
    };
    new MutationObserver(snap).observe(document.body, { childList: true, subtree: true });
    snap();
  });
}

/** @param {import('../types.mjs').Page} panel */
export function hopSnapshots(panel) {
  return panel.evaluate(() => /** @type {HopWindow} */ (/** @type {unknown} */ (window)).hopSnapshots);
}

/**
 * Waits for a held request (sites.hold) to arrive while the run is still going; fails,
 * saying how the run ended, if it ends first or nothing arrives in `timeoutMs`.
 * Awaiting `held.arrived` alone would hang the test for good when the run never asks.
 * @param {import('../types.mjs').Page} page
 * @param {string} runId
 * @param {{ arrived: Promise<unknown> }} held
 * @param {number} [timeoutMs]
 */
export async function waitForHeldRequest(page, runId, held, timeoutMs = 30_000) {
  let arrived = false;
  held.arrived.then(() => (arrived = true), () => null);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A microtask turn lets an arrival already resolved be seen before the first poll.
    await Promise.resolve();
    if (arrived) return;
    const { run } = await sendOk(page, 'getRun', { runId });
    if (arrived) return;
    if (run.status !== 'running') throw new Error(`run ${runId} ended before the held page was asked for: ${JSON.stringify(run)}`);
    if (Date.now() > deadline) throw new Error(`run ${runId} did not ask for the held page in ${timeoutMs} ms: ${JSON.stringify(run)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
