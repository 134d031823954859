// Attempts and error kinds: which ERRORs are the harness's fault (and so worth
// running again), which tasks a run still owes, and when a model run's end is the
// endpoint's failure rather than the agent's, or no outcome of the agent's at all. Pure: tested without a browser
// (the unit test runner-units.test.mjs). Rules: docs/runner.md "Crashes, retries and
// resuming".

import { EARLY_STOP_RULES, FINISH_CAUSES, TRANSIENT_CALL_ERROR_KINDS } from '../extension/core-terms.js';
import { HARNESS_ERROR_KINDS } from '../extension/run-error-kinds.js';

/**
 * `name`, checked against the core's list of such names: a term the core renamed
 * fails as the module naming it loads (in the unit tests first), not quietly at a
 * batch's end.
 * @param {readonly string[]} terms
 * @param {string} name
 */
export function term(terms, name) {
  if (!terms.includes(name)) {
    throw new Error(`runner/attempts.mjs names ${name}, which is not among the core's ${terms.join(', ')}`);
  }
  return name;
}

/** Why a run ended (agent::FinishCause), and the early-stop rule for steps without an action (ParseFailures). */
const MODEL_UNAVAILABLE = term(FINISH_CAUSES, 'model_unavailable');
const EARLY_STOP = term(FINISH_CAUSES, 'early_stop');
const NO_ACTION_RULE = term(EARLY_STOP_RULES, 'parse_failures');

/** `error_kind` of an ERROR a retry may fix: the browser, worker, sandbox, model endpoint or timeout. */
export const INFRASTRUCTURE = 'infrastructure';
/** `error_kind` of an ERROR a retry would meet again: the task file, the settings, a start URL. */
export const RUN = 'run';

/**
 * How runners before `error_kind` worded the harness failures in their ERROR lines, as
 * the fixed beginnings of those messages: a line without `error_kind` is read by these
 * (with `startsWith`), and only such a line. Everything written since carries
 * `error_kind`, and a run the extension ended for the harness's reasons says so by its
 * `errorKind` (`isHarnessEnd`). The runner sent every message through `page.evaluate`,
 * so Playwright's words for a page or browser gone came after that prefix; the extension
 * named the command before "of step N was started 5 times without finishing".
 */
const OLDER_INFRASTRUCTURE_MESSAGES = Object.freeze([
  'the run did not start: page.evaluate: Target page, context or browser has been closed',
  'the run did not start: page.evaluate: Target crashed',
  'lost contact with the run',
  'timed out after ',
  "the run's session ended before the run did",
  'interrupted by browser exit',
  ...['observe', 'call_model', 'judge', 'act', 'record'].map((command) => `${command} of step `),
]);

/**
 * True when an ERROR line without `error_kind` names a harness failure, by the words
 * older runners wrote (`OLDER_INFRASTRUCTURE_MESSAGES`).
 * @param {unknown} error the line's `error`
 */
export function isOlderInfrastructureMessage(error) {
  return typeof error === 'string' && OLDER_INFRASTRUCTURE_MESSAGES.some((start) => error.startsWith(start));
}

/**
 * True when the extension ended a run in error for the harness's reasons (the browser
 * exited under it, its session went, a command was started over and over as the worker
 * stopped): its view's `errorKind` (extension/run-error-kinds.js), set where the run was
 * ended.
 * @param {import('./extension.mjs').ExtensionData | null} run GET_RUN's view
 */
export function isHarnessEnd(run) {
  return run?.status === 'error' && HARNESS_ERROR_KINDS.includes(run.errorKind);
}

/**
 * The error kind of a recorded line: its `error_kind`, or for an ERROR line of an
 * older runner the kind its message implies; null for PASS and FAIL.
 * @param {{ verdict?: unknown, error_kind?: unknown, error?: unknown }} line a results.jsonl line
 * @returns {'infrastructure' | 'run' | null}
 */
export function errorKindOf(line) {
  if (line.verdict !== 'ERROR') return null;
  if (line.error_kind === INFRASTRUCTURE || line.error_kind === RUN) return line.error_kind;
  return isOlderInfrastructureMessage(line.error) ? INFRASTRUCTURE : RUN;
}

/**
 * What a results file says of one task: its last line's verdict, kind and attempt.
 * @param {{ verdict?: unknown, error_kind?: unknown, error?: unknown, attempt?: unknown }} line
 * @returns {{ verdict: string, errorKind: 'infrastructure' | 'run' | null, attempt: number }}
 */
export function lastAttemptOf(line) {
  const attempt = typeof line.attempt === 'number' && Number.isInteger(line.attempt) && line.attempt >= 1 ? line.attempt : 1;
  return { verdict: String(line.verdict), errorKind: errorKindOf(line), attempt };
}

/**
 * The runs this invocation owes: every task without a recorded line (attempt 1), and
 * the ones whose last attempt is an ERROR that `retryErrors` covers (next attempt):
 * `infrastructure` (the default) re-runs infrastructure errors, `all` every ERROR,
 * `none` no ERROR.
 * @param {T[]} tasks
 * @param {Map<string, {verdict: string, errorKind: string|null, attempt: number}>} recorded
 * @param {'infrastructure'|'all'|'none'} retryErrors
 * @returns {{ runs: {task: T, attempt: number}[], errorsToRetry: number }}
 * @template {{id: string}} T
 */
export function planRuns(tasks, recorded, retryErrors) {
  /** @type {{task: T, attempt: number}[]} */
  const runs = [];
  let errorsToRetry = 0;
  for (const task of tasks) {
    const last = recorded.get(task.id);
    if (last === undefined) {
      runs.push({ task, attempt: 1 });
    } else if (last.verdict === 'ERROR' && covers(retryErrors, last.errorKind)) {
      runs.push({ task, attempt: last.attempt + 1 });
      errorsToRetry += 1;
    }
  }
  return { runs, errorsToRetry };
}

/**
 * @param {'infrastructure'|'all'|'none'} retryErrors
 * @param {string | null} kind
 */
function covers(retryErrors, kind) {
  if (retryErrors === 'all') return true;
  if (retryErrors === 'none') return false;
  return kind === INFRASTRUCTURE;
}

/**
 * When a model run ended because the model endpoint failed, not because of what the
 * agent did, says so; otherwise null. Read from structured fields only (the run view's
 * `callErrorKind` and `rule`, the steps' `model_error.error.kind`), whose names are the
 * core's (extension/core-terms.js). Two shapes:
 * - the run ended as `model_unavailable` on a failure that may pass by itself (a
 *   transient kind ended the run: the network, the server not there after the client's
 *   own tries); a refused key, an unknown model or URL are the settings' fault and stay
 *   `run` errors;
 * - an early stop by the no-action rule (`rule: parse_failures`, "the last 3 steps gave
 *   no action") whose trailing steps without an action are all model calls that failed
 *   transiently (5xx, 429, timeouts) after the client's tries: the rule fired on the
 *   endpoint's failures. A malformed reply among them makes it the agent's outcome, and
 *   so does the step limit (the budget was spent, whatever the last step met).
 * @param {import('./extension.mjs').ExtensionData | null} run GET_RUN's view
 * @param {import('./extension.mjs').ExtensionData | null} trajectory EXPORT_RUN's export (for the steps)
 */
export function modelEndpointFailure(run, trajectory) {
  if (!run) return null;
  const reason = typeof run.reason === 'string' ? run.reason : '';
  if (run.status === 'error' && run.cause === MODEL_UNAVAILABLE) {
    return isTransient(run.callErrorKind) ? `the model endpoint could not be reached: ${reason}` : null;
  }
  if (run.cause !== EARLY_STOP || run.rule !== NO_ACTION_RULE || !Array.isArray(trajectory?.steps)) return null;
  const trailing = [];
  for (const step of [...trajectory.steps].reverse()) {
    if (step?.action?.text) break;
    trailing.push(step);
  }
  if (trailing.length === 0) return null;
  const kinds = trailing.map((s) => s?.model_error?.error?.kind);
  if (!kinds.every(isTransient)) return null;
  const last = trailing[0].model_error.error;
  return (
    `the model endpoint kept failing (${[...new Set(kinds)].join(', ')}) on the last ` +
    `${trailing.length} step${trailing.length === 1 ? '' : 's'} after its own tries: ${last.message ?? ''}`.trim()
  );
}

/**
 * When a model run that would be a FAIL is not the agent's outcome, because the agent
 * never acted: no step's action was carried out (an action whose result has no error;
 * a `stop [answer]` is one) and no answer was given. Then, read from the steps'
 * structured fields (`model_error`, `action`, `result`), never from their words:
 * - no step's model call succeeded (each has a `model_error`, whatever its kind, and
 *   whatever rule ended the run: the step limit of a `--max-steps 3` run too): the
 *   endpoint, or what stands between, never let the agent try: `infrastructure`;
 * - the model answered but nothing it chose was carried out (replies without a usable
 *   action, actions that failed): no result of the agent's either, but one a retry
 *   would most likely meet again: `run`.
 * Null when the agent acted, when the run did not finish as a FAIL, and when the
 * steps are not known (no export). Replay is not a model run; the caller leaves it out.
 * @param {import('./extension.mjs').ExtensionData | null} run GET_RUN's view
 * @param {import('./extension.mjs').ExtensionData | null} trajectory EXPORT_RUN's export
 * @returns {{ error: string, kind: 'infrastructure' | 'run' } | null}
 */
export function neverActed(run, trajectory) {
  if (run?.status !== 'finished' || run.verdict?.passed === true) return null;
  /** @type {unknown} */
  const steps = trajectory?.steps;
  if (!Array.isArray(steps) || steps.length === 0) return null;
  if (typeof run.verdict?.answer?.text === 'string' || typeof run.answer?.text === 'string') return null;
  if (steps.some(carriedOut)) return null;
  const n = steps.length;
  const counted = `${n} step${n === 1 ? '' : 's'}`;
  if (steps.every((step) => step?.model_error)) {
    const kinds = [...new Set(steps.map((step) => step.model_error?.error?.kind ?? 'unknown'))];
    const last = steps[n - 1].model_error?.error?.message ?? '';
    return {
      error: `no model call succeeded: the model call of each of the ${counted} failed (${kinds.join(', ')}), so the agent never acted: ${last}`.trim(),
      kind: INFRASTRUCTURE,
    };
  }
  const tried = steps.filter((step) => typeof step?.action?.text === 'string' && step.action.text !== '');
  const why = tried.length === 0
    ? 'its replies had no usable action'
    : `${tried.length === 1 ? 'the action it chose' : `the ${tried.length} actions it chose`} failed, the last: ${tried[tried.length - 1].result?.error ?? 'not carried out'}`;
  return {
    error: `the agent never acted: none of its ${counted} gave an action that was carried out, and it gave no answer (${why})`,
    kind: RUN,
  };
}

/**
 * A step whose action the browser carried out: it has an action and a result without
 * an error.
 * @param {any} step a trajectory step
 */
function carriedOut(step) {
  return typeof step?.action?.text === 'string' && step.action.text !== '' && step.result != null && !step.result.error;
}

/**
 * A model call error kind that may pass by itself (the core's `ErrorKind::is_transient`).
 * @param {unknown} kind
 */
function isTransient(kind) {
  return typeof kind === 'string' && TRANSIENT_CALL_ERROR_KINDS.includes(kind);
}
