// Helpers of the human-session tests: a "person" who acts on a session page through
// Playwright's mouse and keyboard (trusted input, as a person's), at a person's pace,
// and reading what the panel and the store say of the session.

import { sendOk } from '../../runner/driver.mjs';

/**
 * A person's pause between actions: they look at the page before acting. Also what
 * gives the recorder's observation of a changed page time to be taken, as it has with
 * a person (no one clicks a link within a tenth of a second of its appearing).
 */
export const THINK_MS = 700;

/** @param {import('../types.mjs').Page} page */
export function person(page) {
  const think = () => page.waitForTimeout(THINK_MS);
  /** @param {string} selector */
  const centre = async (selector) => {
    const box = await page.locator(selector).first().boundingBox();
    if (!box) throw new Error(`${selector} is not on the screen`);
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  const actions = {
    think,
    /**
     * Moves the mouse to the element and clicks it.
     * @param {string} selector
     */
    async click(selector) {
      await think();
      const { x, y } = await centre(selector);
      await page.mouse.move(x, y, { steps: 4 });
      await page.mouse.click(x, y);
    },
    /**
     * Clicks into a field and types, key by key; Enter at the end if asked.
     * @param {string} selector
     * @param {string} text
     * @param {{ enter?: boolean }} [options]
     */
    async type(selector, text, { enter = false } = {}) {
      await actions.click(selector);
      await page.keyboard.type(text, { delay: 30 });
      if (enter) await page.keyboard.press('Enter');
    },
    /**
     * Focuses a closed list by clicking it, closes its popup, and picks by typing.
     * @param {string} selector
     * @param {string} key
     */
    async choose(selector, key) {
      await actions.click(selector);
      await page.keyboard.press('Escape');
      await page.keyboard.press(key);
    },
    /** @param {number} dy */
    async wheel(dy) {
      await think();
      await page.mouse.move(400, 300);
      await page.mouse.wheel(0, dy);
      await page.waitForTimeout(500);
    },
    /** @param {string} key */
    async press(key) {
      await think();
      await page.keyboard.press(key);
    },
  };
  return actions;
}

/**
 * The run's stored steps (GET_RUN withSteps).
 * @param {import('../types.mjs').Page} page
 * @param {string} runId
 */
export async function stepsOf(page, runId) {
  return (await sendOk(page, 'getRun', { runId, withSteps: true })).steps;
}

/**
 * Waits until the run has recorded `n` steps; returns them.
 * @param {import('../types.mjs').Page} page
 * @param {string} runId
 * @param {number} n
 * @param {number} [timeoutMs]
 */
export async function waitForSteps(page, runId, n, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const steps = await stepsOf(page, runId);
    if (steps.length >= n) return steps;
    if (Date.now() > deadline) {
      throw new Error(`${steps.length} of ${n} steps recorded after ${timeoutMs} ms: ${steps.map((/** @type {{ action?: { text: string }, result?: { error?: string } }} */ s) => s.action?.text ?? s.result?.error).join(' | ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The role and name of the element an action names, read from its line `[id] role
 * 'name' props` in the observation: `combobox 'City'`; null when no line has the id.
 */
/**
 * @param {string} observationText
 * @param {string} actionText
 */
export function elementOf(observationText, actionText) {
  const id = actionText.match(/\[(\d+)\]/)?.[1];
  const line = observationText.split('\n').find((l) => l.trimStart().startsWith(`[${id}] `));
  return line?.trim().match(/^\[\d+\] (\S+ (?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"))/)?.[1] ?? null;
}
