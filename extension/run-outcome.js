// How a run ended, told apart the same way on every page (the panel's header, the Runs
// list, the run page, the popup's last-run line, human vs agent's cards):
//
// - PASS: the task was done (every hop, and the answer when the task asks for one).
// - FAIL: the agent or the person did not complete it; the cause says at which hop and
//   why the run ended there.
// - ERROR: the harness or the site ended it (an unreachable start page, a model server
//   that refuses the input, the browser gone); the cause is the error, in words.
// - STOPPED: a person stopped it (Stop, or the run's window closed).
//
// A red FAIL for every ending hid these apart: a stopped run and an unreachable page
// looked like an agent that failed its task. The runner's results.jsonl draws the same
// line (runner/result-line.mjs: a run that ended in error or was stopped is not a FAIL).

/**
 * @typedef {'running' | 'pass' | 'fail' | 'error' | 'stopped' | 'saved' | 'unsaved'} OutcomeKind
 * @typedef {{ kind: OutcomeKind, label: string, cause: string }} Outcome
 * @typedef {Pick<import('./types.js').RunView, 'status' | 'verdict' | 'error' | 'reason' | 'cause'> &
 *   { authoring?: import('./types.js').AuthoringView | null }} EndedRun
 */

/** Finish causes whose reason says no more than the verdict already does. */
const SAID_BY_VERDICT = new Set(['answered', 'all_hops_done']);

/**
 * @param {EndedRun} run
 * @returns {Outcome}
 */
export function outcomeOf(run) {
  if (run.status === 'running') return { kind: 'running', label: 'RUNNING', cause: '' };
  if (run.authoring && run.status !== 'error') {
    const { marks, saved } = run.authoring;
    if (saved) {
      const steps = `${saved.referenceSteps} reference step${saved.referenceSteps === 1 ? '' : 's'}`;
      return { kind: 'saved', label: 'SAVED TASK', cause: sentence(`saved as ${saved.fileName}: ${hopsWord(saved.hops)}, ${steps}`) };
    }
    return {
      kind: 'unsaved',
      label: 'NOT SAVED',
      cause: sentence(marks.length === 0
        ? 'no hop was marked, so there is no task to save'
        : `${hopsWord(marks.length)} marked; press Save task to keep the task file`),
    };
  }
  if (run.status === 'stopped') {
    return { kind: 'stopped', label: 'STOPPED', cause: sentence(withoutPrefix(run.reason ?? '', 'stopped: ') || 'stopped before it finished') };
  }
  if (run.status === 'error') {
    return { kind: 'error', label: 'ERROR', cause: sentence(run.error || run.reason || 'the run ended in an error, with no message') };
  }
  const verdict = run.verdict;
  if (!verdict) return { kind: 'fail', label: 'FAIL', cause: sentence(run.reason || 'the run ended with no verdict') };
  if (verdict.passed) return { kind: 'pass', label: 'PASS', cause: sentence(`${verdict.hops_done} of ${verdict.hops_total} hops; ${verdict.reason}`) };
  // The verdict names the hop it stopped at; the run's own reason says why it stopped
  // there (an early-stop rule, the step limit), unless that is only "it answered".
  const why = run.reason && !SAID_BY_VERDICT.has(run.cause ?? '') ? `; ${run.reason}` : '';
  return { kind: 'fail', label: 'FAIL', cause: sentence(`${verdict.reason}${why}`) };
}

/** "PASS", "FAIL", "ERROR", "STOPPED", or the status while the run goes on. */
export function outcomeLabel(/** @type {EndedRun} */ run) {
  return run.status === 'running' ? run.status : outcomeOf(run).label;
}

/** @param {number} n */
const hopsWord = (n) => `${n} hop${n === 1 ? '' : 's'}`;

/** @param {string} text @param {string} prefix */
function withoutPrefix(text, prefix) {
  return text.startsWith(prefix) ? text.slice(prefix.length) : text;
}

/** First letter up, one full stop at the end. @param {string} text */
function sentence(text) {
  const trimmed = text.trim();
  if (!trimmed) return trimmed;
  const upper = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(upper) ? upper : `${upper}.`;
}
