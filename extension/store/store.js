// The one module that touches chrome.storage: typed slots (store/keys.js names every
// one), read, written, removed and watched through the functions below.
//
// Two areas, chosen per slot: `local` survives the browser (settings, runs, the person's
// choices); `session` lives as long as the browser does and is the worker's memory
// between its restarts (sessions, trackers, fences, registries). A value goes in and
// comes out as JSON-like data; a slot's type is what its key's entry says it holds.
// Nothing here locks: read-modify-write sequences that may race take a Web Lock in the
// module that owns the state (session/sessions.js, fence/fence.js, ...), as before.

/**
 * One storage key and the type of its value.
 * @template T
 * @typedef {{ area: 'local' | 'session', key: string, __value?: T }} Slot
 */

/**
 * A slot. `T` is the value's type; the caller's cast states it once, in keys.js.
 * @template T
 * @param {'local' | 'session'} area
 * @param {string} key
 * @returns {Slot<T>}
 */
export function slot(area, key) {
  return Object.freeze({ area, key });
}

/** @param {'local' | 'session'} area */
const storage = (area) => (area === 'local' ? chrome.storage.local : chrome.storage.session);

/**
 * The slot's value, or undefined when nothing is stored there.
 * @template T
 * @param {Slot<T>} at
 * @returns {Promise<T | undefined>}
 */
export async function read(at) {
  const stored = await storage(at.area).get(at.key);
  return /** @type {T | undefined} */ (stored[at.key]);
}

/**
 * @template T
 * @param {Slot<T>} at
 * @param {T} value
 */
export function write(at, value) {
  return storage(at.area).set({ [at.key]: value });
}

/**
 * Writes several slots of one area at once (one change event for watchers).
 * @param {'local' | 'session'} area
 * @param {[Slot<any>, unknown][]} entries
 */
export function writeAll(area, entries) {
  for (const [at] of entries) {
    if (at.area !== area) throw new Error(`store: ${at.key} is a ${at.area} slot, not ${area}`);
  }
  return storage(area).set(Object.fromEntries(entries.map(([at, value]) => [at.key, value])));
}

/**
 * Removes the slots (of any areas).
 * @param {...Slot<any>} slots
 */
export async function remove(...slots) {
  for (const area of /** @type {const} */ (['local', 'session'])) {
    const keys = slots.filter((s) => s.area === area).map((s) => s.key);
    if (keys.length > 0) await storage(area).remove(keys);
  }
}

/**
 * Calls `onChange(key, newValue)` for every change of a slot that `matches` (a key test,
 * for families of slots such as every run's view); returns the function that stops it.
 * @param {'local' | 'session'} area
 * @param {(key: string) => boolean} matches
 * @param {(key: string, value: unknown) => void} onChange
 * @returns {() => void}
 */
export function watch(area, matches, onChange) {
  /** @param {Record<string, chrome.storage.StorageChange>} changes @param {string} changedArea */
  const listener = (changes, changedArea) => {
    if (changedArea !== area) return;
    for (const [key, change] of Object.entries(changes)) {
      if (matches(key)) onChange(key, change.newValue);
    }
  };
  chrome.storage.onChanged.addListener(listener);
  return () => chrome.storage.onChanged.removeListener(listener);
}

/**
 * The local area is readable by content scripts by default, and it holds the API keys.
 * Content scripts run inside web pages, so the area is restricted to the extension's
 * own pages and worker. The setting persists; asking again at every start and before
 * every save is cheap and covers updates. Where Chrome cannot restrict it
 * (`setAccessLevel` missing for `local`, or refused), keys are not stored at all:
 * Settings says why. Resolves to `{restricted: true}` or `{restricted: false, error}`.
 * @returns {Promise<{ restricted: true, error?: undefined } | { restricted: false, error: string }>}
 */
export async function restrictToTrustedContexts() {
  const local = chrome.storage.local;
  if (typeof local.setAccessLevel !== 'function') {
    return { restricted: false, error: 'this version of Chrome cannot hide extension storage from content scripts (no chrome.storage.local.setAccessLevel)' };
  }
  try {
    await local.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' });
    return { restricted: true };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return { restricted: false, error: `Chrome refused to hide extension storage from content scripts (${text})` };
  }
}
