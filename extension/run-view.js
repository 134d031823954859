// Renders one run for the side panel and the runs page: its summary, the hop queue
// (done / current / waiting, with the step that completed each), the steps with the
// model's reasoning, action and result, and the verdict. Pure DOM building from the
// GET_RUN reply; the pages decide when to ask for it.

/** `el('p', {class: 'x'}, 'text', child)`: a small element builder (no innerHTML). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  node.append(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
  return node;
}

export function formatTime(ms) {
  return ms ? new Date(ms).toLocaleString() : '—';
}

/** "PASS", "FAIL", or the status while there is no verdict yet. */
export function outcomeLabel(run) {
  if (run.verdict) return run.verdict.passed ? 'PASS' : 'FAIL';
  return run.status;
}

export function summary(run) {
  const tokens = run.tokens ? `${run.tokens.input} in / ${run.tokens.output} out` : '—';
  const rows = [
    ['Task', `${run.intent} (${run.taskId})`],
    ['Status', run.status + (run.reason ? `: ${run.reason}` : '')],
    ['Agent', run.provider],
    ['Step', `${run.step} of at most ${run.maxSteps}`],
    ['Tokens', tokens],
    ['Started', formatTime(run.startedAt)],
    ['Finished', formatTime(run.finishedAt)],
  ];
  if (run.error) rows.push(['Error', run.error]);
  return el(
    'dl',
    { class: 'summary', dataset: { status: run.status } },
    rows.flatMap(([name, value]) => [el('dt', {}, name), el('dd', { dataset: { field: name.toLowerCase() } }, value)]),
  );
}

/** The hop queue as an ordered list; each item's `data-state` is done, current or waiting. */
export function hopQueue(progress) {
  if (!progress) return el('p', { class: 'note' }, 'No hop progress yet.');
  const items = progress.hops.map((hop) =>
    el(
      'li',
      { class: 'hop', dataset: { state: hop.state, step: hop.step ?? '' } },
      el('span', { class: 'hop-state' }, hop.state),
      ' ',
      el('span', { class: 'hop-description' }, hop.description),
      hop.state === 'done' ? el('span', { class: 'hop-step' }, ` — step ${hop.step}`) : null,
    ),
  );
  return el(
    'div',
    { class: 'hops' },
    el('p', { class: 'hop-count' }, `${progress.done} of ${progress.total} hops done`),
    el('ol', { class: 'hop-queue' }, items),
  );
}

export function stepList(steps) {
  if (steps.length === 0) return el('p', { class: 'note' }, 'No step recorded yet.');
  return el('ol', { class: 'steps' }, steps.map(stepItem));
}

const seconds = (ms) => `${Number((ms / 1000).toFixed(1))} s`;
const tries = (n) => (n === 1 ? '1 failed try' : `${n} failed tries`);

/** `rate_limited, retried after 1 s; server`: each failed try and the wait after it. */
function describeTries(attempts) {
  return attempts.map((a) => (a.delay_ms == null ? a.kind : `${a.kind}, retried after ${seconds(a.delay_ms)}`)).join('; ');
}

/**
 * The tries of the step's model call when there was more than one: those before a
 * reply, or all of a call that gave up after several (one failed try is the error).
 */
function attemptsText(step) {
  const beforeReply = step.reply?.attempts ?? [];
  if (beforeReply.length > 0) return `${tries(beforeReply.length)} before the reply: ${describeTries(beforeReply)}`;
  const failed = step.model_error?.attempts ?? [];
  if (failed.length > 1) return `${tries(failed.length)}: ${describeTries(failed)}`;
  return null;
}

/** One judge verdict: `"Tokyo": yes (judge model openai gpt-4o-mini)`. */
function judgementText(j) {
  const verdict = j.infers === true ? 'yes' : j.infers === false ? 'no' : `no verdict: ${j.error}`;
  return `${JSON.stringify(j.reference)}: ${verdict} (${j.by})`;
}

function judgementList(judgements) {
  if (!judgements?.length) return null;
  return el(
    'ul',
    { class: 'judgements' },
    judgements.map((j) => el('li', { class: 'judgement', dataset: { infers: String(j.infers) } }, `Judge: ${judgementText(j)}`)),
  );
}

function stepItem(step) {
  const action = step.action?.text ?? '(no action)';
  const error = step.result?.error ?? step.model_error?.error?.message ?? null;
  const attempts = attemptsText(step);
  return el(
    'li',
    { class: 'step', dataset: { step: step.step, outcome: error ? 'error' : 'ok' } },
    el('p', { class: 'step-head' }, el('strong', {}, `Step ${step.step}`), ' ', el('code', { class: 'step-action' }, action)),
    error ? el('p', { class: 'step-error' }, error) : null,
    step.note ? el('p', { class: 'step-note' }, step.note) : null,
    step.model_error?.error?.hint ? el('p', { class: 'step-hint' }, step.model_error.error.hint) : null,
    attempts ? el('p', { class: 'step-attempts' }, attempts) : null,
    judgementList(step.judgements),
    el('p', { class: 'step-url' }, step.observation?.url ?? ''),
    step.reply ? el('details', {}, el('summary', {}, 'Reasoning'), el('pre', { class: 'step-reply' }, step.reply.text)) : null,
    step.result?.effect ? el('p', { class: 'step-effect' }, `Result: ${JSON.stringify(step.result.effect)}`) : null,
  );
}

export function verdictView(run) {
  if (!run.verdict) {
    return el('p', { class: 'verdict', dataset: { outcome: 'pending' } }, run.status === 'running' ? 'Running…' : 'No verdict.');
  }
  const v = run.verdict;
  const answer = v.answer ? `Answer: ${v.answer.text}` : 'No answer given.';
  return el(
    'div',
    { class: 'verdict', dataset: { outcome: v.passed ? 'pass' : 'fail' } },
    el('p', { class: 'verdict-label' }, v.passed ? 'PASS' : 'FAIL'),
    el('p', {}, `${v.hops_done} of ${v.hops_total} hops; ${v.reason}`),
    el('p', {}, answer),
    judgementList(v.answer?.judgements),
  );
}

/** The whole run: summary, verdict, hop queue, steps. */
export function runView(run, steps) {
  return el(
    'article',
    { class: 'run', dataset: { runId: run.id, status: run.status } },
    el('section', {}, el('h2', {}, 'Run'), summary(run)),
    el('section', {}, el('h2', {}, 'Verdict'), verdictView(run)),
    el('section', {}, el('h2', {}, 'Hops'), hopQueue(run.progress)),
    el('section', {}, el('h2', {}, 'Steps'), stepList(steps)),
  );
}
