// Handlers for the agent settings and the connection test (PAGE_TO_WORKER in
// messages.js). The worker is the only place that reads the API keys: replies carry
// the masked view, and the test's outcome comes from the core, whose messages never
// contain a key. Nothing here logs.

import {
  PAGE_TO_WORKER,
  errorText,
  isGetSettings,
  isSaveSettings,
  isTestConnection,
  okReply,
} from '../messages.js';
import {
  loadAgentSettings,
  maskAgentSettings,
  modelReadinessProblems,
  plainHttpKeyMessage,
  plainHttpKeyOrigin,
  saveAgentSettings,
} from '../agent-settings.js';
import { loadObservationSettings, saveObservationSettings } from '../observe-settings.js';
import { loadSiteSettings, saveSiteSettings, siteSettingsShapeProblems, tidySiteSettings } from '../site-settings.js';

/**
 * @typedef {import('./types.js').ReadyCore} ReadyCore
 * @typedef {import('../messages.js').Reply} Reply
 * @typedef {{ field: string, message: string, confirm?: string }} Problem
 */

/** @returns {Promise<Reply>} */
async function getSettings() {
  const settings = await loadAgentSettings();
  return okReply({
    settings: maskAgentSettings(settings),
    observation: await loadObservationSettings(),
    // The popup picks its default agent and says what to set from this; no key value.
    modelProblems: modelReadinessProblems(settings),
    sites: await loadSiteSettings(),
    keyStorage: await restrictStorageToExtension(),
  });
}

/**
 * @param {ReadyCore} coreModule
 * @param {import('../messages.js').SaveSettings} msg
 * @returns {Promise<Reply>}
 */
async function saveSettings(coreModule, msg) {
  // Everything is checked before anything is stored: a bad line must not leave the
  // other settings half saved.
  const keyStorage = await restrictStorageToExtension();
  const refusedKeys = keyStorage.restricted ? [] : typedKeyFields(msg.settings);
  if (refusedKeys.length > 0) {
    const message = `not stored: ${keyStorage.error}, so a key saved here could be read by scripts running in web pages`;
    return problemsReply(new Error(`settings not saved: ${message}`), refusedKeys.map((field) => ({ field, message })));
  }
  /** @type {import('../site-settings.js').SiteSettings | undefined} */
  let sites;
  if (msg.sites) {
    const problems = siteSettingsShapeProblems(msg.sites);
    if (problems.length === 0) {
      const core = await coreModule();
      // The shape was checked just above.
      const lists = tidySiteSettings(msg.sites);
      problems.push(...core.site_list_problems(JSON.stringify(lists)).map((p) => ({ field: p.path, message: p.message })));
      sites = lists;
    }
    if (problems.length > 0) return problemsReply(new Error('settings not saved: the site lists have problems'), problems);
  }
  // Observation first: an invalid mode must not leave the agent settings half saved.
  let observation;
  try {
    observation = msg.observation ? await saveObservationSettings(msg.observation) : await loadObservationSettings();
  } catch (error) {
    // The message names the setting (mode or format); the field marks the one at fault.
    const field = /format must be/.test(errorText(error)) ? 'observation.format' : 'observation.mode';
    return problemsReply(error, [{ field, message: errorText(error) }]);
  }
  try {
    const saved = await saveAgentSettings(msg.settings);
    sites = sites ? await saveSiteSettings(sites) : await loadSiteSettings();
    return okReply({ settings: maskAgentSettings(saved.settings), observation, sites, keyStorage, notes: saved.notes });
  } catch (error) {
    return problemsReply(error, /** @type {{ problems?: Problem[] }} */ (error).problems ?? []);
  }
}

/**
 * `model.api_key` / `judge.api_key` where the page sent a new key to store.
 * @param {Record<string, unknown> | undefined} settings
 * @returns {string[]}
 */
function typedKeyFields(settings) {
  return ['model', 'judge']
    .filter((name) => {
      const key = /** @type {{ api_key?: unknown } | undefined} */ (settings?.[name])?.api_key;
      return typeof key === 'string' && key.trim() !== '';
    })
    .map((name) => `${name}.api_key`);
}

/**
 * A refusal the page can show field by field (a thrown error would lose `problems`).
 * @param {unknown} error
 * @param {Problem[]} problems
 * @returns {Reply}
 */
function problemsReply(error, problems) {
  return { ok: false, error: errorText(error), problems };
}

/**
 * @param {ReadyCore} coreModule
 * @param {import('../messages.js').TestConnection} msg
 * @returns {Promise<Reply>}
 */
async function testConnection(coreModule, msg) {
  const settings = await loadAgentSettings();
  const endpoint = settings[msg.which];
  if (!endpoint) {
    throw new Error('no separate judge model is set: the agent model judges fuzzy answers');
  }
  // Settings refuse to save such an endpoint unconfirmed; one stored before that
  // check existed is refused here, before the key goes anywhere.
  const exposed = plainHttpKeyOrigin(endpoint);
  if (exposed && endpoint.plain_http_ok !== exposed) {
    throw new Error(`not sent: ${plainHttpKeyMessage(exposed)} (in Settings)`);
  }
  const core = await coreModule();
  const options = {
    max_tries: settings.max_tries,
    timeout_ms: settings.call_timeout_ms,
    extension_origin: new URL(chrome.runtime.getURL('')).origin,
  };
  // A Rust panic inside the async call rejects; the core proxy (background.js) turns
  // it into the panic's message.
  const outcome = await core.test_connection(endpoint, options, undefined);
  return okReply({
    which: msg.which,
    endpoint: { provider: endpoint.provider, base_url: endpoint.base_url, model: endpoint.model },
    outcome,
  });
}

/**
 * chrome.storage.local is readable by content scripts by default, and it holds the API
 * keys. Content scripts run inside web pages, so the area is restricted to the
 * extension's own pages and worker. The setting persists; asking again at every start
 * and before every save is cheap and covers updates. Where Chrome cannot restrict it
 * (`setAccessLevel` missing for `local`, or refused), keys are not stored at all:
 * Settings says why. Resolves to `{restricted: true}` or `{restricted: false, error}`.
 * @returns {Promise<{ restricted: true, error?: undefined } | { restricted: false, error: string }>}
 */
export async function restrictStorageToExtension() {
  const local = chrome.storage.local;
  if (typeof local.setAccessLevel !== 'function') {
    return { restricted: false, error: 'this version of Chrome cannot hide extension storage from content scripts (no chrome.storage.local.setAccessLevel)' };
  }
  try {
    await local.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' });
    return { restricted: true };
  } catch (error) {
    return { restricted: false, error: `Chrome refused to hide extension storage from content scripts (${errorText(error)})` };
  }
}

/**
 * The handler table for background.js; `coreModule()` resolves to the core.
 * @param {ReadyCore} coreModule
 * @returns {import('../messages.js').Handlers}
 */
export function settingsHandlers(coreModule) {
  return {
    [PAGE_TO_WORKER.GET_SETTINGS]: { isValid: isGetSettings, handle: getSettings },
    [PAGE_TO_WORKER.SAVE_SETTINGS]: {
      isValid: isSaveSettings,
      handle: (/** @type {import('../messages.js').SaveSettings} */ msg) => saveSettings(coreModule, msg),
    },
    [PAGE_TO_WORKER.TEST_CONNECTION]: {
      isValid: isTestConnection,
      handle: (/** @type {import('../messages.js').TestConnection} */ msg) => testConnection(coreModule, msg),
    },
  };
}
