// Agent settings (docs/agent-run.md, "Settings"): which model and how a run goes.
// Shared by the service worker (which alone reads the API keys) and the options page
// (which only ever sees the masked view). Stored in one slot (store/keys.js AGENT_SETTINGS).

import {
  AGENT_KINDS,
  DEFAULT_PROMPT_CACHE,
  GROUNDING_MODES,
  MAX_MEMORY_K,
  MEMORY_POLICIES,
  PROMPT_CACHE_SETTINGS,
  PROMPT_STYLES,
  SELECT_MODES,
} from './core-terms.js';
import { AGENT_SETTINGS } from './store/keys.js';
import { read, write } from './store/store.js';

/**
 * One model endpoint. `plain_http_ok`: the http origin the person confirmed the key may
 * travel to unencrypted. `prompt_cache`: `on` or `off` (the core's PromptCache, read by
 * its model client from this object: whether the server is asked to cache the prompt).
 * @typedef {{ provider: string, base_url: string, model: string, api_key: string,
 *   temperature: number, max_tokens: number, prompt_cache: string, plain_http_ok?: string }} Endpoint
 * @typedef {{ model: Endpoint, judge: Endpoint | null, max_steps: number, prompt_style: string,
 *   max_tries: number, call_timeout_ms: number, max_obs_tokens: number, memory_k: number, memory_policy: string,
 *   agent: string, modular_grounding: string, modular_select: string }} AgentSettings
 * @typedef {{ label: string, baseUrl: string, model: string, keyRequired: boolean,
 *   maxTemperature: number }} Provider
 * @typedef {{ field: string, message: string, confirm?: string }} Problem
 * @typedef {(field: string, message: string, extra?: { confirm?: string }) => unknown} AddProblem
 * @typedef {Partial<Endpoint> & { clear_api_key?: boolean }} EndpointInput what a page
 *   sends: `api_key` only when a new key was typed
 * @typedef {{ model?: EndpointInput | null, judge?: EndpointInput | null } & Record<string, unknown>} SettingsInput
 */

/** The three APIs, with the defaults an empty field falls back to. */
/** @type {Readonly<Record<string, Provider>>} */
export const PROVIDERS = Object.freeze({
  openai: Object.freeze({
    label: 'OpenAI-compatible (OpenAI, Ollama, LM Studio, vLLM, OpenRouter)',
    baseUrl: 'https://api.openai.com/v1',
    model: 'gpt-4o-mini',
    // Local servers (Ollama, LM Studio) take no key.
    keyRequired: false,
    maxTemperature: 2,
  }),
  anthropic: Object.freeze({
    label: 'Anthropic',
    baseUrl: 'https://api.anthropic.com/v1',
    model: 'claude-sonnet-4-5',
    keyRequired: true,
    // The Messages API refuses temperatures above 1.
    maxTemperature: 1,
  }),
  gemini: Object.freeze({
    label: 'Gemini',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    model: 'gemini-2.5-flash',
    keyRequired: true,
    maxTemperature: 2,
  }),
  // A person's own agent, spoken to in the agent protocol (docs/agent-protocol.md): the
  // URL its server prints (the Python client's default port is 8700). It names itself
  // in its reply to Test connection, so the model field may stay empty; its key, if it
  // wants one, is kept as a model's is.
  agent: Object.freeze({
    label: 'Your own agent (HTTP)',
    baseUrl: 'http://127.0.0.1:8700/',
    model: '',
    keyRequired: false,
    maxTemperature: 2,
  }),
});

/** The provider that is a person's own agent: it chooses actions, so it never judges. */
export const OWN_AGENT = 'agent';

// The names of the choices are the core's (core-terms.js, generated from its types):
// PROMPT_STYLES `cot` / `direct`; MEMORY_POLICIES `recent` (the last K finished tasks of
// the subset) / `similar` (the K closest); AGENT_KINDS `prompt` (one prompt per step) /
// `modular` (SeeAct-style stages: ranking, plan, grounding, selection); the modular
// agent's GROUNDING_MODES `textual` (lettered choices only) / `visual` (with the step's
// pictures) and SELECT_MODES `model` (one more call) / `first_viable`.
// PROMPT_CACHE_SETTINGS `on` (the default, DEFAULT_PROMPT_CACHE) / `off`: whether each
// endpoint's server is asked to cache the prompt's prefix (docs/agent-run.md "Prompt caching").
export { AGENT_KINDS, GROUNDING_MODES, MEMORY_POLICIES, PROMPT_CACHE_SETTINGS, PROMPT_STYLES, SELECT_MODES };

/** Limits, also shown by the options page next to each field. */
export const LIMITS = Object.freeze({
  max_tokens: [1, 200_000],
  max_steps: [1, 200],
  max_tries: [1, 10],
  call_timeout_ms: [1_000, 600_000],
  max_obs_tokens: [0, 1_000_000],
  memory_k: [0, MAX_MEMORY_K],
});

/**
 * @param {string} [provider]
 * @returns {Endpoint}
 */
export function defaultEndpoint(provider = 'openai') {
  const p = PROVIDERS[provider];
  return { provider, base_url: p.baseUrl, model: p.model, api_key: '', temperature: 0, max_tokens: 1024, prompt_cache: DEFAULT_PROMPT_CACHE };
}

/** @type {Readonly<AgentSettings>} */
export const DEFAULT_AGENT_SETTINGS = Object.freeze({
  model: Object.freeze(defaultEndpoint('openai')),
  /** Same shape as `model`, or null: then the agent's model judges fuzzy answers. */
  judge: null,
  max_steps: 30,
  prompt_style: 'cot',
  max_tries: 4,
  call_timeout_ms: 120_000,
  /** Cut the observation to about this many tokens in the prompt (MMInA's max_obs_length); 0: send it whole. */
  max_obs_tokens: 0,
  /** How many past runs the prompt shows (0: memory off), chosen by `memory_policy`. */
  memory_k: 0,
  memory_policy: 'recent',
  agent: 'prompt',
  modular_grounding: 'textual',
  modular_select: 'model',
});

/** `plain_http_ok`: the http origin the person confirmed the key may travel to unencrypted. */
const ENDPOINT_FIELDS = ['provider', 'base_url', 'model', 'api_key', 'temperature', 'max_tokens', 'prompt_cache', 'plain_http_ok'];

// --- keys over plain http -------------------------------------------------------------

/** Loopback: a key sent there never leaves the machine, so plain http is fine. */
/** @param {string} hostname */
export function isLoopbackHost(hostname) {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === '[::1]'
  );
}

/**
 * The origin an endpoint's key would travel to unencrypted (plain http to a host that
 * is not loopback), or null. Anyone on the network path could read such a key, so it
 * is only sent once the person has confirmed that origin (`plain_http_ok`).
 */
/**
 * @param {Partial<Endpoint> | null | undefined} endpoint
 * @returns {string | null}
 */
export function plainHttpKeyOrigin(endpoint) {
  if (!endpoint?.api_key || !isHttpUrl(endpoint.base_url)) return null;
  const url = new URL(endpoint.base_url);
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname) ? url.origin : null;
}

/** The message for an unconfirmed plain-http key, for Settings and for refused calls. */
/** @param {string} origin */
export function plainHttpKeyMessage(origin) {
  return (
    `the API key would travel unencrypted over plain http to ${origin}, where anyone on the ` +
    'network path can read it: use https, or confirm that this server may get it'
  );
}

// --- validation -------------------------------------------------------------------

/**
 * Every problem of a full settings object (key included), as `{field, message}` with
 * `field` the path the options page marks (`model.base_url`, `max_steps`, ...). A
 * problem the person may resolve by confirming carries `confirm` (the http origin an
 * unencrypted key would go to); the page asks, then sends `plain_http_ok`.
 * @param {AgentSettings} settings
 * @returns {Problem[]}
 */
export function agentSettingsProblems(settings) {
  /** @type {Problem[]} */
  const problems = [];
  /** @type {AddProblem} */
  const add = (field, message, extra = {}) => problems.push({ field, message, ...extra });
  endpointProblems(settings.model, 'model', add);
  if (settings.judge !== null) endpointProblems(settings.judge, 'judge', add);
  integerIn(settings.max_steps, 'max_steps', add);
  integerIn(settings.max_tries, 'max_tries', add);
  integerIn(settings.call_timeout_ms, 'call_timeout_ms', add);
  integerIn(settings.max_obs_tokens, 'max_obs_tokens', add);
  integerIn(settings.memory_k, 'memory_k', add);
  // `http` is not chosen here: it is what the provider "Your own agent (HTTP)" runs.
  const choosable = AGENT_KINDS.filter((kind) => kind !== 'http');
  if (!choosable.includes(settings.agent)) {
    add('agent', `must be one of ${choosable.join(', ')} (got ${JSON.stringify(settings.agent)})`);
  }
  if (!GROUNDING_MODES.includes(settings.modular_grounding)) {
    add('modular_grounding', `must be one of ${GROUNDING_MODES.join(', ')} (got ${JSON.stringify(settings.modular_grounding)})`);
  }
  if (!SELECT_MODES.includes(settings.modular_select)) {
    add('modular_select', `must be one of ${SELECT_MODES.join(', ')} (got ${JSON.stringify(settings.modular_select)})`);
  }
  if (!MEMORY_POLICIES.includes(settings.memory_policy)) {
    add('memory_policy', `must be one of ${MEMORY_POLICIES.join(', ')} (got ${JSON.stringify(settings.memory_policy)})`);
  }
  if (!PROMPT_STYLES.includes(settings.prompt_style)) {
    add('prompt_style', `must be one of ${PROMPT_STYLES.join(', ')} (got ${JSON.stringify(settings.prompt_style)})`);
  }
  return problems;
}

// Public OpenAI-compatible services that refuse every call without a key. The
// provider itself takes none (Ollama and LM Studio need none), so only the host tells.
const KEYED_OPENAI_HOSTS = Object.freeze(['api.openai.com', 'openrouter.ai']);

/**
 * What stops the agent's model from being called at all, beyond a valid form: the
 * defaults point at api.openai.com without a key, which would spend every try of
 * the first step on a 401. Empty when a run can call the model.
 * @param {AgentSettings} settings
 * @returns {Problem[]}
 */
export function modelReadinessProblems(settings) {
  const problems = agentSettingsProblems(settings).filter((p) => !p.field.startsWith('judge'));
  const model = settings.model;
  if (problems.length === 0 && model.provider === 'openai' && model.api_key === '') {
    const host = isHttpUrl(model.base_url) ? new URL(model.base_url).hostname : '';
    if (KEYED_OPENAI_HOSTS.includes(host)) {
      problems.push({
        field: 'model.api_key',
        message: `${host} needs an API key; for a local server (Ollama, LM Studio, vLLM) set its base URL instead`,
      });
    }
  }
  return problems;
}

/**
 * `field: message` lines, for errors shown as text.
 * @param {Problem[]} problems
 */
export function describeProblems(problems) {
  return problems.map((p) => `${p.field}: ${p.message}`).join('; ');
}

/**
 * @param {Partial<Endpoint> | null} endpoint
 * @param {string} prefix
 * @param {AddProblem} add
 */
function endpointProblems(endpoint, prefix, add) {
  if (typeof endpoint !== 'object' || endpoint === null) {
    add(prefix, 'must be an object with provider, base_url, model and api_key');
    return;
  }
  const provider = PROVIDERS[endpoint.provider ?? ''];
  if (!Object.hasOwn(PROVIDERS, endpoint.provider ?? '')) {
    add(`${prefix}.provider`, `must be one of ${Object.keys(PROVIDERS).join(', ')} (got ${JSON.stringify(endpoint.provider)})`);
  }
  if (!isHttpUrl(endpoint.base_url)) {
    add(`${prefix}.base_url`, `must be an http:// or https:// URL (got ${JSON.stringify(endpoint.base_url)})`);
  }
  if (endpoint.provider === OWN_AGENT && prefix === 'judge') {
    add(`${prefix}.provider`, 'your own agent cannot judge answers: choose a model, or no separate judge');
  }
  if (typeof endpoint.model !== 'string') {
    add(`${prefix}.model`, 'must be text');
  } else if (endpoint.model.trim() === '' && endpoint.provider !== OWN_AGENT) {
    add(`${prefix}.model`, 'must name a model, e.g. ' + (provider?.model ?? 'gpt-4o-mini'));
  }
  // The key's value never goes into a message.
  if (typeof endpoint.api_key !== 'string' || /[^\x21-\x7e]/.test(endpoint.api_key)) {
    add(`${prefix}.api_key`, 'may hold only visible ASCII characters (no spaces or line breaks); paste it again');
  } else if (provider?.keyRequired && endpoint.api_key === '') {
    add(`${prefix}.api_key`, `${provider.label} needs an API key`);
  }
  const exposed = plainHttpKeyOrigin(endpoint);
  if (exposed && endpoint.plain_http_ok !== exposed) {
    add(`${prefix}.base_url`, plainHttpKeyMessage(exposed), { confirm: exposed });
  }
  const maxTemperature = provider?.maxTemperature ?? 2;
  const t = endpoint.temperature;
  if (typeof t !== 'number' || !Number.isFinite(t) || t < 0 || t > maxTemperature) {
    add(`${prefix}.temperature`, `must be a number from 0 to ${maxTemperature} (got ${JSON.stringify(t)})`);
  }
  integerIn(endpoint.max_tokens, `${prefix}.max_tokens`, add, LIMITS.max_tokens);
  if (!PROMPT_CACHE_SETTINGS.includes(/** @type {string} */ (endpoint.prompt_cache))) {
    add(`${prefix}.prompt_cache`, `must be one of ${PROMPT_CACHE_SETTINGS.join(', ')} (got ${JSON.stringify(endpoint.prompt_cache)})`);
  }
}

/**
 * @param {unknown} value
 * @param {string} field
 * @param {AddProblem} add
 * @param {readonly number[]} [range]
 */
function integerIn(value, field, add, range = LIMITS[/** @type {keyof typeof LIMITS} */ (field)]) {
  const [min, max] = range;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    add(field, `must be a whole number from ${min} to ${max} (got ${JSON.stringify(value)})`);
  }
}

/**
 * @param {unknown} value
 * @returns {value is string}
 */
function isHttpUrl(value) {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
  } catch {
    return false; // Not a URL at all: reported by the caller.
  }
}

/** @param {unknown} value */
export function originOf(value) {
  return isHttpUrl(value) ? new URL(value).origin : '';
}

// --- the view pages get --------------------------------------------------------------

/**
 * Settings without keys: each endpoint has `api_key_set` and, for keys long enough
 * that 4 characters give little away, `api_key_last4` to tell keys apart.
 * @param {AgentSettings} settings
 */
export function maskAgentSettings(settings) {
  const mask = (/** @type {Endpoint | null} */ endpoint) => {
    if (endpoint === null) return null;
    const { api_key: key, ...rest } = endpoint;
    return { ...rest, api_key_set: key !== '', api_key_last4: key.length >= 12 ? key.slice(-4) : '' };
  };
  return { ...settings, model: mask(settings.model), judge: mask(settings.judge) };
}

// --- merging what a page sends -----------------------------------------------------

/**
 * The settings to store from `stored` (full, with keys) and `incoming` (from the
 * options page: endpoints carry `api_key` only when a new key was typed, and
 * `clear_api_key: true` to remove the saved one). Returns `{settings, notes}`.
 *
 * A saved key is kept only while provider and server stay the same: sending one
 * service's key to another server (a typo'd or local URL) would hand it to a stranger.
 * @param {AgentSettings} stored
 * @param {SettingsInput} incoming
 * @returns {{ settings: AgentSettings, notes: Problem[] }}
 */
export function mergeAgentSettings(stored, incoming) {
  /** @type {Problem[]} */
  const notes = [];
  /** @returns {Endpoint | null} */
  const endpoint = (/** @type {'model' | 'judge'} */ name) => {
    const next = incoming[name];
    if (next === null) return null;
    const before = stored[name];
    const provider = next?.provider ?? before?.provider ?? 'openai';
    // Fields the page left out keep their saved value, unless the provider changed.
    const base = before?.provider === provider ? before : defaultEndpoint(provider);
    // Any field may come from the page: checked by agentSettingsProblems before storing.
    /** @type {Record<string, unknown>} */
    const merged = { ...base, api_key: '' };
    for (const field of ENDPOINT_FIELDS) {
      const value = next?.[/** @type {keyof EndpointInput} */ (field)];
      if (field !== 'api_key' && value !== undefined) merged[field] = value;
    }
    if (typeof merged.base_url === 'string') merged.base_url = merged.base_url.trim();
    if (typeof merged.model === 'string') merged.model = merged.model.trim();
    const typed = typeof next?.api_key === 'string' ? next.api_key.trim() : '';
    if (typed !== '') {
      merged.api_key = typed;
    } else if (next?.clear_api_key === true || !before?.api_key) {
      merged.api_key = '';
    } else if (before.provider === merged.provider && originOf(before.base_url) === originOf(merged.base_url)) {
      merged.api_key = before.api_key;
    } else {
      merged.api_key = '';
      notes.push({
        field: `${name}.api_key`,
        message: `the saved key was for ${originOf(before.base_url) || before.base_url}, so it was not kept for ${originOf(merged.base_url) || merged.base_url}; enter the key for this server`,
      });
    }
    return /** @type {Endpoint} */ (merged);
  };
  /** @type {Record<string, unknown>} */
  const settings = {
    ...stored,
    model: endpoint('model'),
    judge: incoming.judge === undefined ? stored.judge : endpoint('judge'),
  };
  for (const field of ['max_steps', 'prompt_style', 'max_tries', 'call_timeout_ms', 'max_obs_tokens', 'memory_k', 'memory_policy', 'agent', 'modular_grounding', 'modular_select']) {
    if (incoming[field] !== undefined) settings[field] = incoming[field];
  }
  // Fields as the page sent them: checked by agentSettingsProblems before storing.
  return { settings: /** @type {AgentSettings} */ (settings), notes };
}

// --- storage (service worker only: these return the keys) -------------------------

/**
 * The full settings, keys included, merged over the defaults.
 * @returns {Promise<AgentSettings>}
 */
export async function loadAgentSettings() {
  /** @type {Partial<AgentSettings>} */
  const stored = /** @type {Partial<AgentSettings>} */ ((await read(AGENT_SETTINGS)) ?? {});
  /** @type {AgentSettings} */
  const settings = {
    ...DEFAULT_AGENT_SETTINGS,
    ...stored,
    model: { ...DEFAULT_AGENT_SETTINGS.model, ...(stored.model ?? {}) },
    judge: stored.judge ? { ...defaultEndpoint(stored.judge.provider), ...stored.judge } : null,
  };
  return settings;
}

/**
 * Merges, validates and stores what a page sent. Throws an Error carrying
 * `problems` when anything is invalid; nothing is stored then.
 * @param {SettingsInput} incoming
 */
export async function saveAgentSettings(incoming) {
  const { settings, notes } = mergeAgentSettings(await loadAgentSettings(), incoming);
  const problems = agentSettingsProblems(settings);
  if (problems.length > 0) {
    throw Object.assign(new Error(`settings not saved: ${describeProblems(problems)}`), { problems });
  }
  await write(AGENT_SETTINGS, settings);
  return { settings, notes };
}
