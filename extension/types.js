// Shapes the extension's pages get from the worker in its replies (messages.js says
// which reply holds which). Pages receive them as JSON-like data; these typedefs are
// what the worker sends (worker/run/service.js runView, settings/service.js, ...).

/**
 * @typedef {import('./worker/core/core-types.js').Progress} Progress
 * @typedef {import('./worker/core/core-types.js').Verdict} Verdict
 * @typedef {import('./worker/core/core-types.js').TaskOverview} TaskOverview
 * @typedef {import('./worker/core/core-types.js').ActionWords} ActionWords
 * @typedef {import('./worker/core/core-types.js').CallOutcome} CallOutcome
 * @typedef {import('./agent-settings.js').Endpoint} Endpoint
 * @typedef {import('./agent-settings.js').Problem} Problem
 * @typedef {import('./site-settings.js').SiteSettings} SiteSettings
 */

/**
 * A person's session as `run.<id>.human` and a run view's `human` say it.
 * @typedef {{ phase: 'ready' | 'recording' | 'paused' | 'ended', startedAt: number | null,
 *   pausedMs: number, pausedAt: number | null, steps: number, activeMs?: number }} HumanView
 */

/**
 * A "New task by doing" session: the hops marked (panel-author.js) and the file it was
 * saved as, once it was.
 * @typedef {{ marks: import('./authoring.js').HopProposal[],
 *   saved: { fileName: string, hops: number, referenceSteps: number, at: number } | null }} AuthoringView
 */

/**
 * What pages see of a run (worker/run/service.js runView).
 * @typedef {{ id: string, taskId: string, intent: string, status: string, step: number,
 *   maxSteps: number | null, progress: Progress | null, verdict: Verdict | null,
 *   error: string | null, cause: string | null, reason: string | null, answer: string | null,
 *   startedAt: number, finishedAt: number | null, tokens: { input: number, output: number, cached_input?: number },
 *   provider: string, model: string | null, paused: 'paused' | 'pausing' | null, task: TaskOverview | null,
 *   human: HumanView | null, activeMs: number | null, duelId: string | null, sessionId: string | null,
 *   authoring: AuthoringView | null,
 *   rule: string | null, callErrorKind: string | null, errorKind: string | null,
 *   call: { step: number, try: number, of: number, since: number, trySince: number } | null,
 *   doing: { kind: string, step: number, since: number, action?: string } | null }} RunView
 */

/**
 * What the worker reported of an action (worker/act/actions.js effects, and the recorder's
 * for a person's session); every field is optional, each action sets its own.
 * @typedef {{ recorded?: string, typed?: { kind?: string, text?: string, checked?: boolean,
 *   value?: string | null, path?: string, ms?: number }, pressedEnter?: boolean, element?: string,
 *   path?: string, reason?: string, pressed?: string, moved?: boolean | string,
 *   scroller?: string | null, answer?: string, answerError?: string, answerScored?: unknown,
 *   closedTabId?: number, closedItsTab?: boolean, index?: number, url?: string, navigated?: boolean,
 *   note?: string }} Effect
 */

/**
 * A recorded step as GET_RUN `withSteps` gives it (worker/run/trajectories.js, with `words`).
 * @typedef {import('./worker/core/core-types.js').Attempt} Attempt
 * @typedef {{ runId: string, step: number, started_at?: number,
 *   observation?: { text?: string, url?: string, images?: unknown[], screenshot?: unknown,
 *     page_screenshot?: unknown } & Record<string, unknown>,
 *   action?: { text: string } | null, result?: { effect?: Effect | null, error?: string | null } | null,
 *   reply?: { text: string, reasoning?: string, attempts?: Attempt[] } | null,
 *   model_error?: { error?: import('./worker/core/core-types.js').OutcomeError, attempts?: Attempt[] } | null,
 *   judgements?: import('./worker/core/core-types.js').Judgement[], progress?: Progress | null,
 *   tokens?: { input: number, output: number } | null, note?: string | null,
 *   timings?: Record<string, number | null>, words?: ActionWords | { kind: null, element: null, words: string } | null } & Record<string, unknown>} StepView
 */

/**
 * An endpoint as pages see it: no key, whether one is saved and its last characters.
 * @typedef {Omit<Endpoint, 'api_key'> & { api_key_set: boolean, api_key_last4: string }} MaskedEndpoint
 * @typedef {Omit<import('./agent-settings.js').AgentSettings, 'model' | 'judge'> &
 *   { model: MaskedEndpoint, judge: MaskedEndpoint | null }} MaskedSettings
 * @typedef {{ restricted: boolean, error?: string }} KeyStorage
 */

/**
 * What GET_SETTINGS and SAVE_SETTINGS answer with (each adds a field of its own).
 * @typedef {{ settings: ReturnType<typeof import('./agent-settings.js').maskAgentSettings>, observation: import('./observe-settings.js').ObservationSettings,
 *   sites: SiteSettings, keyStorage: KeyStorage }} SettingsView
 */

/**
 * A task session as pages see it (worker/session/sessions.js sessionView).
 * @typedef {{ id: string, windowId: number, tabIds: number[], currentTabId: number | null,
 *   step: number, startedAt: number, taskId: string, closed: boolean,
 *   answer: { text: string, step: number } | null }} SessionView
 */

/** One observation as OBSERVE_TAB gives it (worker/observe/observe.js). @typedef {import('./worker/observe/observe.js').Observation} ObservationView */

/**
 * TEST_CONNECTION's reply.
 * @typedef {{ ok: boolean, error?: string, which: string,
 *   endpoint: { provider: string, base_url: string, model: string }, outcome: CallOutcome }} ConnectionReply
 */

/**
 * GET_DUEL's reply fields (worker/duel/duel.js).
 * @typedef {{ duel: { id: string, agentRunId: string, humanRunId: string },
 *   agent: RunView, human: RunView, agentSteps: StepView[], humanSteps: StepView[],
 *   comparison: import('./worker/core/core-types.js').RunComparison | null }} DuelView
 */

/**
 * An exported run (worker/run/trajectories.js exportRunData), as EXPORT_RUN's `trajectory`.
 * @typedef {{ format: string, version: number, exportedAt: string,
 *   run: Record<string, unknown> & { answer?: string | null, startedAt: number, taskId: string },
 *   task: { text: string, id: string, fileName?: string } & Record<string, unknown>,
 *   settings: unknown, steps: StepView[], media: Record<string, unknown> }} Trajectory
 */


export {};
