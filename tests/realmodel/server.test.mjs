// The real llama-server (tests/realmodel/server.mjs) answers what the harness relies on:
// OpenAI chat completions with usage, its error bodies for an image sent to a text-only
// model (HTTP 500) and for a prompt longer than the context (HTTP 400), Anthropic's
// /v1/messages with usage and cache fields, and prompt caching (`cache_prompt: true`)
// seen as cached tokens on a second request with the same prefix. The usage objects,
// timings and speeds are printed ("realmodel: ..." lines) for the record.
//
// One server with -c 1024 and one slot, so the requests run one after another and the
// second of two requests finds the first one's prefix in the slot's cache.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { png } from '../realsw/png.mjs';
import { describeRealModel, startModelServer } from './server.mjs';

const ALIAS = 'smollm2-test';
const CTX = 1024;

/** Exact texts llama-server answers with (shared notes, "Real model servers ..."). */
const IMAGE_ERROR = 'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj';
const CONTEXT_ERROR = /^request \((\d+) tokens\) exceeds the available context size \(1024 tokens\), try increasing it$/;

/** About 40 tokens a line; 12 lines make a prefix of ~500 tokens, 40 lines over 1024. */
const FACT_LINES = Array.from({ length: 40 }, (_, i) =>
  `Fact ${i + 1}: the city of Example${i + 1} has ${1000 + i * 37} inhabitants, ${i + 3} bridges, a river called River${i + 1}, and a market on day ${(i % 7) + 1} of each week.`);

/** @param {unknown} value */
const show = (value) => JSON.stringify(value);

describeRealModel('real-model tier: llama-server with SmolLM2-135M (-c 1024) answers as the harness expects', { timeout: 600_000 }, () => {
  /** @type {import('./server.mjs').ModelServer} */ let llm;

  before(async () => {
    const started = Date.now();
    llm = await startModelServer({ ctx: CTX, alias: ALIAS });
    console.log(`realmodel: llama-server pid ${llm.pid} ready at ${llm.baseUrl} in ${Date.now() - started} ms: ${llm.args.join(' ')}`);
  });

  after(async () => {
    await llm?.stop();
  });

  /**
   * POSTs JSON and returns the status and the parsed body.
   * @param {string} path
   * @param {unknown} body
   * @param {Record<string, string>} [headers]
   * @returns {Promise<{ status: number, json: any, text: string }>}
   */
  async function post(path, body, headers = {}) {
    const response = await fetch(`${llm.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(240_000),
    });
    const text = await response.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, json, text };
  }

  /** @param {any} timings */
  const speeds = (timings) => timings
    ? `prompt ${timings.prompt_n} tokens at ${timings.prompt_per_second?.toFixed(1)} tokens/s, generated ${timings.predicted_n} at ${timings.predicted_per_second?.toFixed(1)} tokens/s, cache_n ${timings.cache_n}`
    : 'no timings';

  test('a plain chat completion returns an assistant message, usage and timings', async () => {
    const { status, json, text } = await post('/v1/chat/completions', {
      model: ALIAS,
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'Name one colour of the sky. Answer in one word.' },
      ],
      max_tokens: 16,
      temperature: 0,
    });
    assert.equal(status, 200, text);
    console.log(`realmodel: chat completion: model ${show(json.model)}, finish_reason ${show(json.choices[0].finish_reason)}, message ${show(json.choices[0].message)}`);
    console.log(`realmodel: chat completion usage: ${show(json.usage)}`);
    console.log(`realmodel: chat completion timings: ${show(json.timings)}`);
    console.log(`realmodel: chat completion speeds: ${speeds(json.timings)}`);
    assert.equal(json.object, 'chat.completion');
    assert.equal(json.model, ALIAS);
    assert.equal(json.choices[0].message.role, 'assistant');
    assert.equal(typeof json.choices[0].message.content, 'string');
    assert.ok(json.choices[0].message.content.length > 0, 'an empty answer');
    assert.ok(json.usage.prompt_tokens > 0 && json.usage.completion_tokens > 0, show(json.usage));
    assert.equal(json.usage.total_tokens, json.usage.prompt_tokens + json.usage.completion_tokens);
    assert.ok(json.usage.completion_tokens <= 16, 'max_tokens is honoured');
  });

  test('an image content part gives HTTP 500 "image input is not supported", on both endpoints', async () => {
    const picture = png(8, 8, () => [200, 30, 30]).toString('base64');
    const openai = await post('/v1/chat/completions', {
      model: ALIAS,
      messages: [{
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${picture}` } },
        ],
      }],
      max_tokens: 8,
    });
    const anthropic = await post('/v1/messages', {
      model: ALIAS,
      max_tokens: 8,
      messages: [{
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: picture } },
        ],
      }],
    }, { 'anthropic-version': '2023-06-01' });
    for (const [endpoint, { status, json, text }] of Object.entries({ openai, anthropic })) {
      console.log(`realmodel: image to a text-only model (${endpoint}): HTTP ${status} ${text}`);
      assert.equal(status, 500, text);
      assert.equal(json.error.message, IMAGE_ERROR);
      assert.equal(json.error.type, 'server_error');
    }
  });

  test('a prompt longer than the context gives HTTP 400 naming both sizes, on both endpoints', async () => {
    const content = `${FACT_LINES.join('\n')}\nWhich city has the most bridges?`;
    const openai = await post('/v1/chat/completions', { model: ALIAS, messages: [{ role: 'user', content }], max_tokens: 8 });
    const anthropic = await post('/v1/messages', { model: ALIAS, max_tokens: 8, messages: [{ role: 'user', content }] },
      { 'anthropic-version': '2023-06-01' });
    for (const [endpoint, { status, json, text }] of Object.entries({ openai, anthropic })) {
      console.log(`realmodel: too long a prompt (${endpoint}): HTTP ${status} ${text}`);
      assert.equal(status, 400, text);
      const match = json.error.message.match(CONTEXT_ERROR);
      assert.ok(match, json.error.message);
      // The same numbers come as fields too.
      assert.equal(json.error.type, 'exceed_context_size_error');
      assert.equal(json.error.n_ctx, CTX);
      assert.equal(json.error.n_prompt_tokens, Number(match[1]));
      assert.ok(json.error.n_prompt_tokens > CTX);
    }
  });

  test("Anthropic's /v1/messages answers with content and usage including cache fields", async () => {
    const { status, json, text } = await post('/v1/messages', {
      model: ALIAS,
      max_tokens: 16,
      system: 'You are a helpful assistant.',
      messages: [{ role: 'user', content: 'Name one colour of grass. Answer in one word.' }],
    }, { 'anthropic-version': '2023-06-01' });
    assert.equal(status, 200, text);
    console.log(`realmodel: anthropic message: ${show({ ...json, content: json.content, usage: undefined })}`);
    console.log(`realmodel: anthropic usage: ${show(json.usage)}`);
    assert.equal(json.type, 'message');
    assert.equal(json.role, 'assistant');
    assert.equal(json.content[0].type, 'text');
    assert.equal(typeof json.content[0].text, 'string');
    assert.ok(json.usage.input_tokens > 0 && json.usage.output_tokens > 0, show(json.usage));
    assert.equal(typeof json.usage.cache_read_input_tokens, 'number', show(json.usage));
  });

  test('cache_prompt: true twice with the same long prefix: the second request reuses it', async () => {
    const prefix = FACT_LINES.slice(0, 12).join('\n');
    /** @param {string} question @param {boolean} cache */
    const ask = (question, cache) => post('/v1/chat/completions', {
      model: ALIAS,
      messages: [
        { role: 'system', content: `Answer from these facts.\n${prefix}` },
        { role: 'user', content: question },
      ],
      max_tokens: 8,
      temperature: 0,
      cache_prompt: cache,
    });
    const first = await ask('How many bridges has Example3?', true);
    const second = await ask('Which river flows through Example5?', true);
    for (const [name, reply] of Object.entries({ first, second })) {
      assert.equal(reply.status, 200, reply.text);
      console.log(`realmodel: cache_prompt true, ${name} request: usage ${show(reply.json.usage)} timings ${show(reply.json.timings)}`);
      console.log(`realmodel: cache_prompt true, ${name} request: ${speeds(reply.json.timings)}`);
    }
    const cached = second.json.usage.prompt_tokens_details?.cached_tokens;
    assert.ok(cached > 400, `the second request shows the prefix as cached tokens: ${show(second.json.usage)}`);
    assert.equal(second.json.timings.cache_n, cached, 'timings.cache_n says the same');
    assert.ok(second.json.timings.prompt_n < first.json.timings.prompt_n, 'only the new part is evaluated');

    // The same request with cache_prompt: false: nothing reused (the whole prompt is
    // evaluated again), though the slot still keeps it for the next request.
    const uncached = await ask('Which river flows through Example5?', false);
    console.log(`realmodel: cache_prompt false, same request again: usage ${show(uncached.json.usage)} timings ${show(uncached.json.timings)}`);
    assert.equal(uncached.json.usage.prompt_tokens_details?.cached_tokens, 0, show(uncached.json.usage));
    assert.equal(uncached.json.timings.prompt_n, uncached.json.usage.prompt_tokens);

    // Anthropic's endpoint reports the reuse as cache_read_input_tokens.
    /** @param {string} question */
    const askAnthropic = (question) => post('/v1/messages', {
      model: ALIAS,
      max_tokens: 8,
      system: `Answer from these facts.\n${prefix}`,
      messages: [{ role: 'user', content: question }],
      cache_prompt: true,
    }, { 'anthropic-version': '2023-06-01' });
    const third = await askAnthropic('How many bridges has Example7?');
    const fourth = await askAnthropic('Which river flows through Example8?');
    for (const [name, reply] of Object.entries({ first: third, second: fourth })) {
      assert.equal(reply.status, 200, reply.text);
      console.log(`realmodel: anthropic, ${name} request with the prefix: usage ${show(reply.json.usage)}`);
    }
    // Anthropic's meaning: input_tokens counts only the tokens not read from the cache.
    assert.ok(fourth.json.usage.cache_read_input_tokens > 400, show(fourth.json.usage));
    assert.ok(fourth.json.usage.input_tokens < 100, show(fourth.json.usage));
  });
});
