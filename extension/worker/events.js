// Events one part of the worker announces and another listens to, so that the one
// below need not call the one above (a person's session does not know of human vs
// agent: the duel listens for the person's Start). Listeners are registered
// synchronously at the worker's top level, like chrome.* listeners.

/**
 * @template T
 * @returns {{ listen: (fn: (value: T) => Promise<void>) => void, emit: (value: T) => Promise<void> }}
 */
function event() {
  /** @type {((value: T) => Promise<void>)[]} */
  const listeners = [];
  return {
    listen: (fn) => {
      listeners.push(fn);
    },
    // In turn, each awaited: what a listener does is part of what the emitter does.
    emit: async (value) => {
      for (const fn of listeners) await fn(value);
    },
  };
}

/** A person pressed Start in their session: the run's summary as it is then. */
export const humanStarted = /** @type {ReturnType<typeof event<import('./core/types.js').Run>>} */ (event());

/**
 * The last tab of a session closed (its window was closed): `{ sessionId }`. The run
 * service stops the run that used it; a person's session has its own window handler.
 */
export const sessionClosed = /** @type {ReturnType<typeof event<{ sessionId: string }>>} */ (event());
