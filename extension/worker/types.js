// Shapes the worker keeps in chrome.storage and IndexedDB, shared by its modules.
// The core's own values (state strings, verdicts, commands) are in core-types.js.

/**
 * @typedef {import('./core-types.js').Progress} Progress
 * @typedef {import('./core-types.js').Verdict} Verdict
 */

/** Tokens a run or step used. @typedef {{ input: number, output: number }} Tokens */

/**
 * The task as a run keeps it: what the core made of it, with its file's name and text.
 * @typedef {{ id: string, intent: string, fileName: string, text: string } & Record<string, unknown>} RunTask
 */

/**
 * A run's summary in IndexedDB `runs` (run-store.js newRunSummary and the fields each
 * kind of run adds).
 * @typedef {{ id: string, taskId: string, intent: string, status: string, step: number,
 *   progress: Progress, verdict: Verdict | null, error: string | null, cause: string | null,
 *   reason: string | null, answer: string | null, startedAt: number, finishedAt: number | null,
 *   tokens: Tokens, task: RunTask, provider?: string, sessionId?: string, settings?: unknown,
 *   memoryRecord?: unknown } & Record<string, unknown>} Run
 */

/**
 * One recorded step in IndexedDB `steps`, keyed [runId, step].
 * @typedef {{ runId: string, step: number, tokens?: Tokens, progress?: Progress,
 *   action?: { text: string } & Record<string, unknown>,
 *   observation?: { text?: string, url?: string, images?: unknown[] } & Record<string, unknown> }
 *   & Record<string, unknown>} Step
 */

/**
 * One picture of a step in IndexedDB `media`.
 * @typedef {{ id: string, runId: string, step: number, kind: string, mime: string, blob: Blob }
 *   & Record<string, unknown>} MediaRow
 */

/**
 * A picture before it is stored: base64 in place of the blob.
 * @typedef {{ id: string, runId: string, step: number, kind: string, mime: string, base64: string }
 *   & Record<string, unknown>} MediaItem
 */

/** A memory record as stored. @typedef {{ runId: string, finishedAt: number, record: unknown }} MemoryRow */

export {};
