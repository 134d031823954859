// A lane for runTask (runner/task-run.mjs) without a browser: its driver answers what
// the test gives for each message and leaves every other message unanswered for good,
// as an extension holding a lock forever does; its browser never dies.

/** A promise that never settles. */
export const never = () => new Promise(() => undefined);

/**
 * @param {Record<string, (...args: any[]) => Promise<any>>} answers by driver method
 *   (startRun, getRun, stopRun, exportRun)
 * @returns {{ lane: any, sent: string[] }} `sent`: the messages, in order
 */
export function fakeLane(answers) {
  /** @type {string[]} */
  const sent = [];
  /** @param {string} name */
  const logged = (name) => (/** @type {any[]} */ ...args) => {
    sent.push(name);
    return (answers[name] ?? never)(...args);
  };
  const lane = {
    driver: { startRun: logged('startRun'), getRun: logged('getRun'), stopRun: logged('stopRun'), exportRun: logged('exportRun') },
    guard: (/** @type {Promise<any>} */ p) => p,
    deathExplaining: async () => null,
    salvage: async () => ({ run: null, trajectory: null, error: 'no salvage without a browser' }),
  };
  return { lane, sent };
}
