// Calls into the action content script (content/act.js) in a tab's frames.
//
// The script is injected on demand, per call, into exactly the frames named: never a
// manifest content script, so tabs outside a session are never touched. Injecting
// again is cheap and harmless (the script keeps one instance per document), and it
// covers documents that replaced the previous one since the last call.

const ACT_SCRIPT = 'content/act.js';

/**
 * Runs `__hopbenchAct[name](...args)` in the chosen frames.
 * @param {number} tabId
 * @param {{ allFrames?: boolean, frameIds?: number[] }} where default: the main frame
 * @returns {Promise<Array<{frameId: number, ok: boolean, value?: any, error?: string}>>}
 */
export async function callActScript(tabId, name, args = [], where = { frameIds: [0] }) {
  const target = { tabId, ...where };
  // injectImmediately: do not wait for document_idle; an action on a still-loading
  // page should act on what is there, as a person would.
  await chrome.scripting.executeScript({ target, files: [ACT_SCRIPT], injectImmediately: true });
  const results = await chrome.scripting.executeScript({
    target,
    injectImmediately: true,
    args: [name, args],
    // Chrome does not report errors thrown by injected functions (crbug.com/1271527),
    // so the function returns them as data.
    func: async (fnName, fnArgs) => {
      try {
        return { ok: true, value: await globalThis.__hopbenchAct[fnName](...fnArgs) };
      } catch (error) {
        return { ok: false, error: String(error?.message ?? error) };
      }
    },
  });
  return results.map((r) => ({
    frameId: r.frameId,
    ...(r.result ?? { ok: false, error: 'the frame returned nothing (navigated away?)' }),
  }));
}

/** Like callActScript in one frame; throws the script's error. */
export async function callActScriptIn(tabId, frameId, name, args = []) {
  const [result] = await callActScript(tabId, name, args, { frameIds: [frameId] });
  if (!result?.ok) throw new Error(result?.error ?? `no result from frame ${frameId}`);
  return result.value;
}
