// Attempts and error kinds: which ERRORs are the harness's fault (and so worth
// running again), which tasks a run still owes, and when a model run's end is the
// endpoint's failure rather than the agent's. Pure: tested without a browser
// (the unit test runner-units.test.mjs). Rules: docs/runner.md "Crashes, retries and
// resuming".

/** `error_kind` of an ERROR a retry may fix: the browser, worker, sandbox, model endpoint or timeout. */
export const INFRASTRUCTURE = 'infrastructure';
/** `error_kind` of an ERROR a retry would meet again: the task file, the settings, a start URL. */
export const RUN = 'run';

/**
 * Messages of harness failures in the ERROR lines of runners that did not write
 * `error_kind` yet, and in errors the extension reports for a broken harness (not
 * for the agent): a run whose browser closed under it, a worker stopped over and
 * over, the page the runner talks through gone.
 */
const INFRASTRUCTURE_MESSAGES = [
  /Target page, context or browser has been closed/,
  /Target crashed/,
  /^timed out after \d+ s \(per-task timeout/,
  /^lost contact with the run/,
  /the run's session ended before the run did/,
  /^interrupted by browser exit/,
  /was started \d+ times without finishing \(the worker stopped each time\)/,
];

/**
 * True when an extension or runner error message names a harness failure.
 * @param {unknown} error
 */
export function isInfrastructureMessage(error) {
  return typeof error === 'string' && INFRASTRUCTURE_MESSAGES.some((re) => re.test(error));
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
  return isInfrastructureMessage(line.error) ? INFRASTRUCTURE : RUN;
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

/** Model call failures that may pass by themselves (provider/error.rs `is_transient`, and a network failure). */
const TRANSIENT_MODEL_KINDS = new Set(['server', 'rate_limited', 'timeout', 'network']);

/**
 * When a model run ended because the model endpoint failed, not because of what the
 * agent did, says so; otherwise null. Two shapes:
 * - the run ended as `model_unavailable` on a network failure (the server is not
 *   there after the client's own tries); a refused key, an unknown model or URL are
 *   the settings' fault and stay `run` errors;
 * - an early stop by the no-action rule ("the last 3 steps gave no action") whose
 *   trailing steps without an action are all model calls that failed transiently
 *   (5xx, 429, timeouts) after the client's tries: the rule fired on the endpoint's
 *   failures. A malformed reply among them makes it the agent's outcome, and so does
 *   the step limit (the budget was spent, whatever the last step met).
 * @param {import('./extension.mjs').ExtensionData | null} run GET_RUN's view
 * @param {import('./extension.mjs').ExtensionData | null} trajectory EXPORT_RUN's export (for the steps)
 */
export function modelEndpointFailure(run, trajectory) {
  if (!run) return null;
  const reason = typeof run.reason === 'string' ? run.reason : '';
  if (run.status === 'error' && run.cause === 'model_unavailable') {
    return /\(network\)/.test(reason) ? `the model endpoint could not be reached: ${reason}` : null;
  }
  // The reason names the rule (src/action/early_stop.rs, ParseFailures).
  if (run.cause !== 'early_stop' || !/gave no action/.test(reason) || !Array.isArray(trajectory?.steps)) return null;
  const trailing = [];
  for (const step of [...trajectory.steps].reverse()) {
    if (step?.action?.text) break;
    trailing.push(step);
  }
  if (trailing.length === 0) return null;
  const kinds = trailing.map((s) => s?.model_error?.error?.kind);
  if (!kinds.every((k) => TRANSIENT_MODEL_KINDS.has(k))) return null;
  const last = trailing[0].model_error.error;
  return (
    `the model endpoint kept failing (${[...new Set(kinds)].join(', ')}) on the last ` +
    `${trailing.length} step${trailing.length === 1 ? '' : 's'} after its own tries: ${last.message ?? ''}`.trim()
  );
}
