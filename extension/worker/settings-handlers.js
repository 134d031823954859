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
import { loadAgentSettings, maskAgentSettings, modelReadinessProblems, saveAgentSettings } from '../agent-settings.js';
import { loadObservationSettings, saveObservationSettings } from '../observe-settings.js';

async function getSettings() {
  const settings = await loadAgentSettings();
  return okReply({
    settings: maskAgentSettings(settings),
    observation: await loadObservationSettings(),
    // The popup picks its default agent and says what to set from this; no key value.
    modelProblems: modelReadinessProblems(settings),
  });
}

async function saveSettings(msg) {
  // Observation first: an invalid mode must not leave the agent settings half saved.
  let observation;
  try {
    observation = msg.observation ? await saveObservationSettings(msg.observation) : await loadObservationSettings();
  } catch (error) {
    return problemsReply(error, [{ field: 'observation.mode', message: errorText(error) }]);
  }
  try {
    const saved = await saveAgentSettings(msg.settings);
    return okReply({ settings: maskAgentSettings(saved.settings), observation, notes: saved.notes });
  } catch (error) {
    return problemsReply(error, error.problems ?? []);
  }
}

/** A refusal the page can show field by field (a thrown error would lose `problems`). */
function problemsReply(error, problems) {
  return { ok: false, error: errorText(error), problems };
}

async function testConnection(coreModule, msg) {
  const settings = await loadAgentSettings();
  const endpoint = settings[msg.which];
  if (!endpoint) {
    throw new Error('no separate judge model is set: the agent model judges fuzzy answers');
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
 * keys. Content scripts run inside web pages, so restrict the area to the extension's
 * own pages and worker. The setting persists; calling it at every start is cheap and
 * covers updates. Chrome versions without it for `local` only get a warning.
 */
export function restrictStorageToExtension() {
  const local = chrome.storage.local;
  if (typeof local.setAccessLevel !== 'function') {
    console.warn('hopbench: this Chrome cannot hide chrome.storage.local from content scripts');
    return;
  }
  local.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' }).catch((error) => {
    console.warn(`hopbench: chrome.storage.local stays readable by content scripts: ${errorText(error)}`);
  });
}

/** The handler table for background.js; `coreModule()` resolves to the core. */
export function settingsHandlers(coreModule) {
  return {
    [PAGE_TO_WORKER.GET_SETTINGS]: { isValid: isGetSettings, handle: getSettings },
    [PAGE_TO_WORKER.SAVE_SETTINGS]: { isValid: isSaveSettings, handle: saveSettings },
    [PAGE_TO_WORKER.TEST_CONNECTION]: {
      isValid: isTestConnection,
      handle: (msg) => testConnection(coreModule, msg),
    },
  };
}
