// A person's own agent (`--provider agent`, docs/agent-protocol.md): before a batch the
// runner says hello to it, from this machine, so a batch never starts against an agent
// that is not there, and the name and version it gives go where a model's name goes
// (run.json, the folder's name, the report).

/** The request hopbench sends to learn who an agent is (the core's HelloRequest). */
export const HELLO = Object.freeze({ protocol: 1, kind: 'hello' });

/**
 * "name version" from the agent at `url`, or an Error saying what to fix.
 * @param {string} url
 * @param {string | undefined} key sent as `authorization: Bearer KEY` when set
 * @param {{ timeoutMs?: number, fetchImpl?: typeof fetch }} [options]
 * @returns {Promise<string>}
 */
export async function helloAgent(url, key, { timeoutMs = 10_000, fetchImpl = fetch } = {}) {
  /** @type {Record<string, string>} */
  const headers = { 'content-type': 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  const fix = `start your agent first (e.g. python clients/python/examples/follow_links.py --plan PLAN), and check --base-url`;
  let reply;
  try {
    reply = await fetchImpl(url, { method: 'POST', headers, body: JSON.stringify(HELLO), signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const inner = /** @type {{ cause?: { code?: string, message?: string } }} */ (error).cause;
    const cause = inner?.code ?? inner?.message ?? /** @type {Error} */ (error).message;
    throw new Error(`your agent at ${url} did not answer hello (${cause}): ${fix}`, { cause: error });
  }
  const text = await reply.text();
  if (!reply.ok) {
    const words = messageOf(text);
    const keyHint = reply.status === 401 || reply.status === 403 ? ' (it wants a key: --api-key-env VAR, default $HOPBENCH_AGENT_KEY)' : '';
    throw new Error(`your agent at ${url} refused hello with HTTP ${reply.status}${words ? `: ${words}` : ''}${keyHint}`);
  }
  /** @type {unknown} */
  let body;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new Error(`your agent at ${url} answered hello with something that is not JSON: ${text.slice(0, 120)}`, { cause: error });
  }
  const hello = /** @type {{ name?: unknown, version?: unknown, protocol?: unknown }} */ (body);
  if (typeof hello?.name !== 'string' || hello.name.trim() === '') {
    throw new Error(`your agent at ${url} answered hello without a "name" (docs/agent-protocol.md): ${text.slice(0, 120)}`);
  }
  if (hello.protocol !== undefined && hello.protocol !== HELLO.protocol) {
    throw new Error(`your agent at ${url} speaks protocol ${JSON.stringify(hello.protocol)}; this hopbench speaks ${HELLO.protocol}`);
  }
  const version = typeof hello.version === 'string' ? hello.version.trim() : '';
  return version ? `${hello.name.trim()} ${version}` : hello.name.trim();
}

/** @param {string} text an error reply's body: `{"error": {"message"}}` or anything */
function messageOf(text) {
  try {
    const message = JSON.parse(text)?.error?.message;
    if (typeof message === 'string') return message;
  } catch {
    // Not JSON: the start of the text says enough.
  }
  return text.trim().slice(0, 120);
}
