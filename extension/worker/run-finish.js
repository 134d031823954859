// Ending a run: the verdict from the session's tracker goes into the run's summary,
// then the session ends (its window closed unless the run keeps it), then its site
// fence and the driver record go. In that order, a worker stopped halfway repeats the finish safely: the
// summary is written before the tracker is forgotten, and a finish that finds the
// session gone but the summary final only removes the record.

import { removeFence } from './fence.js';
import { progressOf, verdictOf } from './hops.js';
import { getRun, putMemory, updateRun } from './run-store.js';
import { removeRun } from './run-state.js';
import { endTaskSession } from './session-handlers.js';
import { readSessions } from './session.js';

/**
 * @param {import('./types.js').ReadyCore} readyCore
 * @param {import('./types.js').RunRecord} record the driver record (run-state.js)
 * @param {RunEnd} end
 */
export async function finishRun(readyCore, record, end) {
  const { runId, sessionId } = record;
  const core = await readyCore();
  const live = (await readSessions())[sessionId] !== undefined;
  const run = await getRun(runId);
  if (run && live) {
    const verdict = await verdictOf(core, sessionId);
    const summary = summaryOf(end);
    // A run that ended on its own leaves a memory record (the core decides which
    // endings count and what the record may hold: no answers, no conditions).
    const memoryRecord = end.status === 'finished' ? core.agent_memory_record(record.state, verdict) : null;
    if (memoryRecord) await putMemory(runId, summary.finishedAt, memoryRecord);
    await updateRun(runId, {
      ...summary,
      verdict,
      progress: await progressOf(core, sessionId),
      memoryRecord,
    });
  } else if (run && run.status === 'running') {
    // The session is gone, and its tracker with it, so there is no verdict: the browser
    // exited during the run (chrome.storage.session does not survive it). The driver
    // says so (`interrupted`, run-interrupt.js); any other end cannot stand as it is.
    await updateRun(runId, {
      ...summaryOf(end),
      status: 'error',
      error:
        end.status === 'error' && end.error
          ? end.error
          : `the run's session ended before the run did (was the browser closed?); ` +
            `its recorded steps (${run.step ?? 0}) are kept`,
    });
  }
  if (live) await endTaskSession(core, sessionId, { keepWindow: record.options.keepWindow });
  // The window, if kept, is the person's again: no fence on it.
  await removeFence(sessionId);
  await removeRun(runId);
}

/**
 * @typedef {{ status: string, cause: string, reason: string, answer: string | null,
 *   error?: string | null }} RunEnd
 * @param {RunEnd} end
 */
function summaryOf({ status, cause, reason, answer, error }) {
  return { status, cause, reason, answer, error: error ?? null, finishedAt: Date.now() };
}
