// Model providers end to end: the options page saves settings and tests the
// connection against the fake servers of all three APIs (fake-providers.mjs), the
// worker retries what is transient and reports what is not, and the API key never
// reaches a page, the popup or a console.

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { FAKE_KEY, startFakeProviders } from './fake-providers.mjs';
import { launchExtension } from '../../runner/driver.mjs';
import { startSites } from './sites.mjs';
import { PROMPT_CACHE_SETTINGS } from '../../extension/core-terms.js';

const APIS = ['openai', 'anthropic', 'gemini'];
/** @type {Record<string, string>} */
const MODELS = { openai: 'gpt-fake-mini', anthropic: 'claude-fake-1', gemini: 'gemini-fake-flash' };

/**
 * Fills the agent model block of the options page.
 * @param {import('../types.mjs').Page} page
 * @param {{ api: string, baseUrl: string, apiKey?: string }} model
 */
async function fillModel(page, { api, baseUrl, apiKey = FAKE_KEY }) {
  await page.selectOption('#model-provider', api);
  await page.fill('#model-base_url', baseUrl);
  await page.fill('#model-model', MODELS[api]);
  await page.fill('#model-api_key', apiKey);
}

/**
 * @param {import('../types.mjs').Page} page
 * @param {{ maxTries?: number, timeoutS?: number }} [runs]
 */
async function setRuns(page, { maxTries = 4, timeoutS = 120 } = {}) {
  await page.fill('#max_tries', String(maxTries));
  await page.fill('#call_timeout_s', String(timeoutS));
}

/**
 * Clicks "Test connection" and returns what the page shows once the test is done.
 * @param {import('../types.mjs').Page} page
 */
async function clickTest(page) {
  const box = page.locator('#test-model-result');
  await page.click('#test-model');
  await page.waitForFunction(
    () => ['success', 'error'].includes(String(/** @type {HTMLElement} */ (document.getElementById('test-model-result')).dataset.state)),
    null,
    { timeout: 30_000 },
  );
  // An element's text is never null (only a document's is): the casts say so.
  return {
    state: /** @type {string} */ (await box.getAttribute('data-state')),
    kind: await box.getAttribute('data-kind'),
    message: /** @type {string} */ (await box.locator('.message').textContent()),
    hint: (await box.locator('.hint').count()) > 0 ? await box.locator('.hint').textContent() : null,
    reply: (await box.locator('.reply').count()) > 0 ? await box.locator('.reply').textContent() : null,
    text: /** @type {string} */ (await box.textContent()),
  };
}

/**
 * TEST_CONNECTION straight to the worker, from the page, for the exact outcome.
 * @param {import('../types.mjs').Page} page
 */
function testThroughWorker(page) {
  return page.evaluate(async () => {
    const { testConnection } = /** @type {typeof import('../../extension/messages.js')} */ (await import(/** @type {string} */ ('./messages.js')));
    return chrome.runtime.sendMessage(testConnection({ which: 'model' }));
  });
}

/**
 * @param {import('../types.mjs').Page} page
 */
async function save(page) {
  await page.click('#save');
  await page.waitForFunction(() => ['saved', 'error'].includes(String(/** @type {HTMLElement} */ (document.getElementById('save-status')).dataset.state)));
  const state = await page.locator('#save-status').getAttribute('data-state');
  assert.equal(state, 'saved', (await page.locator('#save-status').textContent()) ?? undefined);
}

describe('model providers', { timeout: 240_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').FakeProviders} */ let fake;
  /** @type {import('../types.mjs').Page} */ let options;
  /** Every console message of the worker and all pages, any level. */
  /** @type {string[]} */ const consoleLines = [];

  before(async () => {
    ext = await launchExtension();
    /** @param {string} source */
    const collect = (source) => (/** @type {import('playwright-core').ConsoleMessage} */ msg) => consoleLines.push(`[${source} ${msg.type()}] ${msg.text()}`);
    ext.worker.on('console', collect('worker'));
    ext.context.pages().forEach((p) => p.on('console', collect(p.url())));
    ext.context.on('page', (p) => p.on('console', collect('page')));
    fake = await startFakeProviders();
    options = await ext.openExtensionPage('options.html');
    await options.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('settings')).dataset.state === 'ready');
  });

  after(async () => {
    await ext?.close();
    await fake?.close();
  });

  beforeEach(() => {
    fake.reset();
    fake.setApiKey(FAKE_KEY);
    fake.setAllowedOrigins(null);
  });

  test('while the stored settings load, the form takes no input (it would be overwritten)', async () => {
    const page = await ext.context.newPage();
    try {
      // A slow worker: the page's request for the stored settings is answered late.
      await page.addInitScript(() => {
        const send = chrome.runtime.sendMessage.bind(chrome.runtime);
        /** @param {{ type?: string }} message */
        const late = (message) =>
          message?.type === 'page-to-worker/get-settings'
            ? new Promise((resolve) => setTimeout(resolve, 3_000)).then(() => send(message))
            : send(message);
        chrome.runtime.sendMessage = /** @type {typeof chrome.runtime.sendMessage} */ (/** @type {unknown} */ (late));
      });
      await page.goto(ext.extensionUrl('options.html'));
      await page.waitForSelector('#model-provider');
      assert.equal(await page.locator('#settings').getAttribute('data-state'), 'loading');
      assert.equal(await page.locator('#model-provider').isDisabled(), true, 'the provider can be changed before the stored one is shown');
      assert.equal(await page.locator('#model-base_url').isEditable(), false, 'the URL can be typed into before the stored one is shown');
      assert.equal(await page.locator('#test-model').isDisabled(), true);
      await page.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('settings')).dataset.state === 'ready');
      assert.equal(await page.locator('#model-provider').isDisabled(), false);
      assert.equal(await page.locator('#model-base_url').isEditable(), true);
    } finally {
      await page.close();
    }
  });

  for (const api of APIS) {
    test(`${api}: Test connection shows the model's reply`, async () => {
      await fillModel(options, { api, baseUrl: fake.baseUrl(api) });
      await setRuns(options);
      fake.script({ text: `Hello, I am the fake ${api} model.` });
      const shown = await clickTest(options);
      assert.equal(shown.state, 'success', shown.text);
      assert.equal(shown.reply, `Hello, I am the fake ${api} model.`);
      assert.match(shown.message, new RegExp(`Connected to ${MODELS[api]}`));
      assert.equal(fake.requests.length, 1);
      const [request] = fake.requests;
      assert.equal(request.api, api);
      assert.deepEqual(request.problems, []);
      assert.equal(request.served, 'scripted');
      if (api === 'gemini') assert.equal(request.model, MODELS.gemini, 'model in the path');
      else assert.equal(request.body.model, MODELS[api]);
    });

    test(`${api}: a wrong key shows the server's error and "check the key"`, async () => {
      await fillModel(options, { api, baseUrl: fake.baseUrl(api), apiKey: 'sk-wrong-key-000000000000' });
      const shown = await clickTest(options);
      assert.equal(shown.state, 'error', shown.text);
      assert.equal(shown.kind, 'auth');
      // Google answers a bad key with 400 API_KEY_INVALID, the others with 401.
      const status = api === 'gemini' ? 'HTTP 400' : 'HTTP 401';
      assert.ok(shown.message.includes(`${status} for ${fake.baseUrl(api)}`), shown.message);
      assert.match(/** @type {string} */ (shown.hint), /^Check the API key in the options/);
      assert.ok(!shown.text.includes('sk-wrong-key-000000000000'), shown.text);
    });
  }

  test('the prompt cache field: off reaches the servers as no caching, on as caching, and is kept', async () => {
    const select = '#model-prompt_cache';
    const values = await options.locator(`${select} option`).evaluateAll((list) => list.map((o) => /** @type {HTMLOptionElement} */ (o).value));
    assert.deepEqual(values, [...PROMPT_CACHE_SETTINGS], 'the choices are the core\'s');
    /** What Test connection sends with the field set so. @param {string} api @param {string} cache */
    const sent = async (api, cache) => {
      fake.reset();
      await fillModel(options, { api, baseUrl: fake.baseUrl(api) });
      await options.selectOption(select, cache);
      const result = await clickTest(options);
      assert.equal(result.state, 'success', result.text);
      assert.equal(fake.requests.length, 1);
      return fake.requests[0].body;
    };
    // The fake listens on 127.0.0.1, where a local OpenAI-compatible server may be
    // llama-server: it is told, either way (its own --no-cache-prompt is overridden).
    assert.equal((await sent('openai', 'off')).cache_prompt, false);
    assert.equal((await sent('openai', 'on')).cache_prompt, true);
    // Anthropic caches only what is marked.
    assert.equal((await sent('anthropic', 'off')).system[0].cache_control, undefined);
    assert.deepEqual((await sent('anthropic', 'on')).system[0].cache_control, { type: 'ephemeral' });
    // Saved with the endpoint, and shown so when the page is opened again.
    await options.selectOption(select, 'off');
    await save(options);
    await options.reload();
    await options.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('settings')).dataset.state === 'ready');
    assert.equal(await options.locator(select).inputValue(), 'off');
    /** @type {Record<string, import('../types.mjs').Json>} */
    const stored = await ext.worker.evaluate(() => chrome.storage.local.get('settings.agent'));
    assert.equal(stored['settings.agent'].model.prompt_cache, 'off');
    await options.selectOption(select, 'on');
    await save(options);
  });

  test('a local server that rejects the extension origin: the OLLAMA_ORIGINS hint', async () => {
    fake.setAllowedOrigins(['http://localhost', 'http://127.0.0.1']);
    await fillModel(options, { api: 'openai', baseUrl: fake.baseUrl('openai') });
    const shown = await clickTest(options);
    const origin = `chrome-extension://${ext.extensionId}`;
    assert.equal(fake.requests[0].origin, origin, 'the worker sends its origin');
    assert.equal(shown.state, 'error', shown.text);
    assert.equal(shown.kind, 'origin_rejected');
    assert.match(shown.message, /HTTP 403/);
    assert.ok(/** @type {string} */ (shown.hint).includes(`OLLAMA_ORIGINS=${origin}`), shown.hint ?? undefined);
    assert.match(/** @type {string} */ (shown.hint), /restart/);
  });

  test('a separate judge model is saved and tested on its own', async () => {
    await fillModel(options, { api: 'openai', baseUrl: fake.baseUrl('openai') });
    await setRuns(options);
    await options.check('#judge-enabled');
    await options.selectOption('#judge-provider', 'gemini');
    await options.fill('#judge-base_url', fake.baseUrl('gemini'));
    await options.fill('#judge-model', 'gemini-judge');
    await options.fill('#judge-api_key', FAKE_KEY);
    fake.script({ text: 'I am the judge.' });
    await options.click('#test-judge');
    await options.waitForFunction(() =>
      ['success', 'error'].includes(String(/** @type {HTMLElement} */ (document.getElementById('test-judge-result')).dataset.state)));
    const box = options.locator('#test-judge-result');
    assert.equal(await box.getAttribute('data-state'), 'success', (await box.textContent()) ?? undefined);
    assert.equal(await box.locator('.reply').textContent(), 'I am the judge.');
    assert.equal(fake.requests.length, 1);
    assert.equal(fake.requests[0].api, 'gemini');
    assert.equal(fake.requests[0].model, 'gemini-judge');
    /** @type {Record<string, import('../types.mjs').Json>} */
    const stored = await ext.worker.evaluate(() => chrome.storage.local.get('settings.agent'));
    assert.equal(stored['settings.agent'].judge.model, 'gemini-judge');
    assert.equal(stored['settings.agent'].model.provider, 'openai', 'the agent model is unchanged');

    // Without a judge, testing it says the agent model judges.
    await options.uncheck('#judge-enabled');
    await save(options);
    const reply = await options.evaluate(async () => {
      const { testConnection } = /** @type {typeof import('../../extension/messages.js')} */ (await import(/** @type {string} */ ('./messages.js')));
      return chrome.runtime.sendMessage(testConnection({ which: 'judge' }));
    });
    assert.deepEqual(reply, {
      ok: false,
      error: 'no separate judge model is set: the agent model judges fuzzy answers',
    });
  });

  describe('retries, through the worker', () => {
    before(async () => {
      await fillModel(options, { api: 'anthropic', baseUrl: fake.baseUrl('anthropic') });
      await setRuns(options, { maxTries: 3, timeoutS: 1 });
      await save(options);
    });

    test('429 with Retry-After is tried again after that wait, then succeeds', async () => {
      fake.script({ status: 429, retryAfter: '2' }, { text: 'after the wait' });
      const { outcome } = await testThroughWorker(options);
      assert.equal(outcome.ok, true, JSON.stringify(outcome));
      assert.equal(outcome.reply.text, 'after the wait');
      assert.deepEqual(outcome.attempts.map((/** @type {import('../types.mjs').Json} */ a) => [a.kind, a.delay_ms]), [['rate_limited', 2000]]);
      const gap = fake.requests[1].at - fake.requests[0].at;
      assert.ok(gap >= 1_900, `second try came ${gap} ms after the first`);
    });

    test('500 then success: one retry after the backoff', async () => {
      fake.script({ status: 500, message: 'upstream crashed' }, { text: 'recovered' });
      const { outcome } = await testThroughWorker(options);
      assert.equal(outcome.ok, true, JSON.stringify(outcome));
      assert.equal(outcome.reply.text, 'recovered');
      assert.equal(outcome.attempts.length, 1);
      assert.equal(outcome.attempts[0].kind, 'server');
      assert.match(outcome.attempts[0].message, /HTTP 500 .*upstream crashed/);
      assert.ok(fake.requests[1].at - fake.requests[0].at >= 900);
    });

    test('a server slower than the timeout: every try times out, then a clear error', async () => {
      fake.script({ delayMs: 4_000 }, { delayMs: 4_000 }, { delayMs: 4_000 });
      const started = Date.now();
      const { outcome } = await testThroughWorker(options);
      const took = Date.now() - started;
      assert.equal(outcome.ok, false);
      assert.equal(outcome.error.kind, 'timeout');
      assert.match(outcome.error.message, /no reply from .* within 1 s \(gave up after 3 tries\)/);
      assert.match(outcome.error.hint, /Raise the call timeout/);
      assert.deepEqual(outcome.attempts.map((/** @type {import('../types.mjs').Json} */ a) => [a.kind, a.delay_ms]), [
        ['timeout', 1000],
        ['timeout', 2000],
        ['timeout', null],
      ]);
      // Each try was aborted by the client (the server sees the hang-up a moment later).
      await fake.waitUntil(() => fake.requests.length === 3 && fake.requests.every((r) => r.aborted));
      // 3 tries of 1 s and waits of 1 + 2 s; well under the 12 s the server would take.
      assert.ok(took >= 5_500 && took < 11_000, `took ${took} ms`);
    });

    test('malformed JSON is a clear, final error', async () => {
      fake.script({ malformed: true });
      const { outcome } = await testThroughWorker(options);
      assert.equal(outcome.ok, false);
      assert.equal(outcome.error.kind, 'malformed');
      assert.match(outcome.error.message, /^the reply is not Anthropic Messages JSON/);
      assert.match(outcome.error.hint, /provider matches the server/);
      assert.equal(outcome.attempts.length, 1, 'not retried');
      assert.equal(fake.requests.length, 1);
    });

    test('a reply without text is its own error, shown on the page too', async () => {
      fake.script({ empty: true });
      const shown = await clickTest(options);
      assert.equal(shown.state, 'error');
      assert.equal(shown.kind, 'empty');
      assert.match(shown.message, /the reply has no text/);
      assert.match(/** @type {string} */ (shown.hint), /without any text/);
    });
  });

  test('the API key never reaches a page, the popup or a console', async () => {
    const secret = `sk-hopbench-secret-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    fake.setApiKey(secret);
    await fillModel(options, { api: 'openai', baseUrl: fake.baseUrl('openai'), apiKey: secret });
    await setRuns(options);
    const shown = await clickTest(options);
    assert.equal(shown.state, 'success', shown.text);
    assert.equal(fake.requests[0].headers.authorization, `Bearer ${secret}`, 'the saved key is the one sent');

    // A failing call (the server now wants another key) must not echo it either.
    fake.setApiKey('sk-some-other-key-1234567');
    assert.equal((await clickTest(options)).kind, 'auth');

    /** @type {Record<string, import('../types.mjs').Json>} */
    const stored = await ext.worker.evaluate(() => chrome.storage.local.get('settings.agent'));
    assert.equal(stored['settings.agent'].model.api_key, secret, 'the key is kept in extension storage');

    const inputs = await options.evaluate(() => [...document.querySelectorAll('input')].map((i) => i.value));
    assert.ok(!inputs.includes(secret), 'the key field is emptied after saving');
    const placeholder = await options.getAttribute('#model-api_key', 'placeholder');
    assert.equal(placeholder, `saved key ending in …${secret.slice(-4)}; leave empty to keep it`);
    assert.ok(!(await options.content()).includes(secret), 'options page HTML');

    const reloaded = await ext.openExtensionPage('options.html');
    await reloaded.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('settings')).dataset.state === 'ready');
    assert.ok(!(await reloaded.content()).includes(secret), 'options page after a reload');
    const settingsReply = await reloaded.evaluate(async () => {
      const { getSettings } = /** @type {typeof import('../../extension/messages.js')} */ (await import(/** @type {string} */ ('./messages.js')));
      return chrome.runtime.sendMessage(getSettings());
    });
    assert.equal(settingsReply.settings.model.api_key_set, true);
    assert.ok(!JSON.stringify(settingsReply).includes(secret), 'GET_SETTINGS reply');

    const popup = await ext.openExtensionPage('popup.html');
    assert.ok(!(await popup.content()).includes(secret), 'popup HTML');

    // The collector must really see both consoles, or an empty list proves nothing.
    await ext.worker.evaluate(() => console.log('console probe: worker'));
    await options.evaluate(() => console.log('console probe: options'));
    await options.waitForTimeout(200);
    assert.ok(consoleLines.some((l) => l.includes('console probe: worker')), consoleLines.join('\n'));
    assert.ok(consoleLines.some((l) => l.includes('console probe: options')), consoleLines.join('\n'));
    const leaks = consoleLines.filter((line) => line.includes(secret));
    assert.deepEqual(leaks, [], 'console messages');
    const errorLeaks = ext.errors.filter((e) => e.text.includes(secret));
    assert.deepEqual(errorLeaks, [], 'errors');
    await reloaded.close();
    await popup.close();
  });

  test('a content script in a web page cannot read the stored key', async () => {
    /** @type {Record<string, import('../types.mjs').Json>} */
    const stored = await ext.worker.evaluate(() => chrome.storage.local.get('settings.agent'));
    const key = stored['settings.agent'].model.api_key;
    assert.ok(key.length > 10, 'a key is stored (saved by the test before)');
    const sites = await startSites({ names: ['alpha'] });
    try {
      const page = await ext.openPage(sites.url('alpha', '/'));
      const seen = await ext.worker.evaluate(async (url) => {
        const [tab] = await chrome.tabs.query({ url });
        const [result] = await chrome.scripting.executeScript({
          // The tab the test just opened: a tab in a window has an id.
          target: { tabId: /** @type {number} */ (tab.id) },
          func: async () => {
            try {
              if (!chrome.storage?.local) return 'no chrome.storage.local here';
              return JSON.stringify(await chrome.storage.local.get(null));
            } catch (error) {
              return `refused: ${/** @type {Error} */ (error).message}`;
            }
          },
        });
        return /** @type {string} */ (result.result);
      }, sites.url('alpha', '/'));
      assert.ok(!seen.includes(key), `a content script read: ${seen}`);
      assert.match(seen, /^(refused|no chrome\.storage)/);
      await page.close();
    } finally {
      await sites.close();
    }
  });

  test('invalid fields are refused, named and marked, and nothing is saved', async () => {
    await fillModel(options, { api: 'gemini', baseUrl: 'not a url', apiKey: '' });
    await options.fill('#max_steps', '0');
    await options.click('#save');
    await options.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('save-status')).dataset.state === 'error');
    const status = /** @type {string} */ (await options.locator('#save-status').textContent());
    assert.match(status, /model\.base_url: must be an http:\/\/ or https:\/\/ URL/);
    assert.match(status, /max_steps: must be a whole number from 1 to 200/);
    assert.equal(await options.getAttribute('#model-base_url', 'aria-invalid'), 'true');
    assert.equal(await options.getAttribute('#max_steps', 'aria-invalid'), 'true');
    /** @type {Record<string, import('../types.mjs').Json>} */
    const stored = await ext.worker.evaluate(() => chrome.storage.local.get('settings.agent'));
    assert.notEqual(stored['settings.agent'].model.base_url, 'not a url');
  });

  // Last: it closes the options page the other tests use.
  test('the popup opens the settings page', async () => {
    // Chrome focuses an open settings tab instead of opening another: close ours.
    await options.close();
    const popup = await ext.openExtensionPage('popup.html');
    const opened = ext.context.waitForEvent('page', {
      predicate: (p) => p.url() === ext.extensionUrl('options.html'),
    });
    await popup.click('#open-settings');
    const page = await opened;
    await page.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('settings')).dataset.state === 'ready');
    assert.equal(await page.locator('#model-provider').inputValue(), 'openai');
    await page.close();
    await popup.close();
  });
});
