// Helpers for the session, action and hop e2e tests: task texts, element references
// taken with a Playwright CDP session, and finding the Playwright page of a session tab
// (sending the protocol messages is the driver's: runner/driver.mjs).

import { sendOk } from '../../runner/driver.mjs';

/**
 * A task in our format whose start URLs are `startUrls`.
 * @param {{ id?: string, startUrls: string[], hops?: object[], finalAnswer?: object }} task
 */
export function taskText({ id = 'e2e/task', startUrls, hops = [], finalAnswer }) {
  /** @type {Record<string, unknown>} */
  const task = {
    id,
    intent: 'e2e test task',
    start_urls: startUrls,
    hops: hops.length > 0 ? hops : [{ condition: { kind: 'url', op: 'contains', value: 'never-reached-marker' } }],
  };
  if (finalAnswer) task.final_answer = finalAnswer;
  return JSON.stringify(task);
}

/**
 * Starts a session on `startUrls`; returns the START_SESSION reply.
 * @param {import('../types.mjs').Page} extPage
 * @param {string[]} startUrls
 * @param {{ id?: string, hops?: object[], finalAnswer?: object }} [extra]
 */
export function startSession(extPage, startUrls, extra = {}) {
  return sendOk(extPage, 'startSession', { taskText: taskText({ startUrls, ...extra }) });
}

/**
 * Waits for the Playwright page whose URL satisfies `predicate` (a session tab).
 * @param {import('../types.mjs').BrowserContext} context
 * @param {(url: string) => boolean} predicate
 * @param {number} [timeoutMs]
 */
export async function waitForPage(context, predicate, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = context.pages().find((p) => predicate(p.url()));
    if (page) {
      await page.waitForLoadState('load');
      return page;
    }
    if (Date.now() > deadline) {
      throw new Error(`no page matched within ${timeoutMs} ms; open: ${context.pages().map((p) => p.url())}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The element reference the observation would produce for `selector` in the page's
 * main frame: DOM.getDocument → DOM.querySelector → DOM.describeNode.
 * @param {import('../types.mjs').Page} page
 * @param {string} selector
 */
export async function elementRef(page, selector) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    if (!nodeId) throw new Error(`no element matches ${selector} in ${page.url()}`);
    const { node } = await cdp.send('DOM.describeNode', { nodeId });
    return { targetId: null, backendNodeId: node.backendNodeId };
  } finally {
    await cdp.detach();
  }
}

/**
 * Reference to an element found by a page expression (e.g. inside a shadow root).
 * @param {import('../types.mjs').Page} page
 * @param {string} expression
 */
export async function elementRefByExpression(page, expression) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { result } = await cdp.send('Runtime.evaluate', { expression });
    if (!result.objectId) throw new Error(`${expression} gave no element`);
    const { node } = await cdp.send('DOM.describeNode', { objectId: result.objectId });
    return { targetId: null, backendNodeId: node.backendNodeId };
  } finally {
    await cdp.detach();
  }
}

/**
 * Text of an element, for reading the state pages display.
 * @param {import('../types.mjs').Page} page
 * @param {string} selector
 */
export function textOf(page, selector) {
  return page.locator(selector).textContent();
}
