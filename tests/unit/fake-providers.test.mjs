// The fake model server itself, driven from node with fetch (no browser): it must
// accept what the real APIs accept, refuse what they refuse, and play its script.

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { FAKE_KEY, startFakeProviders } from '../e2e/fake-providers.mjs';

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+P+/HgAFhAJ/wlseKgAAAABJRU5ErkJggg==';

/** @typedef {[string, { headers: Record<string, string>, body: import('../types.mjs').Json }]} Request URL and init */

/**
 * One valid request per API, each with an image, as hopbench builds them.
 * @type {Record<string, (base: string, key?: string) => Request>}
 */
const REQUESTS = {
  openai: (base, key = FAKE_KEY) => [`${base}/chat/completions`, {
    headers: { authorization: `Bearer ${key}` },
    body: { model: 'm', max_tokens: 10, temperature: 0, messages: [
      { role: 'system', content: 'sys' },
      { role: 'user', content: [
        { type: 'text', text: 'look' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1X1}` } },
      ] },
    ] },
  }],
  anthropic: (base, key = FAKE_KEY) => [`${base}/messages`, {
    headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'anthropic-dangerous-direct-browser-access': 'true' },
    body: { model: 'm', max_tokens: 10, system: 'sys', messages: [
      { role: 'user', content: [
        { type: 'text', text: 'look' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1X1 } },
      ] },
    ] },
  }],
  gemini: (base, key = FAKE_KEY) => [`${base}/models/gemini-x:generateContent`, {
    headers: { 'x-goog-api-key': key },
    body: { systemInstruction: { parts: [{ text: 'sys' }] }, contents: [
      { role: 'user', parts: [{ text: 'look' }, { inlineData: { mimeType: 'image/png', data: PNG_1X1 } }] },
    ] },
  }],
};

/**
 * @param {Request} request
 * @param {{ signal?: AbortSignal }} [options]
 */
async function post([url, { headers, body }], { signal } = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? safeJson(text) : null };
}

/** @param {string} text */
function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // Malformed on purpose in some tests; they check `text`.
  }
}

describe('fake providers', () => {
  /** @type {import('../types.mjs').FakeProviders} */ let fake;
  before(async () => {
    fake = await startFakeProviders();
  });
  after(async () => {
    await fake?.close();
  });
  beforeEach(() => {
    fake.reset();
    fake.setApiKey(FAKE_KEY);
    fake.setAllowedOrigins(null);
  });

  for (const api of ['openai', 'anthropic', 'gemini']) {
    test(`${api}: a valid request gets the scripted text in the API's shape`, async () => {
      fake.script({ text: `hi from ${api}`, usage: { input_tokens: 7, output_tokens: 3 } });
      const reply = await post(REQUESTS[api](fake.baseUrl(api)));
      assert.equal(reply.status, 200, reply.text);
      /** @type {Record<string, () => import('../types.mjs').Json>} */
      const textOf = {
        openai: () => reply.json.choices[0].message.content,
        anthropic: () => reply.json.content[0].text,
        gemini: () => reply.json.candidates[0].content.parts[0].text,
      };
      const text = textOf[api]();
      assert.equal(text, `hi from ${api}`);
      const [record] = fake.requests;
      assert.deepEqual(record.problems, []);
      assert.equal(record.api, api);
      assert.deepEqual(record.images, [{ mime: 'image/png', bytes: 70 }]);
      assert.equal(record.text, 'sys\nlook');
      assert.equal(record.served, 'scripted');
    });

    test(`${api}: a wrong key is refused as the real API does`, async () => {
      fake.script({ text: 'not used' });
      const reply = await post(REQUESTS[api](fake.baseUrl(api), 'sk-wrong'));
      assert.equal(reply.status, api === 'gemini' ? 400 : 401);
      assert.match(reply.text, api === 'gemini' ? /API_KEY_INVALID/ : /key/i);
      assert.equal(fake.pending(), 1, 'a refused request does not use up the script');
    });
  }

  test('image parts that are not base64 of the declared image type are a 400', async () => {
    const [url, request] = REQUESTS.openai(fake.baseUrl('openai'));
    request.body.messages[1].content[1].image_url.url = `data:image/jpeg;base64,${PNG_1X1}`;
    const reply = await post([url, request]);
    assert.equal(reply.status, 400);
    assert.match(reply.json.error.message, /not a image\/jpeg image/);
    assert.equal(fake.requests[0].served, 'invalid');
  });

  test('a missing browser-access header is a problem for Anthropic', async () => {
    const [url, request] = REQUESTS.anthropic(fake.baseUrl('anthropic'));
    delete request.headers['anthropic-dangerous-direct-browser-access'];
    const reply = await post([url, request]);
    assert.equal(reply.status, 400);
    assert.match(reply.text, /anthropic-dangerous-direct-browser-access/);
  });

  test('an unlisted Origin gets an empty 403, like Ollama', async () => {
    fake.setAllowedOrigins(['http://localhost']);
    const [url, request] = REQUESTS.openai(fake.baseUrl('openai'));
    request.headers.origin = 'chrome-extension://abc';
    const reply = await post([url, request]);
    assert.equal(reply.status, 403);
    assert.equal(reply.text, '');
    assert.equal(fake.requests[0].origin, 'chrome-extension://abc');
  });

  test('scripted faults: Retry-After, malformed JSON, empty reply, unknown path', async () => {
    fake.script({ status: 429, retryAfter: '3' }, { malformed: true }, { empty: true });
    const limited = await post(REQUESTS.gemini(fake.baseUrl('gemini')));
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '3');
    assert.equal(limited.json.error.status, 'RESOURCE_EXHAUSTED');
    const malformed = await post(REQUESTS.gemini(fake.baseUrl('gemini')));
    assert.equal(malformed.status, 200);
    assert.equal(malformed.json, undefined, 'the body must not parse');
    const empty = await post(REQUESTS.gemini(fake.baseUrl('gemini')));
    assert.deepEqual(empty.json.candidates[0].content.parts, []);
    const lost = await post([`${fake.url}/v2/chat/completions`, { headers: {}, body: {} }]);
    assert.equal(lost.status, 404);
  });

  test('a delayed reply is not written when the client gives up', async () => {
    fake.script({ delayMs: 2_000, text: 'too late' });
    await assert.rejects(
      post(REQUESTS.openai(fake.baseUrl('openai')), { signal: AbortSignal.timeout(200) }),
      /abort|timeout/i,
    );
    await fake.waitUntil(() => fake.requests[0].aborted);
    assert.equal(fake.requests[0].status, null);
  });
});
