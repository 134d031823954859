// The shapes of the values that cross from the wasm core, generated from the Rust types
// (src/boundary.rs and what it holds) by `hopbench types` into pkg/core-types.d.ts during
// ./build.sh build. The worker and the pages name them through this file; a Rust field
// renamed without the JavaScript that reads it fails tsc. Only the few shapes the core
// does not declare are written here by hand.

/**
 * @typedef {import('../../../pkg/core-types.js').HopStatus} HopStatus
 * @typedef {import('../../../pkg/core-types.js').Progress} Progress
 * @typedef {import('../../../pkg/core-types.js').AnswerRecord} AnswerRecord
 * @typedef {import('../../../pkg/core-types.js').Verdict} Verdict
 * @typedef {import('../../../pkg/core-types.js').TaskSummary} TaskSummary
 * @typedef {import('../../../pkg/core-types.js').TrackerStarted} TrackerStarted
 * @typedef {import('../../../pkg/core-types.js').TrackerFed} TrackerFed
 * @typedef {import('../../../pkg/core-types.js').Outcome} TrackerOutcome
 * @typedef {import('../../../pkg/core-types.js').JudgeRequest} JudgeRequest
 * @typedef {import('../../../pkg/core-types.js').Judgement} Judgement
 * @typedef {import('../../../pkg/core-types.js').Usage} Usage
 * @typedef {import('../../../pkg/core-types.js').ModelReply} ModelReply
 * @typedef {import('../../../pkg/core-types.js').Attempt} Attempt
 * @typedef {import('../../../pkg/core-types.js').OutcomeError} OutcomeError
 * @typedef {import('../../../pkg/core-types.js').CallOutcome} CallOutcome
 * @typedef {import('../../../pkg/core-types.js').ModelRequest} ModelRequest
 * @typedef {import('../../../pkg/core-types.js').Action} Action
 * @typedef {import('../../../pkg/core-types.js').ActionWords} ActionWords
 * @typedef {import('../../../pkg/core-types.js').Site} Site
 * @typedef {import('../../../pkg/core-types.js').TaskOverview} TaskOverview
 * @typedef {import('../../../pkg/core-types.js').SiteFence} SiteFence
 * @typedef {import('../../../pkg/core-types.js').Command} AgentCommand
 * @typedef {import('../../../pkg/core-types.js').StepRecord} StepRecord
 * @typedef {import('../../../pkg/core-types.js').AgentStepped} AgentStepped
 * @typedef {import('../../../pkg/core-types.js').AgentStarted} AgentStarted
 * @typedef {import('../../../pkg/core-types.js').AgentEvent} AgentEvent
 * @typedef {import('../../../pkg/core-types.js').MemoryRecord} MemoryRecord
 * @typedef {import('../../../pkg/core-types.js').ElementRef} ElementRef
 * @typedef {import('../../../pkg/core-types.js').ObserveResult} CoreObservation
 * @typedef {import('../../../pkg/core-types.js').ImageItem} ObservedImage
 * @typedef {import('../../../pkg/core-types.js').Comparison} RunComparison
 */

/** One problem of the site lists (`site_list_problems`: the core's FieldError).
 * @typedef {{ path: string, message: string }} SiteListProblem */

export {};
