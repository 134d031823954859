// The side panel's part of a person's session: "Do it myself" opens the task's window,
// Start starts the clock and the recording, Pause / Resume, the answer that ends it
// (stop [answer]) and Give up. The clock ticks here, from the phase and times the
// worker keeps in `run.<id>.human`; while recording, the panel also asks the worker for
// the run every 20 s, which keeps the worker awake, so a standing observation is at
// hand when the person acts (a stopped worker observes again first, after the action).

import { ask } from './ask.js';
import { errorText, humanControl, humanFinish, startHuman } from './messages.js';
import { clockText } from './run-status.js';
import { byId } from './dom.js';

/**
 * @typedef {import('./types.js').RunView} RunView
 * @typedef {import('./types.js').HumanView} HumanView
 * @typedef {{ refresh: () => unknown, showError: (text: string) => void }} PanelHooks
 */

const $ = (/** @type {string} */ id) => byId(id);
const KEEP_AWAKE_MS = 20_000;

/**
 * Active time of a person's session: from Start, less the pauses.
 * @param {Partial<HumanView> | null | undefined} human
 * @param {number} [now]
 */
export function activeMs(human, now = Date.now()) {
  if (!human?.startedAt) return 0;
  if (human.activeMs !== undefined && human.phase === 'ended') return human.activeMs;
  const paused = (human.pausedMs ?? 0) + (human.pausedAt ? now - human.pausedAt : 0);
  return Math.max(0, now - human.startedAt - paused);
}

/** @type {ReturnType<typeof setInterval> | number} */
let ticker = 0;
/** @type {ReturnType<typeof setInterval> | number} */
let keepAwake = 0;

/**
 * Shows the controls of the human run `run` (or hides them for an agent run).
 * `refresh()` re-reads the run; `showError(text)` reports a failure.
 * @param {RunView} run
 * @param {PanelHooks} hooks
 */
export function showHumanControls(run, { refresh, showError }) {
  /** @type {Partial<HumanView> | null} */
  const human = run.provider === 'human' && run.status === 'running' ? (run.human ?? { phase: 'ready' }) : null;
  clearInterval(ticker);
  clearInterval(keepAwake);
  $('start').hidden = human?.phase !== 'ready';
  $('answer-form').hidden = !human || human.phase === 'ready';
  if (!human) return;
  $('stop').textContent = 'Give up';
  $('pause').hidden = human.phase === 'ready';
  $('pause').textContent = human.phase === 'paused' ? 'Resume' : 'Pause';
  $('pause').dataset.paused = String(human.phase === 'paused');
  $('clock').hidden = false;
  const tick = () => ($('clock').textContent = clockText(activeMs(human)));
  tick();
  if (human.phase === 'recording') {
    ticker = setInterval(tick, 1000);
    keepAwake = setInterval(refresh, KEEP_AWAKE_MS);
  }
  wire(run.id, { refresh, showError });
}

/** @type {string | null} */
let wiredFor = null;
/** @type {Record<string, { event: string, fn: (event?: Event) => Promise<void> }>} */
let handlers = {};

/** Binds the buttons to the shown run (once per run). */
/**
 * @param {string} runId
 * @param {PanelHooks} hooks
 */
function wire(runId, { refresh, showError }) {
  if (wiredFor === runId) return;
  wiredFor = runId;
  /**
   * @param {string} what
   * @param {() => Promise<unknown>} fn
   */
  const guarded = (what, fn) => async (/** @type {Event | undefined} */ event) => {
    event?.preventDefault();
    try {
      await fn();
    } catch (error) {
      showError(`cannot ${what}: ${errorText(error)}`);
    }
    refresh();
  };
  for (const [id, type] of Object.entries(handlers)) $(id).removeEventListener(type.event, type.fn);
  handlers = {
    start: { event: 'click', fn: guarded('start', () => ask(humanControl, { runId, command: 'start' })) },
    'answer-form': {
      event: 'submit',
      fn: guarded('answer', async () => {
        const answer = byId('answer', HTMLInputElement).value.trim();
        if (!answer) throw new Error('type your answer first (N/A if the task cannot be done)');
        byId('answer-submit', HTMLButtonElement).disabled = true;
        try {
          await ask(humanFinish, { runId, answer });
          byId('answer', HTMLInputElement).value = '';
        } finally {
          byId('answer-submit', HTMLButtonElement).disabled = false;
        }
      }),
    },
  };
  for (const [id, type] of Object.entries(handlers)) $(id).addEventListener(type.event, type.fn);
}

/**
 * Pause (true) or Resume (false) a person's session.
 * @param {string} runId
 * @param {boolean} paused
 */
export function pauseHuman(runId, paused) {
  return ask(humanControl, { runId, command: paused ? 'pause' : 'resume' });
}

/**
 * Give up: the session ends without an answer.
 * @param {string} runId
 */
export function giveUp(runId) {
  return ask(humanFinish, { runId, answer: null });
}

/**
 * "Do it myself": opens the chosen task's window for the person; resolves to the run id.
 * @param {{ taskText: string, fileName: string }} chosen
 * @param {{ keepWindow: boolean }} options
 * @returns {Promise<string>}
 */
export async function doItMyself(chosen, { keepWindow }) {
  const { runId, windowId } = await ask(startHuman, { taskText: chosen.taskText, fileName: chosen.fileName, keepWindow });
  openPanelIn(windowId);
  return runId;
}

/**
 * Opens the side panel in the task's window, where the person works: Start, the
 * objective, the clock and the answer box beside the page, not behind it in the window
 * they came from. Chrome opens it only within the click's user gesture; when it does
 * not, the toolbar button opens it (the note on the setup screen says so).
 * @param {number} windowId
 */
export function openPanelIn(windowId) {
  chrome.sidePanel.open({ windowId }).catch((error) => {
    console.warn(`hopbench: the side panel did not open in the task's window: ${/** @type {Error} */ (error).message}`);
  });
}
