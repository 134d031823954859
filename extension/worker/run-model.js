// The model call of one step: the stored model settings (with the key, read here and
// nowhere else in a run) handed to the core's model client, cancellable by Stop. The
// client never rejects: failures come back as `{ok: false, error}` (a Rust panic
// rejects; the worker's core proxy turns it into the panic's message).

import { loadAgentSettings } from '../agent-settings.js';

// Chrome stops a worker that made no extension API call for 30 s, and a model call
// may take minutes (call_timeout_ms). While one is in flight, a trivial API call every
// 25 s keeps the worker for that call only, as Chrome documents for long fetches
// (developer.chrome.com/docs/extensions/develop/concepts/service-workers/lifecycle,
// "Keep a service worker alive until a long-running operation is finished"). If the
// worker is stopped anyway, the run's resume issues the call again.
const HEARTBEAT_MS = 25_000;

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

/**
 * `{ok: true, reply, attempts}` or `{ok: false, error: {kind, message, hint}, attempts}`
 * (docs/agent-run.md, CallOutcome).
 */
export async function callModel(core, request, signal) {
  const agent = await loadAgentSettings();
  const options = { max_tries: agent.max_tries, timeout_ms: agent.call_timeout_ms };
  return whileWorking(core.model_call(agent.model, request, options, signal));
}
