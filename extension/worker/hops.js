// Hop tracking: every main-frame navigation committed in a session tab is fed to the
// core's hop-queue evaluator (src/tracker, src/evaluator), with the tab's index in the
// session, the URL, the time since the session started and the current step.
//
// The tracker is an opaque JSON string from the core, kept per session in
// chrome.storage.session and updated under the session lock, so navigations are fed
// one at a time and in the order Chrome reported them, even across worker restarts.

import { elapsedMs, pickSession, sessionOfTab, withSessions } from './session.js';

export const HOPS_KEY = (sessionId) => `hopbench.hops.${sessionId}`;

/**
 * Reads a task and creates its tracker. Returns the storage entry to write with the
 * session (see session.js openSession) and what the core made of the task.
 */
export function createTracker(core, sessionId, taskText, fileName) {
  const started = core.tracker_start(taskText, fileName);
  return {
    task: started.task,
    progress: started.progress,
    entry: { [HOPS_KEY(sessionId)]: { state: started.state, log: [] } },
  };
}

async function readTracker(sessionId) {
  const stored = await chrome.storage.session.get(HOPS_KEY(sessionId));
  const tracker = stored[HOPS_KEY(sessionId)];
  if (!tracker) throw new Error(`session ${sessionId} has no hop tracker`);
  return tracker;
}

/** Feeds one event through `feed(state)` and stores the new state; returns the result. */
async function feedTracker(sessionId, entry, feed) {
  const tracker = await readTracker(sessionId);
  const fed = feed(tracker.state);
  tracker.state = fed.state;
  tracker.log.push({ ...entry, completedHop: fed.outcome.completed_hop ?? null });
  await chrome.storage.session.set({ [HOPS_KEY(sessionId)]: tracker });
  return fed;
}

export async function progressOf(core, sessionId) {
  return core.tracker_progress((await readTracker(sessionId)).state);
}

export async function verdictOf(core, sessionId) {
  return core.tracker_verdict((await readTracker(sessionId)).state);
}

/** Every event fed so far: `[{kind, step, timeMs, tab?, url?, text?, completedHop}]`. */
export async function eventLogOf(sessionId) {
  return (await readTracker(sessionId)).log;
}

export function forgetTracker(sessionId) {
  return chrome.storage.session.remove(HOPS_KEY(sessionId));
}

/**
 * The judge questions the answer `text` would raise now (`[{answer, reference}]`,
 * empty unless a fuzzy reference applies): asked before `recordAnswer`.
 */
export async function judgeRequestsOf(core, sessionId, text) {
  return core.tracker_judge_requests((await readTracker(sessionId)).state, text);
}

/**
 * The answer of `stop [answer]`; scored by the core with `judgements` (the verdicts
 * gathered for judgeRequestsOf's questions). Runs under the session lock.
 */
export function recordAnswer(core, sessionId, text, judgements = []) {
  return withSessions(async (sessions) => {
    const session = pickSession(sessions, sessionId);
    const step = session.step;
    const timeMs = elapsedMs(session);
    session.answer = { text, step };
    return feedTracker(sessionId, { kind: 'answer', step, timeMs, text }, (state) =>
      core.tracker_answer(state, step, timeMs, text, judgements),
    );
  });
}

// The lock is requested first (then the core awaited inside it), so navigations are
// queued in the order Chrome reported them even while the core is still starting.
function onCommitted(readyCore, details) {
  return withSessions(async (sessions) => {
    const session = sessionOfTab(sessions, details.tabId);
    if (!session) return; // Not a session tab: the person's own browsing.
    const core = await readyCore();
    const tab = session.tabIds.indexOf(details.tabId);
    const step = session.step;
    const timeMs = elapsedMs(session);
    const { url } = details;
    await feedTracker(session.id, { kind: 'navigation', step, timeMs, tab, url }, (state) =>
      core.tracker_navigation(state, step, timeMs, tab, url),
    );
  });
}

/**
 * Registers the navigation listener; call once, synchronously, at the worker's top
 * level. `readyCore` resolves to the initialised core module.
 */
export function registerHopListeners(readyCore) {
  chrome.webNavigation.onCommitted.addListener((details) => {
    // Main frame only; a prerendered page is not a page the session has seen (yet).
    if (details.frameId !== 0 || details.documentLifecycle === 'prerender') return;
    onCommitted(readyCore, details).catch((error) => console.error('hopbench: feeding a navigation failed:', error));
  });
}
