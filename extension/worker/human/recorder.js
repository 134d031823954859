// The worker half of recording a person's session: installs the in-page recorder
// (human/recorder-page.js) in a session tab over CDP, receives its reports, and hands it the
// element of every [id] of each new observation so that it can name elements by id.
//
// Why CDP and not a content script: the recorder must say which [id] an element has,
// and ids belong to backendNodeIds, which only the debugger sees. In a world created
// over CDP the worker can give the recorder the element objects themselves
// (DOM.resolveNode into that world's context), without marking the DOM, and the
// recorder then knows the id at the moment of the event, before a click can unload the
// page (reading the element afterwards loses that race: the context is gone).
//
// Contexts of the recorder world are learnt from Runtime.executionContextCreated and
// kept in memory; a restarted worker learns those of the open documents again from
// Page.createIsolatedWorld, which answers with the world's existing context.
//
// The binding and the script live exactly as long as each other. V8 gives a binding
// only to contexts created while the Runtime domain is enabled, and Runtime.disable
// forgets every binding of the session (v8-runtime-agent-impl.cc: addBindings returns
// early when disabled; disable removes the bindings state). So Runtime is enabled and
// the binding added before the script is registered, Runtime is never disabled while
// the script is, and the script is removed before the binding. A document that runs
// the script without the binding all the same (one the binding reaches late) records
// nothing and throws nothing until it arrives (human/recorder-page.js).

import { attach, send } from '../cdp/cdp.js';
import { idRegistry, recorderScript } from '../../store/keys.js';
import { read, remove, write } from '../../store/store.js';
import { RECORDER_BINDING, RECORDER_SOURCE, RECORDER_WORLD } from './recorder-page.js';

/** tabId → Map(contextId → {frameId, assigned: Set of ids given to it}). */
/**
 * A report of the page's recorder (human/recorder-page.js), parsed from its JSON: an action
 * of the person (`click`, `type`, ...), or a sign the page changed (`ready`, ...).
 * @typedef {{ kind: string, id?: number | null, handle?: number,
 *   describe?: { tag: string, name: string }, text?: string, enter?: boolean, key?: string,
 *   direction?: string, times?: number, index?: number, url?: string, answer?: string,
 *   judgements?: import('../core/core-types.js').Judgement[], t?: number }} Report
 * @typedef {{ frameId: string | null, assigned: Set<number> }} RecorderContext
 */

/** @type {Map<number, Map<number, RecorderContext>>} */
const contexts = new Map();
/** tabId → the identifier of the script added to new documents (a cache of recorderScript). */
/** @type {Map<number, string>} */
const scripts = new Map();

/** @param {number} tabId */
const contextsOf = (tabId) => {
  let known = contexts.get(tabId);
  if (!known) {
    known = new Map();
    contexts.set(tabId, known);
  }
  return known;
};

/**
 * Installs the recorder in every frame of the tab's document and in every document it
 * loads from now on. Idempotent within one worker; after a restart the script is
 * added again only if it is not there (the page's recorder guards against a second
 * copy per document).
 * @param {number} tabId
 */
export async function installRecorder(tabId) {
  if (scripts.has(tabId)) return;
  await attach(tabId);
  // The script's identifier is kept, so a restarted worker adds no second one.
  let identifier = await read(recorderScript(tabId));
  await send(tabId, 'Page.enable');
  // Both are idempotent, so a restarted worker sends them again without harm; they
  // come before the script, so every document that runs it has the binding.
  await send(tabId, 'Runtime.enable');
  await send(tabId, 'Runtime.addBinding', { name: RECORDER_BINDING, executionContextName: RECORDER_WORLD });
  if (identifier === undefined) {
    ({ identifier } = await send(tabId, 'Page.addScriptToEvaluateOnNewDocument', {
      source: RECORDER_SOURCE,
      worldName: RECORDER_WORLD,
    }));
    await write(recorderScript(tabId), identifier);
  }
  scripts.set(tabId, identifier);
  const { frameTree } = await send(tabId, 'Page.getFrameTree');
  await Promise.all(framesOf(frameTree).map((frameId) => installInFrame(tabId, frameId)));
}

/**
 * @param {import('../cdp/cdp-protocol.js').FrameTree} tree
 * @returns {string[]}
 */
function framesOf(tree) {
  return [tree.frame.id, ...(tree.childFrames ?? []).flatMap(framesOf)];
}

/**
 * The recorder world of the frame's document: created if missing, its existing context
 * otherwise (Chrome keeps one world per name and frame), so a restarted worker learns
 * it here. Evaluating the recorder there installs it, or in a document that already
 * runs it, lets it announce itself if the binding reached it late.
 * @param {number} tabId
 * @param {string} frameId
 */
async function installInFrame(tabId, frameId) {
  try {
    const { executionContextId } = await send(tabId, 'Page.createIsolatedWorld', { frameId, worldName: RECORDER_WORLD });
    contextsOf(tabId).set(executionContextId, { frameId, assigned: new Set() });
    await send(tabId, 'Runtime.evaluate', { expression: RECORDER_SOURCE, contextId: executionContextId });
  } catch (error) {
    // A frame that went away meanwhile has nothing to record.
    console.warn(`hopbench: recorder not installed in frame ${frameId} of tab ${tabId}:`, /** @type {Error} */ (error).message);
  }
}

/** Whether this worker has set up the recorder of the tab (after a restart: not yet). */
export const isRecorderReady = (/** @type {number} */ tabId) => scripts.has(tabId);

/**
 * Stops recording in the tab: no new documents get the recorder, reports stop. The
 * script goes before the binding: no document may start with one and not the other.
 * @param {number} tabId
 */
export async function removeRecorder(tabId) {
  const identifier = scripts.get(tabId) ?? (await read(recorderScript(tabId)));
  scripts.delete(tabId);
  contexts.delete(tabId);
  await remove(recorderScript(tabId));
  const quiet = (/** @type {Promise<unknown>} */ promise) =>
    promise.catch((error) => console.warn(`hopbench: ending the recorder of tab ${tabId}:`, /** @type {Error} */ (error).message));
  if (identifier) await quiet(send(tabId, 'Page.removeScriptToEvaluateOnNewDocument', { identifier }));
  await quiet(send(tabId, 'Runtime.removeBinding', { name: RECORDER_BINDING }));
  await quiet(send(tabId, 'Runtime.disable'));
}

/**
 * Gives the recorder of each context of the tab the elements of the ids printed in
 * `observationText` (only those not given before). Elements live in one frame; each
 * is offered to the main frame's context first, then to the others.
 * @param {number} tabId
 * @param {string} observationText
 * @returns {Promise<{ assigned: number }>}
 */
export async function assignIds(tabId, observationText) {
  const known = contextsOf(tabId);
  if (known.size === 0) return { assigned: 0 };
  const printed = [...observationText.matchAll(/^\s*\[(\d+)\] /gm)].map((m) => Number(m[1]));
  const registry = await registryOf(tabId);
  const { frameTree } = await send(tabId, 'Page.getFrameTree');
  const order = [...known.entries()].sort(([, a], [, b]) => Number(b.frameId === frameTree.frame.id) - Number(a.frameId === frameTree.frame.id));
  let assigned = 0;
  let left = printed.filter((id) => registry.has(id));
  for (const [contextId, info] of order) {
    const wanted = left.filter((id) => !info.assigned.has(id));
    if (wanted.length === 0) continue;
    const resolved = await Promise.all(
      wanted.map((id) =>
        send(tabId, 'DOM.resolveNode', { backendNodeId: /** @type {number} */ (registry.get(id)), executionContextId: contextId, objectGroup: 'hopbench-recorder' })
          .then(({ object }) => ({ id, objectId: object.objectId }))
          // Not in this context's frame (or gone): another context may hold it.
          .catch(() => null),
      ),
    );
    const found = resolved.filter((r) => r !== null);
    if (found.length > 0) {
      try {
        await send(tabId, 'Runtime.callFunctionOn', {
          functionDeclaration: 'function (...pairs) { return globalThis.__hopbenchRecorder?.assign(...pairs) ?? 0; }',
          executionContextId: contextId,
          arguments: found.flatMap(({ id, objectId }) => [{ value: id }, { objectId }]),
        });
        for (const { id } of found) info.assigned.add(id);
        assigned += found.length;
      } catch (error) {
        known.delete(contextId); // The document went away.
        console.warn(`hopbench: recorder context ${contextId} of tab ${tabId} is gone:`, /** @type {Error} */ (error).message);
      }
    }
    const done = new Set(found.map((f) => f.id));
    left = left.filter((id) => !done.has(id) && !info.assigned.has(id));
  }
  await send(tabId, 'Runtime.releaseObjectGroup', { objectGroup: 'hopbench-recorder' }).catch(() => undefined);
  return { assigned };
}

/**
 * `Map(id → backendNodeId)` of the tab's main target (the registry's stored form).
 * @param {number} tabId
 * @returns {Promise<Map<number, number>>}
 */
async function registryOf(tabId) {
  const stored = await read(idRegistry(tabId));
  /** @type {Map<number, number>} */
  const map = new Map();
  if (!stored) return map;
  /** @type {{ elements?: { id: number, targetId?: string | null, backendNodeId: number }[] }} */
  const registry = JSON.parse(stored);
  for (const entry of registry.elements ?? []) {
    // Out-of-process frames are other targets, where the recorder is not installed.
    if (entry.targetId === null || entry.targetId === undefined) map.set(entry.id, entry.backendNodeId);
  }
  return map;
}

/**
 * Asks a recorder again for the id of an element it could not name; null if none.
 * @param {number} tabId
 * @param {number} contextId
 * @param {number | undefined} handle
 * @returns {Promise<number | null>}
 */
export async function idOfHeld(tabId, contextId, handle) {
  try {
    const { result } = await send(tabId, 'Runtime.evaluate', {
      expression: `globalThis.__hopbenchRecorder?.idOf(${Number(handle)}) ?? null`,
      contextId,
      returnByValue: true,
    });
    return result.value ?? null;
  } catch (error) {
    // The document is gone (the action unloaded it): the caller falls back to the name.
    console.debug(`hopbench: recorder context ${contextId} gone:`, /** @type {Error} */ (error).message);
    return null;
  }
}

/**
 * Registers the recorder's CDP listeners; call once, synchronously, at the worker's
 * top level. `onReport(tabId, contextId, report)` gets each parsed report;
 * `onDetached(tabId, reason)` hears of a detached debugger once the tab's recorder is
 * forgotten (Chrome's `reason`).
 * @param {(tabId: number, contextId: number, report: Report) => void} onReport
 * @param {(tabId: number, reason: string) => Promise<void>} onDetached
 */
export function registerRecorderListeners(onReport, onDetached) {
  chrome.debugger.onEvent.addListener((source, method, raw) => {
    /** @type {{ name?: string, payload?: string, executionContextId?: number,
     *   context?: { id: number, name: string, auxData?: { frameId?: string } } }} */
    const params = raw ?? {};
    if (source.tabId === undefined || source.sessionId) return;
    if (method === 'Runtime.bindingCalled' && params.name === RECORDER_BINDING) {
      /** @type {Report} */
      let report;
      try {
        report = JSON.parse(params.payload ?? '');
      } catch (error) {
        console.error('hopbench: unreadable recorder report:', error);
        return;
      }
      onReport(source.tabId, /** @type {number} */ (params.executionContextId), report);
    } else if (method === 'Runtime.executionContextCreated' && params.context?.name === RECORDER_WORLD) {
      contextsOf(source.tabId).set(params.context.id, { frameId: params.context.auxData?.frameId ?? null, assigned: new Set() });
    } else if (method === 'Runtime.executionContextDestroyed') {
      contexts.get(source.tabId)?.delete(/** @type {number} */ (params.executionContextId));
    } else if (method === 'Runtime.executionContextsCleared') {
      contexts.get(source.tabId)?.clear();
    }
  });
  chrome.debugger.onDetach.addListener((source, reason) => {
    const tabId = source.tabId;
    if (tabId === undefined) return;
    scripts.delete(tabId);
    contexts.delete(tabId);
    // Once forgotten, so an install that follows adds the script anew.
    remove(recorderScript(tabId))
      .then(() => onDetached(tabId, reason))
      .catch((error) => console.error('hopbench: forgetting a recorder script failed:', error));
  });
}
