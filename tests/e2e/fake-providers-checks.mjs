// What the fake providers check in a request (see fake-providers.mjs): the key header,
// the JSON shape of each API, and that image parts are base64 of a real image of the
// declared type. Returns what it read so the log can show it.

/** First bytes of each image type the extension sends. */
/** @type {Readonly<Record<string, number[][]>>} */
const SIGNATURES = Object.freeze({
  'image/png': [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  'image/jpeg': [[0xff, 0xd8, 0xff]],
  'image/gif': [[0x47, 0x49, 0x46, 0x38]],
  'image/webp': [[0x52, 0x49, 0x46, 0x46]],
});

/**
 * A request body as parsed from JSON: what it holds is the question these checks
 * answer field by field, so it has no static shape.
 * @typedef {import('../types.mjs').Json} Json
 */

/** @typedef {'openai' | 'anthropic' | 'gemini'} Api */

/**
 * What a check has read so far.
 * @typedef {{ key: string | null, model: string | null, body: Json, texts: string[],
 *   images: {mime: string, bytes: number}[], imageBytes: Buffer[], problems: string[] }} Found
 */

/** @typedef {(text: string) => void} Problem notes one thing wrong with the request */

/**
 * @param {unknown} v
 * @returns {v is Record<string, Json>}
 */
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * @param {Api} api
 * @param {{ url: URL, headers: Record<string, string>, rawBody: string, pathModel?: string | undefined }} request
 * @returns {{ key: string | null, model: string | null, body: object | null,
 *   text: string, images: {mime: string, bytes: number}[], imageBytes: Buffer[],
 *   problems: string[] }} `imageBytes`: the decoded images, in the order of `images`
 */
export function checkRequest(api, { url, headers, rawBody, pathModel }) {
  /** @type {Found} */
  const found = { key: null, model: pathModel ?? null, body: null, texts: [], images: [], imageBytes: [], problems: [] };
  /** @type {Problem} */
  const problem = (text) => {
    found.problems.push(text);
  };
  if (!(headers['content-type'] ?? '').startsWith('application/json')) {
    problem(`content-type is ${JSON.stringify(headers['content-type'])}, not application/json`);
  }
  try {
    found.body = JSON.parse(rawBody);
  } catch (error) {
    problem(`body is not JSON: ${/** @type {Error} */ (error).message}`);
  }
  CHECKS[api](found, headers, url, problem);
  return { ...found, text: found.texts.join('\n') };
}

/**
 * @typedef {(found: Found, headers: Record<string, string>, url: URL, problem: Problem) => void} Check
 * @type {Readonly<Record<Api, Check>>}
 */
const CHECKS = Object.freeze({
  openai(found, headers, _url, problem) {
    const auth = headers.authorization;
    if (auth !== undefined) {
      if (!auth.startsWith('Bearer ')) problem('authorization is not "Bearer <key>"');
      found.key = auth.slice('Bearer '.length);
    }
    const body = found.body;
    if (!isObject(body)) return;
    found.model = body.model ?? null;
    requireType(body, 'model', 'string', problem);
    optionalNumber(body, 'temperature', problem);
    optionalInteger(body, 'max_tokens', problem);
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      problem('messages must be a non-empty array');
      return;
    }
    body.messages.forEach((/** @type {Json} */ m, /** @type {number} */ i) => {
      if (!['system', 'user', 'assistant'].includes(m?.role)) problem(`messages[${i}].role is ${JSON.stringify(m?.role)}`);
      if (typeof m?.content === 'string') {
        found.texts.push(m.content);
      } else if (Array.isArray(m?.content)) {
        m.content.forEach((/** @type {Json} */ part, /** @type {number} */ j) => openaiPart(found, part, `messages[${i}].content[${j}]`, problem));
      } else {
        problem(`messages[${i}].content must be a string or an array of parts`);
      }
    });
  },

  anthropic(found, headers, _url, problem) {
    found.key = headers['x-api-key'] ?? null;
    if (!headers['anthropic-version']) problem('anthropic-version header missing');
    if (headers['anthropic-dangerous-direct-browser-access'] !== 'true') {
      // What the real API answers to a browser call without it (a 401 there).
      problem("CORS requests must set 'anthropic-dangerous-direct-browser-access' header");
    }
    if (headers.authorization) problem('authorization header sent; Anthropic takes x-api-key');
    const body = found.body;
    if (!isObject(body)) return;
    found.model = body.model ?? null;
    requireType(body, 'model', 'string', problem);
    if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1) problem('max_tokens is required (a positive integer)');
    optionalNumber(body, 'temperature', problem);
    if (body.temperature > 1) problem('temperature must be at most 1');
    // The Messages API takes the system prompt as a string or as text blocks, which
    // may carry a cache breakpoint (`cache_control: {type: "ephemeral"}`).
    if (typeof body.system === 'string') found.texts.push(body.system);
    else if (Array.isArray(body.system)) {
      body.system.forEach((/** @type {Json} */ block, /** @type {number} */ i) => {
        if (block?.type !== 'text' || typeof block.text !== 'string') return problem(`system.${i} must be a text block`);
        const cache = block.cache_control;
        if (cache !== undefined && cache?.type !== 'ephemeral') problem(`system.${i}.cache_control.type must be ephemeral`);
        found.texts.push(block.text);
      });
    } else if (body.system !== undefined) problem('system must be a string or an array of text blocks');
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      problem('messages must be a non-empty array');
      return;
    }
    body.messages.forEach((/** @type {Json} */ m, /** @type {number} */ i) => {
      if (!['user', 'assistant'].includes(m?.role)) problem(`messages.${i}.role must be user or assistant`);
      const blocks = typeof m?.content === 'string' ? [{ type: 'text', text: m.content }] : m?.content;
      if (!Array.isArray(blocks)) return problem(`messages.${i}.content must be a string or blocks`);
      blocks.forEach((/** @type {Json} */ block, /** @type {number} */ j) => anthropicBlock(found, block, `messages.${i}.content.${j}`, problem));
    });
    if (body.messages[0]?.role !== 'user') problem('messages: first message must use the "user" role');
  },

  gemini(found, headers, url, problem) {
    found.key = headers['x-goog-api-key'] ?? null;
    if (url.searchParams.has('key')) problem('the key is in the URL (?key=); send it in x-goog-api-key');
    const body = found.body;
    if (!isObject(body)) return;
    if (body.systemInstruction !== undefined) {
      const parts = body.systemInstruction?.parts;
      if (!Array.isArray(parts)) problem('systemInstruction.parts must be an array');
      else parts.forEach((/** @type {Json} */ p, /** @type {number} */ j) => geminiPart(found, p, `systemInstruction.parts[${j}]`, problem));
    }
    if (body.generationConfig !== undefined) {
      optionalNumber(body.generationConfig, 'temperature', problem);
      optionalInteger(body.generationConfig, 'maxOutputTokens', problem);
    }
    if (!Array.isArray(body.contents) || body.contents.length === 0) {
      problem('contents must be a non-empty array');
      return;
    }
    body.contents.forEach((/** @type {Json} */ c, /** @type {number} */ i) => {
      if (!['user', 'model'].includes(c?.role)) problem(`contents[${i}].role must be user or model`);
      if (!Array.isArray(c?.parts) || c.parts.length === 0) return problem(`contents[${i}].parts must be a non-empty array`);
      c.parts.forEach((/** @type {Json} */ p, /** @type {number} */ j) => geminiPart(found, p, `contents[${i}].parts[${j}]`, problem));
    });
  },
});

/**
 * @param {Found} found
 * @param {Json} part
 * @param {string} where
 * @param {Problem} problem
 */
function openaiPart(found, part, where, problem) {
  if (part?.type === 'text' && typeof part.text === 'string') return void found.texts.push(part.text);
  if (part?.type === 'image_url') {
    const match = /^data:([^;,]+);base64,(.*)$/s.exec(part.image_url?.url ?? '');
    if (!match) return problem(`${where}.image_url.url is not a base64 data URL`);
    return image(found, match[1], match[2], where, problem);
  }
  return problem(`${where} has unknown type ${JSON.stringify(part?.type)}`);
}

/**
 * @param {Found} found
 * @param {Json} block
 * @param {string} where
 * @param {Problem} problem
 */
function anthropicBlock(found, block, where, problem) {
  if (block?.type === 'text' && typeof block.text === 'string') return void found.texts.push(block.text);
  if (block?.type === 'image') {
    const source = block.source;
    if (source?.type !== 'base64') return problem(`${where}.source.type must be base64`);
    return image(found, source.media_type, source.data, where, problem);
  }
  return problem(`${where} has unknown type ${JSON.stringify(block?.type)}`);
}

/**
 * @param {Found} found
 * @param {Json} part
 * @param {string} where
 * @param {Problem} problem
 */
function geminiPart(found, part, where, problem) {
  if (typeof part?.text === 'string') return void found.texts.push(part.text);
  if (isObject(part?.inlineData)) return image(found, part.inlineData.mimeType, part.inlineData.data, where, problem);
  return problem(`${where} must have text or inlineData`);
}

/**
 * Decodes base64 strictly and checks the bytes are an image of the declared type.
 * @param {Found} found
 * @param {Json} mime
 * @param {Json} data
 * @param {string} where
 * @param {Problem} problem
 */
function image(found, mime, data, where, problem) {
  if (!Object.hasOwn(SIGNATURES, mime ?? '')) return problem(`${where}: unsupported image type ${JSON.stringify(mime)}`);
  if (typeof data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 !== 0) {
    return problem(`${where}: image data is not base64`);
  }
  const bytes = Buffer.from(data, 'base64');
  const signed = SIGNATURES[mime].some((sig) => sig.every((b, i) => bytes[i] === b));
  if (!signed) return problem(`${where}: the bytes are not a ${mime} image`);
  found.imageBytes.push(bytes);
  found.images.push({ mime, bytes: bytes.length });
}

/**
 * @param {Record<string, Json>} body
 * @param {string} name
 * @param {string} type
 * @param {Problem} problem
 */
function requireType(body, name, type, problem) {
  if (typeof body[name] !== type || body[name] === '') problem(`${name} must be a non-empty ${type}`);
}

/**
 * @param {Json} body
 * @param {string} name
 * @param {Problem} problem
 */
function optionalNumber(body, name, problem) {
  if (body[name] !== undefined && (typeof body[name] !== 'number' || body[name] < 0)) {
    problem(`${name} must be a number from 0 up`);
  }
}

/**
 * @param {Json} body
 * @param {string} name
 * @param {Problem} problem
 */
function optionalInteger(body, name, problem) {
  if (body[name] !== undefined && (!Number.isInteger(body[name]) || body[name] < 1)) {
    problem(`${name} must be a positive integer`);
  }
}
