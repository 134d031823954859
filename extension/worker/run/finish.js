// Ending a run, in two phases. First the end is decided and kept on the run under
// `ending` (its verdict from the session's tracker, its summary), while the run still
// reads `running`; then the session ends (its window closed, unless the run keeps it,
// while its fence still holds it) and its site fence goes; only then does the run take
// its final status. So a run that reads finished, stopped or error has left nothing
// behind: no tab, no rule. A worker stopped halfway repeats the finish safely: the
// ending is written before the tracker is forgotten, a repeat that finds it kept uses
// it as it is, and removing what is already gone is a no-op.

import { noticeRecord, noticesOf } from '../page/notices.js';
import { RUN_ERROR_KINDS } from '../../run-error-kinds.js';
import { loadedCore } from '../core/core.js';
import { removeFence } from '../fence/fence.js';
import { progressOf, verdictOf } from '../session/hops.js';
import { getRun, putMemory, settleEnding, updateRun } from './trajectories.js';
import { browserLife } from './interrupt.js';
import { removeRun } from './state.js';
import { endTaskSession } from '../session/service.js';
import { readSessions } from '../session/sessions.js';

/**
 * @param {import('../core/types.js').RunRecord} record the driver record (run/state.js)
 * @param {RunEnd} end
 */
export async function finishRun(record, end) {
  const { runId, sessionId } = record;
  const core = await loadedCore();
  const live = (await readSessions())[sessionId] !== undefined;
  const run = await getRun(runId);
  if (run && run.status === 'running' && !run.ending) await keepEnding(core, record, end, run, live);
  try {
    if (live) await endTaskSession(core, sessionId, { keepWindow: record.options.keepWindow });
  } finally {
    // The window, if kept, is the person's again: no fence on it. Gone even when the
    // session's end failed (the finish is then repeated, and removing is idempotent),
    // so no ending leaves the person's browser fenced.
    await removeFence(sessionId);
  }
  await settleEnding(runId);
  await removeRun(runId);
}

/**
 * The first phase: what the run's end will write, kept on the run.
 * @param {import('../core/core.js').Core} core
 * @param {import('../core/types.js').RunRecord} record
 * @param {RunEnd} end
 * @param {import('../core/types.js').Run} run
 * @param {boolean} live the run's session is still there
 */
async function keepEnding(core, record, end, run, live) {
  const { runId, sessionId } = record;
  if (live) {
    const verdict = await verdictOf(core, sessionId);
    const summary = summaryOf(end);
    // A run that ended on its own leaves a memory record (the core decides which
    // endings count and what the record may hold: no answers, no conditions).
    const memoryRecord = end.status === 'finished' ? core.agent_memory_record(record.state, verdict) : null;
    if (memoryRecord) await putMemory(runId, summary.finishedAt, memoryRecord);
    await updateRun(runId, {
      ending: {
        ...summary,
        verdict,
        progress: await progressOf(core, sessionId),
        memoryRecord,
        // Everything the pages did beside the page (page/notices.js), late ones too.
        notices: (await noticesOf(sessionId)).map(noticeRecord),
      },
    });
    return;
  }
  // The session is gone, and its tracker with it, so there is no verdict: the browser
  // exited during the run (the store's session area does not survive it). The driver
  // says so (`interrupted`, run/interrupt.js); any other end cannot stand as it is.
  const ownError = end.status === 'error' && end.error ? end.error : null;
  await updateRun(runId, {
    ending: {
      ...summaryOf(end),
      status: 'error',
      error:
        ownError ??
        `the run's session ended before the run did (was the browser closed?); ` +
          `its recorded steps (${run.step ?? 0}) are kept`,
      errorKind: await lostSessionKind(record, end, ownError !== null),
    },
  });
}

/**
 * Why a run whose session is gone ended, when that is the harness's doing: the browser
 * exited under it (the driver fed `interrupted` because the record's browser life is
 * not this one, as run/interrupt.js decides), or the session went without the end
 * saying why. Null for an end with an error of its own (a session ended by END_SESSION
 * while the run went on, a page that did not load, a model failure).
 * @param {{ browserLife?: string }} record
 * @param {RunEnd} end
 * @param {boolean} ownError the end names its own error
 * @returns {Promise<RunErrorKind | null>}
 */
async function lostSessionKind(record, end, ownError) {
  if (!ownError) return RUN_ERROR_KINDS.SESSION_LOST;
  if (end.cause === 'interrupted' && (record.browserLife === undefined || record.browserLife !== (await browserLife()))) {
    return RUN_ERROR_KINDS.BROWSER_EXIT;
  }
  return end.errorKind ?? null;
}

/**
 * How the driver ends a run. `rule` (the early-stop rule) and `callErrorKind` (the
 * failed model call's kind) say by name what `reason` says in words, when the agent's
 * `finish` carried them; `errorKind` is set only for the harness's reasons
 * (run-error-kinds.js).
 * @typedef {{ status: string, cause: string, reason: string, answer: string | null,
 *   error?: string | null, rule?: string | null, callErrorKind?: string | null,
 *   errorKind?: RunErrorKind | null }} RunEnd
 * @typedef {import('../../run-error-kinds.js').RunErrorKind} RunErrorKind
 * @param {RunEnd} end
 */
function summaryOf({ status, cause, reason, answer, error, rule, callErrorKind, errorKind }) {
  return {
    status,
    cause,
    reason,
    answer,
    error: error ?? null,
    rule: rule ?? null,
    callErrorKind: callErrorKind ?? null,
    errorKind: errorKind ?? null,
    finishedAt: Date.now(),
  };
}
