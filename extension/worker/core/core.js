// The wasm core's init, started by the first caller that needs the core and shared by
// every later one; the wrapper that turns a core panic into its message; and `core()`,
// the one way the worker's modules reach the core.
//
// Why not at the worker's start: Chrome starts the worker for events that mostly need
// no core (the browser's start, a person's own browsing, the settings page opening).
// Reading and compiling the wasm at every start took 35–120 ms of the browser's own
// start-up on two cores, for nothing. Each listener asks for the core only once it has
// a session or a run to serve, and every handler of a message that needs it awaits
// `readyCore`.

import init, * as wasm from '../../pkg/hopbench.js';
import { errorText } from '../../messages.js';

/** @typedef {{ ok: true, initMs: number, initStartedMs: number } | { ok: false, error: string }} CoreStatus */
/** The wasm core module (pkg-shim.d.ts). @typedef {typeof import('../../pkg/hopbench.js')} Core */

/**
 * The initialised core, every export wrapped by withPanicMessage so that a panic
 * reaches the caller as its message. Awaited by every module that calls the core.
 * @returns {Promise<Core>}
 */
export async function loadedCore() {
  await readyCore();
  return guarded;
}

/** @type {Core} */
const guarded = new Proxy(wasm, {
  get(target, name) {
    const value = /** @type {Record<string | symbol, unknown>} */ (/** @type {unknown} */ (target))[name];
    if (typeof value !== 'function') return value;
    return (/** @type {unknown[]} */ ...args) => withPanicMessage(() => value(...args));
  },
});

/**
 * Settles to a `CoreStatus` and never rejects, so a status request after a failed init
 * reports the exact error instead of hanging. The only module-level value of the
 * worker: it holds no run state, and a restarted worker simply starts it again.
 * @type {Promise<CoreStatus> | null}
 */
let coreReady = null;

/**
 * Starts the init if nothing has yet and awaits it; throws the init error, so handlers
 * turn it into an error reply. `initMs` covers fetching, compiling and instantiating
 * the wasm and the core's first call: what the call that needed the core waited for
 * (the popup shows it, the bench reports it). `initStartedMs` is when the init
 * started, in ms since the worker started.
 * @returns {Promise<{ ok: true, initMs: number, initStartedMs: number }>}
 */
export async function readyCore() {
  coreReady ??= startCore();
  const status = await coreReady;
  if (!status.ok) throw new Error(status.error);
  return status;
}

/**
 * Runs a core call; if Rust panicked (the wasm traps with a RuntimeError), rethrows
 * with the panic message the hook recorded. After a panic the instance may hold
 * leaked memory; the worker restarts with a fresh one when Chrome next stops it.
 * @template T
 * @param {() => T} fn
 * @returns {T}
 */
export function withPanicMessage(fn) {
  /** @type {T} */
  let result;
  try {
    result = fn();
  } catch (error) {
    throw panicMessage(error);
  }
  // Async exports (model_call) reject with the trap instead of throwing it.
  return result instanceof Promise
    ? /** @type {T} */ (result.catch((error) => Promise.reject(panicMessage(error))))
    : result;
}

/** @param {unknown} error */
function panicMessage(error) {
  if (!(error instanceof WebAssembly.RuntimeError)) return error;
  return new Error(wasm.take_last_panic() ?? `core crashed: ${errorText(error)}`, { cause: error });
}

/** @returns {Promise<CoreStatus>} */
function startCore() {
  const started = performance.now();
  const wasmUrl = new URL('../../pkg/hopbench_bg.wasm', import.meta.url);
  return init({ module_or_path: wasmUrl })
    .then(() => wasm.core_version())
    .then(
      () => ({ ok: true, initMs: tenths(performance.now() - started), initStartedMs: tenths(started) }),
      (error) => {
        console.error('hopbench core failed to initialise:', error);
        return { ok: false, error: `core init failed (${wasmUrl.pathname}): ${errorText(error)}` };
      },
    );
}

/** @param {number} ms */
function tenths(ms) {
  return Math.round(ms * 10) / 10;
}
