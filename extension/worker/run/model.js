// The model calls of a run: the step's call and the judge's, with the stored model
// settings (with the keys, read here and nowhere else in a run) handed to the core's
// model client, cancellable by Stop. The
// client never rejects: failures come back as `{ok: false, error}` (a Rust panic
// rejects; the worker's core proxy turns it into the panic's message).

import { OWN_AGENT, loadAgentSettings, originOf } from '../../agent-settings.js';

/**
 * @typedef {import('../../agent-settings.js').AgentSettings} AgentSettings
 * @typedef {import('../../agent-settings.js').Endpoint} Endpoint
 * @typedef {import('../core/types.js').Core} Core
 * @typedef {import('../core/core-types.js').CallOutcome} CallOutcome
 * @typedef {import('../core/core-types.js').JudgeRequest} JudgeRequest
 * @typedef {import('../core/core-types.js').Judgement} Judgement
 */

// Chrome stops a worker that made no extension API call for 30 s, and a model call
// may take minutes (call_timeout_ms). While one is in flight, a trivial API call every
// 25 s keeps the worker for that call only, as Chrome documents for long fetches
// (developer.chrome.com/docs/extensions/develop/concepts/service-workers/lifecycle,
// "Keep a service worker alive until a long-running operation is finished"). If the
// worker is stopped anyway, the run's resume issues the call again.
const HEARTBEAT_MS = 25_000;

/**
 * @template T
 * @param {Promise<T>} promise
 * @returns {Promise<T>}
 */
async function whileWorking(promise) {
  const heartbeat = setInterval(() => {
    chrome.runtime.getPlatformInfo().catch((error) => console.warn('hopbench: heartbeat failed:', error));
  }, HEARTBEAT_MS);
  try {
    return await promise;
  } finally {
    clearInterval(heartbeat);
  }
}

const callOptions = (/** @type {AgentSettings} */ agent) => ({ max_tries: agent.max_tries, timeout_ms: agent.call_timeout_ms });

/**
 * The settings the run started with (`pinned`, kept without keys in its driver
 * record), each endpoint given the key saved for the same provider and server origin,
 * the rule by which the options page keeps a key. So a change in the options while
 * the run goes on (another model, a second run started with other settings) reaches
 * only runs started later; a key saved for another server is never sent. A record from
 * before pinning has none: the saved settings then, as before.
 * @param {AgentSettings | undefined} pinned
 * @returns {Promise<AgentSettings>}
 */
async function runSettings(pinned) {
  const saved = await loadAgentSettings();
  if (!pinned) return saved;
  /**
   * @template {Endpoint | null} E
   * @param {E} endpoint
   * @returns {E}
   */
  const withKey = (endpoint) => {
    if (!endpoint) return endpoint;
    const same = [saved.model, saved.judge].find(
      (e) => e && e.provider === endpoint.provider && originOf(e.base_url) === originOf(endpoint.base_url),
    );
    return { ...endpoint, api_key: same?.api_key ?? '' };
  };
  return { ...pinned, model: withKey(pinned.model), judge: withKey(pinned.judge) };
}

/**
 * `{ok: true, reply, attempts}` or `{ok: false, error: {kind, message, hint}, attempts}`
 * (docs/agent-run.md, CallOutcome). `onTry({try, of})` hears of each try as it is sent.
 * @param {Core} core
 * @param {unknown} request
 * @param {AbortSignal | undefined} signal
 * @param {AgentSettings | undefined} pinned
 * @param {(tries: { try: number, of: number }) => void} [onTry]
 * @returns {Promise<CallOutcome>}
 */
export async function callModel(core, request, signal, pinned, onTry) {
  const agent = await runSettings(pinned);
  const options = callOptions(agent);
  const report = onTry && ((/** @type {number} */ n) => onTry({ try: n, of: options.max_tries }));
  return whileWorking(core.model_call(agent.model, request, options, signal, report));
}

/**
 * Says hello to a person's own agent before its run starts (docs/agent-protocol.md):
 * its reply's name and version are what the run records where a model's name goes, and
 * an agent that is not there stops the run before a window opens, with what to fix.
 * @param {Core} core
 * @returns {Promise<string>} "name version"
 */
export async function helloOwnAgent(core) {
  const agent = await loadAgentSettings();
  const outcome = await whileWorking(core.test_connection(agent.model, callOptions(agent), undefined));
  if (!outcome.ok || !outcome.reply) {
    const error = outcome.error;
    throw new Error(
      `your agent at ${agent.model.base_url} did not answer hello (${error?.kind}: ${error?.message})` +
        (error?.hint ? `. ${error.hint}` : ''),
    );
  }
  return outcome.reply.text;
}

/**
 * Asks the judge one question `{answer, reference}`: the judge model when one is set,
 * else the agent's model, with the same tries and timeout. Resolves to the core's
 * judgement (a verdict, or why there is none); `by` names the model that judged.
 * @param {Core} core
 * @param {JudgeRequest} question
 * @param {AbortSignal | undefined} signal
 * @param {AgentSettings | undefined} pinned
 * @returns {Promise<Judgement>}
 */
export async function callJudge(core, question, signal, pinned) {
  const agent = await runSettings(pinned);
  // A person's own agent chooses actions; it is never asked whether an answer is right.
  // Without a judge model its run is scored as a run without a model is.
  if (!agent.judge && agent.model.provider === OWN_AGENT) return core.judge_containment(question);
  const endpoint = agent.judge ?? agent.model;
  const by = `${agent.judge ? 'judge model' : 'agent model'} ${endpoint.provider} ${endpoint.model}`;
  const request = core.judge_prompt(question, endpoint.temperature, endpoint.max_tokens);
  const outcome = await whileWorking(core.model_call(endpoint, request, callOptions(agent), signal));
  return core.judge_outcome(question, by, outcome);
}
