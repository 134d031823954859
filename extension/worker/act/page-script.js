// Calls into the action content script (content/act.js) in a tab's frames.
//
// The script is injected on demand into exactly the frames named: never a manifest
// content script, so tabs outside a session are never touched. A call first runs the
// function; only frames that answer that the script is not there (a document that
// replaced the previous one since the last call) get it injected, and are called
// again. Most calls find it (a step's calls go to the document it already acted on or
// watched), so they cost one round trip to the renderer instead of two.

const ACT_SCRIPT = 'content/act.js';

/**
 * @typedef {import('../../content/act-api.js').ActApi} ActApi
 * @typedef {keyof ActApi} ActName
 */
/**
 * What one frame answered: `value` is what the act script's function returned.
 * @template {ActName} N
 * @typedef {{ frameId: number, ok: boolean, value?: Awaited<ReturnType<ActApi[N]>>, error?: string }} FrameResult
 */

/**
 * Runs `__hopbenchAct[name](...args)` in the chosen frames.
 * @param {number} tabId
 * @template {ActName} N
 * @param {N} name
 * @param {Parameters<ActApi[N]>} args
 * @param {{ allFrames: true } | { frameIds: number[] }} [where] default: the main frame
 * @returns {Promise<FrameResult<N>[]>}
 */
export async function callActScript(tabId, name, args, where = { frameIds: [0] }) {
  const first = await runIn({ tabId, ...where }, name, args);
  const missing = first.filter((r) => r.missing).map((r) => r.frameId);
  if (missing.length === 0) return first;
  await injectActScript(tabId, missing);
  const again = new Map((await runIn({ tabId, frameIds: missing }, name, args)).map((r) => [r.frameId, r]));
  return first.map((r) => again.get(r.frameId) ?? r);
}

/**
 * Injects the act script into frames without calling anything: where a document is
 * known to be new (a load just completed), its mutation watch starts at once.
 * @param {number} tabId
 * @param {number[]} frameIds
 */
export async function injectActScript(tabId, frameIds) {
  // injectImmediately: do not wait for document_idle; an action on a still-loading
  // page should act on what is there, as a person would.
  await chrome.scripting.executeScript({ target: { tabId, frameIds }, files: [ACT_SCRIPT], injectImmediately: true });
}

/**
 * One executeScript of the act function; `missing` marks frames without the script.
 * @param {chrome.scripting.InjectionTarget} target
 * @template {ActName} N
 * @param {N} name
 * @param {Parameters<ActApi[N]>} args
 * @returns {Promise<(FrameResult<N> & { missing?: boolean })[]>}
 */
async function runIn(target, name, args) {
  const results = await chrome.scripting.executeScript({
    target,
    injectImmediately: true,
    args: [name, args],
    // Chrome does not report errors thrown by injected functions (crbug.com/1271527),
    // so the function returns them as data.
    func: async (/** @type {string} */ fnName, /** @type {unknown[]} */ fnArgs) => {
      const api = globalThis.__hopbenchAct;
      if (!api) return { ok: false, missing: true, error: 'the act script is not in this frame' };
      try {
        // The worker names a function of ActApi and passes its arguments.
        const functions = /** @type {Record<string, (...args: unknown[]) => unknown>} */ (/** @type {unknown} */ (api));
        return { ok: true, value: /** @type {Awaited<ReturnType<ActApi[N]>>} */ (await functions[fnName](...fnArgs)) };
      } catch (error) {
        const message = error instanceof Error ? error.message : undefined;
        return { ok: false, error: String(message ?? error) };
      }
    },
  });
  return results.map((r) => ({
    frameId: r.frameId,
    ...(r.result ?? { ok: false, error: 'the frame returned nothing (navigated away?)' }),
  }));
}

/**
 * Like callActScript in one frame; throws the script's error.
 * @template {ActName} N
 * @param {number} tabId
 * @param {number} frameId
 * @param {N} name
 * @param {Parameters<ActApi[N]>} args
 * @returns {Promise<Awaited<ReturnType<ActApi[N]>>>}
 */
export async function callActScriptIn(tabId, frameId, name, args) {
  const [result] = await callActScript(tabId, name, args, { frameIds: [frameId] });
  if (!result?.ok) throw new Error(result?.error ?? `no result from frame ${frameId}`);
  // `ok` frames carry the function's value (undefined only if it returned nothing).
  return /** @type {Awaited<ReturnType<ActApi[N]>>} */ (result.value);
}
