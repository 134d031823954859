// A run started as a person starts one: a task file imported in the real toolbar popup
// (opened with chrome.action.openPopup over a normal tab), an agent chosen, Run pressed
// once. And what a finished run may not leave behind in the person's browser.

import { basename } from 'node:path';
import { sendOk } from '../../runner/driver.mjs';
import { openRealPopup } from './real-popup.mjs';

/**
 * Imports `file` in the real popup over a tab showing `overUrl`, chooses `agent` and
 * presses Run once; resolves to the new run's id (the popup is closed by then).
 * @param {import('../types.mjs').Extension} ext
 * @param {import('../types.mjs').Page} control an extension page to ask the worker through
 * @param {{ file: string, overUrl: string, agent?: string }} run
 * @returns {Promise<string>}
 */
export async function runFileFromRealPopup(ext, control, { file, overUrl, agent = 'replay' }) {
  const name = basename(file);
  const before = new Set((await sendOk(control, 'listRuns')).runs.map((/** @type {{ id: string }} */ r) => r.id));
  const tab = await ext.openPage(overUrl);
  const popup = await openRealPopup(ext, tab);
  await popup.setFiles('#import-files', [file]);
  // The import is done once it says so: a file imported before is in the list already,
  // and choosing it while the list is drawn again would be undone.
  await popup.waitFor(`document.querySelector('#task-note').textContent.startsWith('Imported')`, `${name} to be imported`);
  await popup.waitFor(`!!document.querySelector('#task option[value="imported:${name}"]')`, `${name} in the task list`);
  await popup.select('#task', `imported:${name}`);
  await popup.select('#agent', agent);
  await popup.waitFor('!document.querySelector("#run").disabled', 'Run to be ready');
  await popup.click('#run');
  const deadline = Date.now() + 15_000;
  for (;;) {
    const started = (await sendOk(control, 'listRuns')).runs.map((/** @type {{ id: string }} */ r) => r.id).filter((/** @type {string} */ id) => !before.has(id));
    if (started.length > 0) {
      await popup.close();
      await tab.close();
      return /** @type {string} */ (started[0]);
    }
    if (Date.now() > deadline) {
      const said = await popup
        .evaluate('[...document.querySelectorAll("#run-status, #agent-note, #task-note")].map((p) => p.textContent).join(" / ")')
        .catch((/** @type {Error} */ error) => `nothing (${error.message})`);
      throw new Error(`Run in the real popup started no run of ${name}; the popup says: ${said}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * What the extension has open or set up that a person would find left over: its
 * declarativeNetRequest session rules (a run's fence), its open sessions, and every
 * window and tab of the browser (URLs), read through an extension page.
 * @param {import('../types.mjs').Page} control
 * @returns {Promise<{ rules: number, sessions: number, tabs: string[] }>}
 */
export async function leftovers(control) {
  return control.evaluate(async () => {
    const stored = (await chrome.storage.session.get('hopbench.sessions'))['hopbench.sessions'] ?? {};
    return {
      rules: (await chrome.declarativeNetRequest.getSessionRules()).length,
      sessions: Object.keys(stored).length,
      tabs: (await chrome.tabs.query({})).map((t) => t.url || t.pendingUrl || ''),
    };
  });
}
