// What pages see of a person's session besides its run: the phase and the clock, kept
// in the store (store/keys.js humanState) and mirrored from the session by
// human/session.js; and the end of a person's run whose session is gone.

import { humanState as humanStateSlot } from '../../store/keys.js';
import { read, remove, write } from '../../store/store.js';
import { publishRunChange } from '../../store/views.js';
import { updateRun } from '../run/trajectories.js';
import { readSessions } from '../session/sessions.js';

/**
 * @typedef {import('../../types.js').HumanView} HumanView
 * @typedef {import('../core/types.js').Run} Run
 */

/**
 * Writes the phase and clock the panel shows.
 * @param {string} runId
 * @param {HumanView} state
 */
export async function mirrorHumanState(runId, state) {
  await write(humanStateSlot(runId), state);
  await publishRunChange(runId);
}

/**
 * `human` of a run view: the phase and the clock.
 * @param {string} runId
 * @returns {Promise<HumanView | null>}
 */
export async function humanState(runId) {
  return (await read(humanStateSlot(runId))) ?? null;
}

/**
 * A person's run whose session is gone (the browser was closed: sessions live in the
 * store's session area) ends as `error`, its recorded steps kept. Returns the run.
 * @param {Run} run
 * @returns {Promise<Run>}
 */
export async function endOrphanedHuman(run) {
  const open = Object.values(await readSessions()).some((s) => s.human?.runId === run.id);
  if (open) return run;
  await remove(humanStateSlot(run.id));
  await publishRunChange(run.id);
  return updateRun(run.id, {
    status: 'error',
    cause: 'error',
    reason: 'error',
    finishedAt: Date.now(),
    error: `the session ended before the person finished (was the browser closed?); its recorded steps (${run.step}) are kept`,
  });
}
