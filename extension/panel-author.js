// The side panel's "New task by doing": the person writes the task and its start page,
// does it in a recorded session, marks each page that completes a hop (the panel
// proposes a URL condition from the page's URL and a description from its title, which
// they can edit), answers, and
// saves the task file: the marked hops, the answer as its check, the recording as its
// reference_trajectory (authoring.js builds it; the core checks it).
// The marks are kept in the store (store/keys.js authoringMarks), so a closed panel or
// a stopped worker loses none.

import { ask } from './ask.js';
import { authoredTask, draftTask, hopOf, isDraft, proposeHop } from './authoring.js';
import { el } from './dom.js';
import { coreCall, exportRun, listSessionTabs } from './messages.js';
import { authoringMarks, authoringSaved } from './store/keys.js';
import { read, write } from './store/store.js';
import { doItMyself } from './panel-human.js';

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const input = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/**
 * @typedef {import('./authoring.js').HopProposal} HopProposal
 * @typedef {{ id: string, status: string, sessionId: string | null }} AuthoredRun what the bar needs of the run shown
 * @typedef {import('./types.js').Trajectory} Trajectory
 */

/**
 * Starts an authoring session from the form; resolves to the run id.
 * @param {{ keepWindow: boolean }} options
 * @returns {Promise<string>}
 */
export async function startAuthoring({ keepWindow }) {
  const draft = draftTask({ intent: input('author-intent').value, startUrl: input('author-start').value });
  const runId = await doItMyself({ taskText: JSON.stringify(draft), fileName: 'authored-draft.json' }, { keepWindow });
  await write(authoringMarks(runId), []);
  return runId;
}

/** @param {string} runId @returns {Promise<HopProposal[]>} */
async function marksOf(runId) {
  return (await read(authoringMarks(runId))) ?? [];
}

/**
 * The URL and title of the page the person is on: the current tab of the run's session.
 * @param {AuthoredRun} run
 * @returns {Promise<{ url: string, title: string }>}
 */
async function currentPage(run) {
  if (!run.sessionId) throw new Error('the run has no session');
  const { tabs } = await ask(listSessionTabs, { sessionId: run.sessionId });
  const tabId = tabs.find((t) => t.current)?.tabId;
  if (typeof tabId !== 'number') throw new Error('the session has no current page');
  const tab = await chrome.tabs.get(tabId);
  const url = tab.pendingUrl || tab.url;
  if (!url || !/^https?:/.test(url)) throw new Error(`this page cannot complete a hop (${url || 'no URL'})`);
  return { url, title: tab.title ?? '' };
}

/**
 * Shows the authoring bar for an authoring run (hidden for any other run).
 * @param {AuthoredRun} run
 * @param {{ showError: (text: string) => void, showStatus: (text: string) => void, refresh: () => Promise<void> }} ui
 */
export async function showAuthoring(run, ui) {
  // An authoring run is one started here: its marks are kept from the start.
  const stored = await read(authoringMarks(run.id));
  $('author-bar').hidden = stored === undefined;
  if (stored === undefined) return;
  const marks = await marksOf(run.id);
  $('author-marks').replaceChildren(...marks.map((m, i) => el('li', {}, hopOf(m, i + 1).description)));
  $('author-mark').hidden = run.status !== 'running';
  $('author-save').hidden = run.status !== 'finished';
  wire(run, ui);
}

/** @type {string | null} */
let wiredFor = null;

/**
 * @param {AuthoredRun} run
 * @param {{ showError: (text: string) => void, showStatus: (text: string) => void, refresh: () => Promise<void> }} ui
 */
function wire(run, ui) {
  if (wiredFor === run.id) return;
  wiredFor = run.id;
  const runId = run.id;
  const guarded = (/** @type {string} */ what, /** @type {() => Promise<void>} */ fn) => async (/** @type {Event} */ event) => {
    event.preventDefault();
    try {
      await fn();
    } catch (error) {
      ui.showError(`cannot ${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  $('author-mark').onclick = guarded('propose a hop', async () => {
    const { url, title } = await currentPage(run);
    const proposal = proposeHop(url, title);
    input('author-what').value = proposal.description ?? '';
    input('author-site').value = proposal.site;
    input('author-path').value = proposal.path;
    input('author-words').value = proposal.words.join(', ');
    $('author-proposal').hidden = false;
  });
  $('author-cancel').onclick = guarded('cancel', async () => {
    $('author-proposal').hidden = true;
  });
  $('author-proposal').onsubmit = guarded('add the hop', async () => {
    /** @type {HopProposal} */
    const proposal = {
      site: input('author-site').value,
      path: input('author-path').value,
      words: input('author-words').value.split(',').map((w) => w.trim()).filter(Boolean),
      description: input('author-what').value.trim(),
    };
    const marks = await marksOf(runId);
    hopOf(proposal, marks.length + 1); // Refuses a site or path it cannot use, before keeping it.
    await write(authoringMarks(runId), [...marks, proposal]);
    $('author-proposal').hidden = true;
    const latest = await marksOf(runId);
    $('author-marks').replaceChildren(...latest.map((m, i) => el('li', {}, hopOf(m, i + 1).description)));
    // The panel's hop list shows the marks: redraw it, then say what happened.
    await ui.refresh();
    ui.showStatus(`Hop ${marks.length + 1} marked.`);
  });
  $('author-save').onclick = guarded('save the task', async () => {
    const { trajectory } = await ask(exportRun, { runId });
    const draftFile = JSON.parse(trajectory.task.text);
    if (!isDraft(draftFile)) throw new Error('this run was not started as a new task by doing');
    const steps = trajectory.steps;
    const recorded = steps
      .filter((s) => s.action?.text)
      .map((s) => ({ action: String(s.action?.text), observation: s.observation?.text ?? '' }));
    // src/agent/to_reference.rs: the steps as reference_trajectory steps, and what is wrong.
    const { value } = await ask(coreCall, 'reference_of', [recorded]);
    if (value.problems.length > 0) {
      throw new Error(value.problems.map((/** @type {{ step: number, message: string }} */ p) => `step ${p.step}: ${p.message}`).join('; '));
    }
    const task = authoredTask(draftFile, await marksOf(runId), trajectory.run.answer ?? null, value.reference);
    const text = `${JSON.stringify(task, null, 2)}\n`;
    // The core reads it as it will read the saved file: a task it refuses is not saved.
    const { value: checked } = await ask(coreCall, 'task_overviews', [[{ fileName: 'authored.json', text }]]);
    const problem = checked?.[0]?.error;
    if (problem) throw new Error(`the task does not validate: ${problem}`);
    const name = `${String(task.id).replace(/[^\w.-]+/g, '_')}.json`;
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const a = el('a', { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
    const hops = Array.isArray(task.hops) ? task.hops.length : 0;
    // Kept, so every page tells this session as a saved task, not a run that failed.
    await write(authoringSaved(runId), { fileName: name, hops, referenceSteps: value.reference.length, at: Date.now() });
    await ui.refresh();
    ui.showStatus(`Saved ${name}: ${hops} hops, ${value.reference.length} reference steps.`);
  });
}
