// The one message protocol between the service worker and extension pages.
//
// Every message is `{ type, ...fields }`; `type` names the direction so a handler can
// never mistake who sent it. Each message has a constructor (senders use it, so shapes
// stay in one place) and a guard (receivers validate before acting). Every reply is
// `{ ok: true, ...fields }` or `{ ok: false, error }`.

import { OBSERVATION_MODES } from './observe-settings.js';

/** Messages sent by extension pages (the popup, later the options/report pages). */
export const POPUP_TO_WORKER = Object.freeze({
  GET_CORE_STATUS: 'popup-to-worker/get-core-status',
  CORE_CALL: 'popup-to-worker/core-call',
});

const isPlainObject = (value) =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// --- GET_CORE_STATUS: is the wasm core initialised? -------------------------------

/** @returns {{type: string}} */
export function getCoreStatus() {
  return { type: POPUP_TO_WORKER.GET_CORE_STATUS };
}

export function isGetCoreStatus(msg) {
  return isPlainObject(msg) && msg.type === POPUP_TO_WORKER.GET_CORE_STATUS;
}

// --- CORE_CALL: call one whitelisted core export --------------------------------

/**
 * @param {string} fn name of a core export listed in core-calls.js
 * @param {unknown[]} args JSON-serialisable arguments
 */
export function coreCall(fn, args = []) {
  return { type: POPUP_TO_WORKER.CORE_CALL, fn, args };
}

export function isCoreCall(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === POPUP_TO_WORKER.CORE_CALL &&
    typeof msg.fn === 'string' &&
    Array.isArray(msg.args)
  );
}

// === Observation (extension pages → worker) ========================================

// PAGE_TO_WORKER (below, with the session messages) holds OBSERVE_TAB.

const OBSERVE_OPTION_CHECKS = Object.freeze({
  mode: (v) => typeof v === 'string',
  wholePage: (v) => typeof v === 'boolean',
  linkUrls: (v) => typeof v === 'boolean',
  imageMaxSide: (v) => Number.isInteger(v),
  tabIds: (v) => Array.isArray(v) && v.every(Number.isInteger),
});

/**
 * Observe one tab as a model would see it. Reply: `{ ok, observation }` with
 * `observation = { text, url, title, mode, images, screenshot?, som?, marks, stats, timings }`.
 * @param {number} tabId
 * @param {{mode?: string, wholePage?: boolean, linkUrls?: boolean,
 *          imageMaxSide?: number, tabIds?: number[]}} [options] override the settings
 */
export function observeTab(tabId, options = {}) {
  return { type: PAGE_TO_WORKER.OBSERVE_TAB, tabId, options };
}

export function isObserveTab(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === PAGE_TO_WORKER.OBSERVE_TAB &&
    Number.isInteger(msg.tabId) &&
    isPlainObject(msg.options) &&
    Object.entries(msg.options).every(
      ([key, value]) => Object.hasOwn(OBSERVE_OPTION_CHECKS, key) && OBSERVE_OPTION_CHECKS[key](value),
    )
  );
}

// --- Replies -----------------------------------------------------------------------

export function okReply(fields = {}) {
  return { ...fields, ok: true };
}

export function errorReply(error) {
  return { ok: false, error: errorText(error) };
}

export function isReply(reply) {
  return (
    isPlainObject(reply) &&
    (reply.ok === true || (reply.ok === false && typeof reply.error === 'string'))
  );
}

/** Readable text for anything thrown: a JsError from the core arrives as an Error. */
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

// --- Sessions, actions and hop tracking (extension pages to the worker) ------------
//
// A session is a window the extension opened for one task; only its tabs are acted
// on and tracked. Replies:
//   START_SESSION   { ok, session: SessionView, task: {id, intent, start_urls}, progress }
//   END_SESSION     { ok, verdict }             (closes the window unless keepWindow)
//   LIST_SESSION_TABS { ok, tabs: [{index, tabId, url, title, current}] }
//   ACT             { ok, result: { effect, error?, settle } }
//   GET_PROGRESS    { ok, progress }
//   GET_VERDICT     { ok, verdict }
// `sessionId` may be left out while exactly one session is open.

/** Messages sent by extension pages about observation, sessions, actions and hops. */
export const PAGE_TO_WORKER = Object.freeze({
  OBSERVE_TAB: 'page-to-worker/observe-tab',
  START_SESSION: 'page-to-worker/start-session',
  END_SESSION: 'page-to-worker/end-session',
  LIST_SESSION_TABS: 'page-to-worker/list-session-tabs',
  ACT: 'page-to-worker/act',
  GET_PROGRESS: 'page-to-worker/get-progress',
  GET_VERDICT: 'page-to-worker/get-verdict',
  // Agent runs (section at the end of this file).
  START_RUN: 'page-to-worker/start-run',
  STOP_RUN: 'page-to-worker/stop-run',
  GET_RUN: 'page-to-worker/get-run',
  LIST_RUNS: 'page-to-worker/list-runs',
  EXPORT_RUN: 'page-to-worker/export-run',
  DELETE_RUN: 'page-to-worker/delete-run',
  PAUSE_RUN: 'page-to-worker/pause-run',
  GET_MEDIA: 'page-to-worker/get-media',
  // A person's session (section "A person's session" below).
  START_HUMAN: 'page-to-worker/start-human',
  HUMAN_CONTROL: 'page-to-worker/human-control',
  HUMAN_FINISH: 'page-to-worker/human-finish',
  // Human vs agent (section "Human vs agent" below).
  START_DUEL: 'page-to-worker/start-duel',
  GET_DUEL: 'page-to-worker/get-duel',
  // Agent settings and model connection (options page); see the section at the end.
  GET_SETTINGS: 'page-to-worker/get-settings',
  SAVE_SETTINGS: 'page-to-worker/save-settings',
  TEST_CONNECTION: 'page-to-worker/test-connection',
});

/** The 12 actions, in the parsed-object shape of the core's `Action` (serde tag `kind`). */
export const ACTION_KINDS = Object.freeze([
  'click', 'hover', 'type', 'press', 'scroll', 'new_tab', 'tab_focus', 'close_tab',
  'goto', 'go_back', 'go_forward', 'stop',
]);

const isOptionalSessionId = (value) => value === undefined || typeof value === 'string';
const isTabId = (value) => Number.isInteger(value) && value >= 0;

/**
 * @param {{ taskText: string, fileName?: string }} task a task file's text in any format
 *   the core imports (ours, MMInA, WebArena); `fileName` (e.g. `normal/3.json`) names it
 *   in errors and gives MMInA files their subset.
 */
export function startSession({ taskText, fileName = 'task.json' }) {
  return { type: PAGE_TO_WORKER.START_SESSION, taskText, fileName };
}

export function isStartSession(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === PAGE_TO_WORKER.START_SESSION &&
    typeof msg.taskText === 'string' &&
    typeof msg.fileName === 'string'
  );
}

/** @param {{ sessionId?: string, keepWindow?: boolean }} [options] */
export function endSession({ sessionId, keepWindow = false } = {}) {
  return { type: PAGE_TO_WORKER.END_SESSION, sessionId, keepWindow };
}

export function isEndSession(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === PAGE_TO_WORKER.END_SESSION &&
    isOptionalSessionId(msg.sessionId) &&
    typeof msg.keepWindow === 'boolean'
  );
}

/** @param {{ sessionId?: string }} [options] */
export function listSessionTabs({ sessionId } = {}) {
  return { type: PAGE_TO_WORKER.LIST_SESSION_TABS, sessionId };
}

export function isListSessionTabs(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === PAGE_TO_WORKER.LIST_SESSION_TABS &&
    isOptionalSessionId(msg.sessionId)
  );
}

/**
 * One action on a session tab.
 * @param {{ sessionId?: string, tabId?: number, action: {kind: string},
 *   element?: ElementRef, settleTimeoutMs?: number }} fields `tabId` defaults to the
 *   session's current tab; `element` is required by click, hover and type.
 * @typedef {{ targetId: string|null, backendNodeId: number }} ElementRef `targetId`
 *   null is the tab's main target, otherwise an out-of-process iframe's target.
 */
/**
 * One agent step. Give either `actionText` as the model printed it (`click [12]`: parsed
 * by the core, `[id]` resolved through the tab's last observation) or a parsed `action`
 * with an explicit `element` reference.
 */
export function act({ sessionId, tabId, action, actionText, element, settleTimeoutMs }) {
  return { type: PAGE_TO_WORKER.ACT, sessionId, tabId, action, actionText, element, settleTimeoutMs };
}

export function isElementRef(value) {
  return (
    isPlainObject(value) &&
    (value.targetId === null || typeof value.targetId === 'string') &&
    Number.isInteger(value.backendNodeId) &&
    value.backendNodeId > 0
  );
}

export function isAct(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === PAGE_TO_WORKER.ACT &&
    isOptionalSessionId(msg.sessionId) &&
    (msg.tabId === undefined || isTabId(msg.tabId)) &&
    // Exactly one of the two spellings of the action.
    (typeof msg.actionText === 'string'
      ? msg.action === undefined
      : isPlainObject(msg.action) && ACTION_KINDS.includes(msg.action.kind)) &&
    (msg.element === undefined || isElementRef(msg.element)) &&
    (msg.settleTimeoutMs === undefined ||
      (Number.isFinite(msg.settleTimeoutMs) && msg.settleTimeoutMs >= 0))
  );
}

/** @param {{ sessionId?: string }} [options] */
export function getProgress({ sessionId } = {}) {
  return { type: PAGE_TO_WORKER.GET_PROGRESS, sessionId };
}

export function isGetProgress(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === PAGE_TO_WORKER.GET_PROGRESS &&
    isOptionalSessionId(msg.sessionId)
  );
}

/** @param {{ sessionId?: string }} [options] */
export function getVerdict({ sessionId } = {}) {
  return { type: PAGE_TO_WORKER.GET_VERDICT, sessionId };
}

export function isGetVerdict(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === PAGE_TO_WORKER.GET_VERDICT &&
    isOptionalSessionId(msg.sessionId)
  );
}

// --- Agent runs (extension pages to the worker; docs/agent-run.md) ------------------
//
// A run drives the core's agent state machine in a session window and records each
// step in IndexedDB. Replies:
//   START_RUN  { ok, runId, sessionId }
//   STOP_RUN   { ok, run }                       (the run as it is once stopped)
//   GET_RUN    { ok, run: RunView, steps? }      (steps with `withSteps: true`)
//   LIST_RUNS  { ok, runs: RunView[] }           (newest first)
//   EXPORT_RUN { ok, trajectory }                (run, task, settings without key,
//                                                 steps, media as data URLs)
//   DELETE_RUN { ok, runId }
//   PAUSE_RUN  { ok, run }                       (Pause on or off; see run-driver.js)
//   GET_MEDIA  { ok, media: {<mediaId>: dataUrl} } (a run's screenshots, for thumbnails)
// RunView = { id, taskId, intent, status, step, maxSteps, progress, verdict, error,
//   startedAt, finishedAt, tokens: {input, output}, reason, provider, paused, task },
//   status one of RUN_STATUSES; `paused` null, 'pausing' (asked, the step in progress
//   finishes first) or 'paused' (held before the next step); `task` = {intent, hops,
//   sites} for the panel's task card. With `withSteps`, each step has `words`
//   ({kind, element, words}: the action in words) when it has an action.
// Pages learn of changes from chrome.storage.onChanged: the worker rewrites
// `run.<id>` (RUN_RECORD_KEY) after every transition and `runs.current` on START_RUN.

export const RUN_STATUSES = Object.freeze(['running', 'finished', 'stopped', 'error']);

/** chrome.storage.local keys the worker writes and pages may watch. */
export const RUN_RECORD_KEY = (runId) => `run.${runId}`;
export const CURRENT_RUN_KEY = 'runs.current';

const RUN_OVERRIDE_CHECKS = Object.freeze({
  /** `replay` follows the task's reference_trajectory; any other name is a model provider. */
  provider: (v) => typeof v === 'string' && v.length > 0,
  max_steps: (v) => Number.isInteger(v) && v > 0,
  observation_mode: (v) => OBSERVATION_MODES.includes(v),
  /** Keep the session window open after the run (default: it is closed). */
  keep_window: (v) => typeof v === 'boolean',
  /** Procedural memory for this run: how many past runs the prompt shows (0: off), chosen how. */
  memory_k: (v) => Number.isInteger(v) && v >= 0 && v <= 10,
  memory_policy: (v) => v === 'recent' || v === 'similar',
  /**
   * The memory records to choose from instead of the extension's own (the runner keeps
   * them in its run folder); the core reads them, so only the shape is checked here.
   */
  memory_records: (v) => Array.isArray(v) && v.every(isPlainObject),
  /** `prompt` (one prompt per step) or `modular` (SeeAct-style stages). */
  agent: (v) => v === 'prompt' || v === 'modular',
  /** The modular agent's grounding variant: `textual` or `visual` (with the step's pictures). */
  grounding: (v) => v === 'textual' || v === 'visual',
  /** The modular agent's selection: `model` (one more call) or `first_viable`. */
  select: (v) => v === 'model' || v === 'first_viable',
  /** `task`: only the task's sites (the fence, docs/security.md); `any`: anywhere.
   * Default: Settings → Sites (on unless the person turned it off). */
  sites: (v) => v === 'task' || v === 'any',
});

const isRunId = (value) => typeof value === 'string' && value.length > 0;

/**
 * @param {{ taskText: string, fileName?: string,
 *   overrides?: { provider?: string, max_steps?: number, observation_mode?: string,
 *                 keep_window?: boolean, sites?: 'task'|'any', memory_k?: number,
 *                 memory_policy?: string, memory_records?: object[], agent?: string,
 *                 grounding?: string, select?: string } }} run
 */
export function startRun({ taskText, fileName = 'task.json', overrides = {} }) {
  return { type: PAGE_TO_WORKER.START_RUN, taskText, fileName, overrides };
}

/** The problems of a START_RUN `overrides` object (empty when valid). */
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

export function isStartRun(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === PAGE_TO_WORKER.START_RUN &&
    typeof msg.taskText === 'string' &&
    typeof msg.fileName === 'string' &&
    runOverrideProblems(msg.overrides).length === 0
  );
}

/** @param {{ runId: string }} run */
export function stopRun({ runId }) {
  return { type: PAGE_TO_WORKER.STOP_RUN, runId };
}

export function isStopRun(msg) {
  return isPlainObject(msg) && msg.type === PAGE_TO_WORKER.STOP_RUN && isRunId(msg.runId);
}

/** @param {{ runId: string, withSteps?: boolean }} run */
export function getRun({ runId, withSteps = false }) {
  return { type: PAGE_TO_WORKER.GET_RUN, runId, withSteps };
}

export function isGetRun(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === PAGE_TO_WORKER.GET_RUN &&
    isRunId(msg.runId) &&
    typeof msg.withSteps === 'boolean'
  );
}

/** @param {{ runId: string, paused: boolean }} run Pause (true) or Resume (false). */
export function pauseRun({ runId, paused }) {
  return { type: PAGE_TO_WORKER.PAUSE_RUN, runId, paused };
}

export function isPauseRun(msg) {
  return isPlainObject(msg) && msg.type === PAGE_TO_WORKER.PAUSE_RUN && isRunId(msg.runId) && typeof msg.paused === 'boolean';
}

/** @param {{ runId: string, mediaIds: string[] }} request media ids of that run's steps */
export function getMedia({ runId, mediaIds }) {
  return { type: PAGE_TO_WORKER.GET_MEDIA, runId, mediaIds };
}

export function isGetMedia(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === PAGE_TO_WORKER.GET_MEDIA &&
    isRunId(msg.runId) &&
    Array.isArray(msg.mediaIds) &&
    msg.mediaIds.length <= 200 &&
    msg.mediaIds.every((id) => typeof id === 'string' && id.startsWith(`${msg.runId}/`))
  );
}

export function listRuns() {
  return { type: PAGE_TO_WORKER.LIST_RUNS };
}

export function isListRuns(msg) {
  return isPlainObject(msg) && msg.type === PAGE_TO_WORKER.LIST_RUNS;
}

/** @param {{ runId: string }} run */
export function exportRun({ runId }) {
  return { type: PAGE_TO_WORKER.EXPORT_RUN, runId };
}

export function isExportRun(msg) {
  return isPlainObject(msg) && msg.type === PAGE_TO_WORKER.EXPORT_RUN && isRunId(msg.runId);
}

/** @param {{ runId: string }} run */
export function deleteRun({ runId }) {
  return { type: PAGE_TO_WORKER.DELETE_RUN, runId };
}

export function isDeleteRun(msg) {
  return isPlainObject(msg) && msg.type === PAGE_TO_WORKER.DELETE_RUN && isRunId(msg.runId);
}
// --- A person's session (side panel to the worker; worker/human-session.js) ------
//
// The person does the task in its session window while everything they do is recorded
// in the agent's action space and scored by the same hop tracker. It is a run like an
// agent's (provider `human`): GET_RUN, LIST_RUNS, EXPORT_RUN and DELETE_RUN apply.
//   START_HUMAN   { ok, runId, sessionId }  the window opens; recording waits for Start
//   HUMAN_CONTROL { ok, run }               command 'start' | 'pause' | 'resume'
//   HUMAN_FINISH  { ok, run }               `answer` (stop [answer]) or null: give up
// The panel follows `run.<id>.human` in chrome.storage.local: `{phase, startedAt,
// pausedMs, pausedAt, steps}`, phase 'ready' | 'recording' | 'paused' | 'ended'.

export const HUMAN_COMMANDS = Object.freeze(['start', 'pause', 'resume']);
export const HUMAN_STATE_KEY = (runId) => `run.${runId}.human`;

const isBounds = (b) =>
  isPlainObject(b) && ['left', 'top', 'width', 'height'].every((k) => Number.isInteger(b[k])) && b.width > 0 && b.height > 0;

/** A study's tag on a person's run: which study, which participant, which task of it. */
const isStudyTag = (s) =>
  isPlainObject(s) && typeof s.id === 'string' && s.id !== '' && typeof s.participant === 'string' && s.participant !== '' &&
  Number.isInteger(s.position) && s.position >= 1;

/**
 * @param {{ taskText: string, fileName?: string, keepWindow?: boolean,
 *   bounds?: {left: number, top: number, width: number, height: number},
 *   study?: { id: string, participant: string, position: number } }} session
 */
export function startHuman({ taskText, fileName = 'task.json', keepWindow = false, bounds, study }) {
  return { type: PAGE_TO_WORKER.START_HUMAN, taskText, fileName, keepWindow, bounds, study };
}

export function isStartHuman(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === PAGE_TO_WORKER.START_HUMAN &&
    typeof msg.taskText === 'string' &&
    typeof msg.fileName === 'string' &&
    typeof msg.keepWindow === 'boolean' &&
    (msg.bounds === undefined || isBounds(msg.bounds)) &&
    (msg.study === undefined || isStudyTag(msg.study))
  );
}

/** @param {{ runId: string, command: 'start'|'pause'|'resume' }} control */
export function humanControl({ runId, command }) {
  return { type: PAGE_TO_WORKER.HUMAN_CONTROL, runId, command };
}

export function isHumanControl(msg) {
  return isPlainObject(msg) && msg.type === PAGE_TO_WORKER.HUMAN_CONTROL && isRunId(msg.runId) && HUMAN_COMMANDS.includes(msg.command);
}

/** @param {{ runId: string, answer: string|null }} end the answer, or null to give up */
export function humanFinish({ runId, answer }) {
  return { type: PAGE_TO_WORKER.HUMAN_FINISH, runId, answer };
}

export function isHumanFinish(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === PAGE_TO_WORKER.HUMAN_FINISH &&
    isRunId(msg.runId) &&
    (msg.answer === null || (typeof msg.answer === 'string' && msg.answer.length <= 2000))
  );
}

// --- Human vs agent (side panel to the worker; worker/duel.js) ----------------------
//
// One task in two windows side by side: the agent's run (left) and the person's
// session (right). The agent waits before its first step until the person presses
// Start (HUMAN_CONTROL on the person's run), so both start together.
//   START_DUEL { ok, duelId, agentRunId, humanRunId, agentWindowId, humanWindowId }
//   GET_DUEL   { ok, duel, agent: RunView, human: RunView, agentSteps, humanSteps,
//                comparison: {hops: [{hop, description, a, b}], diverged_at, summary} }
//              (`a` is the person's step for the hop, `b` the agent's)

/**
 * @param {{ taskText: string, fileName?: string, overrides?: object, windowId?: number }} duel
 *   `overrides` as START_RUN's, for the agent; `windowId` the person's window now (the
 *   two windows tile the work area of its display).
 */
export function startDuel({ taskText, fileName = 'task.json', overrides = {}, windowId }) {
  return { type: PAGE_TO_WORKER.START_DUEL, taskText, fileName, overrides, windowId };
}

export function isStartDuel(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === PAGE_TO_WORKER.START_DUEL &&
    typeof msg.taskText === 'string' &&
    typeof msg.fileName === 'string' &&
    runOverrideProblems(msg.overrides).length === 0 &&
    (msg.windowId === undefined || Number.isInteger(msg.windowId))
  );
}

/** @param {{ duelId: string }} duel */
export function getDuel({ duelId }) {
  return { type: PAGE_TO_WORKER.GET_DUEL, duelId };
}

export function isGetDuel(msg) {
  return isPlainObject(msg) && msg.type === PAGE_TO_WORKER.GET_DUEL && isRunId(msg.duelId);
}

// --- Agent settings and model connection (options page to the worker) --------------
//
// The API keys live in chrome.storage.local and the worker only. Pages send a key
// once, inside SAVE_SETTINGS, and never get it back. Replies:
//   GET_SETTINGS    { ok, settings (masked: api_key_set, api_key_last4), observation,
//                   modelProblems: [{field, message}] (empty when a model run can start),
//                   sites: {fence, allow, deny}, keyStorage: {restricted, error?} }
//   SAVE_SETTINGS   { ok, settings (masked), observation, sites, keyStorage,
//                   notes: [{field, message}] }
//                   or { ok: false, error, problems: [{field, message, confirm?}] }
//                   (`confirm`: the person may confirm this one, see agent-settings.js)
//   TEST_CONNECTION { ok, which, endpoint: {provider, base_url, model}, outcome }
//                   `outcome` = the core's CallOutcome: { ok, reply: {text, usage} |
//                   error: {kind, message, hint}, attempts: [{kind, message, delay_ms}] }

export const CONNECTION_TARGETS = Object.freeze(['model', 'judge']);

export function getSettings() {
  return { type: PAGE_TO_WORKER.GET_SETTINGS };
}

export function isGetSettings(msg) {
  return isPlainObject(msg) && msg.type === PAGE_TO_WORKER.GET_SETTINGS;
}

/**
 * @param {{ settings: object, observation?: {mode?: string},
 *   sites?: {fence: boolean, allow: string[], deny: string[]} }} fields `settings` in the
 *   shape of agent-settings.js, endpoints with `api_key` only when a new key was typed
 *   (or `clear_api_key: true`); `observation` changes settings.observation; `sites`
 *   the site fence settings (site-settings.js).
 */
export function saveSettings({ settings, observation, sites }) {
  return { type: PAGE_TO_WORKER.SAVE_SETTINGS, settings, observation, sites };
}

export function isSaveSettings(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === PAGE_TO_WORKER.SAVE_SETTINGS &&
    isPlainObject(msg.settings) &&
    isPlainObject(msg.settings.model) &&
    (msg.settings.judge === undefined || msg.settings.judge === null || isPlainObject(msg.settings.judge)) &&
    (msg.observation === undefined || isPlainObject(msg.observation)) &&
    (msg.sites === undefined || isPlainObject(msg.sites))
  );
}

/** Sends one small request with the saved settings of the agent or judge model. */
export function testConnection({ which = 'model' } = {}) {
  return { type: PAGE_TO_WORKER.TEST_CONNECTION, which };
}

export function isTestConnection(msg) {
  return (
    isPlainObject(msg) &&
    msg.type === PAGE_TO_WORKER.TEST_CONNECTION &&
    CONNECTION_TARGETS.includes(msg.which)
  );
}
