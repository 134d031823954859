// A person's session: the task's window opens, the person presses Start and does the
// task; everything they do is recorded as steps in the agent's action space
// (human/recorder.js, human/record.js, human/tabs.js) and scored live by the session's hop
// tracker, as an agent's run is. It ends when the person answers (stop [answer]) or
// gives up, and is stored, listed and exported like an agent run, provider `human`.
//
// State: the session object (the store's session area) carries `human: {runId, phase}`
// and the clock (`startedAt`, `pausedMs`, `pausedAt`), so that the phase check and the
// step count happen together under the session lock; human/state.js mirrors the phase
// and clock for the panel, which follows it.

import { noticeRecord, noticesOf } from '../page/notices.js';
import { setCurrentRun } from '../../store/views.js';
import { loadedCore } from '../core/core.js';
import { humanStarted } from '../events.js';
import { mirrorHumanState } from './state.js';
import { forgetTracker, judgeRequestsOf, progressOf, recordAnswer, verdictOf } from '../session/hops.js';
import { enqueue, forgetLive, recordReport, scheduleObservation, standingOf, standingOfTab, standingOfWindow } from './record.js';
import { installRecorder, isRecorderReady, registerRecorderListeners, removeRecorder } from './recorder.js';
import { getRun, getSteps, newRunSummary, putMemory, putRun, updateRun } from '../run/trajectories.js';
import { loadAgentSettings, modelReadinessProblems } from '../../agent-settings.js';
import { callJudge } from '../run/model.js';
import { closeSession, elapsedMs, readSessions, sessionOfTab, withSessions } from '../session/sessions.js';
import { endTaskSession, openTaskSession } from '../session/service.js';

/**
 * @typedef {import('../core/types.js').Core} Core
 * @typedef {import('../core/types.js').Run} Run
 * @typedef {import('../session/sessions.js').Session} Session
 * @typedef {import('../session/sessions.js').HumanState} HumanState
 * @typedef {import('../../messages.js').Reply} Reply
 * @typedef {Session & { human: HumanState }} HumanSession
 * @typedef {'start' | 'pause' | 'resume'} HumanCommand
 */

/**
 * A person's session (the caller knows it is one).
 * @param {Session | undefined} session
 * @returns {HumanSession}
 */
function human(session) {
  if (!session?.human) throw new Error(`session ${session?.id} is not a person's session`);
  return /** @type {HumanSession} */ (session);
}

/**
 * What `run.<id>.human` says: the phase and the clock, and how many steps so far.
 * @param {HumanSession} session
 * @param {Record<string, unknown>} [extra]
 */
async function mirror(session, extra = {}) {
  const { human, startedAt, pausedMs = 0, pausedAt = null, step } = session;
  const state = { phase: human.phase, startedAt: human.phase === 'ready' ? null : startedAt, pausedMs, pausedAt, steps: step, ...extra };
  await mirrorHumanState(human.runId, state);
}

/**
 * The human session of a run: `{session}` (a copy), or throws saying why not.
 * @param {string} runId
 * @returns {Promise<HumanSession>}
 */
async function sessionOfRun(runId) {
  const session = Object.values(await readSessions()).find((s) => s.human?.runId === runId);
  if (!session) throw new Error(`run ${runId} has no open session: it ended, or it is not a person's session`);
  return human(session);
}

/**
 * Opens the task's window for a person and records it as a run (not yet started).
 * `bounds` places the window (side by side); `current: false` leaves `runs.current`.
 * @param {Core} core
 * @param {{ taskText: string, fileName: string, keepWindow?: boolean,
 *   bounds?: import('../../messages.js').Bounds, current?: boolean, duelId?: string | null,
 *   study?: import('../../messages.js').StudyTag | null }} start
 */
export async function startHumanRun(core, { taskText, fileName, keepWindow = false, bounds, current = true, duelId = null, study = null }) {
  const { session, task, progress } = await openTaskSession(core, { taskText, fileName, bounds });
  const runId = crypto.randomUUID();
  try {
    // The session knows its run before the run exists, so no view of the run ever
    // finds it without a session (endOrphanedHuman).
    /** @type {HumanSession} */
    const opened = await withSessions((sessions) => {
      sessions[session.id].human = { runId, phase: 'ready', keepWindow };
      return human({ ...sessions[session.id] });
    });
    await putRun(
      newRunSummary({
        task: { ...task, fileName, text: taskText },
        progress,
        id: runId,
        maxSteps: null,
        provider: 'human',
        sessionId: session.id,
        duelId,
        // A study's session is tagged with its study, participant and position.
        study,
        settings: { human: true, keepWindow },
      }),
    );
    await Promise.all(opened.tabIds.map((tabId) => installRecorder(tabId)));
    await mirror(opened);
    if (current) await setCurrentRun(runId);
  } catch (error) {
    await closeSession(session.id);
    await forgetTracker(session.id);
    throw error;
  }
  scheduleObservation(session.id, 0);
  return { runId, sessionId: session.id, windowId: session.windowId };
}

/** @type {Readonly<Record<HumanCommand, { from: string[], apply: (s: Session, now: number) => unknown }>>} */
const TRANSITIONS = Object.freeze({
  start: { from: ['ready'], apply: (s, now) => Object.assign(s, { startedAt: now, pausedMs: 0, pausedAt: null }) },
  pause: { from: ['recording'], apply: (s, now) => Object.assign(s, { pausedAt: now }) },
  resume: {
    from: ['paused'],
    apply: (s, now) => Object.assign(s, { pausedMs: (s.pausedMs ?? 0) + (now - (s.pausedAt ?? now)), pausedAt: null }),
  },
});
/** @type {Readonly<Record<HumanCommand, HumanState['phase']>>} */
const PHASE_AFTER = Object.freeze({ start: 'recording', pause: 'paused', resume: 'recording' });

/**
 * Start (the clock starts: hop times count from here), Pause or Resume.
 * @param {string} runId
 * @param {HumanCommand} command
 * @returns {Promise<HumanSession>}
 */
export async function controlHuman(runId, command) {
  const { from, apply } = TRANSITIONS[command];
  const session = await withSessions((sessions) => {
    const found = Object.values(sessions).find((x) => x.human?.runId === runId);
    if (!found) throw new Error(`run ${runId} has no open session: it ended, or it is not a person's session`);
    const s = human(found);
    if (!from.includes(s.human.phase)) throw new Error(`cannot ${command} a session that is ${s.human.phase}`);
    apply(s, Date.now());
    s.human.phase = PHASE_AFTER[command];
    return human({ ...s });
  });
  if (command === 'start') await updateRun(runId, { startedAt: session.startedAt });
  await mirror(session);
  if (command !== 'pause') scheduleObservation(session.id, 0);
  return session;
}

/**
 * Takes the next step numbers for an action of the person, under the session lock,
 * if `find(sessions)` names a recording session: `{session, steps}` or null. Called as
 * the report arrives, so the navigation the action causes is counted after it.
 * @param {(sessions: Record<string, Session>) => Session | undefined} find
 * @param {number} [count]
 * @returns {Promise<{ session: HumanSession, steps: number[] } | null>}
 */
export function reserveSteps(find, count = 1) {
  return withSessions((sessions) => {
    const session = find(sessions);
    if (session?.human?.phase !== 'recording') return null;
    const steps = Array.from({ length: count }, (_, i) => session.step + i + 1);
    session.step += count;
    return { session: human({ ...session }), steps };
  });
}

/**
 * Records an action of the person in order: a recorder report from `tabId`, or a tab
 * event (new_tab, tab_focus, close_tab by `windowId`; goto, go_back, go_forward by
 * `tabId`). `report` may be a promise of the report; a scroll report is never one.
 * @param {{ tabId?: number, windowId?: number, contextId?: number | null }} where
 * @param {import('./recorder.js').Report | Promise<import('./recorder.js').Report>} report
 */
export function recordAction({ tabId, windowId, contextId = null }, report) {
  // Both taken as the report arrives: the observation the person acted on, and (under
  // the lock, requested now) the step numbers.
  const before = windowId === undefined ? standingOfTab(tabId) : standingOfWindow(windowId);
  /** @type {(sessions: Record<string, Session>) => Session | undefined} */
  const find =
    windowId === undefined
      ? (sessions) => sessionOfTab(sessions, tabId)
      : (sessions) => Object.values(sessions).find((s) => s.windowId === windowId && s.human);
  // A scroll report is never a promise (see above).
  const now = /** @type {Partial<import('./recorder.js').Report>} */ (report);
  const reserved = reserveSteps(find, now.kind === 'scroll' ? (now.times ?? 1) : 1);
  return reserved.then((r) => {
    if (!r) return null;
    const { session, steps } = r;
    const actedTab = /** @type {number} */ (tabId ?? before?.tabId ?? session.currentTabId);
    return enqueue(session.id, async () => {
      const core = await loadedCore();
      // A report may still be worked out (Back or Forward reads the history first).
      const known = await report;
      await recordReport(core, { runId: session.human.runId, sessionId: session.id, tabId: actedTab, contextId, steps, report: known, before });
      const now = (await readSessions())[session.id];
      // An ended session has written its last state; nothing may overwrite it.
      if (now?.human && now.human.phase !== 'ended') await mirror(human(now));
    });
  });
}

/**
 * The judge's verdicts on the questions the answer raises (fuzzy references): the
 * judge model when a model is set (as for an agent's run), else exact containment.
 * @param {Core} core
 * @param {string} sessionId
 * @param {string} answer
 */
async function judgeAnswer(core, sessionId, answer) {
  const questions = await judgeRequestsOf(core, sessionId, answer);
  if (questions.length === 0) return [];
  const ready = modelReadinessProblems(await loadAgentSettings()).length === 0;
  /** @type {import('../core/core-types.js').Judgement[]} */
  const judgements = [];
  for (const question of questions) {
    judgements.push(ready ? await callJudge(core, question, undefined, undefined) : core.judge_containment(question));
  }
  return judgements;
}

/**
 * Ends the person's session: with `answer` (a string) it is their `stop [answer]`,
 * recorded and scored; with null they gave up (`reason` says how). The verdict goes
 * into the run, the recorder comes out of the tabs, and the window closes unless the
 * session keeps it.
 * @param {string} runId
 * @param {{ answer: string | null, reason?: string }} end
 * @returns {Promise<Run>}
 */
export async function finishHuman(runId, { answer, reason = 'the person gave up' }) {
  const core = await loadedCore();
  const session = await sessionOfRun(runId);
  const sessionId = session.id;
  await enqueue(sessionId, async () => undefined); // Actions already reported go first.
  if (answer !== null) {
    const step = await withSessions((sessions) => {
      const s = human(sessions[sessionId]);
      if (s.human.phase === 'ready') throw new Error('press Start before answering: the session has not started');
      s.step += 1;
      return s.step;
    });
    const judgements = await judgeAnswer(core, sessionId, answer);
    await recordAnswer(core, sessionId, answer, judgements);
    const report = { kind: 'stop', answer, judgements, t: Date.now() };
    await enqueue(sessionId, () =>
      recordReport(core, { runId, sessionId, tabId: /** @type {number} */ (session.currentTabId), contextId: null, steps: [step], report, before: standingOf(sessionId) }),
    );
  }
  // No more reports are taken from here on (a late one would set the recorder up again).
  /** @type {HumanSession} */
  const ended = await withSessions((sessions) => {
    const s = human(sessions[sessionId]);
    s.human.endedFrom = s.human.phase;
    s.human.phase = 'ended';
    return { ...s, human: { ...s.human } };
  });
  const now = Date.now();
  const activeMs = ended.human.endedFrom === 'ready' ? 0 : elapsedMs(ended, now);
  const verdict = await verdictOf(core, sessionId);
  await updateRun(runId, {
    status: answer !== null ? 'finished' : 'stopped',
    cause: answer !== null ? 'answered' : 'stopped',
    reason: answer !== null ? verdict.reason : reason,
    answer,
    verdict,
    progress: await progressOf(core, sessionId),
    finishedAt: now,
    activeMs,
    // What the person's pages did beside the page (dialogs with their answers,
    // downloads; page/notices.js), for the record.
    notices: (await noticesOf(sessionId)).map(noticeRecord),
  });
  if (answer !== null) await keepDemonstration(core, runId, verdict, now);
  await mirrorHumanState(runId, { phase: 'ended', startedAt: ended.startedAt, pausedMs: ended.pausedMs ?? 0, pausedAt: null, steps: ended.step, activeMs });
  await Promise.all(ended.tabIds.map((tabId) => removeRecorder(tabId)));
  await endTaskSession(core, sessionId, { keepWindow: ended.human.keepWindow });
  forgetLive(sessionId);
  const finished = await getRun(runId);
  if (!finished) throw new Error(`no run ${runId}: it was deleted while it ended`);
  return finished;
}

/**
 * A person's answered session seeds procedural memory like an agent's finished run
 * (`by_person` in the record; no answer, no conditions). A record that cannot be made
 * is left out with a warning: the run itself is already stored and scored.
 * @param {Core} core the wasm core
 * @param {string} runId
 * @param {{ passed: boolean, hop_steps: number[] }} verdict the tracker's verdict
 * @param {number} finishedAt
 */
async function keepDemonstration(core, runId, verdict, finishedAt) {
  try {
    const run = await getRun(runId);
    if (!run) throw new Error('the run is gone');
    const steps = (await getSteps(runId)).flatMap((s) =>
      typeof s.action?.text === 'string'
        ? [{ action: s.action.text, observation: s.observation?.text ?? '', url: s.observation?.url ?? null }]
        : [],
    );
    const record = core.demonstration_record(run.task.text, run.task.fileName, steps, verdict.passed, verdict.hop_steps);
    await putMemory(runId, finishedAt, record);
  } catch (error) {
    console.warn(`hopbench: the person's run ${runId} was not added to memory: ${/** @type {Error | undefined} */ (error)?.message ?? error}`);
  }
}

// --- reports from the page -------------------------------------------------------

const ACTION_REPORTS = new Set(['click', 'hover', 'type', 'press', 'scroll']);

/**
 * A recorder report: an action to record, or a sign the page changed (observe again).
 * @param {number} tabId
 * @param {number} contextId
 * @param {import('./recorder.js').Report} report
 */
async function onReport(tabId, contextId, report) {
  if (!isRecorderReady(tabId)) {
    // A restarted worker: learn the recorder's contexts again before anything else.
    const session = sessionOfTab(await readSessions(), tabId);
    if (!session?.human || session.human.phase === 'ended') return;
    await installRecorder(tabId);
  }
  if (ACTION_REPORTS.has(report.kind)) {
    await recordAction({ tabId, contextId }, report);
    return;
  }
  const session = sessionOfTab(await readSessions(), tabId);
  if (session?.human && session.human.phase !== 'ended' && session.currentTabId === tabId) scheduleObservation(session.id, report.kind === 'ready' ? 300 : 100);
}

/**
 * Chrome detaches the debugger from a page when another extension shows a frame in it
 * (a password manager's menu under the field the person clicked): the recorder's
 * binding goes with the attach, so it is installed again at once (the attach takes
 * that frame out of the tab: page/foreign-frames.js). Not when the person cancelled
 * the debugging themselves, nor once the session has ended.
 * @param {number} tabId
 * @param {string} reason
 */
async function recordAgain(tabId, reason) {
  if (reason !== 'target_closed') return;
  const session = sessionOfTab(await readSessions(), tabId);
  if (!session?.human || session.human.phase === 'ended') return;
  if (!(await chrome.tabs.get(tabId).catch(() => null))) return;
  await installRecorder(tabId);
}

/** Call once, synchronously, at the worker's top level. */
export function registerHumanListeners() {
  // Closing the session window is giving up (the recording has nowhere to go on).
  chrome.windows.onRemoved.addListener((windowId) => {
    readSessions()
      .then((sessions) => {
        const session = Object.values(sessions).find((s) => s.windowId === windowId && s.human);
        // An ended session is one whose end closed the window: the store may still
        // hold it for a moment (it is forgotten once the window is closed), and it is
        // not the person giving up.
        if (!session || human(session).human.phase === 'ended') return null;
        return finishHuman(human(session).human.runId, { answer: null, reason: 'the person closed the session window' });
      })
      .catch((error) => console.error('hopbench: ending a closed session failed:', error));
  });
  registerRecorderListeners((tabId, contextId, report) => {
    // recordAction takes its step at once (before any await), so it is called here
    // directly for actions; other reports may wait.
    const handled = ACTION_REPORTS.has(report.kind) && isRecorderReady(tabId)
      ? recordAction({ tabId, contextId }, report)
      : onReport(tabId, contextId, report);
    handled.catch((error) => console.error(`hopbench: a recorder report (${report.kind}) failed:`, error));
  }, recordAgain);
}

// --- the service: START_HUMAN, HUMAN_CONTROL, HUMAN_FINISH ----------------------------

/** @param {import('../../messages.js').MessageOf<typeof import('../../messages.js').startHuman>} msg */
export async function startHuman(msg) {
  return startHumanRun(await loadedCore(), msg);
}

/**
 * Start, Pause or Resume; a Start is announced (human vs agent starts its agent then).
 * @param {import('../../messages.js').MessageOf<typeof import('../../messages.js').humanControl>} msg
 */
export async function humanControl(msg) {
  await controlHuman(msg.runId, msg.command);
  const run = await getRun(msg.runId);
  if (msg.command === 'start' && run) await humanStarted.emit(run);
  return { run };
}

/**
 * The person's answer, or their giving up (`answer` null).
 * @param {import('../../messages.js').MessageOf<typeof import('../../messages.js').humanFinish>} msg
 */
export async function humanFinish(msg) {
  const run = await getRun(msg.runId);
  if (!run) throw new Error(`no run ${msg.runId}`);
  if (run.status !== 'running') throw new Error(`run ${msg.runId} has ended (${run.status})`);
  return { run: await finishHuman(msg.runId, { answer: msg.answer }) };
}
