#!/usr/bin/env node
// Dev tool for task authors: walks a task's reference_trajectory through the
// extension's session messages (START_SESSION, OBSERVE_TAB, ACT) the way the replay
// agent does: each `{role 'name'}` resolves to the first line of the whole-page
// observation with exactly that role and name. Prints each step, the hop progress and
// the verdict; on a missing element it prints the observation lines of that role.
//
//   node runner/walk.mjs TASK.json... [--quiet]
//
// Needs dist/ (./build.sh) and the sandbox (./build.sh sandbox). The proof that counts
// is replay through the run driver; this is the quick check while writing a task.

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { launchExtension, observe, send, sendOk } from './driver.mjs';

// `{role 'name'}` / `{role "name"}` right after the action name.
const TARGET = /^(\w+) \{(\w+) ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\}(.*)$/s;

/**
 * `[id]` of the first line whose text after the id is `role name` (then end or space).
 * @param {string} text
 * @param {string} role
 * @param {string} quotedName
 */
export function resolveTarget(text, role, quotedName) {
  const want = `${role} ${quotedName}`;
  for (const raw of text.split('\n')) {
    const m = raw.replace(/^\t*/, '').match(/^\[(\d+)\] (.*)$/);
    if (m && (m[2] === want || m[2].startsWith(`${want} `))) return Number(m[1]);
  }
  return null;
}

/**
 * @param {import('playwright-core').Page} popup
 * @param {string} sessionId
 */
async function currentTab(popup, sessionId) {
  const { session } = await sendOk(popup, 'listSessionTabs', { sessionId });
  return session;
}

/** Waits until every session tab has finished loading (start URLs, redirects). */
/**
 * @param {import('playwright-core').Page} popup
 * @param {number[]} tabIds
 */
async function waitLoaded(popup, tabIds) {
  await popup.evaluate(async (ids) => {
    for (let i = 0; i < 200; i += 1) {
      const tabs = await Promise.all(ids.map((id) => chrome.tabs.get(id)));
      if (tabs.every((t) => t.status === 'complete' && t.url)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }, tabIds);
}

/**
 * @param {import('playwright-core').Page} popup
 * @param {string} file
 * @param {boolean} quiet
 */
async function walkTask(popup, file, quiet) {
  const taskText = readFileSync(file, 'utf8');
  const task = JSON.parse(taskText);
  /** @param {string} line */
  const log = (line) => quiet || console.log(line);
  const started = await sendOk(popup, 'startSession', { taskText, fileName: file });
  const sessionId = started.session.id;
  await waitLoaded(popup, started.session.tabIds);
  let failure = null;
  try {
    for (const [i, step] of (task.reference_trajectory ?? []).entries()) {
      const session = await currentTab(popup, sessionId);
      const obs = await observe(popup, session.currentTabId, {
        mode: 'text',
        wholePage: true,
        tabIds: session.tabIds,
      });
      let actionText = step;
      const m = step.match(TARGET);
      if (m) {
        const id = resolveTarget(obs.text, m[2], m[3]);
        if (id === null) {
          const lines = obs.text.split('\n').filter((/** @type {string} */ l) => l.includes(`] ${m[2]} `));
          failure = `step ${i + 1} (${step}): no element ${m[2]} ${m[3]} on ${obs.url}; lines of that role:\n${lines.join('\n')}`;
          break;
        }
        actionText = `${m[1]} [${id}]${m[4]}`;
      }
      const reply = await send(popup, 'act', { sessionId, actionText });
      if (!reply?.ok || reply.result.error) {
        failure = `step ${i + 1} (${step}): ${JSON.stringify(reply?.result ?? reply)}`;
        break;
      }
      const { progress } = await sendOk(popup, 'getProgress', { sessionId });
      log(`  ${i + 1}. ${step}  ->  hops ${progress.done}/${progress.total}`);
    }
  } finally {
    const ended = await sendOk(popup, 'endSession', { sessionId });
    const v = ended.verdict;
    const status = failure ? 'STUCK' : v.passed ? 'PASS' : 'FAIL';
    console.log(`${status} ${task.id}${failure ? `: ${failure}` : ''}`);
    if (!v.passed || !quiet) console.log(`  verdict: ${JSON.stringify(v)}`);
  }
}

async function main() {
  const usage = 'usage: node runner/walk.mjs TASK.json... [--quiet]';
  let parsed;
  try {
    parsed = parseArgs({ options: { quiet: { type: 'boolean' } }, allowPositionals: true });
  } catch (error) {
    throw new Error(`${/** @type {Error} */ (error).message}\n${usage}`, { cause: error });
  }
  const quiet = parsed.values.quiet === true;
  const files = parsed.positionals;
  if (files.length === 0) throw new Error(usage);
  const ext = await launchExtension();
  try {
    const popup = await ext.openExtensionPage('popup.html');
    for (const file of files) await walkTask(popup, file, quiet);
  } finally {
    await ext.close();
  }
}

main().catch((error) => {
  console.error(`walk.mjs: ${error.stack}`);
  process.exit(1);
});
