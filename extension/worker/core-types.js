// The shapes of the values that cross from the wasm core (crates/wasm, src/), as the
// worker and pages use them. wasm-bindgen runs with --no-typescript, so these JSDoc
// typedefs describe the serde output by hand; a later change generates them from Rust,
// which is why they all live in this one file. Fields the JavaScript never reads are
// left out or kept loose (`unknown`), so the core may grow without touching this file.

/** One hop as the tracker reports it (src/evaluator/progress.rs `HopStatus`, its
 * `HopState` flattened: `step` and `time_ms` belong to `done`).
 * @typedef {{ index: number, description: string, state: 'done' | 'current' | 'waiting',
 *   step?: number, time_ms?: number }} HopStatus */

/** "k of N hops done" (src/evaluator/progress.rs `Progress`).
 * @typedef {{ done: number, total: number, at_end: boolean, current: string | null,
 *   hops: HopStatus[] }} Progress */

/** The answer a task was scored with (src/evaluator `AnswerRecord`).
 * @typedef {{ text: string, step: number, time_ms: number, check: unknown,
 *   judgements?: Judgement[] }} AnswerRecord */

/** The task's final score (src/evaluator/progress.rs `Verdict`).
 * @typedef {{ passed: boolean, hops_done: number, hops_total: number, hop_steps: number[],
 *   answer: AnswerRecord | null, reason: string }} Verdict */

/** What the tracker made of a task (src/tracker `TaskSummary`).
 * @typedef {{ id: string, intent: string, start_urls: string[] }} TaskSummary */

/** `tracker_start` → the tracker's first state.
 * @typedef {{ state: string, task: TaskSummary, progress: Progress }} TrackerStarted */

/** `tracker_navigation` / `tracker_answer` → the next state and what the event did.
 * @typedef {{ state: string, outcome: TrackerOutcome, progress: Progress }} TrackerFed */

/** The evaluator's `Outcome` of one event: which hop, if any, it completed.
 * @typedef {{ completed_hop?: number | null, completed_hops?: number[] } & Record<string, unknown>} TrackerOutcome */

/** A question for the judge (src/judge `JudgeRequest`).
 * @typedef {{ answer: string, reference: string }} JudgeRequest */

/** The judge's decision on one question (src/judge/judgement.rs `Judgement`).
 * @typedef {{ answer: string, reference: string, infers: boolean | null, by: string,
 *   reply: string | null, error: string | null, usage?: Usage }} Judgement */

/** Tokens of one model call (src/model.rs `Usage`).
 * @typedef {{ input_tokens: number, output_tokens: number }} Usage */

/** The text a model produced (src/model.rs `ModelReply`).
 * @typedef {{ text: string, usage: Usage }} ModelReply */

/** One failed try of a model call.
 * @typedef {{ kind: string, message: string, delay_ms: number | null }} Attempt */

/** Why a model call failed, and what the person may change.
 * @typedef {{ kind: string, message: string, hint: string }} OutcomeError */

/** `model_call` / `test_connection` (src/provider/log.rs `CallOutcome`).
 * @typedef {{ ok: boolean, reply?: ModelReply, error?: OutcomeError, attempts: Attempt[] }} CallOutcome */

/** A model request the agent machine built; the worker only passes it on.
 * @typedef {Record<string, unknown>} ModelRequest */

/** An action in the core's parsed shape (serde tag `kind`; `id` for element actions).
 * @typedef {{ kind: string, id?: number } & Record<string, unknown>} Action */

/** An action in words, for the run views (src/agent/words.rs `ActionWords`).
 * @typedef {{ kind: string | null, element: string | null, words: string }} ActionWords */

/** A site of a task overview.
 * @typedef {{ host: string, label?: string }} Site */

/** `task_overview` (src/task/overview.rs `TaskOverview`).
 * @typedef {{ id: string, intent: string, hops: number, sites: Site[], replayable: boolean,
 *   format: string }} TaskOverview */

/** One origin inside a run's site fence.
 * @typedef {{ origin: string } & Record<string, unknown>} AllowedOrigin */

/** `site_fence` (src/fence `SiteFence`).
 * @typedef {{ origins: AllowedOrigin[], denied: string[] }} SiteFence */

/** One problem of the site lists (`site_list_problems`).
 * @typedef {{ path: string, message: string }} SiteListProblem */

/** One command of the agent machine (src/agent/commands.rs `Command`, serde tag `kind`).
 * @typedef {{ kind: 'observe', step: number, mode: string, whole_page: boolean }
 *   | { kind: 'call_model', step: number, request: ModelRequest, call?: number }
 *   | { kind: 'judge', step: number, answer: string, with_model: boolean }
 *   | { kind: 'act', step: number, action_text: string, judgements?: Judgement[] }
 *   | { kind: 'record', step: number, record: StepRecord }
 *   | { kind: 'finish', cause: string, reason: string, answer: string | null, hint?: string }} AgentCommand */

/** The step the machine asks the worker to store (src/agent/record.rs `StepRecord`).
 * @typedef {Record<string, unknown>} StepRecord */

/** `agent_feed` → the machine's next state and its new commands.
 * @typedef {{ state: string, commands: AgentCommand[], ignored: string | null }} AgentStepped */

/** `agent_start` → the first state and commands, and the memory the prompt shows.
 * @typedef {AgentStepped & { memory: { k: number, policy: string, tasks: string[] } }} AgentStarted */

/** An event fed to the agent machine (`observed`, `model_replied`, `acted`, ...; serde tag `kind`).
 * @typedef {{ kind: string } & Record<string, unknown>} AgentEvent */

/** A memory record (src/agent/memory.rs); the worker stores it as it came.
 * @typedef {Record<string, unknown>} MemoryRecord */

/** An element reference: the frame's target (null: the tab's main target) and node.
 * @typedef {{ targetId: string | null, backendNodeId: number }} ElementRef */

/** `observe` → the observation and the updated id registry (src/observation).
 * @typedef {{ text: string, tree?: unknown, images: ObservedImage[], marks: unknown[],
 *   stats: Record<string, unknown>, registry: unknown }} CoreObservation */

/** An image the observation lists, with the element it belongs to.
 * @typedef {{ id: number } & Record<string, unknown>} ObservedImage */

/** `compare_runs` → the hop-by-hop comparison of two runs.
 * @typedef {{ hops: { hop: number, description: string, a: unknown, b: unknown }[],
 *   diverged_at: number | null, summary: string }} RunComparison */

export {};
