// The one message protocol between the service worker and extension pages.
//
// Every message is `{ type, ...fields }`; `type` names the direction so a handler can
// never mistake who sent it. MESSAGES below is the one table of them: per message its
// type, direction, fields (a check and, when the field may be left out, a default),
// any check across fields, and the reply. The constructors (senders use them, so shapes
// stay in one place) and the guards (receivers validate before acting) are derived from
// it. Every reply is `{ ok: true, ...fields }` or `{ ok: false, error }`.
//
// Only pages talk to the worker by message. The worker tells pages of changes through
// chrome.storage (RUN_RECORD_KEY, CURRENT_RUN_KEY, HUMAN_STATE_KEY below) and reaches
// content scripts through chrome.scripting and the debugger, never by message; the
// `direction` field is there so a message of another direction has one place to go.

import { OBSERVATION_FORMATS, OBSERVATION_MODES } from './observe-settings.js';

/**
 * @typedef {import('./worker/core-types.js').ElementRef} ElementRef `targetId` null is
 *   the tab's main target, otherwise an out-of-process iframe's target.
 * @typedef {import('./worker/core-types.js').Action} Action
 * @typedef {(value: unknown) => boolean} Check
 * @typedef {'pages→worker' | 'worker→pages' | 'worker→content'} Direction
 * @typedef {{ check: Check, default?: () => unknown }} FieldSpec a field's check; with
 *   `default` the sender may leave it out (the default is made fresh for each message)
 * @typedef {{ type: string, direction: Direction, fields: Record<string, FieldSpec>,
 *   whole?: (msg: Record<string, unknown>) => boolean, reply: string }} MessageSpec
 *   `whole`: a check across fields, after each field's own; `reply`: the reply's fields
 * @typedef {{ ok: boolean, error?: string } & Record<string, unknown>} Reply
 */

/**
 * The message types sent by extension pages to the worker: one namespace. The first two
 * keep their `popup-to-worker/` spelling, which is on the wire (and in tests).
 */
export const PAGE_TO_WORKER = Object.freeze({
  GET_CORE_STATUS: 'popup-to-worker/get-core-status',
  CORE_CALL: 'popup-to-worker/core-call',
  OBSERVE_TAB: 'page-to-worker/observe-tab',
  START_SESSION: 'page-to-worker/start-session',
  END_SESSION: 'page-to-worker/end-session',
  LIST_SESSION_TABS: 'page-to-worker/list-session-tabs',
  ACT: 'page-to-worker/act',
  GET_PROGRESS: 'page-to-worker/get-progress',
  GET_VERDICT: 'page-to-worker/get-verdict',
  START_RUN: 'page-to-worker/start-run',
  STOP_RUN: 'page-to-worker/stop-run',
  GET_RUN: 'page-to-worker/get-run',
  LIST_RUNS: 'page-to-worker/list-runs',
  EXPORT_RUN: 'page-to-worker/export-run',
  DELETE_RUN: 'page-to-worker/delete-run',
  PAUSE_RUN: 'page-to-worker/pause-run',
  GET_MEDIA: 'page-to-worker/get-media',
  START_HUMAN: 'page-to-worker/start-human',
  HUMAN_CONTROL: 'page-to-worker/human-control',
  HUMAN_FINISH: 'page-to-worker/human-finish',
  START_DUEL: 'page-to-worker/start-duel',
  GET_DUEL: 'page-to-worker/get-duel',
  GET_SETTINGS: 'page-to-worker/get-settings',
  SAVE_SETTINGS: 'page-to-worker/save-settings',
  TEST_CONNECTION: 'page-to-worker/test-connection',
});

/** The popup's two messages under their old name (the same entries of PAGE_TO_WORKER). */
export const POPUP_TO_WORKER = Object.freeze({
  GET_CORE_STATUS: PAGE_TO_WORKER.GET_CORE_STATUS,
  CORE_CALL: PAGE_TO_WORKER.CORE_CALL,
});

/** The 12 actions, in the parsed-object shape of the core's `Action` (serde tag `kind`). */
export const ACTION_KINDS = Object.freeze([
  'click', 'hover', 'type', 'press', 'scroll', 'new_tab', 'tab_focus', 'close_tab',
  'goto', 'go_back', 'go_forward', 'stop',
]);

export const RUN_STATUSES = Object.freeze(['running', 'finished', 'stopped', 'error']);
export const HUMAN_COMMANDS = Object.freeze(['start', 'pause', 'resume']);
export const CONNECTION_TARGETS = Object.freeze(['model', 'judge']);

/** chrome.storage.local keys the worker writes and pages may watch. */
export const RUN_RECORD_KEY = (/** @type {string} */ runId) => `run.${runId}`;
export const CURRENT_RUN_KEY = 'runs.current';
/** A person's session: `{phase, startedAt, pausedMs, pausedAt, steps}`, phase 'ready' |
 * 'recording' | 'paused' | 'ended' (worker/human-session.js). */
export const HUMAN_STATE_KEY = (/** @type {string} */ runId) => `run.${runId}.human`;

// --- Field checks --------------------------------------------------------------------

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
const isPlainObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** @type {Check} */
const isString = (v) => typeof v === 'string';
/** @type {Check} */
const isBoolean = (v) => typeof v === 'boolean';
/** @type {Check} */
const isRunId = (v) => typeof v === 'string' && v.length > 0;
/** @type {Check} */
const isTabId = (v) => Number.isInteger(v) && /** @type {number} */ (v) >= 0;
/**
 * @param {Check} check
 * @returns {Check}
 */
const optional = (check) => (v) => v === undefined || check(v);
/**
 * @param {readonly unknown[]} values
 * @returns {Check}
 */
const oneOf = (values) => (v) => values.includes(v);

/** @type {Record<string, Check>} */
const OBSERVE_OPTION_CHECKS = Object.freeze({
  mode: isString,
  wholePage: isBoolean,
  linkUrls: isBoolean,
  format: oneOf(OBSERVATION_FORMATS),
  imageMaxSide: (v) => Number.isInteger(v),
  tabIds: (v) => Array.isArray(v) && v.every(Number.isInteger),
});

/** @type {Check} */
const isObserveOptions = (v) =>
  isPlainObject(v) &&
  Object.entries(v).every(([key, value]) => Object.hasOwn(OBSERVE_OPTION_CHECKS, key) && OBSERVE_OPTION_CHECKS[key](value));

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
  memory_k: (v) => Number.isInteger(v) && /** @type {number} */ (v) >= 0 && /** @type {number} */ (v) <= 10,
  memory_policy: oneOf(['recent', 'similar']),
  /**
   * The memory records to choose from instead of the extension's own (the runner keeps
   * them in its run folder); the core reads them, so only the shape is checked here.
   */
  memory_records: (v) => Array.isArray(v) && v.every(isPlainObject),
  /** `prompt` (one prompt per step) or `modular` (SeeAct-style stages). */
  agent: oneOf(['prompt', 'modular']),
  /** The modular agent's grounding variant: `textual` or `visual` (with the step's pictures). */
  grounding: oneOf(['textual', 'visual']),
  /** The modular agent's selection: `model` (one more call) or `first_viable`. */
  select: oneOf(['model', 'first_viable']),
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

/** @type {Check} */
const isRunOverrides = (v) => runOverrideProblems(v).length === 0;

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

/** @type {Check} */
const isBounds = (b) =>
  isPlainObject(b) &&
  ['left', 'top', 'width', 'height'].every((k) => Number.isInteger(b[k])) &&
  /** @type {number} */ (b.width) > 0 &&
  /** @type {number} */ (b.height) > 0;

/** A study's tag on a person's run: which study, which participant, which task of it.
 * @type {Check} */
const isStudyTag = (s) =>
  isPlainObject(s) && typeof s.id === 'string' && s.id !== '' && typeof s.participant === 'string' && s.participant !== '' &&
  Number.isInteger(s.position) && /** @type {number} */ (s.position) >= 1;

/** @param {Check} check @returns {FieldSpec} */
const required = (check) => ({ check });
/** @param {Check} check @param {() => unknown} made @returns {FieldSpec} */
const withDefault = (check, made) => ({ check, default: made });
/** A field the sender may leave out (it stays `undefined` in the message). */
const leftOut = (/** @type {Check} */ check) => withDefault(optional(check), () => undefined);

const TO_WORKER = 'pages→worker';

// --- The table -----------------------------------------------------------------------
//
// `sessionId` may be left out while exactly one session is open. RunView = { id, taskId,
// intent, status, step, maxSteps, progress, verdict, error, startedAt, finishedAt,
// tokens: {input, output}, reason, provider, paused, task }, status one of RUN_STATUSES;
// `paused` null, 'pausing' (asked, the step in progress finishes first) or 'paused'
// (held before the next step); `task` = {intent, hops, sites} for the panel's task card.
// Pages learn of a run's changes from chrome.storage.onChanged: the worker rewrites
// `run.<id>` (RUN_RECORD_KEY) after every transition and `runs.current` on START_RUN.

/** @type {Readonly<Record<string, MessageSpec>>} */
const MESSAGES = Object.freeze({
  // Is the wasm core initialised? Starts its init if nothing has yet. `initMs`: how long
  // the init took; `initStartedMs`: when it started, in ms since the worker started.
  getCoreStatus: {
    type: PAGE_TO_WORKER.GET_CORE_STATUS, direction: TO_WORKER, fields: {},
    reply: '{ ok, version, initMs, initStartedMs }',
  },
  // Call one whitelisted core export (core-calls.js) with JSON-serialisable arguments.
  coreCall: {
    type: PAGE_TO_WORKER.CORE_CALL, direction: TO_WORKER,
    fields: { fn: required(isString), args: withDefault(Array.isArray, () => []) },
    reply: '{ ok, value }',
  },
  // Observe one tab as a model would see it; `options` override the settings.
  observeTab: {
    type: PAGE_TO_WORKER.OBSERVE_TAB, direction: TO_WORKER,
    fields: { tabId: required(Number.isInteger), options: withDefault(isObserveOptions, () => ({})) },
    reply: '{ ok, observation: { text, url, title, mode, images, screenshot?, som?, marks, stats, timings } }',
  },
  // Sessions: a window the extension opened for one task; only its tabs are acted on
  // and tracked.
  startSession: {
    type: PAGE_TO_WORKER.START_SESSION, direction: TO_WORKER,
    fields: { taskText: required(isString), fileName: withDefault(isString, () => 'task.json') },
    reply: '{ ok, session: SessionView, task: {id, intent, start_urls}, progress }',
  },
  endSession: {
    type: PAGE_TO_WORKER.END_SESSION, direction: TO_WORKER,
    fields: { sessionId: leftOut(isString), keepWindow: withDefault(isBoolean, () => false) },
    reply: '{ ok, verdict }  (closes the window unless keepWindow)',
  },
  listSessionTabs: {
    type: PAGE_TO_WORKER.LIST_SESSION_TABS, direction: TO_WORKER,
    fields: { sessionId: leftOut(isString) },
    reply: '{ ok, tabs: [{index, tabId, url, title, current}] }',
  },
  act: {
    type: PAGE_TO_WORKER.ACT, direction: TO_WORKER,
    fields: {
      sessionId: leftOut(isString),
      tabId: leftOut(isTabId),
      // Checked with actionText below: exactly one of the two spellings of the action.
      action: required(() => true),
      actionText: required(() => true),
      element: leftOut(isElementRef),
      settleTimeoutMs: leftOut((v) => Number.isFinite(v) && /** @type {number} */ (v) >= 0),
    },
    whole: (msg) =>
      typeof msg.actionText === 'string'
        ? msg.action === undefined
        : isPlainObject(msg.action) && ACTION_KINDS.includes(/** @type {string} */ (msg.action.kind)),
    reply: '{ ok, result: { effect, error?, settle } }',
  },
  getProgress: {
    type: PAGE_TO_WORKER.GET_PROGRESS, direction: TO_WORKER,
    fields: { sessionId: leftOut(isString) },
    reply: '{ ok, progress }',
  },
  getVerdict: {
    type: PAGE_TO_WORKER.GET_VERDICT, direction: TO_WORKER,
    fields: { sessionId: leftOut(isString) },
    reply: '{ ok, verdict }',
  },
  // Agent runs (docs/agent-run.md): the core's agent machine in a session window, each
  // step recorded in IndexedDB.
  startRun: {
    type: PAGE_TO_WORKER.START_RUN, direction: TO_WORKER,
    fields: {
      taskText: required(isString),
      fileName: withDefault(isString, () => 'task.json'),
      overrides: withDefault(isRunOverrides, () => ({})),
    },
    reply: '{ ok, runId, sessionId }',
  },
  stopRun: {
    type: PAGE_TO_WORKER.STOP_RUN, direction: TO_WORKER,
    fields: { runId: required(isRunId) },
    reply: '{ ok, run }  (the run as it is once stopped)',
  },
  getRun: {
    type: PAGE_TO_WORKER.GET_RUN, direction: TO_WORKER,
    fields: { runId: required(isRunId), withSteps: withDefault(isBoolean, () => false) },
    reply: '{ ok, run: RunView, steps? }  (with `withSteps`; a step with an action has `words`: {kind, element, words})',
  },
  listRuns: {
    type: PAGE_TO_WORKER.LIST_RUNS, direction: TO_WORKER, fields: {},
    reply: '{ ok, runs: RunView[] }  (newest first)',
  },
  exportRun: {
    type: PAGE_TO_WORKER.EXPORT_RUN, direction: TO_WORKER,
    fields: { runId: required(isRunId) },
    reply: '{ ok, trajectory }  (run, task, settings without key, steps, media as data URLs)',
  },
  deleteRun: {
    type: PAGE_TO_WORKER.DELETE_RUN, direction: TO_WORKER,
    fields: { runId: required(isRunId) },
    reply: '{ ok, runId }',
  },
  // Pause on (true) or off (false); see worker/run-driver.js.
  pauseRun: {
    type: PAGE_TO_WORKER.PAUSE_RUN, direction: TO_WORKER,
    fields: { runId: required(isRunId), paused: required(isBoolean) },
    reply: '{ ok, run }',
  },
  // A run's screenshots, for thumbnails: media ids of that run's steps.
  getMedia: {
    type: PAGE_TO_WORKER.GET_MEDIA, direction: TO_WORKER,
    fields: { runId: required(isRunId), mediaIds: required(Array.isArray) },
    whole: (msg) => {
      const ids = /** @type {unknown[]} */ (msg.mediaIds);
      return ids.length <= 200 && ids.every((id) => typeof id === 'string' && id.startsWith(`${msg.runId}/`));
    },
    reply: '{ ok, media: {<mediaId>: dataUrl} }',
  },
  // A person's session (worker/human-session.js): the person does the task in its
  // window while what they do is recorded in the agent's action space and scored by
  // the same hop tracker; a run like an agent's (provider `human`).
  startHuman: {
    type: PAGE_TO_WORKER.START_HUMAN, direction: TO_WORKER,
    fields: {
      taskText: required(isString),
      fileName: withDefault(isString, () => 'task.json'),
      keepWindow: withDefault(isBoolean, () => false),
      bounds: leftOut(isBounds),
      study: leftOut(isStudyTag),
    },
    reply: '{ ok, runId, sessionId }  (the window opens; recording waits for Start)',
  },
  humanControl: {
    type: PAGE_TO_WORKER.HUMAN_CONTROL, direction: TO_WORKER,
    fields: { runId: required(isRunId), command: required(oneOf(HUMAN_COMMANDS)) },
    reply: '{ ok, run }',
  },
  // `answer` is the person's stop [answer], or null: they give up.
  humanFinish: {
    type: PAGE_TO_WORKER.HUMAN_FINISH, direction: TO_WORKER,
    fields: {
      runId: required(isRunId),
      answer: required((v) => v === null || (typeof v === 'string' && v.length <= 2000)),
    },
    reply: '{ ok, run }',
  },
  // Human vs agent (worker/duel.js): the agent's run (left) and the person's session
  // (right); the agent waits for the person's Start. `overrides` as START_RUN's, for
  // the agent; `windowId` the person's window now (the two tile its display).
  startDuel: {
    type: PAGE_TO_WORKER.START_DUEL, direction: TO_WORKER,
    fields: {
      taskText: required(isString),
      fileName: withDefault(isString, () => 'task.json'),
      overrides: withDefault(isRunOverrides, () => ({})),
      windowId: leftOut(Number.isInteger),
    },
    reply: '{ ok, duelId, agentRunId, humanRunId, agentWindowId, humanWindowId }',
  },
  getDuel: {
    type: PAGE_TO_WORKER.GET_DUEL, direction: TO_WORKER,
    fields: { duelId: required(isRunId) },
    reply: '{ ok, duel, agent: RunView, human: RunView, agentSteps, humanSteps, ' +
      'comparison: {hops: [{hop, description, a, b}], diverged_at, summary} }  (`a` the person\'s step, `b` the agent\'s)',
  },
  // Agent settings and model connection (options page). API keys live in
  // chrome.storage.local and the worker only: pages send a key once, inside
  // SAVE_SETTINGS, and never get it back.
  getSettings: {
    type: PAGE_TO_WORKER.GET_SETTINGS, direction: TO_WORKER, fields: {},
    reply: '{ ok, settings (masked: api_key_set, api_key_last4), observation, modelProblems: [{field, message}], ' +
      'sites: {fence, allow, deny}, keyStorage: {restricted, error?} }',
  },
  saveSettings: {
    type: PAGE_TO_WORKER.SAVE_SETTINGS, direction: TO_WORKER,
    fields: {
      settings: required(
        (v) => isPlainObject(v) && isPlainObject(v.model) && (v.judge === undefined || v.judge === null || isPlainObject(v.judge)),
      ),
      observation: leftOut(isPlainObject),
      sites: leftOut(isPlainObject),
    },
    reply: '{ ok, settings (masked), observation, sites, keyStorage, notes: [{field, message}] } or ' +
      '{ ok: false, error, problems: [{field, message, confirm?}] }',
  },
  // One small request with the saved settings of the agent or judge model.
  testConnection: {
    type: PAGE_TO_WORKER.TEST_CONNECTION, direction: TO_WORKER,
    fields: { which: withDefault(oneOf(CONNECTION_TARGETS), () => 'model') },
    reply: '{ ok, which, endpoint: {provider, base_url, model}, outcome }  (`outcome`: the core\'s CallOutcome)',
  },
});

/**
 * The message of one table entry: its type, then each field in table order (a field
 * left out gets its default, or stays `undefined`).
 * @param {MessageSpec} spec
 * @param {Record<string, unknown>} values
 * @returns {{ type: string } & Record<string, unknown>}
 */
function build(spec, values) {
  /** @type {{ type: string } & Record<string, unknown>} */
  const msg = { type: spec.type };
  for (const [name, field] of Object.entries(spec.fields)) {
    const value = values[name];
    msg[name] = value === undefined && field.default ? field.default() : value;
  }
  return msg;
}

/**
 * The guard of one table entry: the type, every field's check, then the check across
 * fields.
 * @param {MessageSpec} spec
 * @returns {(msg: unknown) => boolean}
 */
function guardOf(spec) {
  return (msg) =>
    isPlainObject(msg) &&
    msg.type === spec.type &&
    Object.entries(spec.fields).every(([name, field]) => field.check(msg[name])) &&
    (spec.whole === undefined || spec.whole(msg));
}

/**
 * A typed guard over a table entry: the cast is what the entry's checks establish.
 * @template T
 * @param {string} name
 * @returns {(msg: unknown) => msg is T}
 */
function guard(name) {
  return /** @type {(msg: unknown) => msg is T} */ (guardOf(spec(name)));
}

/**
 * A typed constructor's message: the cast states the entry's field types.
 * @template T
 * @param {string} name
 * @param {Record<string, unknown>} values
 * @returns {T}
 */
function message(name, values) {
  return /** @type {T} */ (/** @type {unknown} */ (build(spec(name), values)));
}

/** @param {string} name */
function spec(name) {
  const found = MESSAGES[name];
  if (!found) throw new Error(`messages.js: no message ${name} in the table`);
  return found;
}

/** The table's entries, for documentation and tests: `{name: {type, direction, reply}}`. */
export const MESSAGE_TABLE = MESSAGES;

// --- Messages, constructors and guards -------------------------------------------------

/**
 * @typedef {{ provider?: string, max_steps?: number, observation_mode?: string,
 *   observation_format?: string, max_obs_tokens?: number, keep_window?: boolean, sites?: 'task'|'any', memory_k?: number, memory_policy?: string,
 *   memory_records?: object[], agent?: string, grounding?: string, select?: string }} RunOverrides
 * @typedef {{ mode?: string, wholePage?: boolean, linkUrls?: boolean, imageMaxSide?: number,
 *   format?: string, tabIds?: number[] }} ObserveOptions
 * @typedef {{ left: number, top: number, width: number, height: number }} Bounds
 * @typedef {{ id: string, participant: string, position: number }} StudyTag
 * @typedef {{ type: string }} GetCoreStatus
 * @typedef {{ type: string, fn: string, args: unknown[] }} CoreCall
 * @typedef {{ type: string, tabId: number, options: ObserveOptions }} ObserveTab
 * @typedef {{ type: string, taskText: string, fileName: string }} StartSession
 * @typedef {{ type: string, sessionId?: string, keepWindow: boolean }} EndSession
 * @typedef {{ type: string, sessionId?: string }} SessionQuery LIST_SESSION_TABS,
 *   GET_PROGRESS and GET_VERDICT
 * @typedef {{ type: string, sessionId?: string, tabId?: number, action?: Action,
 *   actionText?: string, element?: ElementRef, settleTimeoutMs?: number }} Act
 * @typedef {{ type: string, taskText: string, fileName: string, overrides: RunOverrides }} StartRun
 * @typedef {{ type: string, runId: string }} RunQuery STOP_RUN, EXPORT_RUN and DELETE_RUN
 * @typedef {{ type: string, runId: string, withSteps: boolean }} GetRun
 * @typedef {{ type: string, runId: string, paused: boolean }} PauseRun
 * @typedef {{ type: string, runId: string, mediaIds: string[] }} GetMedia
 * @typedef {{ type: string }} ListRuns
 * @typedef {{ type: string, taskText: string, fileName: string, keepWindow: boolean,
 *   bounds?: Bounds, study?: StudyTag }} StartHuman
 * @typedef {{ type: string, runId: string, command: 'start'|'pause'|'resume' }} HumanControl
 * @typedef {{ type: string, runId: string, answer: string | null }} HumanFinish
 * @typedef {{ type: string, taskText: string, fileName: string, overrides: RunOverrides,
 *   windowId?: number }} StartDuel
 * @typedef {{ type: string, duelId: string }} GetDuel
 * @typedef {{ type: string }} GetSettings
 * @typedef {{ model: Record<string, unknown>, judge?: Record<string, unknown> | null } & Record<string, unknown>} SettingsInput
 * @typedef {{ type: string, settings: SettingsInput, observation?: { mode?: string, format?: string },
 *   sites?: { fence: boolean, allow: string[], deny: string[] } }} SaveSettings
 * @typedef {{ type: string, which: 'model'|'judge' }} TestConnection
 * @typedef {GetCoreStatus | CoreCall | ObserveTab | StartSession | EndSession | SessionQuery
 *   | Act | StartRun | RunQuery | GetRun | PauseRun | GetMedia | ListRuns | StartHuman
 *   | HumanControl | HumanFinish | StartDuel | GetDuel | GetSettings | SaveSettings
 *   | TestConnection} PageMessage
 */

/**
 * A worker handler of one message type: `isValid` is the message's guard, `handle` its
 * work (a method, so each handler may take its own message type).
 * @typedef {{ isValid(msg: unknown): boolean, handle(msg: PageMessage): Promise<Reply> }} Handler
 * @typedef {Record<string, Handler>} Handlers
 */

/** @returns {GetCoreStatus} */
export const getCoreStatus = () => message('getCoreStatus', {});
/** @type {(msg: unknown) => msg is GetCoreStatus} */
export const isGetCoreStatus = guard('getCoreStatus');

/**
 * @param {string} fn name of a core export listed in core-calls.js
 * @param {unknown[]} [args] JSON-serialisable arguments
 * @returns {CoreCall}
 */
export const coreCall = (fn, args = []) => message('coreCall', { fn, args });
/** @type {(msg: unknown) => msg is CoreCall} */
export const isCoreCall = guard('coreCall');

/**
 * Observe one tab as a model would see it.
 * @param {number} tabId
 * @param {ObserveOptions} [options] override the settings
 * @returns {ObserveTab}
 */
export const observeTab = (tabId, options = {}) => message('observeTab', { tabId, options });
/** @type {(msg: unknown) => msg is ObserveTab} */
export const isObserveTab = guard('observeTab');

/**
 * @param {{ taskText: string, fileName?: string }} task a task file's text in any format
 *   the core imports (ours, MMInA, WebArena); `fileName` (e.g. `normal/3.json`) names it
 *   in errors and gives MMInA files their subset.
 * @returns {StartSession}
 */
export const startSession = ({ taskText, fileName }) => message('startSession', { taskText, fileName });
/** @type {(msg: unknown) => msg is StartSession} */
export const isStartSession = guard('startSession');

/**
 * @param {{ sessionId?: string, keepWindow?: boolean }} [options]
 * @returns {EndSession}
 */
export const endSession = ({ sessionId, keepWindow } = {}) => message('endSession', { sessionId, keepWindow });
/** @type {(msg: unknown) => msg is EndSession} */
export const isEndSession = guard('endSession');

/**
 * @param {{ sessionId?: string }} [options]
 * @returns {SessionQuery}
 */
export const listSessionTabs = ({ sessionId } = {}) => message('listSessionTabs', { sessionId });
/** @type {(msg: unknown) => msg is SessionQuery} */
export const isListSessionTabs = guard('listSessionTabs');

/**
 * One agent step. Give either `actionText` as the model printed it (`click [12]`: parsed
 * by the core, `[id]` resolved through the tab's last observation) or a parsed `action`
 * with an explicit `element` reference (required by click, hover and type). `tabId`
 * defaults to the session's current tab.
 * @param {{ sessionId?: string, tabId?: number, action?: Action, actionText?: string,
 *   element?: ElementRef, settleTimeoutMs?: number }} fields
 * @returns {Act}
 */
export const act = ({ sessionId, tabId, action, actionText, element, settleTimeoutMs }) =>
  message('act', { sessionId, tabId, action, actionText, element, settleTimeoutMs });
/** @type {(msg: unknown) => msg is Act} */
export const isAct = guard('act');

/**
 * @param {{ sessionId?: string }} [options]
 * @returns {SessionQuery}
 */
export const getProgress = ({ sessionId } = {}) => message('getProgress', { sessionId });
/** @type {(msg: unknown) => msg is SessionQuery} */
export const isGetProgress = guard('getProgress');

/**
 * @param {{ sessionId?: string }} [options]
 * @returns {SessionQuery}
 */
export const getVerdict = ({ sessionId } = {}) => message('getVerdict', { sessionId });
/** @type {(msg: unknown) => msg is SessionQuery} */
export const isGetVerdict = guard('getVerdict');

/**
 * @param {{ taskText: string, fileName?: string, overrides?: RunOverrides }} run
 * @returns {StartRun}
 */
export const startRun = ({ taskText, fileName, overrides }) => message('startRun', { taskText, fileName, overrides });
/** @type {(msg: unknown) => msg is StartRun} */
export const isStartRun = guard('startRun');

/**
 * @param {{ runId: string }} run
 * @returns {RunQuery}
 */
export const stopRun = ({ runId }) => message('stopRun', { runId });
/** @type {(msg: unknown) => msg is RunQuery} */
export const isStopRun = guard('stopRun');

/**
 * @param {{ runId: string, withSteps?: boolean }} run
 * @returns {GetRun}
 */
export const getRun = ({ runId, withSteps }) => message('getRun', { runId, withSteps });
/** @type {(msg: unknown) => msg is GetRun} */
export const isGetRun = guard('getRun');

/**
 * @param {{ runId: string, paused: boolean }} run Pause (true) or Resume (false).
 * @returns {PauseRun}
 */
export const pauseRun = ({ runId, paused }) => message('pauseRun', { runId, paused });
/** @type {(msg: unknown) => msg is PauseRun} */
export const isPauseRun = guard('pauseRun');

/**
 * @param {{ runId: string, mediaIds: string[] }} request media ids of that run's steps
 * @returns {GetMedia}
 */
export const getMedia = ({ runId, mediaIds }) => message('getMedia', { runId, mediaIds });
/** @type {(msg: unknown) => msg is GetMedia} */
export const isGetMedia = guard('getMedia');

/** @returns {ListRuns} */
export const listRuns = () => message('listRuns', {});
/** @type {(msg: unknown) => msg is ListRuns} */
export const isListRuns = guard('listRuns');

/**
 * @param {{ runId: string }} run
 * @returns {RunQuery}
 */
export const exportRun = ({ runId }) => message('exportRun', { runId });
/** @type {(msg: unknown) => msg is RunQuery} */
export const isExportRun = guard('exportRun');

/**
 * @param {{ runId: string }} run
 * @returns {RunQuery}
 */
export const deleteRun = ({ runId }) => message('deleteRun', { runId });
/** @type {(msg: unknown) => msg is RunQuery} */
export const isDeleteRun = guard('deleteRun');

/**
 * @param {{ taskText: string, fileName?: string, keepWindow?: boolean, bounds?: Bounds,
 *   study?: StudyTag }} session
 * @returns {StartHuman}
 */
export const startHuman = ({ taskText, fileName, keepWindow, bounds, study }) =>
  message('startHuman', { taskText, fileName, keepWindow, bounds, study });
/** @type {(msg: unknown) => msg is StartHuman} */
export const isStartHuman = guard('startHuman');

/**
 * @param {{ runId: string, command: 'start'|'pause'|'resume' }} control
 * @returns {HumanControl}
 */
export const humanControl = ({ runId, command }) => message('humanControl', { runId, command });
/** @type {(msg: unknown) => msg is HumanControl} */
export const isHumanControl = guard('humanControl');

/**
 * @param {{ runId: string, answer: string|null }} end the answer, or null to give up
 * @returns {HumanFinish}
 */
export const humanFinish = ({ runId, answer }) => message('humanFinish', { runId, answer });
/** @type {(msg: unknown) => msg is HumanFinish} */
export const isHumanFinish = guard('humanFinish');

/**
 * @param {{ taskText: string, fileName?: string, overrides?: RunOverrides, windowId?: number }} duel
 * @returns {StartDuel}
 */
export const startDuel = ({ taskText, fileName, overrides, windowId }) =>
  message('startDuel', { taskText, fileName, overrides, windowId });
/** @type {(msg: unknown) => msg is StartDuel} */
export const isStartDuel = guard('startDuel');

/**
 * @param {{ duelId: string }} duel
 * @returns {GetDuel}
 */
export const getDuel = ({ duelId }) => message('getDuel', { duelId });
/** @type {(msg: unknown) => msg is GetDuel} */
export const isGetDuel = guard('getDuel');

/** @returns {GetSettings} */
export const getSettings = () => message('getSettings', {});
/** @type {(msg: unknown) => msg is GetSettings} */
export const isGetSettings = guard('getSettings');

/**
 * @param {{ settings: SettingsInput, observation?: {mode?: string, format?: string},
 *   sites?: {fence: boolean, allow: string[], deny: string[]} }} fields `settings` in the
 *   shape of agent-settings.js, endpoints with `api_key` only when a new key was typed
 *   (or `clear_api_key: true`); `observation` changes settings.observation; `sites`
 *   the site fence settings (site-settings.js).
 * @returns {SaveSettings}
 */
export const saveSettings = ({ settings, observation, sites }) => message('saveSettings', { settings, observation, sites });
/** @type {(msg: unknown) => msg is SaveSettings} */
export const isSaveSettings = guard('saveSettings');

/**
 * Sends one small request with the saved settings of the agent or judge model.
 * @param {{ which?: 'model'|'judge' }} [target]
 * @returns {TestConnection}
 */
export const testConnection = ({ which } = {}) => message('testConnection', { which });
/** @type {(msg: unknown) => msg is TestConnection} */
export const isTestConnection = guard('testConnection');

// --- Replies -----------------------------------------------------------------------

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
  return { ok: false, error: errorText(error) };
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
