// Shapes the worker keeps in the store (store/keys.js) and IndexedDB, shared by its modules.
// The core's own values (state strings, verdicts, commands) are in core/core-types.js.

/**
 * @typedef {import('./core-types.js').Progress} Progress
 * @typedef {import('./core-types.js').Verdict} Verdict
 */

/** Tokens a run or step used; `cached_input`: the part of `input` the provider served from its cache. @typedef {{ input: number, output: number, cached_input?: number }} Tokens */

/**
 * The task as a run keeps it: what the core made of it, with its file's name and text.
 * @typedef {{ id: string, intent: string, fileName: string, text: string } & Record<string, unknown>} RunTask
 */

/**
 * A run's summary in IndexedDB `runs` (run/trajectories.js newRunSummary and the fields each
 * kind of run adds).
 * @typedef {{ id: string, taskId: string, intent: string, status: string, step: number,
 *   progress: Progress, verdict: Verdict | null, error: string | null, cause: string | null,
 *   reason: string | null, answer: string | null, startedAt: number, finishedAt: number | null,
 *   tokens: Tokens, task: RunTask, provider?: string, sessionId?: string, settings?: unknown,
 *   memoryRecord?: unknown, maxSteps?: number | null, activeMs?: number | null, duelId?: string | null,
 *   rule?: string | null, callErrorKind?: string | null, errorKind?: string | null,
 *   ending?: Record<string, unknown> } & Record<string, unknown>} Run
 *   `rule`, `callErrorKind`, `errorKind`: why it ended, by name (run/finish.js)
 *   `ending`: the fields its end will write, kept while the run's session and fence go
 *   (run/finish.js); the run reads `running` until they are gone
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

/** The wasm core module (pkg-shim.d.ts). @typedef {typeof import('../../pkg/hopbench.js')} Core */

/**
 * What the driver keeps of a step until it is recorded (run/commands.js stepInfo).
 * @typedef {{ startedAt: number, timings: Record<string, number>,
 *   settle?: { ms: number, endedBy: string, signalMs: number | null },
 *   media: Record<string, unknown>,
 *   notices?: Record<string, unknown>[] }} StepInfo
 *   `notices`: what the step's action set off beside the page: dialogs, downloads,
 *   file choosers (page/notices.js)
 */

/**
 * The settings a run keeps from its start (run/service.js).
 * @typedef {{ keepWindow: boolean, agent?: import('../run/model.js').AgentSettings,
 *   observation?: import('../../messages.js').ObserveOptions } & Record<string, unknown>} RunOptions
 */

/**
 * The driver's record of a running run in the store (run/state.js).
 * @typedef {{ runId: string, sessionId: string, state: string,
 *   pending: import('./core-types.js').AgentCommand[], actStarted: number | null, tries: number,
 *   steps: Record<string, StepInfo>, options: RunOptions, browserLife?: string,
 *   stopFed?: boolean, unresponsive?: number }} RunRecord
 *   `unresponsive`: observations in a row that found the page not responding (run/commands.js)
 */

export {};
