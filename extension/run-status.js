// One line saying where a run is, shared by the popup and the side panel so both count
// steps the same way. They used to disagree: the popup printed the last recorded step
// (`run.step`) as "step N" while the panel printed the step in progress (`run.step + 1`).
// Now both say "step N" for the step being worked on and "N steps" once it ended.

/** "PASS", "FAIL", or the status while there is no verdict yet. */
/**
 * @typedef {import('./types.js').RunView} RunView
 * @param {{ verdict: { passed: boolean } | null, status: string }} run
 */
export function outcomeLabel(run) {
  if (run.verdict) return run.verdict.passed ? 'PASS' : 'FAIL';
  return run.status;
}

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
 * the run; "PASS · 3 of 3 hops · 3 steps (finished)" after the end. A person's
 * session counts the actions recorded so far.
 * @param {RunView} run
 */
export function runStatusText(run) {
  const hops = run.progress ? ` · ${run.progress.done} of ${run.progress.total} hops` : '';
  if (run.status !== 'running') return `${outcomeLabel(run)}${hops} · ${stepsText(run.step)} (${run.status})`;
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
  return `Step ${next}${max}${hops}`;
}
