// The extension's real toolbar popup, opened as a person opens it: the worker calls
// chrome.action.openPopup() over a normal tab, and the popup document is reached
// through the DevTools protocol. Playwright lists no page for an action popup, and a
// popup opened as a tab (popup.html in a tab) does not close when the side panel takes
// the focus, which is the very thing these tests must see.
//
// Clicks are trusted mouse events at the element's centre (Input.dispatchMouseEvent),
// so the popup gets the user gesture chrome.sidePanel.open needs.

import { writeFileSync } from 'node:fs';

// How long a wait on the popup or the side panel may take before the test says what it
// waited for. Generous: on a loaded machine (two browsers and a busy loop on 2 cores)
// a page's next paint can lag by seconds; a wait that passes returns at once.
const POPUP_WAIT_MS = 30_000;

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
  // Loaded, drawn (the task's lines and last runs move the links down as they come:
  // popup.js), and knowing its window (until then it can open no side panel).
  await waitFor(() => popup.evaluate('document.readyState === "complete" && document.documentElement.dataset.loaded === "yes" && document.documentElement.dataset.window === "known"'), 'the popup to load');
  return popup;
}

/**
 * A handle to the side panel Chrome shows in a window (opened by the popup's Run or a
 * page's chrome.sidePanel.open), reached like the popup: through the DevTools protocol,
 * since Playwright lists no page for it. `inWindow`: the chrome.windows id it must be
 * in (the panel reports its own window); any panel when left out.
 * @param {{ context: import('playwright-core').BrowserContext }} ext
 * @param {import('playwright-core').Page} page any page of the browser, for the CDP session
 * @param {{ inWindow?: number, timeoutMs?: number }} [options]
 */
export async function attachSidePanel(ext, page, { inWindow, timeoutMs = POPUP_WAIT_MS } = {}) {
  const cdp = await ext.context.newCDPSession(page);
  /** @type {RealPopup | null} */
  let found = null;
  await waitFor(async () => {
    const { targetInfos } = await cdp.send('Target.getTargets');
    for (const target of targetInfos.filter((t) => t.type === 'page' && t.url.includes('/sidepanel.html'))) {
      const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
      const panel = new RealPopup(cdp, sessionId, target.targetId);
      const windowId = await panel.evaluate('chrome.windows.getCurrent().then((w) => w.id)').catch(() => null);
      if (inWindow === undefined || windowId === inWindow) {
        found = panel;
        return true;
      }
      await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => null);
    }
    return false;
  }, inWindow === undefined ? 'a side panel to open' : `a side panel in window ${inWindow}`, timeoutMs);
  const panel = /** @type {RealPopup} */ (/** @type {unknown} */ (found));
  // A panel just opened may still be loading: its nodes are not the final document's
  // until then (DOM.setFileInputFiles would miss them), and its picker not wired.
  await waitFor(() => panel.evaluate('document.readyState === "complete" && document.querySelector("#task").options.length > 0'), 'the side panel to load', timeoutMs);
  return panel;
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
    /** Set once the target is gone: a command sent to it then would never be answered. */
    this.gone = false;
    // A target that closes (a side panel being replaced, a popup losing the focus)
    // answers none of the commands still waiting: they fail, naming it, instead of
    // hanging whoever awaits them.
    cdp.on('Target.detachedFromTarget', (event) => {
      if (event.sessionId !== sessionId) return;
      this.gone = true;
      for (const [id, pending] of this.waiting) {
        this.waiting.delete(id);
        pending.reject(new Error(`the target closed before answering ${pending.method}`));
      }
    });
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
    if (this.gone) return Promise.reject(new Error(`the target has closed (${method})`));
    const id = ++this.nextId;
    /** @type {Promise<Json>} */
    const reply = new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject, method }));
    const message = JSON.stringify({ id, method, params });
    this.cdp.send('Target.sendMessageToTarget', { sessionId: this.sessionId, message }).catch((error) => {
      const pending = this.waiting.get(id);
      this.waiting.delete(id);
      pending?.reject(error);
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
    if (!(await this.evaluate(`!!document.querySelector(${JSON.stringify(selector)})`))) throw new Error(`no ${selector} in the popup`);
    // Aimed as a person aims: at an element that holds still (the same box twice, a
    // moment apart) and is what the pointer would hit there. A page still drawing
    // moves it, and a press at the old place lands on something else.
    const box = /** @type {{ x: number, y: number }} */ (await this.waitFor(`new Promise((resolve) => {
      const element = document.querySelector(${JSON.stringify(selector)});
      element?.scrollIntoView({ block: 'nearest' });
      const first = element?.getBoundingClientRect();
      setTimeout(() => {
        const r = element?.getBoundingClientRect();
        if (!element || !first || !r || r.width === 0 || r.height === 0) return resolve(null);
        if (r.x !== first.x || r.y !== first.y || r.width !== first.width || r.height !== first.height) return resolve(null);
        const x = r.x + r.width / 2;
        const y = r.y + r.height / 2;
        const hit = document.elementFromPoint(x, y);
        resolve(hit && (hit === element || element.contains(hit)) ? { x, y } : null);
      }, 100);
    })`, `${selector} to be shown, still and not covered`));
    for (let n = 1; n <= clickCount; n++) {
      const event = { x: box.x, y: box.y, button: 'left', clickCount: n };
      // The popup may close between the presses (the side panel took the focus):
      // a press it no longer receives is what a person's second click would meet too.
      await this.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...event }).catch(() => null);
      await this.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...event }).catch(() => null);
    }
  }

  /**
   * Types `text` into `selector` key by key, at a person's pace (`delayMs` between
   * keys), after clearing it; each key is trusted input, as typing is.
   * @param {string} selector
   * @param {string} text
   * @param {{ delayMs?: number }} [options]
   */
  async type(selector, text, { delayMs = 80 } = {}) {
    await this.evaluate(`(() => { const e = document.querySelector(${JSON.stringify(selector)}); e.focus(); e.select?.(); })()`);
    await this.send('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Backspace', code: 'Backspace', windowsVirtualKeyCode: 8 });
    await this.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Backspace', code: 'Backspace', windowsVirtualKeyCode: 8 });
    for (const ch of text) {
      await this.send('Input.dispatchKeyEvent', { type: 'keyDown', key: ch, text: ch, unmodifiedText: ch });
      await this.send('Input.dispatchKeyEvent', { type: 'keyUp', key: ch });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
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

  /**
   * Saves a PNG of what the target shows, at `width` CSS pixels when given (the page
   * is laid out at that width for the picture, as Chrome's narrowest side panel).
   * @param {string} path
   * @param {{ width?: number }} [options]
   */
  async screenshot(path, { width } = {}) {
    if (width !== undefined) {
      const height = await this.evaluate('Math.max(document.documentElement.scrollHeight, 400)');
      await this.send('Emulation.setDeviceMetricsOverride', { width, height: Math.min(Number(height), 1400), deviceScaleFactor: 1, mobile: false });
    }
    try {
      const { data } = await this.send('Page.captureScreenshot', { format: 'png' });
      writeFileSync(path, Buffer.from(String(data), 'base64'));
    } finally {
      if (width !== undefined) await this.send('Emulation.clearDeviceMetricsOverride').catch(() => null);
    }
  }

  /** Closes the popup (as a click elsewhere would), if it is still open. */
  async close() {
    await this.cdp.send('Target.closeTarget', { targetId: this.targetId }).catch(() => null);
    // Closing is asynchronous: until the target is gone the browser still lists it,
    // and the next test looking for "the" side panel could attach to this dying one.
    // (When the tab this session was opened on is gone too, there is nothing left to ask.)
    await waitFor(async () => {
      const listed = await this.cdp.send('Target.getTargets').then(({ targetInfos }) => targetInfos, () => []);
      return !listed.some((/** @type {{ targetId: string }} */ t) => t.targetId === this.targetId);
    }, 'the closed target to be gone');
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
