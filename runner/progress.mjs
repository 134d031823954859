// What the runner prints while it works: one line when a task (an attempt at it)
// starts, one whenever its hop or step changes, one when it ends. Lines, not a redrawn screen, so logs of
// parallel and non-interactive runs read the same.

/** @typedef {{ id: string, hops: number }} ProgressTask */

/**
 * @param {{ total: number, write?: (line: string) => void, redact: (text: string) => string }} options
 */
export function makeProgress({ total, write = (line) => process.stdout.write(`${line}\n`), redact }) {
  const width = String(total).length;
  /** @param {number} index @param {ProgressTask} task */
  const head = (index, task) => `task ${String(index).padStart(width)}/${total} ${task.id}`;
  return {
    /**
     * `lane`: the browser's number when there are several (null with one).
     * @param {number} index
     * @param {ProgressTask} task
     * @param {{ attempt?: number, lane?: number | null }} [where]
     */
    started(index, task, { attempt = 1, lane = null } = {}) {
      const hops = `${task.hops} hop${task.hops === 1 ? '' : 's'}`;
      const where = lane === null ? '' : ` in browser ${lane}`;
      const which = attempt > 1 ? `, attempt ${attempt}` : '';
      write(`${head(index, task)}  started (${hops}${which})${where}`);
    },
    /**
     * @param {number} index
     * @param {ProgressTask} task
     * @param {{ hop: number, hops: number, step: number }} at
     */
    step(index, task, { hop, hops, step }) {
      write(`${head(index, task)}  hop ${hop}/${hops || task.hops}  step ${step}`);
    },
    /**
     * `then`: what happens next, e.g. that the task is retried.
     * @param {number} index
     * @param {ProgressTask} task
     * @param {{ time_ms: number, error_kind: string | null, error: string | null, verdict: string,
     *   hops_completed: number, hops_total: number, steps: number, end?: string | null, reason?: string | null }} line
     * @param {string | null} [then]
     */
    finished(index, task, line, then = null) {
      const seconds = (line.time_ms / 1000).toFixed(1);
      const kind = line.error_kind === 'infrastructure' ? ' (infrastructure)' : '';
      const next = then ? `; ${then}` : '';
      write(
        `${head(index, task)}  ${line.verdict}${kind}  hops ${line.hops_completed}/${line.hops_total}  ` +
          `steps ${line.steps}  ${seconds} s${whyEnded(line, redact)}${next}`,
      );
    },
    /**
     * A model call that takes long: which step, which try, how long so far.
     * @param {number} index
     * @param {ProgressTask} task
     * @param {{ step: number, try: number, of: number, seconds: number }} call
     */
    waiting(index, task, call) {
      write(`${head(index, task)}  step ${call.step}: waiting for the model, try ${call.try} of ${call.of}, ${Math.round(call.seconds)} s`);
    },
    /** @param {string} text */
    note(text) {
      write(redact(text));
    },
  };
}

/**
 * Why a task ended, for its last line: the end in words (`early stop`, `context
 * overflow`, `answered`...), then the reason, then the error where it says more.
 * @param {{ end?: string | null, reason?: string | null, error: string | null }} line
 * @param {(text: string) => string} redact
 */
export function whyEnded(line, redact) {
  const parts = [];
  const end = typeof line.end === 'string' ? line.end.replaceAll('_', ' ') : null;
  const reason = line.reason ?? null;
  if (end && reason) parts.push(`${end}: ${reason}`);
  else if (end ?? reason) parts.push(/** @type {string} */ (end ?? reason));
  if (line.error && line.error !== reason) parts.push(line.error);
  return parts.length === 0 ? '' : `  ${redact(parts.join('; '))}`;
}
