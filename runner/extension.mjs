// Talks to the extension the way its own pages do: from an extension page, through the
// typed messages of extension/messages.js (the worker only trusts its own pages).
// The runner never reaches into the worker's state; what it needs is in the protocol.

/** The messages.js constructors the runner uses, by what they are for. */
const MESSAGES = Object.freeze({
  getSettings: 'getSettings',
  saveSettings: 'saveSettings',
  startRun: 'startRun',
  getRun: 'getRun',
  stopRun: 'stopRun',
  exportRun: 'exportRun',
});

export class ExtensionError extends Error {}

/**
 * @param {{ context: import('playwright-core').BrowserContext,
 *   extensionUrl: (path: string) => string }} browser
 */
export async function openDriver(browser) {
  const page = await browser.context.newPage();
  await page.goto(browser.extensionUrl('popup.html'), { waitUntil: 'load' });
  // A dist/ built before the run messages existed would fail every task the same way;
  // say so once, before anything runs.
  const missing = await page.evaluate(async (names) => {
    const messages = await import('./messages.js');
    return names.filter((n) => typeof messages[n] !== 'function');
  }, Object.values(MESSAGES));
  if (missing.length > 0) {
    await page.close();
    throw new ExtensionError(
      `the extension in dist/ has no ${missing.join(', ')} message${missing.length === 1 ? '' : 's'}: ` +
        'rebuild it with ./build.sh (or update this branch if the run messages are not merged yet)',
    );
  }

  /** Sends one message; returns the reply, or throws ExtensionError with its error. */
  async function call(what, ...args) {
    const name = MESSAGES[what];
    const reply = await page.evaluate(
      async ([constructorName, constructorArgs]) => {
        const messages = await import('./messages.js');
        return chrome.runtime.sendMessage(messages[constructorName](...constructorArgs));
      },
      [name, args],
    );
    if (reply?.ok !== true) {
      throw new ExtensionError(typeof reply?.error === 'string' ? reply.error : `${name}: no reply`);
    }
    return reply;
  }

  return {
    call,
    /** Settings as the extension holds them (the key masked). */
    async settings() {
      return (await call('getSettings')).settings;
    },
    saveSettings: (settings) => call('saveSettings', { settings }),
    /** @returns {Promise<{runId: string, sessionId: string}>} */
    startRun: (taskText, fileName, overrides) => call('startRun', { taskText, fileName, overrides }),
    getRun: async (runId) => (await call('getRun', { runId })).run,
    stopRun: (runId) => call('stopRun', { runId }),
    exportRun: async (runId) => (await call('exportRun', { runId })).trajectory,
    close: () => page.close(),
  };
}

/**
 * The settings to save: the extension's own, with what the options override. The key
 * goes in only here; `GET_SETTINGS` never returns it, so it is not read back.
 */
export function mergeSettings(current, options, apiKey) {
  const model = { ...(current?.model ?? {}) };
  // What the extension adds to show a masked key is not part of the settings.
  delete model.api_key_set;
  delete model.api_key_last4;
  if (options.provider !== 'replay') model.provider = options.provider;
  if (options.baseUrl !== undefined) model.base_url = options.baseUrl;
  if (options.model !== undefined) model.model = options.model;
  if (apiKey !== undefined) model.api_key = apiKey;
  const settings = { ...(current ?? {}), model };
  if (options.maxSteps !== undefined) settings.max_steps = options.maxSteps;
  return settings;
}

/** START_RUN's per-run overrides: the provider (`replay` or a model provider), steps, mode. */
export function runOverrides(options) {
  const overrides = { provider: options.provider };
  if (options.maxSteps !== undefined) overrides.max_steps = options.maxSteps;
  if (options.observation !== undefined) overrides.observation_mode = options.observation;
  return overrides;
}
