// A sleep that a signal can cut short: waits that end on what a page does (act/settle.js,
// act/focus-loads.js) sleep until their window ends or the next event comes, instead of
// waking on a polling interval and adding its latency to every step.

/**
 * @returns {{ wake(): void, sleep(ms: number): Promise<void> }} `wake()` ends the
 *   current `sleep` at once (and does nothing when none is running)
 */
export function wakeable() {
  /** @type {(() => void) | null} */
  let wakeUp = null;
  return {
    wake: () => wakeUp?.(),
    sleep: (ms) =>
      new Promise((resolve) => {
        const timer = setTimeout(done, Math.max(0, ms));
        function done() {
          clearTimeout(timer);
          wakeUp = null;
          resolve();
        }
        wakeUp = done;
      }),
  };
}
