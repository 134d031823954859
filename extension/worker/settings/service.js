// The settings service: the agent settings and the connection test (GET_SETTINGS,
// SAVE_SETTINGS, TEST_CONNECTION). The worker is the only place that reads the API
// keys: what it answers carries the masked view, and the test's outcome comes from the
// core, whose messages never contain a key. Nothing here logs.

import { Refusal, errorText } from '../../messages.js';
import { restrictToTrustedContexts } from '../../store/store.js';
import { publishSettingsChange } from '../../store/views.js';
import { loadedCore } from '../core/core.js';
import {
  loadAgentSettings,
  maskAgentSettings,
  modelReadinessProblems,
  plainHttpKeyMessage,
  plainHttpKeyOrigin,
  saveAgentSettings,
} from '../../agent-settings.js';
import { loadObservationSettings, saveObservationSettings } from '../../observe-settings.js';
import { loadSiteSettings, saveSiteSettings, siteSettingsShapeProblems, tidySiteSettings } from '../../site-settings.js';

/**
 * @typedef {import('../../messages.js').Problem} Problem
 * @typedef {import('../../messages.js').MessageOf<typeof import('../../messages.js').saveSettings>} SaveSettings
 * @typedef {import('../../messages.js').MessageOf<typeof import('../../messages.js').testConnection>} TestConnection
 */

/** The settings as pages see them (no key), and what a run would still need. */
export async function settingsView() {
  const settings = await loadAgentSettings();
  return {
    settings: maskAgentSettings(settings),
    observation: await loadObservationSettings(),
    // The popup picks its default agent and says what to set from this; no key value.
    modelProblems: modelReadinessProblems(settings),
    sites: await loadSiteSettings(),
    keyStorage: await restrictToTrustedContexts(),
  };
}

/**
 * Checks and stores what the options page (or the runner) sent; throws a Refusal that
 * names each field at fault, and stores nothing then.
 * @param {SaveSettings} msg
 */
export async function saveSettings(msg) {
  // Everything is checked before anything is stored: a bad line must not leave the
  // other settings half saved.
  const keyStorage = await restrictToTrustedContexts();
  const refusedKeys = keyStorage.restricted ? [] : typedKeyFields(msg.settings);
  if (refusedKeys.length > 0) {
    const message = `not stored: ${keyStorage.error}, so a key saved here could be read by scripts running in web pages`;
    throw new Refusal(`settings not saved: ${message}`, refusedKeys.map((field) => ({ field, message })));
  }
  /** @type {import('../../site-settings.js').SiteSettings | undefined} */
  let sites;
  if (msg.sites) {
    const problems = siteSettingsShapeProblems(msg.sites);
    if (problems.length === 0) {
      // The shape was checked just above.
      const lists = tidySiteSettings(msg.sites);
      problems.push(...(await loadedCore()).site_list_problems(JSON.stringify(lists)).map((p) => ({ field: p.path, message: p.message })));
      sites = lists;
    }
    if (problems.length > 0) throw new Refusal('settings not saved: the site lists have problems', problems);
  }
  // Observation first: an invalid mode must not leave the agent settings half saved.
  let observation;
  try {
    observation = msg.observation ? await saveObservationSettings(msg.observation) : await loadObservationSettings();
  } catch (error) {
    // The message names the setting (mode or format); the field marks the one at fault.
    const field = /format must be/.test(errorText(error)) ? 'observation.format' : 'observation.mode';
    throw new Refusal(errorText(error), [{ field, message: errorText(error) }]);
  }
  let saved;
  try {
    saved = await saveAgentSettings(msg.settings);
  } catch (error) {
    throw new Refusal(errorText(error), /** @type {{ problems?: Problem[] }} */ (error).problems ?? []);
  }
  sites = sites ? await saveSiteSettings(sites) : await loadSiteSettings();
  await publishSettingsChange();
  return { settings: maskAgentSettings(saved.settings), observation, sites, keyStorage, notes: saved.notes };
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
 * One small request with the saved settings of the agent or judge model.
 * @param {TestConnection} msg
 */
export async function testConnection(msg) {
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
  const options = {
    max_tries: settings.max_tries,
    timeout_ms: settings.call_timeout_ms,
    extension_origin: new URL(chrome.runtime.getURL('')).origin,
  };
  // A Rust panic inside the async call rejects; the core proxy (background.js) turns
  // it into the panic's message.
  const outcome = await (await loadedCore()).test_connection(endpoint, options, undefined);
  return {
    which: msg.which,
    endpoint: { provider: endpoint.provider, base_url: endpoint.base_url, model: endpoint.model },
    outcome,
  };
}
