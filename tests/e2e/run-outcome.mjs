// Helpers of the run tests that look at a run's outcome (run-faults, run-judge): the
// options page's user path for the model settings, one run from start to end with
// everything a person could look at afterwards, and what the side panel shows of it.

import assert from 'node:assert/strict';
import { waitForRunEnd } from './run-helpers.mjs';
import { sendOk } from '../../runner/driver.mjs';

/**
 * Fills and saves the options page as a person would. Fields left undefined keep what
 * the page shows; `judge` is `{baseUrl, model, apiKey}` (an OpenAI-compatible judge
 * model) or null (no separate judge).
 * @param {import('../types.mjs').Page} options the options page
 * @param {{ baseUrl?: string, model?: string, apiKey?: string, maxTries?: number,
 *   timeoutS?: number, maxSteps?: number, mode?: string,
 *   judge?: { baseUrl: string, model: string, apiKey: string } | null }} fields
 */
export async function saveOptions(options, { baseUrl, model, apiKey, maxTries, timeoutS, maxSteps, mode, judge }) {
  if (baseUrl !== undefined) {
    await options.selectOption('#model-provider', 'openai');
    await options.fill('#model-base_url', baseUrl);
  }
  if (model !== undefined) await options.fill('#model-model', model);
  if (apiKey !== undefined) await options.fill('#model-api_key', apiKey);
  if (maxTries !== undefined) await options.fill('#max_tries', String(maxTries));
  if (timeoutS !== undefined) await options.fill('#call_timeout_s', String(timeoutS));
  if (maxSteps !== undefined) await options.fill('#max_steps', String(maxSteps));
  if (mode !== undefined) await options.selectOption('#observation-mode', mode);
  if (judge !== undefined) await options.locator('#judge-enabled').setChecked(judge !== null);
  if (judge) {
    await options.selectOption('#judge-provider', 'openai');
    await options.fill('#judge-base_url', judge.baseUrl);
    await options.fill('#judge-model', judge.model);
    await options.fill('#judge-api_key', judge.apiKey);
  }
  await options.click('#save');
  await options.waitForFunction(() =>
    ['saved', 'error'].includes(String(/** @type {HTMLElement} */ (document.getElementById('save-status')).dataset.state)));
  const status = options.locator('#save-status');
  assert.equal(await status.getAttribute('data-state'), 'saved', (await status.textContent()) ?? undefined);
  // The next save must wait for its own outcome, not see this one.
  await options.evaluate(() => {
    /** @type {HTMLElement} */ (document.getElementById('save-status')).dataset.state = 'idle';
  });
}

/**
 * What the side panel shows of one run, read from its DOM.
 * @param {import('../types.mjs').Extension} ext
 * @param {string} runId
 */
export async function panelView(ext, runId) {
  const panel = await ext.openExtensionPage(`sidepanel.html?run=${encodeURIComponent(runId)}`);
  try {
    // Ended: the verdict slot holds the outcome (PASS, FAIL, ERROR or STOPPED).
    await panel.waitForSelector('#verdict-slot .verdict:not([data-outcome="pending"])');
    return await panel.evaluate(() => {
      /** @param {ParentNode} root @param {string} selector */
      const text = (root, selector) => root.querySelector(selector)?.textContent ?? null;
      return {
        status: text(document, '[data-field="status"]'),
        outcome: /** @type {HTMLElement | null} */ (document.querySelector('#verdict-slot .verdict'))?.dataset.outcome ?? null,
        label: text(document, '#verdict-slot .verdict-label'),
        cause: text(document, '#verdict-slot .verdict-reason'),
        line: text(document, '#status'),
        error: text(document, '[data-field="error"]'),
        verdict: text(document, '.verdict'),
        verdictJudgements: [...document.querySelectorAll('.verdict .judgement')].map((li) => li.textContent),
        steps: [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.step'))].map((li) => ({
          step: Number(li.dataset.step),
          outcome: li.dataset.outcome,
          action: text(li, '.step-action'),
          error: text(li, '.step-error'),
          note: text(li, '.step-note'),
          attempts: text(li, '.step-attempts'),
          hint: text(li, '.step-hint'),
          judgements: [...li.querySelectorAll('.judgement')].map((j) => j.textContent),
        })),
      };
    });
  } finally {
    await panel.close();
  }
}

/**
 * Runs a task (START_RUN, as the popup sends it) until it ends (bounded), and returns
 * the run as GET_RUN, the stored steps, the export and the side panel show it.
 * Checks what must hold for any run: it ended within `timeoutMs`, and the export
 * holds steps 1..n exactly once, the same as GET_RUN's and the side panel's.
 * @param {import('../types.mjs').Page} page an extension page
 * @param {import('../types.mjs').Extension} ext
 * @param {{ taskText: string, fileName: string, overrides?: Record<string, unknown>, timeoutMs?: number }} run
 */
export async function runToEnd(page, ext, { taskText, fileName, overrides = {}, timeoutMs = 45_000 }) {
  const started = Date.now();
  const { runId } = await sendOk(page, 'startRun', { taskText, fileName, overrides });
  const run = await waitForRunEnd(page, runId, timeoutMs);
  const elapsedMs = Date.now() - started;
  const { steps } = await sendOk(page, 'getRun', { runId, withSteps: true });
  const { trajectory } = await sendOk(page, 'exportRun', { runId });
  /** @type {number[]} */
  const numbers = trajectory.steps.map((/** @type {{ step: number }} */ s) => s.step);
  assert.deepEqual(numbers, Array.from({ length: numbers.length }, (_, i) => i + 1), 'steps 1..n, each once');
  assert.deepEqual(steps.map((/** @type {{ step: number }} */ s) => s.step), numbers, 'GET_RUN and the export hold the same steps');
  assert.equal(run.step, numbers.length, 'the run counts the steps it recorded');
  const panel = await panelView(ext, runId);
  assert.deepEqual(panel.steps.map((s) => s.step), numbers, 'the side panel lists every step once');
  return { runId, run, steps, trajectory, panel, elapsedMs };
}
