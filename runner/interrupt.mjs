// Ctrl-C (or SIGTERM) during a run: stop starting tasks, close the browser (which also
// deletes its temporary profile, with the settings the extension stored), record
// nothing for the tasks in flight, and exit with 130. A second signal quits at once.

const SIGNALS = ['SIGINT', 'SIGTERM'];

/** @param {(line: string) => void} say */
export function watchInterrupt(say) {
  /** @type {(() => unknown)[]} */
  const actions = [];
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    say('interrupt: stopping; tasks in flight are not recorded and run again next time (again to quit now)');
    for (const action of actions) Promise.resolve().then(action).catch(() => undefined);
  };
  SIGNALS.forEach((s) => process.on(s, onSignal));
  return {
    get interrupted() {
      return interrupted;
    },
    /**
     * Runs `action` on interrupt (at once if already interrupted).
     * @param {() => unknown} action
     */
    onInterrupt(action) {
      actions.push(action);
      if (interrupted) Promise.resolve().then(action).catch(() => undefined);
    },
    dispose() {
      SIGNALS.forEach((s) => process.removeListener(s, onSignal));
    },
  };
}
