// The side panel's view of "Human vs agent" (worker/duel/duel.js): both hop queues filling
// in side by side, each side's steps, elapsed time and tokens, and at the end both
// verdicts and the first hop where they diverged. Built from one GET_DUEL reply; the
// person's own controls (Start, Pause, the answer) are the panel's human controls.

import { ask } from './ask.js';
import { getDuel } from './messages.js';
import { activeMs } from './panel-human.js';
import { outcomeOf } from './run-outcome.js';
import { clockText, outcomeLabel, stepsText } from './run-status.js';
import { agentName, el, taskCard } from './run-view.js';

/**
 * @typedef {import('./types.js').RunView} RunView
 * @typedef {import('./types.js').DuelView} DuelView
 */

/** @type {Record<string, string>} */
const MARKS = { done: '✓', current: '▶', waiting: '·' };

/**
 * The agent's elapsed time: from its release at Start; nothing while held.
 * @param {RunView} run
 * @param {number} [now]
 */
function agentMs(run, now = Date.now()) {
  if (run.paused === 'paused' && run.step === 0) return 0;
  return Math.max(0, (run.finishedAt ?? now) - run.startedAt);
}

/**
 * A side that has not ended: both wait for the person's Start (the agent is held
 * paused before its first step, the person's session is ready), then run.
 * @param {RunView} run
 */
function runningWords(run) {
  const waiting = run.provider === 'human' ? run.human?.phase === 'ready' : run.paused === 'paused' && run.step === 0;
  return waiting ? 'waiting for Start' : 'running';
}

/**
 * @param {string} label
 * @param {RunView} run
 * @param {number} ms
 * @param {{ tokens?: boolean }} [options]
 */
function sideFigures(label, run, ms, { tokens = false } = {}) {
  const status = run.status === 'running' ? runningWords(run) : outcomeLabel(run);
  return el(
    'div',
    { class: 'duel-side', dataset: { side: label === 'You' ? 'human' : 'agent', status: run.status } },
    el('p', { class: 'duel-name' }, label),
    el('p', { class: 'duel-outcome', dataset: { outcome: run.status === 'running' ? 'pending' : outcomeOf(run).kind } }, status),
    el('p', { class: 'duel-hops' }, run.progress ? `${run.progress.done} of ${run.progress.total} hops` : '—'),
    el('p', { class: 'duel-steps' }, stepsText(run.step)),
    el('p', { class: 'duel-time' }, clockText(ms)),
    tokens ? el('p', { class: 'duel-tokens' }, `${run.tokens.input + run.tokens.output} tokens`) : null,
  );
}

/**
 * Hop by hop: the person's and the agent's mark and step.
 * @param {DuelView} reply
 */
function hopTable(reply) {
  const { human, agent, comparison } = reply;
  const cell = (/** @type {RunView} */ run, /** @type {number} */ index) => {
    const hop = run.progress?.hops[index];
    if (!hop) return el('td', {}, '—');
    // A run that ended will not do the hops it has not done: a cross, not "current".
    const state = hop.state !== 'done' && run.status !== 'running' ? 'missed' : hop.state;
    const text = hop.state === 'done' ? `✓ step ${hop.step}` : state === 'missed' ? '✗' : MARKS[state];
    return el('td', { class: 'hop-cell', dataset: { state } }, text);
  };
  const rows = (human.progress?.hops ?? []).map((hop, i) =>
    el(
      'tr',
      { class: 'duel-hop', dataset: { hop: i + 1, diverged: String(comparison?.diverged_at === i + 1) } },
      el('th', { scope: 'row', title: hop.description }, `${i + 1}. ${hop.description}`),
      cell(human, i),
      cell(agent, i),
    ),
  );
  return el(
    'table',
    { class: 'duel-table' },
    el('thead', {}, el('tr', {}, el('th', {}, 'Hop'), el('th', {}, 'You'), el('th', {}, 'Agent'))),
    el('tbody', {}, rows),
  );
}

/**
 * Both sides' steps in the order they happened, each marked with who took it.
 * @param {DuelView} reply
 */
function timeline(reply) {
  const entries = [
    ...reply.humanSteps.map((s) => ({ who: 'You', side: 'human', s })),
    ...reply.agentSteps.map((s) => ({ who: 'Agent', side: 'agent', s })),
  ].sort((a, b) => (a.s.started_at ?? 0) - (b.s.started_at ?? 0));
  if (entries.length === 0) return el('p', { class: 'note' }, 'No step yet.');
  return el(
    'ol',
    { class: 'duel-steps-list' },
    entries.map(({ who, side, s }) =>
      el(
        'li',
        { class: 'duel-step', dataset: { side, step: s.step } },
        el('span', { class: 'duel-who' }, `${who} ${s.step}`),
        ' ',
        el('span', { class: 'step-words' }, s.words?.words ?? s.action?.text ?? 'No action'),
        s.result?.error ? el('span', { class: 'step-error' }, ` (${s.result.error})`) : null,
      ),
    ),
  );
}

/**
 * Renders the duel of `run` (the person's run): `{header, body}` to put in the panel's
 * verdict slot and run slot, and the ids of both runs (the panel watches both).
 * @param {{ duelId: string | null }} run
 */
export async function duelView(run) {
  const reply = await ask(getDuel, { duelId: run.duelId ?? '' });
  const { human, agent, comparison } = reply;
  const ended = human.status !== 'running' && agent.status !== 'running';
  const header = el(
    'div',
    { class: 'duel-head' },
    el('div', { class: 'duel-sides' }, sideFigures('You', human, activeMs(human.human)), sideFigures('Agent', agent, agentMs(agent), { tokens: true })),
    comparison ? el('p', { class: 'duel-summary', dataset: { ended: String(ended), diverged: comparison.diverged_at ?? '' } }, comparison.summary) : null,
  );
  const body = el(
    'div',
    { class: 'duel-body' },
    taskCard(human),
    el('p', { class: 'note' }, `Agent: ${agentName(agent.provider, agent.model)}, in the left window; you, in the right one.`),
    el('h2', {}, 'Hops'),
    hopTable(reply),
    el('h2', {}, 'Steps'),
    timeline(reply),
  );
  return { header, body, runIds: [human.id, agent.id], reply };
}
