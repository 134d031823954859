// Authoring by doing: where a person's recorded steps go in a task file. A task
// without a reference trajectory gets the recording as its reference; a task that has
// one keeps it and gains the recording as an alternative valid path
// (`alternative_trajectories`), which the diagnosis scores as a valid alternative
// (docs/diagnosis.md). The same path twice is not added again.

/**
 * @typedef {{ reference_trajectory?: string[], alternative_trajectories?: string[][], [field: string]: unknown }} TaskFile
 * @typedef {{ task: TaskFile, placed: 'reference' | 'alternative' | 'already there', index: number }} Placed
 */

/**
 * The task file with the recording placed in it, and where it went (`index`: the
 * alternative's position from 1, 0 for the reference).
 * @param {TaskFile} task a task file in our format
 * @param {string[]} recording the person's steps as reference steps (`reference_of`)
 * @returns {Placed}
 */
export function withRecording(task, recording) {
  const same = (/** @type {string[]} */ path) => path.length === recording.length && path.every((step, i) => step === recording[i]);
  const reference = task.reference_trajectory ?? [];
  if (reference.length === 0) return { task: { ...task, reference_trajectory: recording }, placed: 'reference', index: 0 };
  if (same(reference)) return { task, placed: 'already there', index: 0 };
  const alternatives = task.alternative_trajectories ?? [];
  const at = alternatives.findIndex(same);
  if (at >= 0) return { task, placed: 'already there', index: at + 1 };
  return {
    task: { ...task, alternative_trajectories: [...alternatives, recording] },
    placed: 'alternative',
    index: alternatives.length + 1,
  };
}

/**
 * What the runs page says after saving.
 * @param {string} name the saved file's name
 * @param {Placed} placed
 * @param {number} steps
 * @returns {string}
 */
export function savedMessage(name, placed, steps) {
  switch (placed.placed) {
    case 'reference':
      return `Saved ${name} with ${steps} reference steps.`;
    case 'alternative':
      return `Saved ${name}: the task's reference kept, your ${steps} steps added as alternative path ${placed.index}.`;
    default:
      return `Saved ${name}: your ${steps} steps are already the task's ${placed.index === 0 ? 'reference' : `alternative path ${placed.index}`}.`;
  }
}

// --- a new task by doing ----------------------------------------------------------------

/**
 * The draft's one hop: never met (no URL holds it), so the live hop queue stays open
 * while the person marks the real hops; the saved task has only those.
 */
export const DRAFT_MARK = '#hopbench-authoring-draft';

/**
 * @typedef {{ site: string, path: string, words: string[], description?: string }} HopProposal
 *   `site`: the origin the URL must start with (`http://host:port/`); `path`: the
 *   path it must have ('' = any); `words`: text the URL must contain; `description`:
 *   what the hop is in the person's words (proposed from the page's title), shown in
 *   hop lists and reports instead of the URL.
 */

/**
 * The task a person starts authoring from: their intent and start page.
 * @param {{ intent: string, startUrl: string }} input
 * @returns {TaskFile}
 */
export function draftTask({ intent, startUrl }) {
  const text = intent.trim();
  if (!text) throw new Error('write the task (its intent) first');
  let url;
  try {
    url = new URL(startUrl.trim());
  } catch {
    throw new Error(`the start page must be a full http(s) URL (got ${JSON.stringify(startUrl)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`the start page must be http(s) (got ${url.protocol})`);
  const slug = slugOf(text);
  return {
    id: `authored/${slug}`,
    intent: text,
    start_urls: [url.href],
    hops: [{ description: 'the pages you mark as completing a hop', condition: { kind: 'url', op: 'contains', value: DRAFT_MARK } }],
  };
}

/**
 * Whether a run's task is an authoring draft.
 * @param {{ hops?: Array<{ condition?: { value?: unknown } }> } | null | undefined} task
 * @returns {boolean}
 */
export function isDraft(task) {
  return task?.hops?.length === 1 && task.hops[0].condition?.value === DRAFT_MARK;
}

/**
 * The condition proposed for the page at `url`: its site and path, and as required
 * words the values of its query and the parts of a `#/route`, which is what tells one
 * result page from another on most sites (single-page ones included).
 * @param {string} url
 * @param {string} [title] the page's title, for the hop's description
 * @returns {HopProposal}
 */
export function proposeHop(url, title = '') {
  const u = new URL(url);
  const words = [...u.searchParams.values()];
  const route = u.hash.replace(/^#\/?/, '');
  if (route) words.push(...route.split('/').filter(Boolean).map((part) => decodeURIComponent(part)));
  const name = title.trim();
  return {
    site: `${u.origin}/`,
    path: u.pathname === '/' ? '' : u.pathname,
    words: words.filter((w) => w.trim() !== ''),
    // A page's title says what it is; its URL rarely does ("reach 127.0.0.1:8000/p?id=3").
    description: name ? `Reach the page "${name}"` : '',
  };
}

/**
 * The hop a (possibly edited) proposal stands for: the URL starts with the site, has
 * the path (when given) and contains every word.
 * @param {HopProposal} proposal
 * @param {number} number the hop's number, from 1, for its description
 * @returns {{ description: string, condition: object }}
 */
export function hopOf(proposal, number) {
  const site = proposal.site.trim();
  if (!/^https?:\/\/[^/\s]+\/$/.test(site)) throw new Error(`the site must look like http://host/ (got ${JSON.stringify(site)})`);
  const path = proposal.path.trim();
  if (path && !path.startsWith('/')) throw new Error(`the path must start with / (got ${JSON.stringify(path)})`);
  const words = proposal.words.map((w) => w.trim()).filter(Boolean);
  const of = [
    { kind: 'url', part: 'url', op: 'prefix', value: site },
    ...(path ? [{ kind: 'url', part: 'path', op: 'equals', value: path }] : []),
    ...words.map((value) => ({ kind: 'url', part: 'url', op: 'contains', value })),
  ];
  const where = `${site}${path.replace(/^\//, '')}`;
  const said = proposal.description?.trim();
  const description = `Hop ${number}: ${said || `${where}${words.length > 0 ? ` with ${words.map((w) => `"${w}"`).join(', ')}` : ''}`}`;
  return { description, condition: of.length === 1 ? of[0] : { kind: 'all', of } };
}

/**
 * The task file an authoring session gives: the draft's intent and start page, the
 * marked hops, the answer (if any) as the final check, the recording as its reference.
 * @param {TaskFile} draft
 * @param {HopProposal[]} marked
 * @param {string | null} answer
 * @param {string[]} reference
 * @returns {TaskFile}
 */
export function authoredTask(draft, marked, answer, reference) {
  if (marked.length === 0) throw new Error('mark at least one page as completing a hop before saving');
  const task = {
    id: draft.id,
    intent: draft.intent,
    start_urls: draft.start_urls,
    hops: marked.map((proposal, i) => hopOf(proposal, i + 1)),
    reference_trajectory: reference,
  };
  const text = answer?.trim();
  return text && text.toUpperCase() !== 'N/A' ? { ...task, final_answer: { condition: { must_include: [text] }, required: true } } : task;
}

/**
 * The intent as a task id's words: lower case, dashes between words, at most 48
 * characters, cut after a whole word (a name cut mid-word, "...-jazz-night-t", reads
 * as a typo).
 * @param {string} text
 */
export function slugOf(text) {
  const words = text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > 48) break;
    slug = next;
  }
  // A first word longer than the limit is cut: an id must have something.
  return slug || (words[0] ?? '').slice(0, 48) || 'task';
}
