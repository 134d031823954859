// Bounds on what the runner waits for from the browser. The extension answers every
// message in time when all is well, but nothing makes it: a lock it never releases (a
// page whose "leave this page?" prompt nobody answers, holding the session lock while
// its tab is closed) leaves a message unanswered for good, and an unbounded await
// would hold the whole batch with it. So every message an attempt sends is raced
// against the attempt's deadline (--task-timeout; docs/runner.md "The per-task wall").

/** Thrown by `answerBy` when the deadline passed first; `what` names the message. */
export class NoAnswer extends Error {
  /**
   * @param {string} what e.g. `START_RUN`
   * @param {number} waitedMs
   */
  constructor(what, waitedMs) {
    super(`${what} gave no answer in ${seconds(waitedMs)} s`);
    this.what = what;
  }
}

/**
 * `promise`, or a NoAnswer rejection once the clock reaches `until`. The call itself
 * is not cancelled (a page.evaluate cannot be); what it settles to later is dropped.
 * @template T
 * @param {Promise<T>} promise
 * @param {number} until a Date.now() time
 * @param {string} what the message, for the error
 * @returns {Promise<T>}
 */
export function answerBy(promise, until, what) {
  const sent = Date.now();
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new NoAnswer(what, Date.now() - sent)), Math.max(0, until - sent));
  });
  // Promise.race subscribes to `promise`, so its rejection after the deadline is
  // handled (dropped), not reported as unhandled.
  return /** @type {Promise<T>} */ (Promise.race([promise, late])).finally(() => clearTimeout(timer));
}

/**
 * Whole seconds, as --task-timeout is given.
 * @param {number} ms
 */
export function seconds(ms) {
  return Math.round(ms / 1000);
}
