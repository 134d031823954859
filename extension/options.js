// Options page: agent and judge model, run settings, and "Test connection".
//
// Everything goes through the worker (GET_SETTINGS / SAVE_SETTINGS / TEST_CONNECTION):
// this page never reads the store, so it never holds a saved API key. A key typed
// here is sent once with Save and the field is emptied right after.

import { OWN_AGENT, PROVIDERS, defaultEndpoint } from './agent-settings.js';
import {
  errorText,
  getSettings,
  isReply,
  saveSettings,
  testConnection,
} from './messages.js';
import { byId } from './dom.js';

/**
 * @typedef {import('./types.js').SettingsView} SettingsView
 * @typedef {import('./messages.js').ReplyOf<typeof testConnection>} Connection
 * @typedef {{ ok: false, error: string, problems?: Problem[] }} Failed a refused or failed request
 * @typedef {import('./types.js').MaskedEndpoint} MaskedEndpoint
 * @typedef {import('./agent-settings.js').Problem} Problem
 * @typedef {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} Control
 * @typedef {ReturnType<typeof read>} Fields
 */

/**
 * A form field of the page (an input, select or text area).
 * @param {string} id
 * @returns {Control}
 */
function control(id) {
  const found = byId(id);
  if (found instanceof HTMLInputElement || found instanceof HTMLSelectElement || found instanceof HTMLTextAreaElement) return found;
  throw new Error(`#${id} is not a form field`);
}

const form = byId('settings', HTMLFormElement);
const saveStatus = byId('save-status');
const judgeEnabled = byId('judge-enabled', HTMLInputElement);
const judgeFields = byId('judge-fields');
const ENDPOINTS = ['model', 'judge'];

// --- building the two endpoint blocks ------------------------------------------------

/** @param {string} prefix */
function buildEndpoint(prefix) {
  const container = byId(`${prefix}-endpoint`);
  const fragment = /** @type {DocumentFragment} */ (byId('endpoint-template', HTMLTemplateElement).content.cloneNode(true));
  // A person's own agent chooses actions; it cannot be the judge of answers.
  if (prefix === 'judge') fragment.querySelector(`option[value="${OWN_AGENT}"]`)?.remove();
  for (const label of fragment.querySelectorAll('label[data-for]')) {
    if (!(label instanceof HTMLLabelElement)) continue;
    label.htmlFor = `${prefix}-${label.dataset.for}`;
  }
  for (const input of fragment.querySelectorAll('[data-field]')) {
    if (!(input instanceof HTMLInputElement || input instanceof HTMLSelectElement)) continue;
    input.id = `${prefix}-${input.dataset.field}`;
    input.name = input.id;
  }
  container.append(fragment);
field(prefix, 'provider').addEventListener('change', () => switchProvider(prefix));
}

/**
 * @param {string} prefix
 * @param {string} name
 */
function field(prefix, name) {
  return control(`${prefix}-${name}`);
}

/**
 * @param {string} prefix
 * @param {string} name
 */
function input(prefix, name) {
  return byId(`${prefix}-${name}`, HTMLInputElement);
}

/**
 * A new provider brings its own defaults, unless the person typed their own.
 * @param {string} prefix
 */
function switchProvider(prefix) {
  const provider = field(prefix, 'provider').value;
  /** @param {'baseUrl' | 'model'} name @param {string} value */
  const isSomeDefault = (name, value) =>
    value.trim() === '' || Object.values(PROVIDERS).some((p) => p[name] === value.trim());
  const baseUrl = field(prefix, 'base_url');
  const model = field(prefix, 'model');
  if (isSomeDefault('baseUrl', baseUrl.value)) baseUrl.value = PROVIDERS[provider].baseUrl;
  if (isSomeDefault('model', model.value)) model.value = PROVIDERS[provider].model;
  input(prefix, 'temperature').max = String(PROVIDERS[provider].maxTemperature);
  describeFields(prefix, provider);
}

/**
 * Your own agent has a URL, not an API's base URL, and names itself: the labels and
 * the model field's placeholder say so.
 * @param {string} prefix
 * @param {string} provider
 */
function describeFields(prefix, provider) {
  const own = provider === OWN_AGENT;
  const label = (/** @type {string} */ name) => /** @type {HTMLLabelElement} */ (document.querySelector(`label[for="${prefix}-${name}"]`));
  label('base_url').textContent = own ? 'Agent URL' : 'Base URL';
  label('model').textContent = own ? 'Name (optional)' : 'Model';
  input(prefix, 'model').placeholder = own ? 'your agent names itself: Test connection shows it' : '';
}

// --- form <-> settings -------------------------------------------------------------

/**
 * @param {string} prefix
 * @param {MaskedEndpoint | null} endpoint
 */
function fillEndpoint(prefix, endpoint) {
  const e = endpoint ?? defaultEndpoint('openai');
  field(prefix, 'provider').value = e.provider;
  field(prefix, 'base_url').value = e.base_url;
  field(prefix, 'model').value = e.model;
  field(prefix, 'temperature').value = String(e.temperature);
  field(prefix, 'max_tokens').value = String(e.max_tokens);
  field(prefix, 'prompt_cache').value = e.prompt_cache;
  input(prefix, 'temperature').max = String(PROVIDERS[e.provider]?.maxTemperature ?? 2);
  describeFields(prefix, e.provider);
  showKeyState(prefix, endpoint ?? null);
}

/**
 * @param {string} prefix
 * @param {MaskedEndpoint | null} endpoint
 */
function showKeyState(prefix, endpoint) {
  const key = input(prefix, 'api_key');
  key.value = '';
  input(prefix, 'clear_api_key').checked = false;
  if (endpoint?.api_key_set) {
    const tail = endpoint.api_key_last4 ? ` ending in …${endpoint.api_key_last4}` : '';
    key.placeholder = `saved key${tail}; leave empty to keep it`;
    key.dataset.saved = 'true';
  } else {
    key.placeholder = 'no key saved';
    key.dataset.saved = 'false';
  }
}

const lines = (/** @type {string} */ id) => control(id).value.split('\n');

/** @param {import('./site-settings.js').SiteSettings} sites */
function fillSites(sites) {
  byId('sites-fence', HTMLInputElement).checked = sites.fence;
  control('sites-allow').value = sites.allow.join('\n');
  control('sites-deny').value = sites.deny.join('\n');
}

/**
 * Where Chrome cannot keep keys from content scripts, none are stored: say so up front.
 * @param {import('./types.js').KeyStorage} keyStorage
 */
function showKeyStorage(keyStorage) {
  const warning = byId('key-storage');
  warning.hidden = keyStorage.restricted;
  warning.textContent = keyStorage.restricted
    ? ''
    : `API keys cannot be stored in this browser: ${keyStorage.error}. Update Chrome; models that need no key (a local server) still work.`;
}

/** @param {SettingsView} reply */
function fill({ settings, observation, sites, keyStorage }) {
  fillSites(sites);
  showKeyStorage(keyStorage);
  fillEndpoint('model', settings.model);
  judgeEnabled.checked = settings.judge !== null;
  judgeFields.hidden = !judgeEnabled.checked;
  fillEndpoint('judge', settings.judge);
  control('max_steps').value = String(settings.max_steps);
  control('prompt_style').value = settings.prompt_style;
  control('max_tries').value = String(settings.max_tries);
  control('call_timeout_s').value = String(settings.call_timeout_ms / 1000);
  control('max_obs_tokens').value = String(settings.max_obs_tokens);
  control('agent').value = settings.agent;
  control('modular_grounding').value = settings.modular_grounding;
  control('modular_select').value = settings.modular_select;
  control('memory_k').value = String(settings.memory_k);
  control('memory_policy').value = settings.memory_policy;
  control('observation-mode').value = observation.mode;
  control('observation-format').value = observation.format;
}

/**
 * Number inputs: an empty or unreadable field stays visible to validation as NaN.
 * @param {Control} input
 */
function numberOf(input) {
  return input.value.trim() === '' ? NaN : Number(input.value);
}

/**
 * @param {string} prefix
 * @returns {import('./agent-settings.js').EndpointInput}
 */
function readEndpoint(prefix) {
  /** @type {import('./agent-settings.js').EndpointInput} */
  const endpoint = {
    provider: field(prefix, 'provider').value,
    base_url: field(prefix, 'base_url').value,
    model: field(prefix, 'model').value,
    temperature: numberOf(field(prefix, 'temperature')),
    max_tokens: numberOf(field(prefix, 'max_tokens')),
    prompt_cache: field(prefix, 'prompt_cache').value,
  };
  const key = field(prefix, 'api_key').value.trim();
  if (key !== '') endpoint.api_key = key;
  if (input(prefix, 'clear_api_key').checked) endpoint.clear_api_key = true;
  return endpoint;
}

function read() {
  return {
    settings: {
      model: readEndpoint('model'),
      judge: judgeEnabled.checked ? readEndpoint('judge') : null,
      max_steps: numberOf(control('max_steps')),
      prompt_style: control('prompt_style').value,
      max_tries: numberOf(control('max_tries')),
      call_timeout_ms: Math.round(numberOf(control('call_timeout_s')) * 1000),
      max_obs_tokens: numberOf(control('max_obs_tokens')),
      agent: control('agent').value,
      modular_grounding: control('modular_grounding').value,
      modular_select: control('modular_select').value,
      memory_k: numberOf(control('memory_k')),
      memory_policy: control('memory_policy').value,
    },
    observation: { mode: control('observation-mode').value, format: control('observation-format').value },
    sites: {
      fence: byId('sites-fence', HTMLInputElement).checked,
      allow: lines('sites-allow'),
      deny: lines('sites-deny'),
    },
  };
}

// --- talking to the worker ---------------------------------------------------------

/**
 * Like ask.js, but a refusal comes back as a reply, with the fields at fault
 * (`problems`), for the form to mark them.
 * @template {import('./messages.js').AnyRequest} D
 * @param {D} declared
 * @param {Parameters<D>} args
 * @returns {Promise<(import('./messages.js').ReplyOf<D> & { ok: true }) | Failed>}
 */
async function send(declared, ...args) {
  let reply;
  try {
    reply = await chrome.runtime.sendMessage(/** @type {(...a: unknown[]) => unknown} */ (declared)(...args));
  } catch (error) {
    return { ok: false, error: `the service worker did not answer: ${errorText(error)}` };
  }
  if (!isReply(reply)) return { ok: false, error: `unexpected reply: ${JSON.stringify(reply)}` };
  return reply.ok ? /** @type {import('./messages.js').ReplyOf<D> & { ok: true }} */ (reply) : { ok: false, error: reply.error ?? '', problems: reply.problems };
}

/**
 * The page's field for a settings path such as `model.base_url` or `max_steps`.
 * @param {string} path
 */
function inputFor(path) {
  /** @type {Record<string, string>} */
  const ids = { call_timeout_ms: 'call_timeout_s', 'observation.mode': 'observation-mode', 'observation.format': 'observation-format' };
  // A problem of a field this page does not show marks nothing.
  return document.getElementById(ids[path] ?? path.replace('.', '-'));
}

/** @param {Problem[]} problems */
function markProblems(problems) {
  for (const input of form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
  for (const problem of problems) inputFor(problem.field)?.setAttribute('aria-invalid', 'true');
}

/**
 * @param {string} state
 * @param {string[]} lines
 */
function showStatus(state, lines) {
  saveStatus.dataset.state = state;
  saveStatus.replaceChildren(...lines.map((line) => Object.assign(document.createElement('span'), { textContent: line })));
}

/**
 * A key over plain http to another machine is stored (and sent) only once the person
 * confirms that origin; the worker names it in the problem's `confirm`. True when
 * every such problem was confirmed (the fields are then set in `fields`).
 * @param {Problem[]} problems
 * @param {Fields} fields
 */
function confirmPlainHttp(problems, fields) {
  for (const problem of problems) {
    const question = `${problem.message}.\n\nSend the ${problem.field.split('.')[0]} API key to ${problem.confirm} over plain http anyway?`;
    if (!window.confirm(question)) return false;
    const endpoint = fields.settings[/** @type {'model' | 'judge'} */ (problem.field.split('.')[0])];
    if (endpoint) endpoint.plain_http_ok = problem.confirm;
  }
  return true;
}

/** Saves the form; true when the worker stored it. */
async function save() {
  showStatus('saving', ['Saving…']);
  const fields = read();
  let reply = await send(saveSettings, fields);
  const confirmable = reply.ok ? [] : (reply.problems ?? []);
  if (!reply.ok && confirmable.length > 0 && confirmable.every((p) => p.confirm)) {
    if (confirmPlainHttp(confirmable, fields)) reply = await send(saveSettings, fields);
  }
  if (!reply.ok) {
    const problems = reply.problems ?? [];
    markProblems(problems);
    const lines = problems.length > 0 ? problems.map((p) => `${p.field}: ${p.message}`) : [reply.error ?? ''];
    showStatus('error', ['Not saved:', ...lines]);
    return false;
  }
  const notes = reply.notes ?? [];
  markProblems(notes);
  fill(reply);
  showStatus('saved', ['Saved.', ...notes.map((n) => `${n.field}: ${n.message}`)]);
  return true;
}

// --- test connection ----------------------------------------------------------------

/**
 * @param {string} className
 * @param {string} text
 */
function paragraph(className, text) {
  return Object.assign(document.createElement('p'), { className, textContent: text });
}

/**
 * @param {HTMLElement} box
 * @param {(Connection & { ok: true }) | Failed} reply
 */
function showOutcome(box, reply) {
  if (!reply.ok) {
    box.dataset.state = 'error';
    box.replaceChildren(paragraph('message', reply.error ?? ''));
    return;
  }
  const { outcome, endpoint } = reply;
  const retries = outcome.attempts.map((a, i) => {
    const wait = a.delay_ms === null ? '' : `, tried again after ${a.delay_ms / 1000} s`;
    return paragraph('attempt', `Try ${i + 1}: ${a.kind}: ${a.message}${wait}`);
  });
  if (outcome.ok && outcome.reply) {
    const { text, usage } = outcome.reply;
    box.dataset.state = 'success';
    box.replaceChildren(
      paragraph('message', `Connected to ${endpoint.model} at ${endpoint.base_url}. The model replied:`),
      paragraph('reply', text),
      paragraph('usage', `${usage.input_tokens} input and ${usage.output_tokens} output tokens`),
      ...retries,
    );
  } else {
    const error = outcome.error ?? { kind: 'unknown', message: 'the call failed and said nothing', hint: '' };
    box.dataset.state = 'error';
    box.dataset.kind = error.kind;
    box.replaceChildren(
      paragraph('message', error.message),
      paragraph('hint', error.hint),
      ...retries,
    );
  }
}

/** @param {'model' | 'judge'} which */
async function runTest(which) {
  const box = byId(`test-${which}-result`);
  delete box.dataset.kind;
  box.dataset.state = 'testing';
  box.replaceChildren(paragraph('message', 'Saving, then sending a short request…'));
  // The test uses what is stored, so what passes here is what runs use.
  if (!(await save())) {
    box.dataset.state = 'error';
    box.replaceChildren(paragraph('message', 'Not tested: the settings could not be saved (see below).'));
    return;
  }
  showOutcome(box, await send(testConnection, { which }));
}

// --- start ------------------------------------------------------------------------

async function start() {
  ENDPOINTS.forEach(buildEndpoint);
  judgeEnabled.addEventListener('change', () => {
    judgeFields.hidden = !judgeEnabled.checked;
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    save();
  });
  for (const button of form.querySelectorAll('button[data-which]')) {
    if (!(button instanceof HTMLButtonElement)) continue;
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        await runTest(/** @type {'model' | 'judge'} */ (button.dataset.which));
      } finally {
        button.disabled = false;
      }
    });
  }
  const reply = await send(getSettings);
  if (!reply.ok) {
    form.dataset.state = 'error';
    showStatus('error', [`Could not load the settings: ${reply.error}`]);
    return;
  }
  fill(reply);
  byId('settings-fields', HTMLFieldSetElement).disabled = false;
  form.dataset.state = 'ready';
}

start();
