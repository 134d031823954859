// Talks to the extension the way its own pages do: from an extension page, through the
// typed messages of extension/messages.js (the worker only trusts its own pages).
// The runner never reaches into the worker's state; what it needs is in the protocol.

/** @typedef {Awaited<ReturnType<typeof openDriver>>} Driver */
/**
 * What the extension sends back (GET_RUN's run, EXPORT_RUN's trajectory, a memory
 * record): JSON from another program, so each reader checks the fields it uses.
 * @typedef {Record<string, any>} ExtensionData
 */

/**
 * The messages the runner sends, by the names messages.js declares them under: each
 * declaration, called in an extension page, builds its message.
 * @typedef {'saveSettings' | 'startRun' | 'getRun' | 'stopRun' | 'exportRun'} Used
 */
/** @type {readonly Used[]} */
const USED = Object.freeze(['saveSettings', 'startRun', 'getRun', 'stopRun', 'exportRun']);

export class ExtensionError extends Error {}

/**
 * @param {{ context: import('playwright-core').BrowserContext, extensionUrl: (path: string) => string,
 *   newPage?: () => Promise<import('playwright-core').Page> }} browser
 *   `newPage`: how a page of the runner's is opened in it (a browser it attached to:
 *   in a window of its own, remote-browser.mjs), else a tab of the context
 */
export async function openDriver(browser) {
  const page = await (browser.newPage ? browser.newPage() : browser.context.newPage());
  await page.goto(browser.extensionUrl('popup.html'), { waitUntil: 'load' });
  // A dist/ built before the run messages existed would fail every task the same way;
  // say so once, before anything runs.
  const missing = await page.evaluate(async (names) => {
    // The extension page's module, not one beside this file: tsc must not resolve it.
    /** @type {Record<string, unknown>} */
    const messages = await import(/** @type {string} */ ('./messages.js'));
    return names.filter((n) => typeof messages[n] !== 'function');
  }, [...USED]);
  if (missing.length > 0) {
    await page.close();
    throw new ExtensionError(
      `the extension in dist/ has no ${missing.join(', ')} message${missing.length === 1 ? '' : 's'}: ` +
        'rebuild it with ./build.sh (or update this branch if the run messages are not merged yet)',
    );
  }

  /**
   * Sends one message; returns the reply, or throws ExtensionError with its error.
   * @param {Used} name
   * @param {...unknown} args
   */
  async function call(name, ...args) {
    const reply = await page.evaluate(
      async ([constructorName, constructorArgs]) => {
        /** @type {Record<string, (...a: unknown[]) => unknown>} */
        const messages = await import(/** @type {string} */ ('./messages.js'));
        return chrome.runtime.sendMessage(messages[constructorName](...constructorArgs));
      },
      /** @type {[string, unknown[]]} */ ([name, args]),
    );
    if (reply?.ok !== true) {
      throw new ExtensionError(typeof reply?.error === 'string' ? reply.error : `${name}: no reply`);
    }
    return reply;
  }

  return {
    /** The extension page the messages go through (its crash is the extension's). */
    page,
    call,
    /**
     * @param {object} settings
     * @returns {Promise<{field: string, message: string}[]>} the extension's notes
     */
    saveSettings: async (settings) => (await call('saveSettings', { settings })).notes ?? [],
    /**
     * @param {string} taskText
     * @param {string} fileName
     * @param {object} overrides
     * @returns {Promise<{runId: string, sessionId: string}>}
     */
    startRun: (taskText, fileName, overrides) => call('startRun', { taskText, fileName, overrides }),
    /** @param {string} runId */
    getRun: async (runId) => (await call('getRun', { runId })).run,
    /** @param {string} runId */
    stopRun: (runId) => call('stopRun', { runId }),
    /** @param {string} runId */
    exportRun: async (runId) => (await call('exportRun', { runId })).trajectory,
    close: () => page.close(),
  };
}

/**
 * What SAVE_SETTINGS gets: only what the options set. The extension merges it over its
 * own settings, and a new provider starts from that provider's defaults (base URL,
 * model), so leaving a field out means "the extension's default". The key goes in
 * only here; the extension never hands it back.
 * @param {Omit<Partial<import('./args.mjs').Options>, 'help'>} options
 * @param {string} [apiKey]
 */
export function settingsToSave(options, apiKey) {
  /** @type {Record<string, unknown>} */
  const model = { provider: options.provider };
  if (options.baseUrl !== undefined) model.base_url = options.baseUrl;
  if (options.model !== undefined) model.model = options.model;
  if (apiKey !== undefined) model.api_key = apiKey;
  if (options.maxTokens !== undefined) model.max_tokens = options.maxTokens;
  if (options.temperature !== undefined) model.temperature = options.temperature;
  // The endpoint's own field, which the core's model client reads (provider::PromptCache).
  if (options.promptCache !== undefined) model.prompt_cache = options.promptCache;
  /** @type {Record<string, unknown>} */
  const settings = { model };
  if (options.maxSteps !== undefined) settings.max_steps = options.maxSteps;
  if (options.callTimeoutMs !== undefined) settings.call_timeout_ms = options.callTimeoutMs;
  if (options.tries !== undefined) settings.max_tries = options.tries;
  return settings;
}

/**
 * START_RUN's per-run overrides: the provider (`replay` or a model provider), steps,
 * mode, and the site fence (`sites`, always given by the runner: its own default, not
 * whatever the profile's Settings say).
 * @param {Omit<Partial<import('./args.mjs').Options>, 'help'>} options
 */
export function runOverrides(options) {
  /** @type {Record<string, unknown>} */
  const overrides = { provider: options.provider };
  if (options.maxSteps !== undefined) overrides.max_steps = options.maxSteps;
  if (options.observation !== undefined) overrides.observation_mode = options.observation;
  if (options.observationFormat !== undefined) overrides.observation_format = options.observationFormat;
  if (options.maxObsTokens !== undefined) overrides.max_obs_tokens = options.maxObsTokens;
  if (options.agent && options.agent !== 'prompt') overrides.agent = options.agent;
  if (options.grounding !== undefined) overrides.grounding = options.grounding;
  if (options.select !== undefined) overrides.select = options.select;
  // Without --memory the fresh profile's default (memory off) applies.
  if ((options.memory ?? 0) > 0) {
    overrides.memory_k = options.memory;
    overrides.memory_policy = options.memoryPolicy ?? 'recent';
  }
  if (options.sites !== undefined) overrides.sites = options.sites;
  return overrides;
}
