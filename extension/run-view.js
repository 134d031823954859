// Renders one run for the side panel and the runs page: the verdict, the hop queue
// (done / current / waiting, with the step that completed each), the task (intent,
// hops, sites), the steps (step-view.js) and the run's details. Pure DOM building from
// the GET_RUN reply; the pages decide when to ask for it and where each part goes.

import { el } from './dom.js';
import { hopOf } from './authoring.js';
import { outcomeLabel, outcomeOf } from './run-outcome.js';
import { clockText, stepsText } from './run-status.js';
import { StepList } from './step-view.js';
import { taskFacts } from './task-picker.js';

export { outcomeLabel };

/**
 * @typedef {import('./types.js').RunView} RunView
 * @typedef {import('./types.js').StepView} StepView
 * @typedef {import('./worker/core/core-types.js').Progress} Progress
 * @typedef {import('./worker/core/core-types.js').Judgement} Judgement
 */

// Pages that build run views import the builder from here with the views.
export { el };

/** @param {number | null | undefined} ms */
export function formatTime(ms) {
  return ms ? new Date(ms).toLocaleString() : '—';
}

/**
 * Who ran it, in words: "Replay of the reference trajectory", "A person (human
 * session)", "Model gpt-4o-mini (openai)" (the model's name when the run kept it).
 * @param {string} provider
 * @param {string | null} [model]
 */
export function agentName(provider, model = null) {
  if (provider === 'replay') return 'Replay of the reference trajectory';
  if (provider === 'human') return 'A person (human session)';
  return model ? `Model ${model} (${provider})` : `Model (${provider})`;
}

/**
 * The run's details as a definition list (each value's `data-field` is its name).
 * @param {RunView} run
 */
export function summary(run) {
  const tokens = run.tokens ? `${run.tokens.input} in / ${run.tokens.output} out` : '—';
  const duration = run.finishedAt && run.startedAt ? clockText(run.finishedAt - run.startedAt) : null;
  const rows = [
    ['Task', `${run.intent} (${run.taskId})`],
    ['Status', run.status + (run.reason ? `: ${run.reason}` : '')],
    ['Agent', agentName(run.provider, run.model)],
    ['Step', run.maxSteps ? `${run.step} of at most ${run.maxSteps}` : stepsText(run.step)],
    ['Tokens', tokens],
    ['Started', formatTime(run.startedAt)],
    ['Finished', formatTime(run.finishedAt) + (duration ? ` (${duration})` : '')],
  ];
  if (run.error) rows.push(['Error', run.error]);
  return el(
    'dl',
    { class: 'summary', dataset: { status: run.status } },
    rows.flatMap(([name, value]) => [el('dt', {}, name), el('dd', { dataset: { field: name.toLowerCase() } }, value)]),
  );
}

/** @type {Record<string, string>} */
const HOP_MARKS = { done: '✓', current: '▶', waiting: '·' };

/**
 * The hop queue as an ordered list; each item's `data-state` is done, current or waiting.
 * @param {Progress | null | undefined} progress
 */
export function hopQueue(progress) {
  if (!progress) return el('p', { class: 'note' }, 'No hop progress yet.');
  const items = progress.hops.map((hop) =>
    el(
      'li',
      { class: 'hop', dataset: { state: hop.state, step: hop.state === 'done' ? hop.step : '' }, title: hop.description },
      el('span', { class: 'hop-state', 'aria-label': hop.state }, HOP_MARKS[hop.state] ?? hop.state),
      el('span', { class: 'hop-description' }, hop.description),
      hop.state === 'done' ? el('span', { class: 'hop-step' }, `step ${hop.step}`) : null,
    ),
  );
  return el(
    'div',
    { class: 'hops' },
    el('p', { class: 'hop-count' }, `${progress.done} of ${progress.total} hops done`),
    el('ol', { class: 'hop-queue' }, items),
  );
}

/**
 * The hops of a "New task by doing" session: the pages marked so far, in order (its
 * draft task's one placeholder hop is not shown).
 * @param {import('./types.js').AuthoringView} authoring
 */
export function markedHops(authoring) {
  const n = authoring.marks.length;
  return el(
    'div',
    { class: 'hops' },
    el('p', { class: 'hop-count' }, n === 0 ? 'No hop marked yet.' : `${n} hop${n === 1 ? '' : 's'} marked`),
    el('ol', { class: 'hop-queue' }, authoring.marks.map((m, i) =>
      el('li', { class: 'hop', dataset: { state: 'done' } },
        el('span', { class: 'hop-state', 'aria-label': 'marked' }, HOP_MARKS.done),
        el('span', { class: 'hop-description' }, hopOf(m, i + 1).description)))),
  );
}

/**
 * One judge verdict: `"Tokyo": yes (judge model openai gpt-4o-mini)`.
 * @param {Judgement} j
 */
function judgementText(j) {
  const verdict = j.infers === true ? 'yes' : j.infers === false ? 'no' : `no verdict: ${j.error}`;
  return `${JSON.stringify(j.reference)}: ${verdict} (${j.by})`;
}

/** @param {Judgement[] | null | undefined} judgements */
export function judgementList(judgements) {
  if (!judgements?.length) return null;
  return el(
    'ul',
    { class: 'judgements' },
    judgements.map((j) => el('li', { class: 'judgement', dataset: { infers: String(j.infers) } }, `Judge: ${judgementText(j)}`)),
  );
}

/**
 * The outcome (PASS, FAIL, ERROR, STOPPED) with its cause on the first screen, then
 * the answer and the judge's word when there is a verdict. `data-outcome` is the kind.
 * @param {Pick<RunView, 'verdict' | 'status' | 'error' | 'reason' | 'cause' | 'authoring'>} run
 */
export function verdictView(run) {
  if (run.status === 'running') return el('p', { class: 'verdict', dataset: { outcome: 'pending' } }, 'Running…');
  const outcome = outcomeOf(run);
  const v = run.verdict;
  // An error or a stop ended the run before the task could be judged: its hop count
  // and "no answer" would only repeat that.
  const judged = v && (outcome.kind === 'pass' || outcome.kind === 'fail');
  return el(
    'div',
    { class: 'verdict', dataset: { outcome: outcome.kind } },
    el('p', { class: 'verdict-label' }, outcome.label),
    el('p', { class: 'verdict-reason' }, outcome.cause),
    judged ? el('p', { class: 'verdict-answer' }, v.answer ? `Answer: ${v.answer.text}` : 'No answer given.') : null,
    judged ? judgementList(v.answer?.judgements) : null,
  );
}

/**
 * The task: its intent folded to two lines (a click unfolds it), then the hop count
 * and the sites. `task` is the core's overview from GET_RUN.
 * @param {Pick<RunView, 'task' | 'intent' | 'provider' | 'model'>} run
 */
export function taskCard(run) {
  const intent = run.task?.intent ?? run.intent;
  // A person doing the task reads it whole; for an agent's run two lines remind enough.
  const folded = run.provider !== 'human';
  const text = el('p', { class: folded ? 'intent folded' : 'intent', title: 'Click to fold or unfold', tabindex: 0 }, intent);
  const toggle = () => text.classList.toggle('folded');
  text.addEventListener('click', toggle);
  text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      toggle();
    }
  });
  return el(
    'section',
    { class: 'task-card' },
    text,
    run.task ? el('p', { class: 'task-facts note' }, `${taskFacts(run.task)} · ${agentName(run.provider, run.model)}`) : null,
  );
}

/**
 * The whole run on one page (the runs page): verdict, hops, task, steps, details.
 * @param {RunView} run
 * @param {StepView[]} steps
 * @param {Map<string, string>} [media] media id → data URL
 */
export function runView(run, steps, media = new Map()) {
  const list = new StepList();
  list.update(steps, media, run.progress);
  return el(
    'article',
    { class: 'run', dataset: { runId: run.id, status: run.status } },
    el('section', {}, el('h2', {}, 'Verdict'), verdictView(run)),
    el('section', {}, el('h2', {}, 'Hops'), run.authoring ? markedHops(run.authoring) : hopQueue(run.progress)),
    el('section', {}, el('h2', {}, 'Task'), taskCard(run)),
    el('section', {}, el('h2', {}, 'Steps'), list.root),
    el('section', {}, el('h2', {}, 'Run'), summary(run)),
  );
}
