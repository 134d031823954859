// The extension's real toolbar popup, opened as a person opens it: the worker calls
// chrome.action.openPopup() over a normal tab, and the popup document is reached
// through the DevTools protocol. Playwright lists no page for an action popup, and a
// popup opened as a tab (popup.html in a tab) does not close when the side panel takes
// the focus, which is the very thing these tests must see.
//
// Clicks are trusted mouse events at the element's centre (Input.dispatchMouseEvent),
// so the popup gets the user gesture chrome.sidePanel.open needs.

const POPUP_WAIT_MS = 10_000;

/**
 * Opens the popup over `page` (a normal tab, brought to the front) and returns a
 * handle to its document, or throws saying what did not happen.
 * @param {{ worker: import('playwright-core').Worker, context: import('playwright-core').BrowserContext }} ext
 * @param {import('playwright-core').Page} page
 */
export async function openRealPopup(ext, page) {
  await page.bringToFront();
  const opened = await ext.worker.evaluate(async () => {
    try {
      await chrome.action.openPopup();
      return null;
    } catch (error) {
      return String(error);
    }
  });
  if (opened !== null) throw new Error(`chrome.action.openPopup() failed: ${opened}`);
  const cdp = await ext.context.newCDPSession(page);
  // waitFor returns the probe's first truthy value: an id.
  const targetId = /** @type {string} */ (await waitFor(async () => {
    const { targetInfos } = await cdp.send('Target.getTargets');
    return targetInfos.find((t) => t.type === 'page' && t.url.endsWith('/popup.html'))?.targetId;
  }, 'the action popup to appear'));
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: false });
  const popup = new RealPopup(cdp, sessionId, targetId);
  await waitFor(() => popup.evaluate('document.readyState === "complete" && !!document.querySelector("#run")'), 'the popup to load');
  return popup;
}

/** @typedef {import('../types.mjs').Json} Json */

class RealPopup {
  /**
   * @param {import('playwright-core').CDPSession} cdp
   * @param {string} sessionId
   * @param {string} targetId
   */
  constructor(cdp, sessionId, targetId) {
    this.cdp = cdp;
    this.sessionId = sessionId;
    this.targetId = targetId;
    this.nextId = 0;
    /** @type {Map<number, { resolve: (result: Json) => void, reject: (error: Error) => void, method: string }>} */
    this.waiting = new Map();
    cdp.on('Target.receivedMessageFromTarget', (event) => {
      if (event.sessionId !== sessionId) return;
      const message = JSON.parse(event.message);
      const pending = this.waiting.get(message.id);
      if (!pending) return;
      this.waiting.delete(message.id);
      if (message.error) pending.reject(new Error(`${message.error.message} (${pending.method})`));
      else pending.resolve(message.result);
    });
  }

  /**
   * One DevTools command sent to the popup's own target.
   * @param {string} method
   * @param {object} [params]
   * @returns {Promise<Json>}
   */
  send(method, params = {}) {
    const id = ++this.nextId;
    /** @type {Promise<Json>} */
    const reply = new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject, method }));
    const message = JSON.stringify({ id, method, params });
    this.cdp.send('Target.sendMessageToTarget', { sessionId: this.sessionId, message }).catch((error) => {
      this.waiting.delete(id);
      this.waiting.get(id)?.reject(error);
    });
    return reply;
  }

  /**
   * The value of `expression` (awaited) in the popup.
   * @param {string} expression
   * @returns {Promise<Json>}
   */
  async evaluate(expression) {
    const { result, exceptionDetails } = await this.send('Runtime.evaluate', {
      expression,
      awaitPromise: true,
      returnByValue: true,
    });
    if (exceptionDetails) throw new Error(`in the popup: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value;
  }

  /**
   * Waits until `expression` is truthy in the popup; returns its value.
   * @param {string} expression
   * @param {string} what
   */
  waitFor(expression, what) {
    return waitFor(() => this.evaluate(expression), what);
  }

  /**
   * A trusted left click (or `clickCount` clicks in a row) at the centre of `selector`.
   * @param {string} selector
   * @param {{ clickCount?: number }} [options]
   */
  async click(selector, { clickCount = 1 } = {}) {
    const box = await this.evaluate(`(() => {
      const r = document.querySelector(${JSON.stringify(selector)})?.getBoundingClientRect();
      return r ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : null;
    })()`);
    if (!box) throw new Error(`no ${selector} in the popup`);
    for (let n = 1; n <= clickCount; n++) {
      const event = { x: box.x, y: box.y, button: 'left', clickCount: n };
      // The popup may close between the presses (the side panel took the focus):
      // a press it no longer receives is what a person's second click would meet too.
      await this.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...event }).catch(() => null);
      await this.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...event }).catch(() => null);
    }
  }

  /**
   * Chooses files for a file input, as the file dialog would.
   * @param {string} selector
   * @param {string[]} paths
   */
  async setFiles(selector, paths) {
    const { root } = await this.send('DOM.getDocument', {});
    const { nodeId } = await this.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    if (!nodeId) throw new Error(`no ${selector} in the popup`);
    await this.send('DOM.setFileInputFiles', { nodeId, files: paths });
  }

  /**
   * Sets a <select>'s value and fires `change`, as choosing from its list does.
   * @param {string} selector
   * @param {string} value
   */
  select(selector, value) {
    return this.evaluate(`(() => {
      const s = document.querySelector(${JSON.stringify(selector)});
      s.value = ${JSON.stringify(value)};
      s.dispatchEvent(new Event('change', { bubbles: true }));
      return s.value;
    })()`);
  }

  /** Closes the popup (as a click elsewhere would), if it is still open. */
  async close() {
    await this.cdp.send('Target.closeTarget', { targetId: this.targetId }).catch(() => null);
    await this.cdp.detach().catch(() => null);
  }
}

/**
 * @template T
 * @param {() => Promise<T>} probe
 * @param {string} what
 * @param {number} [timeoutMs]
 * @returns {Promise<T>}
 */
async function waitFor(probe, what, timeoutMs = POPUP_WAIT_MS) {
  const deadline = Date.now() + timeoutMs;
  /** @type {Error | null} */
  let lastError = null;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      lastError = /** @type {Error} */ (error);
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${lastError.message}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
