// One line saying where a run is, shared by the popup and the side panel so both count
// steps the same way. They used to disagree: the popup printed the last recorded step
// (`run.step`) as "step N" while the panel printed the step in progress (`run.step + 1`).
// Now both say "step N" for the step being worked on and "N steps" once it ended.

import { outcomeLabel, outcomeOf } from './run-outcome.js';

/** @typedef {import('./types.js').RunView} RunView */

export { outcomeLabel };

export const stepsText = (/** @type {number} */ n) => `${n} step${n === 1 ? '' : 's'}`;

/**
 * `1:05` (or `1:02:03`) for a duration in ms.
 * @param {number} ms
 */
export function clockText(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/**
 * "Step 3 of at most 30 · 1 of 3 hops" while an agent runs (the step being worked
 * on: one more than the steps recorded); "Paused before step 3 · ..." once Pause held
 * the run; "PASS · 3 of 3 hops · 3 steps" after the end, with the cause of an error
 * or a stop ("STOPPED · 0 of 1 hops · 2 steps · Stopped by the person."). A person's
 * session counts the actions recorded so far.
 * @param {RunView} run
 * @param {{ now?: number, withCause?: boolean }} [options] `now`: for the wait of a
 *   model call in flight; `withCause: false` leaves an error's or a stop's cause out
 *   (the side panel shows it under the label, right below)
 */
export function runStatusText(run, { now = Date.now(), withCause = true } = {}) {
  // An authoring session's hops are the pages marked, not its draft's placeholder hop.
  const marked = run.authoring?.marks.length;
  const hops = marked !== undefined
    ? ` · ${marked} hop${marked === 1 ? '' : 's'} marked`
    : run.progress ? ` · ${run.progress.done} of ${run.progress.total} hops` : '';
  if (run.status !== 'running') {
    // An error or a stop says its cause on the first line; a FAIL's is under the verdict.
    const outcome = outcomeOf(run);
    const cause = withCause && (outcome.kind === 'error' || outcome.kind === 'stopped') ? ` · ${outcome.cause}` : '';
    return `${outcome.label}${hops} · ${stepsText(run.step)}${cause}`;
  }
  if (run.provider === 'human') {
    /** @type {Record<string, string>} */
    const phases = { ready: 'Ready: press Start', recording: 'Recording', paused: 'Paused' };
    const phase = phases[run.human?.phase ?? ''] ?? 'Recording';
    return `${phase} · ${stepsText(run.step)} recorded${hops}`;
  }
  const next = run.step + 1;
  const max = run.maxSteps ? ` of at most ${run.maxSteps}` : '';
  if (run.paused === 'paused') return `Paused before step ${next}${hops}`;
  if (run.paused === 'pausing') return `Pausing: step ${next} finishes first${hops}`;
  return `Step ${next}${max}${hops}${callText(run, now)}`;
}

/**
 * " · waiting for the model, 12 s" while a call is in flight; a try after the first
 * says which ("try 2 of 4, 3 s") and how long the whole wait has been. A slow server
 * is then told apart from a stuck run.
 * @param {Pick<RunView, 'call' | 'doing'>} run
 * @param {number} now
 */
export function callText(run, now) {
  const call = run.call;
  if (!call) return doingText(run, now);
  const seconds = (/** @type {number} */ since) => `${Math.max(0, Math.floor((now - since) / 1000))} s`;
  if (call.try <= 1) return ` · waiting for the model, ${seconds(call.since)}`;
  return ` · waiting for the model: try ${call.try} of ${call.of}, ${seconds(call.trySince)} (${seconds(call.since)} in all)`;
}

/** @type {Readonly<Record<string, string>>} */
const DOING_WORDS = Object.freeze({
  observe: 'reading the page',
  judge: 'judging the answer',
  call_model: 'calling the model',
});

/**
 * " · reading the page, 1 s", " · carrying out `click [12]`, 3 s" (the act waits for
 * the page it leads to), or '' when the driver is between commands.
 * @param {Pick<RunView, 'doing'>} run
 * @param {number} now
 */
function doingText(run, now) {
  const doing = run.doing;
  if (!doing) return '';
  const seconds = Math.max(0, Math.floor((now - doing.since) / 1000));
  const words = doing.kind === 'act' && doing.action ? `carrying out \`${doing.action}\` and waiting for the page` : DOING_WORDS[doing.kind];
  return words ? ` · ${words}, ${seconds} s` : '';
}
