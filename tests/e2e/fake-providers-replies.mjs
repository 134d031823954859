// Reply and error bodies of the fake providers (fake-providers.mjs), each in the
// shape its real API sends.

let counter = 0;
/** @param {string} prefix */
const nextId = (prefix) => `${prefix}${(++counter).toString(36).padStart(6, '0')}`;

/**
 * A successful reply carrying `text` (null: a valid reply without any text).
 * @param {string} api
 * @param {string | null} text
 * @param {{input_tokens: number, output_tokens: number}} usage
 * @param {string | null} model
 */
export function replyBody(api, text, usage, model) {
  const { input_tokens: input, output_tokens: output } = usage;
  if (api === 'openai') {
    return JSON.stringify({
      id: nextId('chatcmpl-fake'),
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: text === null ? [] : [
        { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
    });
  }
  if (api === 'anthropic') {
    return JSON.stringify({
      id: nextId('msg_fake'),
      type: 'message',
      role: 'assistant',
      model,
      content: text === null ? [] : [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: input, output_tokens: output },
    });
  }
  return JSON.stringify({
    candidates: [
      { content: { parts: text === null ? [] : [{ text }], role: 'model' }, finishReason: 'STOP', index: 0 },
    ],
    usageMetadata: { promptTokenCount: input, candidatesTokenCount: output, totalTokenCount: input + output },
    modelVersion: model,
  });
}

/** @type {Readonly<Record<number, string>>} */
const ANTHROPIC_TYPES = Object.freeze({
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
});

/** @type {Readonly<Record<number, string>>} */
const GOOGLE_STATUS = Object.freeze({
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
});

/**
 * An error body; `reason` is Google's ErrorInfo reason (e.g. API_KEY_INVALID).
 * @param {string} api
 * @param {number} status
 * @param {string} message
 * @param {string} [reason]
 */
export function errorBody(api, status, message, reason) {
  if (api === 'anthropic') {
    return JSON.stringify({ type: 'error', error: { type: ANTHROPIC_TYPES[status] ?? 'api_error', message } });
  }
  if (api === 'gemini') {
    /** @type {{ code: number, message: string, status: string, details?: object[] }} */
    const error = { code: status, message, status: GOOGLE_STATUS[status] ?? 'UNKNOWN' };
    if (reason) {
      error.details = [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' }];
    }
    return JSON.stringify({ error });
  }
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return JSON.stringify({ error: { message, type, param: null, code: null } });
}
