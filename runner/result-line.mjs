// One results.jsonl line from what the extension reported for a run (GET_RUN's
// `run`), in the format `hopbench report` reads (docs/runner.md, src/report/results.rs).
// Pure: tested without a browser.

import { RUN } from './attempts.mjs';

/** @typedef {import('./extension.mjs').ExtensionData} ExtensionData */
/** @typedef {ReturnType<typeof resultLine>} ResultLine one results.jsonl line */

/**
 * How a run ended on the runner's side, when the extension could not say: its
 * `end` in results.jsonl (the extension's are the agent's finish causes).
 * @typedef {'not_started' | 'timeout' | 'lost_contact' | 'browser_died'} RunnerEnd
 */

/**
 * @param {{ task: {id: string, hops: number}, run?: ExtensionData | null, error?: string | null,
 *   errorKind?: 'infrastructure' | 'run' | null, end?: RunnerEnd | null, attempt?: number, elapsedMs: number }} input
 *   `error`: what broke the run on the runner's side (START_RUN refused, the per-task
 *   timeout, the browser gone); it makes the verdict ERROR. `errorKind` says whether a
 *   retry may help (attempts.mjs); an ERROR without one is a `run` error. `end`: why
 *   the runner ended it, when it did (else the run's own cause).
 */
export function resultLine({ task, run = null, error = null, errorKind = null, end = null, attempt = 1, elapsedMs }) {
  const verdict = run?.verdict ?? null;
  const hopsTotal = positiveInt(verdict?.hops_total) ?? positiveInt(run?.progress?.total) ?? task.hops;
  const hopSteps = completedSteps(verdict, run?.progress).slice(0, hopsTotal);
  const runError = errorOf(run, error);
  const answer = verdict?.answer ?? null;
  const check = answer?.check ?? null;
  return {
    id: task.id,
    hops_total: hopsTotal,
    hops_completed: hopSteps.length,
    hop_steps: [...hopSteps, ...Array(hopsTotal - hopSteps.length).fill(null)],
    verdict: runError ? 'ERROR' : verdict?.passed === true ? 'PASS' : 'FAIL',
    answer: typeof answer?.text === 'string' ? answer.text : null,
    answer_score: check && typeof check.passed === 'boolean' ? Number(check.passed) : null,
    steps: nonNegativeInt(run?.step) ?? 0,
    tokens: {
      input: nonNegativeInt(run?.tokens?.input) ?? 0,
      output: nonNegativeInt(run?.tokens?.output) ?? 0,
      cached_input: nonNegativeInt(run?.tokens?.cached_input) ?? 0,
    },
    time_ms: Math.max(0, Math.round(elapsedMs)),
    error: runError,
    // Why the run ended, in a word (`early_stop`, `context_overflow`, `answered`,
    // `timeout`, ...) and in a sentence: the agent's own reason (the early-stop rule,
    // the failed call, the answer), before the verdict's count of hops.
    end: end ?? (typeof run?.cause === 'string' ? run.cause : null) ?? (run?.status === 'stopped' ? 'stopped' : null),
    reason: reasonOf(run, verdict, error),
    attempt,
    error_kind: runError ? (errorKind ?? RUN) : null,
  };
}

/**
 * @param {ExtensionData | null} run
 * @param {ExtensionData | null} verdict
 * @param {string | null} error the runner's own error, which is then the reason
 * @returns {string | null}
 */
function reasonOf(run, verdict, error) {
  if (error) return error;
  if (typeof run?.reason === 'string' && run.reason !== '' && run.reason !== 'error') return run.reason;
  return typeof verdict?.reason === 'string' ? verdict.reason : null;
}

/**
 * Steps at which hops completed, in order: the verdict's list, else the progress view's.
 * @param {ExtensionData | null} verdict
 * @param {ExtensionData | undefined} progress
 * @returns {number[]}
 */
function completedSteps(verdict, progress) {
  if (Array.isArray(verdict?.hop_steps)) return verdict.hop_steps.filter(Number.isInteger);
  /** @type {number[]} */
  const steps = [];
  for (const hop of progress?.hops ?? []) {
    if (hop?.state !== 'done' || !Number.isInteger(hop.step)) break;
    steps.push(hop.step);
  }
  return steps;
}

/**
 * The runner's own error first; then a run the extension ended in error or that was stopped.
 * @param {ExtensionData | null} run
 * @param {string | null} error
 * @returns {string | null}
 */
function errorOf(run, error) {
  if (error) return error;
  if (!run) return 'the run did not start';
  if (run.status === 'error') return run.error || 'the run ended in an error (no message)';
  if (run.status === 'stopped') return 'the run was stopped before it finished';
  return null;
}

/**
 * @param {unknown} v
 * @returns {number | undefined}
 */
function positiveInt(v) {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
}

/**
 * @param {unknown} v
 * @returns {number | undefined}
 */
function nonNegativeInt(v) {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
}
