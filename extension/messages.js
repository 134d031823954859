// The one message protocol between the extension's pages and its service worker.
//
// Each message is declared once, below, as `export const name = request(TYPE, {fields,
// reply})`: its wire type (the `type` on the wire names the direction, so a handler
// can never mistake who sent it), its fields (a check each and, when the sender may
// leave one out, its default), any check across fields, and the shape of its reply.
// Everything else derives from that declaration: calling it builds the message
// (`startRun({ taskText })`), `startRun.is(value)` is its guard, `ask(startRun, fields)`
// (ask.js) resolves to its reply typed for the caller, and `handler(startRun, fn)` is
// how the worker's one door (worker/door.js) answers it: services return domain
// values, and only the door makes them replies. Every reply is `{ ok: true, ...fields }`
// or `{ ok: false, error, problems? }`.
//
// Only pages talk to the worker by message. The worker tells pages of changes through
// the view records it publishes in the store (store/views.js) and reaches content
// scripts through chrome.scripting and the debugger, never by message.

import {
  AGENT_KINDS,
  GROUNDING_MODES,
  MAX_MEMORY_K,
  MEMORY_POLICIES,
  OBSERVATION_FORMATS,
  OBSERVATION_MODES,
  SELECT_MODES,
} from './core-terms.js';

/**
 * @typedef {import('./worker/core/core-types.js').ElementRef} ElementRef `targetId` null is
 *   the tab's main target, otherwise an out-of-process iframe's target.
 * @typedef {import('./worker/core/core-types.js').Action} Action
 * @typedef {import('./types.js').RunView} RunView
 * @typedef {import('./types.js').StepView} StepView
 * @typedef {(value: unknown) => boolean} Check
 * @typedef {{ ok: boolean, error?: string, problems?: Problem[] } & Record<string, unknown>} Reply
 * @typedef {{ field: string, message: string, confirm?: string }} Problem
 */

/**
 * A field of a message: its check (a type guard, so the field's type is known) and,
 * when the sender may leave it out, the default made fresh for each message.
 * @template T
 * @typedef {{ check: (value: unknown) => value is T, default?: () => T }} Field
 */

/**
 * The fields as the receiver sees them (every one present, defaults filled in).
 * @template {Record<string, Field<any>>} F
 * @typedef {{ [K in keyof F]: F[K] extends Field<infer T> ? T : never }} FieldValues
 */

/**
 * The fields as a sender gives them: those with a default may be left out.
 * @template {Record<string, Field<any>>} F
 * @typedef {{ [K in keyof F as F[K] extends { default: () => unknown } ? never : K]: F[K] extends Field<infer T> ? T : never }
 *   & { [K in keyof F as F[K] extends { default: () => unknown } ? K : never]?: F[K] extends Field<infer T> ? T : never }} FieldInput
 */

/**
 * One declared message: call it with the fields to build the message (with none, when
 * the message has no field the sender must give).
 * @template {Record<string, Field<any>>} F
 * @template R the reply's fields (besides `ok`)
 * @typedef {((...fields: ({} extends FieldInput<F> ? [FieldInput<F>?] : [FieldInput<F>])) => { type: string } & FieldValues<F>) & {
 *   type: string, fields: F, reply: R,
 *   is(value: unknown): value is { type: string } & FieldValues<F>,
 *   fromArguments(args: unknown[]): { type: string } & FieldValues<F> }} Request
 */

/**
 * Any declared message (its arguments are its own, hence `any` here).
 * @typedef {((...args: any[]) => { type: string }) & { type: string, fields: Record<string, Field<any>>,
 *   reply: any, is(value: unknown): boolean, fromArguments(args: unknown[]): { type: string } }} AnyRequest
 */

/**
 * The message a declaration builds.
 * @template {AnyRequest} D
 * @typedef {ReturnType<D>} MessageOf
 */

/**
 * The fields of the reply to a declaration's message (`ok` aside).
 * @template {AnyRequest} D
 * @typedef {D['reply']} ReplyOf
 */

// --- Field checks --------------------------------------------------------------------

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export const isPlainObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** @type {(v: unknown) => v is string} */
const isString = (v) => typeof v === 'string';
/** @type {(v: unknown) => v is boolean} */
const isBoolean = (v) => typeof v === 'boolean';
/** @type {(v: unknown) => v is number} */
const isInteger = (v) => Number.isInteger(v);
/** @type {(v: unknown) => v is number} */
const isPositiveInteger = (v) => Number.isInteger(v) && /** @type {number} */ (v) > 0;
/** @type {(v: unknown) => v is string} */
const isRunId = (v) => typeof v === 'string' && v.length > 0;
/** @type {(v: unknown) => v is number} */
const isTabId = (v) => Number.isInteger(v) && /** @type {number} */ (v) >= 0;
/** @type {(v: unknown) => v is unknown[]} */
const isArray = (v) => Array.isArray(v);
/**
 * @template {string} T
 * @param {readonly T[]} values
 * @returns {(v: unknown) => v is T}
 */
const oneOf = (values) => /** @type {(v: unknown) => v is T} */ ((v) => values.includes(/** @type {T} */ (v)));
/**
 * @template T
 * @param {(v: unknown) => boolean} check
 * @returns {(v: unknown) => v is T}
 */
const checked = (check) => /** @type {(v: unknown) => v is T} */ (check);

/**
 * @template T
 * @param {(v: unknown) => v is T} check
 * @returns {Field<T>}
 */
const required = (check) => ({ check });
/**
 * @template T
 * @param {(v: unknown) => v is T} check
 * @param {() => T} made
 * @returns {Field<T> & { default: () => T }}
 */
const withDefault = (check, made) => ({ check, default: made });
/**
 * A field the sender may leave out (it stays `undefined` in the message).
 * @template T
 * @param {(v: unknown) => v is T} check
 * @returns {Field<T | undefined> & { default: () => T | undefined }}
 */
const leftOut = (check) => ({ check: (v) => v === undefined || check(v), default: () => undefined });

/** The 12 actions, in the parsed-object shape of the core's `Action` (serde tag `kind`). */
export const ACTION_KINDS = Object.freeze([
  'click', 'hover', 'type', 'press', 'scroll', 'new_tab', 'tab_focus', 'close_tab',
  'goto', 'go_back', 'go_forward', 'stop',
]);

export const RUN_STATUSES = Object.freeze(['running', 'finished', 'stopped', 'error']);
export const HUMAN_COMMANDS = /** @type {const} */ (['start', 'pause', 'resume']);
export const CONNECTION_TARGETS = /** @type {const} */ (['model', 'judge']);

/**
 * @typedef {{ mode?: string, wholePage?: boolean, linkUrls?: boolean, imageMaxSide?: number,
 *   format?: string, tabIds?: number[] }} ObserveOptions
 */
/** @type {Record<string, Check>} */
const OBSERVE_OPTION_CHECKS = Object.freeze({
  mode: isString,
  wholePage: isBoolean,
  linkUrls: isBoolean,
  format: oneOf(OBSERVATION_FORMATS),
  imageMaxSide: (v) => Number.isInteger(v),
  tabIds: (v) => Array.isArray(v) && v.every(Number.isInteger),
});
/** @type {(v: unknown) => v is ObserveOptions} */
const isObserveOptions = checked(
  (v) => isPlainObject(v) && Object.entries(v).every(([key, value]) => Object.hasOwn(OBSERVE_OPTION_CHECKS, key) && OBSERVE_OPTION_CHECKS[key](value)),
);

/**
 * @typedef {{ provider?: string, max_steps?: number, observation_mode?: string,
 *   observation_format?: string, max_obs_tokens?: number, keep_window?: boolean, sites?: 'task'|'any', memory_k?: number, memory_policy?: string,
 *   memory_records?: object[], agent?: string, grounding?: string, select?: string }} RunOverrides
 */
/** @type {Record<string, Check>} */
const RUN_OVERRIDE_CHECKS = Object.freeze({
  /** `replay` follows the task's reference_trajectory; any other name is a model provider. */
  provider: (v) => typeof v === 'string' && v.length > 0,
  max_steps: (v) => Number.isInteger(v) && /** @type {number} */ (v) > 0,
  observation_mode: oneOf(OBSERVATION_MODES),
  /** How the observation's text is written: `mmina` (the benchmark's) or `compact`. */
  observation_format: oneOf(OBSERVATION_FORMATS),
  /** Cut the observation to about this many tokens in the prompt (MMInA's max_obs_length). */
  max_obs_tokens: (v) => Number.isInteger(v) && /** @type {number} */ (v) >= 1 && /** @type {number} */ (v) <= 1_000_000,
  /** Keep the session window open after the run (default: it is closed). */
  keep_window: isBoolean,
  /** Procedural memory for this run: how many past runs the prompt shows (0: off), chosen how. */
  memory_k: (v) => Number.isInteger(v) && /** @type {number} */ (v) >= 0 && /** @type {number} */ (v) <= MAX_MEMORY_K,
  memory_policy: oneOf(MEMORY_POLICIES),
  /**
   * The memory records to choose from instead of the extension's own (the runner keeps
   * them in its run folder); the core reads them, so only the shape is checked here.
   */
  memory_records: (v) => Array.isArray(v) && v.every(isPlainObject),
  /** `prompt` (one prompt per step) or `modular` (SeeAct-style stages). */
  agent: oneOf(AGENT_KINDS),
  /** The modular agent's grounding variant: `textual` or `visual` (with the step's pictures). */
  grounding: oneOf(GROUNDING_MODES),
  /** The modular agent's selection: `model` (one more call) or `first_viable`. */
  select: oneOf(SELECT_MODES),
  /** `task`: only the task's sites (the fence, docs/security.md); `any`: anywhere.
   * Default: Settings → Sites (on unless the person turned it off). */
  sites: oneOf(['task', 'any']),
});

/**
 * The problems of a START_RUN `overrides` object (empty when valid).
 * @param {unknown} overrides
 * @returns {string[]}
 */
export function runOverrideProblems(overrides) {
  if (!isPlainObject(overrides)) return ['overrides must be an object'];
  return Object.entries(overrides)
    .filter(([key, value]) => !Object.hasOwn(RUN_OVERRIDE_CHECKS, key) || !RUN_OVERRIDE_CHECKS[key](value))
    .map(([key, value]) =>
      Object.hasOwn(RUN_OVERRIDE_CHECKS, key)
        ? `override ${key} has an invalid value ${JSON.stringify(value)}`
        : `unknown override ${key} (known: ${Object.keys(RUN_OVERRIDE_CHECKS).join(', ')})`,
    );
}

/** @type {(v: unknown) => v is RunOverrides} */
const isRunOverrides = checked((v) => runOverrideProblems(v).length === 0);

/**
 * @param {unknown} value
 * @returns {value is ElementRef}
 */
export function isElementRef(value) {
  return (
    isPlainObject(value) &&
    (value.targetId === null || typeof value.targetId === 'string') &&
    Number.isInteger(value.backendNodeId) &&
    /** @type {number} */ (value.backendNodeId) > 0
  );
}

/** @typedef {{ left: number, top: number, width: number, height: number }} Bounds */
/** @type {(v: unknown) => v is Bounds} */
const isBounds = checked(
  (b) =>
    isPlainObject(b) &&
    ['left', 'top', 'width', 'height'].every((k) => Number.isInteger(b[k])) &&
    /** @type {number} */ (b.width) > 0 &&
    /** @type {number} */ (b.height) > 0,
);

/** A study's tag on a person's run: which study, which participant, which task of it. */
/** @typedef {{ id: string, participant: string, position: number }} StudyTag */
/** @type {(v: unknown) => v is StudyTag} */
const isStudyTag = checked(
  (s) =>
    isPlainObject(s) && typeof s.id === 'string' && s.id !== '' && typeof s.participant === 'string' && s.participant !== '' &&
    Number.isInteger(s.position) && /** @type {number} */ (s.position) >= 1,
);

/** @typedef {{ model: Record<string, unknown>, judge?: Record<string, unknown> | null } & Record<string, unknown>} SettingsInput */
/** @type {(v: unknown) => v is SettingsInput} */
const isSettingsInput = checked(
  (v) => isPlainObject(v) && isPlainObject(v.model) && (v.judge === undefined || v.judge === null || isPlainObject(v.judge)),
);

/** The reply's shape, for the type checker only: a declaration's `reply` is never read at run time. */
const REPLY = /** @type {any} */ (null);

// --- The declarations ------------------------------------------------------------------

/** Every declaration, in the order declared: the door's table is checked against it. */
/** @type {AnyRequest[]} */
const DECLARED = [];

/**
 * Declares one message (see the top of the file). `params`: the fields a caller may
 * give as positional arguments instead of one object, in order (for the two oldest
 * messages, whose calls are spelled that way).
 * @template {Record<string, Field<any>>} F
 * @template R
 * @param {string} type the wire type
 * @param {{ fields: F, reply: R, whole?: (msg: FieldValues<F>) => boolean, params?: (keyof F & string)[] }} spec
 * @returns {Request<F, R>}
 */
function request(type, { fields, reply, whole, params }) {
  /** @param {Record<string, unknown>} values */
  const build = (values) => {
    /** @type {Record<string, unknown>} */
    const msg = { type };
    for (const [name, field] of Object.entries(fields)) {
      const value = values[name];
      msg[name] = value === undefined && field.default ? field.default() : value;
    }
    return /** @type {{ type: string } & FieldValues<F>} */ (msg);
  };
  /** @param {unknown[]} args */
  const fromArguments = (args) => {
    if (params) return build(Object.fromEntries(params.map((name, i) => [name, args[i]])));
    const [values = {}] = args;
    return build(isPlainObject(values) ? values : {});
  };
  /** @param {unknown} value @returns {value is { type: string } & FieldValues<F>} */
  const is = (value) =>
    isPlainObject(value) &&
    value.type === type &&
    Object.entries(fields).every(([name, field]) => field.check(value[name])) &&
    (whole === undefined || whole(/** @type {FieldValues<F>} */ (value)));
  const declared = Object.assign((/** @type {unknown[]} */ ...args) => fromArguments(args), { type, fields, reply, is, fromArguments });
  DECLARED.push(/** @type {AnyRequest} */ (/** @type {unknown} */ (declared)));
  return /** @type {Request<F, R>} */ (/** @type {unknown} */ (declared));
}

// Is the wasm core initialised? Starts its init if nothing has yet. `initMs`: how long
// the init took; `initStartedMs`: when it started, in ms since the worker started.
export const getCoreStatus = request('popup-to-worker/get-core-status', {
  fields: {},
  reply: /** @type {{ version: string, initMs: number, initStartedMs: number }} */ (REPLY),
});

/**
 * Call one whitelisted core export (core-calls.js) with JSON-serialisable arguments:
 * `coreCall(fn, args)`.
 * @type {Request<{ fn: Field<string>, args: Field<unknown[]> & { default: () => unknown[] } }, { value: any }>
 *   & ((fn: string, args?: unknown[]) => { type: string, fn: string, args: unknown[] })}
 */
export const coreCall = /** @type {any} */ (request('popup-to-worker/core-call', {
  fields: { fn: required(isString), args: withDefault(isArray, () => []) },
  params: ['fn', 'args'],
  reply: /** @type {{ value: any }} */ (REPLY),
}));

/**
 * Observe one tab as a model would see it; `options` override the settings:
 * `observeTab(tabId, options)`.
 * @type {Request<{ tabId: Field<number>, options: Field<ObserveOptions> & { default: () => ObserveOptions } },
 *   { observation: import('./types.js').ObservationView }>
 *   & ((tabId: number, options?: ObserveOptions) => { type: string, tabId: number, options: ObserveOptions })}
 */
export const observeTab = /** @type {any} */ (request('page-to-worker/observe-tab', {
  fields: { tabId: required(isInteger), options: withDefault(isObserveOptions, () => ({})) },
  params: ['tabId', 'options'],
  reply: /** @type {{ observation: import('./types.js').ObservationView }} */ (REPLY),
}));

// Sessions: a window the extension opened for one task; only its tabs are acted on and
// tracked. `sessionId` may be left out while exactly one session is open. `taskText` is
// a task file's text in any format the core imports (ours, MMInA, WebArena); `fileName`
// (e.g. `normal/3.json`) names it in errors and gives MMInA files their subset.
export const startSession = request('page-to-worker/start-session', {
  fields: { taskText: required(isString), fileName: withDefault(isString, () => 'task.json') },
  reply: /** @type {{ session: import('./types.js').SessionView, task: { id: string, intent: string, start_urls: string[] },
   *   progress: import('./types.js').Progress }} */ (REPLY),
});

// Closes the window unless `keepWindow`.
export const endSession = request('page-to-worker/end-session', {
  fields: { sessionId: leftOut(isString), keepWindow: withDefault(isBoolean, () => false) },
  reply: /** @type {{ verdict: import('./types.js').Verdict, events: unknown[], session: import('./types.js').SessionView }} */ (REPLY),
});

export const listSessionTabs = request('page-to-worker/list-session-tabs', {
  fields: { sessionId: leftOut(isString) },
  reply: /** @type {{ session: import('./types.js').SessionView,
   *   tabs: { index: number, tabId: number, url: string, title: string, current: boolean }[] }} */ (REPLY),
});

// One agent step. Give either `actionText` as the model printed it (`click [12]`: parsed
// by the core, `[id]` resolved through the tab's last observation) or a parsed `action`
// with an explicit `element` reference (required by click, hover and type). `tabId`
// defaults to the session's current tab.
export const act = request('page-to-worker/act', {
  fields: {
    sessionId: leftOut(isString),
    tabId: leftOut(isTabId),
    // Checked with actionText below: exactly one of the two spellings of the action.
    action: leftOut(checked(/** @returns {v is Action} */ (v) => isPlainObject(v))),
    actionText: leftOut(isString),
    element: leftOut(isElementRef),
    settleTimeoutMs: leftOut(checked(/** @returns {v is number} */ (v) => Number.isFinite(v) && /** @type {number} */ (v) >= 0)),
  },
  whole: (msg) =>
    typeof msg.actionText === 'string'
      ? msg.action === undefined
      : isPlainObject(msg.action) && ACTION_KINDS.includes(/** @type {string} */ (msg.action.kind)),
  reply: /** @type {{ step: number, result: { effect: import('./types.js').Effect | unknown, error?: string | null, settle: unknown } }} */ (REPLY),
});

export const getProgress = request('page-to-worker/get-progress', {
  fields: { sessionId: leftOut(isString) },
  reply: /** @type {{ progress: import('./types.js').Progress, session: import('./types.js').SessionView }} */ (REPLY),
});

export const getVerdict = request('page-to-worker/get-verdict', {
  fields: { sessionId: leftOut(isString) },
  reply: /** @type {{ verdict: import('./types.js').Verdict }} */ (REPLY),
});

// Agent runs (docs/agent-run.md): the core's agent machine in a session window, each
// step recorded in IndexedDB.
export const startRun = request('page-to-worker/start-run', {
  fields: {
    taskText: required(isString),
    fileName: withDefault(isString, () => 'task.json'),
    overrides: withDefault(isRunOverrides, () => ({})),
  },
  reply: /** @type {{ runId: string, sessionId: string, windowId: number }} */ (REPLY),
});

// The run as it is once stopped.
export const stopRun = request('page-to-worker/stop-run', {
  fields: { runId: required(isRunId) },
  reply: /** @type {{ run: RunView }} */ (REPLY),
});

// With `withSteps`, the steps too; a step with an action has `words`: {kind, element, words}.
export const getRun = request('page-to-worker/get-run', {
  fields: { runId: required(isRunId), withSteps: withDefault(isBoolean, () => false) },
  reply: /** @type {{ run: RunView, steps?: StepView[] }} */ (REPLY),
});

// Newest first.
// Newest first; `latest`: only that many (the popup's last few runs).
export const listRuns = request('page-to-worker/list-runs', {
  fields: { latest: leftOut(isPositiveInteger) },
  reply: /** @type {{ runs: RunView[] }} */ (REPLY),
});

// The run, its task, its settings without key, its steps, its media as data URLs.
export const exportRun = request('page-to-worker/export-run', {
  fields: { runId: required(isRunId) },
  reply: /** @type {{ trajectory: import('./types.js').Trajectory }} */ (REPLY),
});

export const deleteRun = request('page-to-worker/delete-run', {
  fields: { runId: required(isRunId) },
  reply: /** @type {{ runId: string }} */ (REPLY),
});

// Pause on (true) or off (false); see worker/run/driver.js.
export const pauseRun = request('page-to-worker/pause-run', {
  fields: { runId: required(isRunId), paused: required(isBoolean) },
  reply: /** @type {{ run: RunView }} */ (REPLY),
});

// A run's pictures, for thumbnails: media ids of that run's steps, at most 200.
export const getMedia = request('page-to-worker/get-media', {
  fields: {
    runId: required(isRunId),
    mediaIds: required(checked(/** @returns {v is string[]} */ (v) => Array.isArray(v) && v.every((id) => typeof id === 'string'))),
  },
  whole: (msg) => msg.mediaIds.length <= 200 && msg.mediaIds.every((/** @type {string} */ id) => id.startsWith(`${msg.runId}/`)),
  reply: /** @type {{ media: Record<string, string> }} */ (REPLY),
});

// A person's session (worker/human/): the person does the task in its window while
// what they do is recorded in the agent's action space and scored by the same hop
// tracker; a run like an agent's (provider `human`). The window opens; recording waits
// for Start.
export const startHuman = request('page-to-worker/start-human', {
  fields: {
    taskText: required(isString),
    fileName: withDefault(isString, () => 'task.json'),
    keepWindow: withDefault(isBoolean, () => false),
    bounds: leftOut(isBounds),
    study: leftOut(isStudyTag),
  },
  reply: /** @type {{ runId: string, sessionId: string, windowId: number }} */ (REPLY),
});

// The run's summary as stored (worker/core/types.js Run), not its view.
export const humanControl = request('page-to-worker/human-control', {
  fields: { runId: required(isRunId), command: required(oneOf(HUMAN_COMMANDS)) },
  reply: /** @type {{ run: import('./worker/core/types.js').Run | undefined }} */ (REPLY),
});

// `answer` is the person's stop [answer], or null: they give up.
export const humanFinish = request('page-to-worker/human-finish', {
  fields: {
    runId: required(isRunId),
    answer: required(checked(/** @returns {v is string | null} */ (v) => v === null || (typeof v === 'string' && v.length <= 2000))),
  },
  reply: /** @type {{ run: import('./worker/core/types.js').Run }} */ (REPLY),
});

// Human vs agent (worker/duel/): the agent's run (left) and the person's session
// (right); the agent waits for the person's Start. `overrides` as START_RUN's, for the
// agent; `windowId` the person's window now (the two tile its display).
export const startDuel = request('page-to-worker/start-duel', {
  fields: {
    taskText: required(isString),
    fileName: withDefault(isString, () => 'task.json'),
    overrides: withDefault(isRunOverrides, () => ({})),
    windowId: leftOut(isInteger),
  },
  reply: /** @type {{ duelId: string, agentRunId: string, humanRunId: string, agentWindowId: number, humanWindowId: number }} */ (REPLY),
});

// Both runs, their steps and the core's comparison (`a` the person's step, `b` the agent's).
export const getDuel = request('page-to-worker/get-duel', {
  fields: { duelId: required(isRunId) },
  reply: /** @type {import('./types.js').DuelView} */ (REPLY),
});

// Agent settings and model connection (options page). API keys live in the store and
// the worker only: pages send a key once, inside SAVE_SETTINGS, and never get it back.
export const getSettings = request('page-to-worker/get-settings', {
  fields: {},
  reply: /** @type {import('./types.js').SettingsView & { modelProblems: Problem[] }} */ (REPLY),
});

// `settings` in the shape of agent-settings.js, endpoints with `api_key` only when a new
// key was typed (or `clear_api_key: true`); `observation` changes the observation
// settings; `sites` the site fence settings (site-settings.js). A refusal names each
// field at fault: `{ ok: false, error, problems: [{field, message, confirm?}] }`.
export const saveSettings = request('page-to-worker/save-settings', {
  fields: {
    settings: required(isSettingsInput),
    observation: leftOut(checked(/** @returns {v is { mode?: string, format?: string }} */ (v) => isPlainObject(v))),
    sites: leftOut(checked(/** @returns {v is { fence: boolean, allow: string[], deny: string[] }} */ (v) => isPlainObject(v))),
  },
  reply: /** @type {import('./types.js').SettingsView & { notes: Problem[] }} */ (REPLY),
});

// One small request with the saved settings of the agent or judge model; `outcome` is
// the core's CallOutcome.
export const testConnection = request('page-to-worker/test-connection', {
  fields: { which: withDefault(oneOf(CONNECTION_TARGETS), () => /** @type {'model' | 'judge'} */ ('model')) },
  reply: /** @type {{ which: 'model' | 'judge', endpoint: { provider: string, base_url: string, model: string },
   *   outcome: import('./types.js').CallOutcome }} */ (REPLY),
});

/** Every declared message, in the order declared. */
export const REQUESTS = Object.freeze([...DECLARED]);

/**
 * The declaration of a wire type, or undefined.
 * @param {unknown} type
 * @returns {AnyRequest | undefined}
 */
export function requestOfType(type) {
  return REQUESTS.find((declared) => declared.type === type);
}

// --- Replies -----------------------------------------------------------------------

/**
 * A refusal that names the fields at fault: the door answers it as `{ ok: false, error,
 * problems }`, so the page can mark each field.
 */
export class Refusal extends Error {
  /**
   * @param {string} message
   * @param {Problem[]} problems
   */
  constructor(message, problems) {
    super(message);
    this.name = 'Refusal';
    this.problems = problems;
  }
}

/**
 * @param {Record<string, unknown>} [fields]
 * @returns {Reply}
 */
export function okReply(fields = {}) {
  return { ...fields, ok: true };
}

/**
 * @param {unknown} error
 * @returns {Reply}
 */
export function errorReply(error) {
  const problems = error instanceof Refusal ? { problems: error.problems } : {};
  return { ok: false, error: errorText(error), ...problems };
}

/**
 * @param {unknown} reply
 * @returns {reply is Reply}
 */
export function isReply(reply) {
  return (
    isPlainObject(reply) &&
    (reply.ok === true || (reply.ok === false && typeof reply.error === 'string'))
  );
}

/**
 * Readable text for anything thrown: a JsError from the core arrives as an Error.
 * @param {unknown} error
 * @returns {string}
 */
export function errorText(error) {
  if (error instanceof Error) return error.message || String(error);
  return String(error);
}

// --- Senders -----------------------------------------------------------------------

/**
 * True when a message comes from one of this extension's own pages. Content scripts
 * share the extension id but run in web pages, so the sender's origin is checked too.
 * @param {chrome.runtime.MessageSender} sender
 */
export function isFromExtensionPage(sender) {
  if (!sender || sender.id !== chrome.runtime.id) return false;
  const ownOrigin = new URL(chrome.runtime.getURL('')).origin;
  const origin = sender.origin ?? (sender.url ? new URL(sender.url).origin : '');
  return origin === ownOrigin;
}
