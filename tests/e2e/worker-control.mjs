// Stopping the extension's service worker from a test, as the Stop button of
// chrome://serviceworker-internals does: CDP `ServiceWorker.stopWorker` on a session of
// one of the extension's pages, which sees the extension origin's worker versions.
// Chrome starts the worker again for its next event (a message, an alarm, a
// navigation); Playwright's Worker handle follows the restart.

const STOP_TIMEOUT_MS = 10_000;

/** @param {import('playwright-core').Page} extPage an extension page (e.g. runs.html) */
export async function workerControl(extPage) {
  // Not URL.origin: node gives "null" for chrome-extension: URLs.
  const { protocol, host } = new URL(extPage.url());
  const prefix = `${protocol}//${host}/`;
  const cdp = await extPage.context().newCDPSession(extPage);
  const versions = new Map();
  // Every stop Chrome reported: a pending event may start the worker again within a
  // millisecond, too fast to see by looking at its latest status.
  let stopsSeen = 0;
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions: updated }) => {
    for (const v of updated) {
      if (v.runningStatus === 'stopped' && versions.get(v.versionId)?.runningStatus !== 'stopped') stopsSeen += 1;
      versions.set(v.versionId, v);
    }
  });
  await cdp.send('ServiceWorker.enable');
  const ours = () => [...versions.values()].find((v) => v.scriptURL.startsWith(prefix));

  /**
   * @param {() => boolean} predicate
   * @param {string} what
   * @param {number} [timeoutMs]
   */
  async function waitFor(predicate, what, timeoutMs = STOP_TIMEOUT_MS) {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) {
        throw new Error(`the service worker did not become ${what} within ${timeoutMs} ms: ${JSON.stringify(ours())}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  return {
    /** `running`, `stopped`, `starting` or `stopping` (CDP runningStatus). */
    status: () => ours()?.runningStatus,
    /** Stops the worker and waits until Chrome reports it stopped. */
    async stop() {
      await waitFor(() => ours() !== undefined, 'known');
      const before = stopsSeen;
      await cdp.send('ServiceWorker.stopWorker', { versionId: ours().versionId });
      await waitFor(() => stopsSeen > before, 'stopped');
    },
    /** Waits until the worker runs again (started by an event, not by this helper). */
    waitUntilRunning(timeoutMs = STOP_TIMEOUT_MS) {
      return waitFor(() => ours()?.runningStatus === 'running', 'running again', timeoutMs);
    },
    detach: () => cdp.detach(),
  };
}
