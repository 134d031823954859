// The step stream of a run: per step the action in words, the element it touched, a
// thumbnail of the page it was chosen on, what happened (in words, never raw JSON),
// the hop it completed, and the model's reasoning folded away. Steps never change once
// recorded, so a list keeps the nodes it built and only adds new steps: an unfolded
// reasoning or an enlarged thumbnail stays as the person left it while the run goes on.

import { el } from './dom.js';

/**
 * @typedef {import('./types.js').StepView} StepView
 * @typedef {import('./types.js').Effect} Effect
 * @typedef {import('./worker/core/core-types.js').Attempt} Attempt
 * @typedef {import('./worker/core/core-types.js').Judgement} Judgement
 * @typedef {import('./worker/core/core-types.js').Progress} Progress
 */

const seconds = (/** @type {number} */ ms) => `${Number((ms / 1000).toFixed(1))} s`;
const tries = (/** @type {number} */ n) => (n === 1 ? '1 failed try' : `${n} failed tries`);
const quoted = (/** @type {unknown} */ text) => JSON.stringify(String(text));

/** `rate_limited, retried after 1 s; server`: each failed try and the wait after it. */
/** @param {Attempt[]} attempts */
function describeTries(attempts) {
  return attempts.map((a) => (a.delay_ms == null ? a.kind : `${a.kind}, retried after ${seconds(a.delay_ms)}`)).join('; ');
}

/**
 * The tries of the step's model call when there was more than one: those before a
 * reply, or all of a call that gave up after several (one failed try is the error).
 * @param {StepView} step
 */
function attemptsText(step) {
  const beforeReply = step.reply?.attempts ?? [];
  if (beforeReply.length > 0) return `${tries(beforeReply.length)} before the reply: ${describeTries(beforeReply)}`;
  const failed = step.model_error?.attempts ?? [];
  if (failed.length > 1) return `${tries(failed.length)}: ${describeTries(failed)}`;
  return null;
}

/** @param {Judgement} j */
function judgementText(j) {
  const verdict = j.infers === true ? 'yes' : j.infers === false ? 'no' : `no verdict: ${j.error}`;
  return `${JSON.stringify(j.reference)}: ${verdict} (${j.by})`;
}

/** @param {Judgement[] | undefined} judgements */
function judgementList(judgements) {
  if (!judgements?.length) return null;
  return el(
    'ul',
    { class: 'judgements' },
    judgements.map((j) => el('li', { class: 'judgement', dataset: { infers: String(j.infers) } }, `Judge: ${judgementText(j)}`)),
  );
}

/**
 * How an element action reached the page, in words.
 * @param {Effect} effect
 */
function pathWords(effect) {
  if (effect.path === 'trusted') return 'as real input';
  if (effect.path === 'synthetic') return `by script${effect.reason ? ` (${effect.reason})` : ''}`;
  return null;
}

/**
 * What the worker reported of an action, as one sentence; null when there is nothing
 * to add to the action's own words. Effects are those of worker/act/actions.js (and the
 * recorder's for a person's session).
 * @param {Effect | null | undefined} effect
 */
export function effectWords(effect) {
  if (!effect || typeof effect !== 'object') return null;
  if (effect.recorded) return effect.recorded;
  if (effect.typed) {
    const t = effect.typed;
    if (t.kind === 'select') return `Chose ${quoted(t.text)} in the list.`;
    if (t.checked !== undefined) return `The box is now ${t.checked ? 'checked' : 'unchecked'}.`;
    const value = t.value == null ? '' : ` The field holds ${quoted(t.value)}.`;
    const keys = t.path === 'keys' ? ` Typed key by key${t.ms ? ` in ${t.ms} ms` : ''}.` : '';
    return `${keys}${value}${effect.pressedEnter ? ' Enter pressed.' : ''}`.trim() || null;
  }
  if (effect.element) {
    const how = pathWords(effect);
    const closed = effect.closedItsTab ? ' Its page then closed the tab.' : '';
    return `Reached ${effect.element}${how ? ` ${how}` : ''}.${closed}`;
  }
  if (effect.pressed) return null;
  if (effect.moved !== undefined) {
    if (effect.moved === false) return 'Nothing scrolled: already at the end.';
    return effect.scroller ? `Scrolled ${effect.scroller}.` : null;
  }
  if (effect.answer !== undefined) {
    if (effect.answerError) return `The answer could not be scored: ${effect.answerError}`;
    if (effect.answerScored === true) return 'The answer was scored.';
    return null;
  }
  if (effect.closedTabId !== undefined) return 'The tab was closed.';
  if (effect.index !== undefined) return `Tab ${effect.index} is now the current tab.`;
  if (effect.url) return `Loaded ${effect.url}.`;
  if (effect.navigated !== undefined) return effect.navigated ? null : (effect.note ?? 'There was no page to go to.');
  return null;
}

/**
 * "Completed hop 2 (Open the events site)." when this step completed hops: read from
 * the run's hop queue (`progress`: each done hop names its step), which also knows of
 * a hop the step's navigation completed after the step was recorded (a person's click
 * is recorded as it happens); without it, from the step's own progress.
 * @param {StepView} step
 * @param {number} previousDone
 * @param {Progress | null} progress
 */
function hopWords(step, previousDone, progress) {
  /** @type {string[]} */
  let hops;
  if (progress) {
    hops = progress.hops.filter((h) => h.state === 'done' && h.step === step.step).map((h) => `hop ${h.index + 1} (${h.description})`);
  } else {
    const done = step.progress?.done ?? previousDone;
    hops = (step.progress?.hops ?? []).slice(previousDone, done).map((h, i) => `hop ${previousDone + i + 1} (${h.description})`);
  }
  return hops.length > 0 ? `Completed ${hops.join(' and ')}.` : null;
}

/**
 * The media id of the step's picture: the screenshot the model was given, else the one
 * taken for people (`page_screenshot`, text modes and a person's steps); null if none.
 * A reference that is not a media id (a picture lost in the store's upgrade) is none.
 * @param {StepView} step
 */
export function shotOf(step) {
  const ref = step.observation?.screenshot ?? step.observation?.page_screenshot ?? null;
  return typeof ref === 'string' ? ref : null;
}

/**
 * @param {StepView} step
 * @param {string | null} hop
 * @param {Map<string, string>} media
 */
function stepItem(step, hop, media) {
  const action = step.action?.text ?? '(no action)';
  const error = step.result?.error ?? step.model_error?.error?.message ?? null;
  const attempts = attemptsText(step);
  const words = step.words?.words ?? (step.action ? action : 'No action this step');
  const shot = shotOf(step);
  const result = effectWords(step.result?.effect);
  return el(
    'li',
    { class: 'step', dataset: { step: step.step, outcome: error ? 'error' : 'ok', kind: step.words?.kind ?? '' } },
    el(
      'div',
      { class: 'step-head' },
      el('span', { class: 'step-no' }, `Step ${step.step}`),
      ' ',
      el('span', { class: 'step-words' }, words),
    ),
    shot ? thumbnail(shot, step.step, media) : null,
    result ? el('p', { class: 'step-result' }, result) : null,
    hop ? el('p', { class: 'step-hop' }, hop) : null,
    error ? el('p', { class: 'step-error' }, error) : null,
    step.note ? el('p', { class: 'step-note' }, step.note) : null,
    step.model_error?.error?.hint ? el('p', { class: 'step-hint' }, step.model_error.error.hint) : null,
    attempts ? el('p', { class: 'step-attempts' }, attempts) : null,
    judgementList(step.judgements),
    el('p', { class: 'step-meta' }, el('code', { class: 'step-action' }, action), ' ', el('span', { class: 'step-url' }, step.observation?.url ?? '')),
    // A person's own agent sends its reasons apart from its action (shown above).
    step.reply ? el('details', { class: 'step-reasoning' }, el('summary', {}, 'Reasoning'), el('pre', { class: 'step-reply' }, step.reply.reasoning ?? step.reply.text)) : null,
  );
}

/**
 * A thumbnail of the step's screenshot; a click shows it at full width.
 * @param {string} mediaId
 * @param {number} stepNumber
 * @param {Map<string, string>} media
 */
function thumbnail(mediaId, stepNumber, media) {
  const img = el('img', { class: 'step-thumb', alt: `The page at step ${stepNumber}`, dataset: { media: mediaId }, tabindex: 0 });
  const src = media.get(mediaId);
  if (src) img.src = src;
  const toggle = () => img.classList.toggle('expanded');
  img.addEventListener('click', toggle);
  img.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') toggle();
  });
  return img;
}

/** An ordered list of steps that only builds what is new or changed. */
export class StepList {
  constructor() {
    this.root = el('ol', { class: 'steps' });
    /** step number → `{key, node}`; `key` is the step's JSON when it was built. */
    /** @type {Map<number, { key: string, node: HTMLElement }>} */
    this.built = new Map();
    this.empty = el('li', { class: 'note steps-empty' }, 'No step recorded yet.');
  }

  /**
   * Shows `steps` (in order); `media` maps media ids to data URLs already loaded;
   * `progress` is the run's hop queue now (GET_RUN's), which says which step
   * completed each hop.
   * @param {StepView[]} steps
   * @param {Map<string, string>} media
   * @param {Progress | null} [progress]
   */
  update(steps, media, progress = null) {
    let previousDone = 0;
    const wanted = new Set();
    for (const step of steps) {
      wanted.add(step.step);
      const hop = hopWords(step, previousDone, progress);
      const key = `${hop}\n${JSON.stringify(step)}`;
      const known = this.built.get(step.step);
      if (!known || known.key !== key) {
        const node = stepItem(step, hop, media);
        if (known) known.node.replaceWith(node);
        else this.root.append(node);
        this.built.set(step.step, { key, node });
      }
      previousDone = step.progress?.done ?? previousDone;
    }
    for (const [number, { node }] of this.built) {
      if (!wanted.has(number)) {
        node.remove();
        this.built.delete(number);
      }
    }
    if (steps.length === 0 && !this.root.contains(this.empty)) this.root.append(this.empty);
    if (steps.length > 0) this.empty.remove();
    this.fillThumbnails(media);
  }

  /**
   * Sets the source of thumbnails whose picture arrived since they were built.
   * @param {Map<string, string>} media
   */
  fillThumbnails(media) {
    for (const img of this.root.querySelectorAll('img.step-thumb:not([src])')) {
      if (!(img instanceof HTMLImageElement)) continue;
      const src = media.get(img.dataset.media ?? '');
      if (src) img.src = src;
    }
  }
}
