// The settings module's pure parts, run in node: validation names the field, the
// masked view hides the key, and saving keeps or drops a stored key as documented.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_AGENT_SETTINGS,
  PROMPT_CACHE_SETTINGS,
  agentSettingsProblems,
  defaultEndpoint,
  describeProblems,
  modelReadinessProblems,
  maskAgentSettings,
  mergeAgentSettings,
  plainHttpKeyOrigin,
} from '../../extension/agent-settings.js';
import { DEFAULT_PROMPT_CACHE } from '../../extension/core-terms.js';

const KEY = 'sk-test-abcdefghijklmnop-WXYZ';

function stored(overrides = {}) {
  return { ...DEFAULT_AGENT_SETTINGS, model: { ...defaultEndpoint('openai'), api_key: KEY }, ...overrides };
}

describe('agent settings', () => {
  test('the defaults are valid', () => {
    assert.deepEqual(agentSettingsProblems(DEFAULT_AGENT_SETTINGS), []);
  });

  test('the prompt cache: on by the core\'s default, on or off by its names, anything else refused by field', () => {
    assert.equal(DEFAULT_PROMPT_CACHE, 'on');
    assert.deepEqual([...PROMPT_CACHE_SETTINGS], ['on', 'off']);
    for (const provider of ['openai', 'anthropic', 'gemini', 'agent']) assert.equal(defaultEndpoint(provider).prompt_cache, 'on', provider);
    const off = { ...stored(), model: { ...stored().model, prompt_cache: 'off' } };
    assert.deepEqual(agentSettingsProblems(off), []);
    for (const wrong of [true, 'no', undefined]) {
      const settings = { ...stored(), model: { ...stored().model, prompt_cache: wrong } };
      assert.deepEqual(agentSettingsProblems(/** @type {any} */ (settings)), [
        { field: 'model.prompt_cache', message: `must be one of on, off (got ${JSON.stringify(wrong)})` },
      ], String(wrong));
    }
    // What a page (or the runner) sends is kept, also across a change of provider;
    // a change that does not name it goes back to the new provider's default.
    assert.equal(mergeAgentSettings(stored(), { model: { prompt_cache: 'off' } }).settings.model.prompt_cache, 'off');
    const switched = mergeAgentSettings(off, { model: { provider: 'anthropic', prompt_cache: 'off' } }).settings.model;
    assert.deepEqual([switched.provider, switched.prompt_cache], ['anthropic', 'off']);
    assert.equal(mergeAgentSettings(off, { model: { provider: 'gemini' } }).settings.model.prompt_cache, 'on');
    assert.equal(mergeAgentSettings(off, { max_steps: 5 }).settings.model.prompt_cache, 'off', 'other fields leave it');
  });

  test('the defaults are a valid form but not a model a run can call: they say to set a key or a local server', () => {
    const problems = modelReadinessProblems(DEFAULT_AGENT_SETTINGS);
    assert.deepEqual(problems.map((p) => p.field), ['model.api_key']);
    assert.match(problems[0].message, /api\.openai\.com needs an API key; for a local server .* set its base URL/);
    assert.deepEqual(modelReadinessProblems(stored()), [], 'with a key it is ready');
    const local = { ...DEFAULT_AGENT_SETTINGS, model: { ...defaultEndpoint('openai'), base_url: 'http://127.0.0.1:11434/v1' } };
    assert.deepEqual(modelReadinessProblems(local), [], 'a local server needs no key');
  });

  test('your own agent needs its URL but no model name or key, never judges, and is not an agent kind to choose', () => {
    const own = { ...DEFAULT_AGENT_SETTINGS, model: defaultEndpoint('agent') };
    assert.equal(own.model.base_url, 'http://127.0.0.1:8700/');
    assert.equal(own.model.model, '');
    assert.deepEqual(modelReadinessProblems(own), [], 'a run can call it as it is');
    const noUrl = { ...own, model: { ...own.model, base_url: '' } };
    assert.deepEqual(agentSettingsProblems(noUrl).map((p) => p.field), ['model.base_url']);
    const judging = { ...DEFAULT_AGENT_SETTINGS, judge: defaultEndpoint('agent') };
    assert.match(describeProblems(agentSettingsProblems(judging)), /judge\.provider: your own agent cannot judge answers/);
    const chosen = { ...DEFAULT_AGENT_SETTINGS, agent: 'http' };
    assert.match(describeProblems(agentSettingsProblems(chosen)), /agent: must be one of prompt, modular \(got "http"\)/);
  });
  test('each problem names its field', () => {
    const bad = {
      ...DEFAULT_AGENT_SETTINGS,
      model: { ...defaultEndpoint('anthropic'), base_url: 'api.anthropic.com', temperature: 1.5, max_tokens: 0 },
      judge: { ...defaultEndpoint('gemini'), model: ' ', api_key: 'has space' },
      max_steps: 0,
      prompt_style: 'verbose',
      call_timeout_ms: 10,
    };
    const fields = agentSettingsProblems(bad).map((p) => p.field);
    assert.deepEqual(fields, [
      'model.base_url',
      'model.api_key',
      'model.temperature',
      'model.max_tokens',
      'judge.model',
      'judge.api_key',
      'max_steps',
      'call_timeout_ms',
      'prompt_style',
    ]);
    const messages = agentSettingsProblems(bad).map((p) => p.message).join('\n');
    assert.match(messages, /Anthropic needs an API key/);
    assert.match(messages, /from 0 to 1 \(got 1.5\)/);
    assert.ok(!messages.includes('has space'), 'a key value never appears in a message');
  });

  test('the masked view has no key, only whether one is set and its last 4', () => {
    const masked = maskAgentSettings(stored({ judge: { ...defaultEndpoint('gemini'), api_key: 'short' } }));
    const { model, judge } = masked;
    assert.ok(model && judge, 'both endpoints are in the masked view');
    assert.equal('api_key' in model, false);
    assert.equal(model.api_key_set, true);
    assert.equal(model.api_key_last4, 'WXYZ');
    assert.equal(judge.api_key_last4, '', 'short keys show nothing');
    assert.ok(!JSON.stringify(masked).includes(KEY));
  });

  test('an empty key field keeps the saved key for the same server', () => {
    const incoming = { model: { ...defaultEndpoint('openai'), model: 'gpt-4.1', api_key: undefined } };
    const { settings, notes } = mergeAgentSettings(stored(), incoming);
    assert.equal(settings.model.api_key, KEY);
    assert.equal(settings.model.model, 'gpt-4.1');
    assert.deepEqual(notes, []);
  });

  test('a typed key replaces it and "remove saved key" clears it', () => {
    const typed = mergeAgentSettings(stored(), { model: { ...defaultEndpoint('openai'), api_key: '  sk-new-key-123456  ' } });
    assert.equal(typed.settings.model.api_key, 'sk-new-key-123456');
    const cleared = mergeAgentSettings(stored(), { model: { ...defaultEndpoint('openai'), clear_api_key: true } });
    assert.equal(cleared.settings.model.api_key, '');
  });

  test('the saved key is not sent to another server or provider', () => {
    const otherServer = mergeAgentSettings(stored(), {
      model: { ...defaultEndpoint('openai'), base_url: 'http://localhost:11434/v1' },
    });
    assert.equal(otherServer.settings.model.api_key, '');
    assert.equal(otherServer.notes[0].field, 'model.api_key');
    assert.match(otherServer.notes[0].message, /was for https:\/\/api\.openai\.com/);
    const otherProvider = mergeAgentSettings(stored(), { model: defaultEndpoint('anthropic') });
    assert.equal(otherProvider.settings.model.api_key, '');
  });

  test('the judge can be set and removed; fields left out keep their values', () => {
    const withJudge = mergeAgentSettings(stored(), {
      model: { provider: 'openai' },
      judge: { ...defaultEndpoint('gemini'), api_key: 'judge-key-1234567890' },
      max_steps: 12,
    }).settings;
    assert.equal(withJudge.judge?.provider, 'gemini');
    assert.equal(withJudge.model.api_key, KEY);
    assert.equal(withJudge.max_steps, 12);
    assert.deepEqual(agentSettingsProblems(withJudge), []);
    const without = mergeAgentSettings(withJudge, { model: { provider: 'openai' }, judge: null }).settings;
    assert.equal(without.judge, null);
  });

  test('a key over plain http to another machine needs the person to confirm that origin', () => {
    const lan = { ...defaultEndpoint('openai'), base_url: 'http://192.0.2.10:8080/v1', api_key: KEY };
    const [problem, ...rest] = agentSettingsProblems({ ...DEFAULT_AGENT_SETTINGS, model: lan });
    assert.deepEqual(rest, []);
    assert.equal(problem.field, 'model.base_url');
    assert.equal(problem.confirm, 'http://192.0.2.10:8080');
    assert.match(problem.message, /unencrypted over plain http to http:\/\/192\.0\.2\.10:8080/);
    assert.ok(!problem.message.includes(KEY), 'the key never appears in a message');
    // Confirmed for that origin: fine; a confirmation for another origin does not carry over.
    assert.deepEqual(agentSettingsProblems({ ...DEFAULT_AGENT_SETTINGS, model: { ...lan, plain_http_ok: 'http://192.0.2.10:8080' } }), []);
    const moved = { ...lan, base_url: 'http://192.0.2.11:8080/v1', plain_http_ok: 'http://192.0.2.10:8080' };
    assert.equal(agentSettingsProblems({ ...DEFAULT_AGENT_SETTINGS, model: moved })[0].confirm, 'http://192.0.2.11:8080');
  });

  test('loopback servers, https and key-less endpoints need no confirmation', () => {
    for (const base_url of ['http://localhost:11434/v1', 'http://127.0.0.1:1234/v1', 'http://[::1]:8000/v1', 'http://ollama.localhost/v1', 'https://192.0.2.10/v1']) {
      assert.equal(plainHttpKeyOrigin({ base_url, api_key: KEY }), null, base_url);
    }
    assert.equal(plainHttpKeyOrigin({ base_url: 'http://192.0.2.10/v1', api_key: '' }), null);
    assert.equal(plainHttpKeyOrigin({ base_url: 'http://127.0.0.1.evil.test/v1', api_key: KEY }), 'http://127.0.0.1.evil.test');
  });
});
