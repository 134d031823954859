// A fake model server for the e2e tests: one HTTP server on 127.0.0.1 that speaks the
// three APIs hopbench calls, checks each request the way the real service would, and
// answers with scripted replies or scripted faults.
//
//   import { startFakeProviders, FAKE_KEY } from './fake-providers.mjs';
//   const fake = await startFakeProviders();        // in `before`
//   fake.baseUrl('openai')     // http://127.0.0.1:<port>/v1      (Chat Completions)
//   fake.baseUrl('anthropic')  // http://127.0.0.1:<port>/v1      (Messages)
//   fake.baseUrl('gemini')     // http://127.0.0.1:<port>/v1beta  (generateContent)
//   fake.script({ text: '```click [3]```' }, { status: 429, retryAfter: '1' }, ...);
//   ... run the extension ...
//   fake.requests              // what arrived, oldest first (see below)
//   await fake.close();        // in `after`
//
// Endpoints: POST /v1/chat/completions, POST /v1/messages,
// POST /v1beta/models/<model>:generateContent. Anything else is a 404.
//
// Each request is checked in this order, like a real server would:
//   1. Origin: with setAllowedOrigins([...]) (Ollama's OLLAMA_ORIGINS), a request whose
//      Origin header is not listed gets 403 with an empty body, as Ollama answers.
//   2. Key: `authorization: Bearer <key>` (openai), `x-api-key` (anthropic),
//      `x-goog-api-key` (gemini; a `?key=` in the URL counts as a problem). A wrong or
//      missing key gets 401 in the API's error shape (Gemini: 400 API_KEY_INVALID, as
//      Google answers). setApiKey(null) accepts any key or none (a local server).
//   3. Shape: JSON body, required fields, roles, the API's image parts (a data URL /
//      base64 source / inlineData) whose base64 must decode to bytes that start with
//      the signature of the declared image type. Anthropic calls must also carry
//      `anthropic-version` and `anthropic-dangerous-direct-browser-access: true`.
//      Problems are answered with 400 listing them (and logged in `problems`).
//   4. The next scripted reply, or, when the script is empty, the standing responder's
//      entry (setResponder), else a success whose text is
//      `Hello from the fake <api> server.` Checks 1-3 do not use up a scripted reply.
//
// Script entries (fake.script(...entries) appends; served first in, first out):
//   { text, usage? }            success in the API's own shape; `usage` =
//                               {input_tokens, output_tokens} (default: ~chars/4);
//                               `text` may be a function of the request record
//                               (below) returning the text: a fake that plays an
//                               agent, reading the page from the prompt
//   { status, retryAfter?, message? }  an error in the API's shape, with Retry-After
//   { malformed: true }         200 whose body is truncated JSON
//   { empty: true }             200, valid JSON, no text (no choices / no content)
//   { raw: { status, headers?, body } }  exactly this
//   any entry + { delayMs }     wait that long before answering (to exceed a client's
//                               timeout: if the client aborts, nothing is written and
//                               the record gets `aborted: true`)
//
// fake.requests: [{ api, method, path, model, headers (lower-case names), origin,
//   body (parsed JSON or null), text (every text part, system prompt included, joined
//   by newlines), images: [{ mime, bytes }], imageBytes: [Buffer] (the decoded
//   images, same order), problems: [string], at (Date.now() on
//   arrival), status (the status answered), served ('scripted' | 'default' | 'origin'
//   | 'auth' | 'invalid' | 'not-found'), aborted }]
//
// Other helpers:
//   fake.waitForRequests(n, timeoutMs)    until n requests have arrived
//   fake.waitUntil(condition, timeoutMs)  polls, e.g. until a client's abort reached us
//   fake.pending()                        script entries not used yet
//   fake.reset()                          empties script and log (keeps key, origins)
//   fake.setApiKey(key | null), fake.setAllowedOrigins(origins | null)
//   fake.setResponder(fn | null)   fn(record) returns a script entry for every request
//                                  the script does not answer (a whole scripted agent:
//                                  tests/realsw/scripted-model.mjs)

import { createServer } from 'node:http';
import { checkRequest } from './fake-providers-checks.mjs';
import { errorBody, replyBody } from './fake-providers-replies.mjs';
import { portOfServer } from './sites.mjs';

/** @typedef {import('./fake-providers-checks.mjs').Api} Api */
/** @typedef {import('./fake-providers-checks.mjs').Json} Json */

/**
 * One request as the fake saw it (the header comment lists the fields).
 * @typedef {{ api: Api | null, method: string | undefined, path: string,
 *   model: string | null, headers: Record<string, string>, origin: string | null,
 *   body: Json, text: string, images: {mime: string, bytes: number}[],
 *   imageBytes: Buffer[], problems: string[], at: number, status: number | null,
 *   served: string | null, aborted: boolean }} FakeRequest
 */

/**
 * One script entry (the header comment says what each field does).
 * @typedef {{ text?: string | ((record: FakeRequest) => string), usage?: {input_tokens: number, output_tokens: number},
 *   status?: number, retryAfter?: string | number, message?: string, malformed?: boolean,
 *   empty?: boolean, raw?: { status: number, headers?: Record<string, string>, body: string },
 *   delayMs?: number }} ScriptEntry
 */

/** @typedef {(record: FakeRequest) => ScriptEntry | null | undefined} Responder */

/**
 * @typedef {{ apiKey: string | null, allowedOrigins: string[] | null, queue: ScriptEntry[],
 *   requests: FakeRequest[], responder: Responder | null }} State
 */

/** The key the fake accepts unless told otherwise. */
export const FAKE_KEY = 'sk-fake-provider-key-0123456789';

/** @type {Readonly<Record<string, string>>} */
const BASE_PATHS = Object.freeze({ openai: '/v1', anthropic: '/v1', gemini: '/v1beta' });

/**
 * Which API a request path belongs to, and the model named in it (Gemini).
 * @param {string | undefined} method
 * @param {string} path
 * @returns {{ api: Api, model?: string } | null}
 */
function route(method, path) {
  if (method !== 'POST') return null;
  if (path === '/v1/chat/completions') return { api: 'openai' };
  if (path === '/v1/messages') return { api: 'anthropic' };
  const gemini = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(path);
  if (gemini) return { api: 'gemini', model: decodeURIComponent(gemini[1]) };
  return null;
}

/** @param {{ apiKey?: string | null, allowedOrigins?: string[] | null }} [options] */
export async function startFakeProviders({ apiKey = FAKE_KEY, allowedOrigins = null } = {}) {
  /** @type {State} */
  const state = { apiKey, allowedOrigins, queue: [], requests: [], responder: null };
  const server = createServer((req, res) => {
    handle(state, req, res).catch((error) => {
      // A bug in the fake itself: answer 500 so the test sees it, and say why.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`fake provider failed: ${error.stack}`);
    });
  });
  await /** @type {Promise<void>} */ (new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  }));
  const url = `http://127.0.0.1:${portOfServer(server)}`;
  return {
    url,
    requests: state.requests,
    /** @param {string} api */
    baseUrl: (api) => {
      if (!Object.hasOwn(BASE_PATHS, api)) throw new Error(`no fake API named ${api}`);
      return `${url}${BASE_PATHS[api]}`;
    },
    /** @param {...ScriptEntry} entries */
    script: (...entries) => {
      state.queue.push(...entries);
    },
    pending: () => state.queue.length,
    /** @param {string | null} key */
    setApiKey: (key) => {
      state.apiKey = key;
    },
    /** @param {string[] | null} origins */
    setAllowedOrigins: (origins) => {
      state.allowedOrigins = origins;
    },
    /** @param {Responder | null} fn */
    setResponder: (fn) => {
      state.responder = fn;
    },
    reset: () => {
      state.queue.length = 0;
      state.requests.length = 0;
    },
    /** @param {number} count @param {number} [timeoutMs] */
    waitForRequests: (count, timeoutMs = 10_000) => waitFor(() => state.requests.length >= count, timeoutMs,
      () => `expected ${count} requests, got ${state.requests.length}`),
    /** @param {() => boolean} condition @param {number} [timeoutMs] */
    waitUntil: (condition, timeoutMs = 10_000) => waitFor(condition, timeoutMs, () => `${condition} never held`),
    close: () =>
      /** @type {Promise<void>} */ (new Promise((ok) => {
        server.closeAllConnections?.();
        server.close(() => ok());
      })),
  };
}

/**
 * @param {State} state
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
async function handle(state, req, res) {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const rawBody = await readBody(req);
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
  /** @type {FakeRequest} */
  const record = {
    api: null,
    method: req.method,
    path: url.pathname,
    model: null,
    headers,
    origin: headers.origin ?? null,
    body: null,
    text: '',
    images: [],
    imageBytes: [],
    problems: [],
    at: Date.now(),
    status: null,
    served: null,
    aborted: false,
  };
  state.requests.push(record);

  const found = route(req.method, url.pathname);
  if (!found) {
    return answer(res, record, 'not-found', { status: 404, body: JSON.stringify({ error: `no route ${req.method} ${url.pathname}` }) });
  }
  record.api = found.api;
  const checked = checkRequest(found.api, { url, headers, rawBody, pathModel: found.model });
  Object.assign(record, { model: checked.model, body: checked.body, text: checked.text, images: checked.images, imageBytes: checked.imageBytes });
  record.problems.push(...checked.problems);

  if (state.allowedOrigins && !state.allowedOrigins.includes(record.origin ?? '')) {
    // Ollama refuses an unlisted Origin with a bare 403 and no body.
    return answer(res, record, 'origin', { status: 403, body: '' });
  }
  if (state.apiKey !== null && checked.key !== state.apiKey) {
    return answer(res, record, 'auth', wrongKey(found.api));
  }
  if (record.problems.length > 0) {
    const message = `invalid request: ${record.problems.join('; ')}`;
    return answer(res, record, 'invalid', { status: 400, body: errorBody(found.api, 400, message) });
  }
  const entry = state.queue.shift() ?? state.responder?.(record);
  const served = entry ? 'scripted' : 'default';
  const script = entry ?? { text: `Hello from the fake ${found.api} server.` };
  if (script.delayMs) {
    const gone = await waitOrClientGone(req, res, script.delayMs);
    if (gone) {
      record.aborted = true;
      record.served = served;
      return undefined;
    }
  }
  return answer(res, record, served, scriptedReply(found.api, script, record));
}

/** @param {Api} api */
function wrongKey(api) {
  if (api === 'gemini') {
    return { status: 400, body: errorBody('gemini', 400, 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID') };
  }
  const message = api === 'anthropic' ? 'invalid x-api-key' : 'Incorrect API key provided.';
  return { status: 401, body: errorBody(api, 401, message) };
}

/**
 * @param {Api} api
 * @param {ScriptEntry} script
 * @param {FakeRequest} record
 * @returns {{ status: number, headers?: Record<string, string>, body: string }}
 */
function scriptedReply(api, script, record) {
  if (script.raw) return { status: script.raw.status, headers: script.raw.headers, body: script.raw.body };
  if (script.malformed) return { status: 200, body: '{"id": "broken", "choices": [{"message": {"content": "cut o' };
  if (script.status && script.status !== 200) {
    /** @type {Record<string, string>} */
    const headers = script.retryAfter === undefined ? {} : { 'retry-after': String(script.retryAfter) };
    const message = script.message ?? `scripted HTTP ${script.status}`;
    return { status: script.status, headers, body: errorBody(api, script.status, message) };
  }
  const scripted = typeof script.text === 'function' ? script.text(record) : script.text;
  const text = script.empty ? null : (scripted ?? `Hello from the fake ${api} server.`);
  const usage = script.usage ?? {
    input_tokens: Math.ceil(record.text.length / 4),
    output_tokens: Math.ceil((text ?? '').length / 4),
  };
  return { status: 200, body: replyBody(api, text, usage, record.model) };
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {FakeRequest} record
 * @param {string} served
 * @param {{ status: number, headers?: Record<string, string>, body: string }} reply
 */
function answer(res, record, served, { status, headers = {}, body }) {
  record.status = status;
  record.served = served;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<string>}
 */
function readBody(req) {
  return new Promise((ok, fail) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => ok(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}

/**
 * Waits `ms`; true when the client hung up first (its timeout fired).
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {number} ms
 * @returns {Promise<boolean>}
 */
function waitOrClientGone(req, res, ms) {
  return new Promise((ok) => {
    const timer = setTimeout(() => {
      res.off('close', onClose);
      ok(false);
    }, ms);
    const onClose = () => {
      clearTimeout(timer);
      ok(true);
    };
    res.once('close', onClose);
  });
}

/**
 * @param {() => boolean} condition
 * @param {number} timeoutMs
 * @param {() => string} describe
 */
async function waitFor(condition, timeoutMs, describe) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${describe()}`);
    await new Promise((ok) => setTimeout(ok, 25));
  }
}
