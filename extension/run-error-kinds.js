// Why the extension ended a run for the harness's reasons rather than the agent's, the
// task's or the settings': the run summary's and GET_RUN view's `errorKind` (null for
// every other end). Set where the run is ended (worker/run/driver.js failRun,
// worker/run/finish.js), so nobody has to recognise these ends by their words. The
// runner counts a run that ended so as an infrastructure error, worth running again
// (runner/attempts.mjs; docs/runner.md "Crashes, retries and resuming").

export const RUN_ERROR_KINDS = Object.freeze({
  /**
   * The browser exited (closed, crashed or killed) during the run, and its session with
   * it (worker/run/interrupt.js BROWSER_EXIT: "interrupted by browser exit: ...").
   */
  BROWSER_EXIT: 'browser_exit',
  /**
   * The run's session was gone when the run ended, and the end named no error of its
   * own: "the run's session ended before the run did (was the browser closed?) ...".
   */
  SESSION_LOST: 'session_lost',
  /**
   * The command in progress was started as often as the driver allows without finishing
   * (the worker stopped under it each time): "... was started 5 times without finishing".
   */
  COMMAND_RESTARTS: 'command_restarts',
});

/** @typedef {typeof RUN_ERROR_KINDS[keyof typeof RUN_ERROR_KINDS]} RunErrorKind */

/** Every `errorKind` a run view may carry. @type {readonly string[]} */
export const HARNESS_ERROR_KINDS = Object.freeze(Object.values(RUN_ERROR_KINDS));
