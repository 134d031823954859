// The API key reaches the extension through SAVE_SETTINGS and nothing else. Every text
// the runner prints or writes passes through a redactor as a second line of defence,
// in case a message from the extension or a provider ever echoed the key.

const MASK = '[redacted]';

/** @param {string | undefined} secret @returns {(text: string) => string} */
export function makeRedactor(secret) {
  // Very short values would mask ordinary words; real keys are long.
  if (!secret || secret.length < 8) return (text) => text;
  return (text) => (typeof text === 'string' ? text.split(secret).join(MASK) : text);
}

/**
 * The key named by --api-key-env (or the provider's usual variable). Returns
 * `{ key, note }`: an explicitly named variable that is unset is an error, the
 * default one may be unset (local OpenAI-compatible servers need no key).
 * @param {{ provider?: string, apiKeyEnv?: string | undefined }} options
 * @param {Record<string, string | undefined>} env
 * @param {Readonly<Record<string, string>>} defaults the variable of each provider
 * @returns {{ key: string | undefined, note: string | null }}
 */
export function readApiKey(options, env, defaults) {
  if (options.provider === 'replay') return { key: undefined, note: null };
  const name = options.apiKeyEnv ?? defaults[options.provider ?? ''];
  const key = env[name];
  if (key) return { key, note: `API key: from $${name}` };
  if (options.apiKeyEnv) {
    // The value is not echoed: a key pasted here by mistake must not reach the screen.
    throw new Error('--api-key-env: the variable named there is not set or empty (give the name of the variable that holds the key, not the key)');
  }
  return { key: undefined, note: `API key: none ($${name} is not set; fine for a local server)` };
}
