// Options page: agent and judge model, run settings, and "Test connection".
//
// Everything goes through the worker (GET_SETTINGS / SAVE_SETTINGS / TEST_CONNECTION):
// this page never reads chrome.storage, so it never holds a saved API key. A key typed
// here is sent once with Save and the field is emptied right after.

import { PROVIDERS, defaultEndpoint } from './agent-settings.js';
import {
  errorText,
  getSettings,
  isReply,
  saveSettings,
  testConnection,
} from './messages.js';

const form = document.getElementById('settings');
const saveStatus = document.getElementById('save-status');
const judgeEnabled = document.getElementById('judge-enabled');
const judgeFields = document.getElementById('judge-fields');
const ENDPOINTS = ['model', 'judge'];

// --- building the two endpoint blocks ------------------------------------------------

function buildEndpoint(prefix) {
  const container = document.getElementById(`${prefix}-endpoint`);
  const fragment = document.getElementById('endpoint-template').content.cloneNode(true);
  for (const label of fragment.querySelectorAll('label[data-for]')) {
    label.htmlFor = `${prefix}-${label.dataset.for}`;
  }
  for (const input of fragment.querySelectorAll('[data-field]')) {
    input.id = `${prefix}-${input.dataset.field}`;
    input.name = input.id;
  }
  container.append(fragment);
  field(prefix, 'provider').addEventListener('change', (event) => switchProvider(prefix, event));
}

function field(prefix, name) {
  return document.getElementById(`${prefix}-${name}`);
}

/** A new provider brings its own defaults, unless the person typed their own. */
function switchProvider(prefix) {
  const provider = field(prefix, 'provider').value;
  const isSomeDefault = (name, value) =>
    value.trim() === '' || Object.values(PROVIDERS).some((p) => p[name] === value.trim());
  const baseUrl = field(prefix, 'base_url');
  const model = field(prefix, 'model');
  if (isSomeDefault('baseUrl', baseUrl.value)) baseUrl.value = PROVIDERS[provider].baseUrl;
  if (isSomeDefault('model', model.value)) model.value = PROVIDERS[provider].model;
  field(prefix, 'temperature').max = String(PROVIDERS[provider].maxTemperature);
}

// --- form <-> settings -------------------------------------------------------------

function fillEndpoint(prefix, endpoint) {
  const e = endpoint ?? defaultEndpoint('openai');
  field(prefix, 'provider').value = e.provider;
  field(prefix, 'base_url').value = e.base_url;
  field(prefix, 'model').value = e.model;
  field(prefix, 'temperature').value = String(e.temperature);
  field(prefix, 'max_tokens').value = String(e.max_tokens);
  field(prefix, 'temperature').max = String(PROVIDERS[e.provider]?.maxTemperature ?? 2);
  showKeyState(prefix, e);
}

function showKeyState(prefix, endpoint) {
  const key = field(prefix, 'api_key');
  key.value = '';
  field(prefix, 'clear_api_key').checked = false;
  if (endpoint?.api_key_set) {
    const tail = endpoint.api_key_last4 ? ` ending in …${endpoint.api_key_last4}` : '';
    key.placeholder = `saved key${tail}; leave empty to keep it`;
    key.dataset.saved = 'true';
  } else {
    key.placeholder = 'no key saved';
    key.dataset.saved = 'false';
  }
}

const lines = (id) => document.getElementById(id).value.split('\n');

function fillSites(sites) {
  document.getElementById('sites-fence').checked = sites.fence;
  document.getElementById('sites-allow').value = sites.allow.join('\n');
  document.getElementById('sites-deny').value = sites.deny.join('\n');
}

/** Where Chrome cannot keep keys from content scripts, none are stored: say so up front. */
function showKeyStorage(keyStorage) {
  const warning = document.getElementById('key-storage');
  warning.hidden = keyStorage.restricted;
  warning.textContent = keyStorage.restricted
    ? ''
    : `API keys cannot be stored in this browser: ${keyStorage.error}. Update Chrome; models that need no key (a local server) still work.`;
}

function fill({ settings, observation, sites, keyStorage }) {
  fillSites(sites);
  showKeyStorage(keyStorage);
  fillEndpoint('model', settings.model);
  judgeEnabled.checked = settings.judge !== null;
  judgeFields.hidden = !judgeEnabled.checked;
  fillEndpoint('judge', settings.judge);
  document.getElementById('max_steps').value = String(settings.max_steps);
  document.getElementById('prompt_style').value = settings.prompt_style;
  document.getElementById('max_tries').value = String(settings.max_tries);
  document.getElementById('call_timeout_s').value = String(settings.call_timeout_ms / 1000);
  document.getElementById('agent').value = settings.agent;
  document.getElementById('modular_grounding').value = settings.modular_grounding;
  document.getElementById('modular_select').value = settings.modular_select;
  document.getElementById('memory_k').value = String(settings.memory_k);
  document.getElementById('memory_policy').value = settings.memory_policy;
  document.getElementById('observation-mode').value = observation.mode;
}

/** Number inputs: an empty or unreadable field stays visible to validation as NaN. */
function numberOf(input) {
  return input.value.trim() === '' ? NaN : Number(input.value);
}

function readEndpoint(prefix) {
  const endpoint = {
    provider: field(prefix, 'provider').value,
    base_url: field(prefix, 'base_url').value,
    model: field(prefix, 'model').value,
    temperature: numberOf(field(prefix, 'temperature')),
    max_tokens: numberOf(field(prefix, 'max_tokens')),
  };
  const key = field(prefix, 'api_key').value.trim();
  if (key !== '') endpoint.api_key = key;
  if (field(prefix, 'clear_api_key').checked) endpoint.clear_api_key = true;
  return endpoint;
}

function read() {
  return {
    settings: {
      model: readEndpoint('model'),
      judge: judgeEnabled.checked ? readEndpoint('judge') : null,
      max_steps: numberOf(document.getElementById('max_steps')),
      prompt_style: document.getElementById('prompt_style').value,
      max_tries: numberOf(document.getElementById('max_tries')),
      call_timeout_ms: Math.round(numberOf(document.getElementById('call_timeout_s')) * 1000),
      agent: document.getElementById('agent').value,
      modular_grounding: document.getElementById('modular_grounding').value,
      modular_select: document.getElementById('modular_select').value,
      memory_k: numberOf(document.getElementById('memory_k')),
      memory_policy: document.getElementById('memory_policy').value,
    },
    observation: { mode: document.getElementById('observation-mode').value },
    sites: {
      fence: document.getElementById('sites-fence').checked,
      allow: lines('sites-allow'),
      deny: lines('sites-deny'),
    },
  };
}

// --- talking to the worker ---------------------------------------------------------

async function send(message) {
  let reply;
  try {
    reply = await chrome.runtime.sendMessage(message);
  } catch (error) {
    return { ok: false, error: `the service worker did not answer: ${errorText(error)}` };
  }
  return isReply(reply) ? reply : { ok: false, error: `unexpected reply: ${JSON.stringify(reply)}` };
}

/** The page's field for a settings path such as `model.base_url` or `max_steps`. */
function inputFor(path) {
  const ids = { call_timeout_ms: 'call_timeout_s', 'observation.mode': 'observation-mode' };
  return document.getElementById(ids[path] ?? path.replace('.', '-'));
}

function markProblems(problems) {
  for (const input of form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
  for (const problem of problems) inputFor(problem.field)?.setAttribute('aria-invalid', 'true');
}

function showStatus(state, lines) {
  saveStatus.dataset.state = state;
  saveStatus.replaceChildren(...lines.map((line) => Object.assign(document.createElement('span'), { textContent: line })));
}

/**
 * A key over plain http to another machine is stored (and sent) only once the person
 * confirms that origin; the worker names it in the problem's `confirm`. True when
 * every such problem was confirmed (the fields are then set in `fields`).
 */
function confirmPlainHttp(problems, fields) {
  for (const problem of problems) {
    const question = `${problem.message}.\n\nSend the ${problem.field.split('.')[0]} API key to ${problem.confirm} over plain http anyway?`;
    if (!window.confirm(question)) return false;
    fields.settings[problem.field.split('.')[0]].plain_http_ok = problem.confirm;
  }
  return true;
}

/** Saves the form; true when the worker stored it. */
async function save() {
  showStatus('saving', ['Saving…']);
  const fields = read();
  let reply = await send(saveSettings(fields));
  const confirmable = reply.problems ?? [];
  if (!reply.ok && confirmable.length > 0 && confirmable.every((p) => p.confirm)) {
    if (confirmPlainHttp(confirmable, fields)) reply = await send(saveSettings(fields));
  }
  if (!reply.ok) {
    const problems = reply.problems ?? [];
    markProblems(problems);
    const lines = problems.length > 0 ? problems.map((p) => `${p.field}: ${p.message}`) : [reply.error];
    showStatus('error', ['Not saved:', ...lines]);
    return false;
  }
  markProblems(reply.notes);
  fill(reply);
  showStatus('saved', ['Saved.', ...reply.notes.map((n) => `${n.field}: ${n.message}`)]);
  return true;
}

// --- test connection ----------------------------------------------------------------

function paragraph(className, text) {
  return Object.assign(document.createElement('p'), { className, textContent: text });
}

function showOutcome(box, reply) {
  if (!reply.ok) {
    box.dataset.state = 'error';
    box.replaceChildren(paragraph('message', reply.error));
    return;
  }
  const { outcome, endpoint } = reply;
  const retries = outcome.attempts.map((a, i) => {
    const wait = a.delay_ms === null ? '' : `, tried again after ${a.delay_ms / 1000} s`;
    return paragraph('attempt', `Try ${i + 1}: ${a.kind}: ${a.message}${wait}`);
  });
  if (outcome.ok) {
    const { text, usage } = outcome.reply;
    box.dataset.state = 'success';
    box.replaceChildren(
      paragraph('message', `Connected to ${endpoint.model} at ${endpoint.base_url}. The model replied:`),
      paragraph('reply', text),
      paragraph('usage', `${usage.input_tokens} input and ${usage.output_tokens} output tokens`),
      ...retries,
    );
  } else {
    box.dataset.state = 'error';
    box.dataset.kind = outcome.error.kind;
    box.replaceChildren(
      paragraph('message', outcome.error.message),
      paragraph('hint', outcome.error.hint),
      ...retries,
    );
  }
}

async function runTest(which) {
  const box = document.getElementById(`test-${which}-result`);
  delete box.dataset.kind;
  box.dataset.state = 'testing';
  box.replaceChildren(paragraph('message', 'Saving, then sending a short request…'));
  // The test uses what is stored, so what passes here is what runs use.
  if (!(await save())) {
    box.dataset.state = 'error';
    box.replaceChildren(paragraph('message', 'Not tested: the settings could not be saved (see below).'));
    return;
  }
  showOutcome(box, await send(testConnection({ which })));
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
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        await runTest(button.dataset.which);
      } finally {
        button.disabled = false;
      }
    });
  }
  const reply = await send(getSettings());
  if (!reply.ok) {
    form.dataset.state = 'error';
    showStatus('error', [`Could not load the settings: ${reply.error}`]);
    return;
  }
  fill(reply);
  form.dataset.state = 'ready';
}

start();
