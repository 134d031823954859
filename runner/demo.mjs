#!/usr/bin/env node
// `./build.sh demo [runner options]`: the offline sandbox, the bundled suite in tasks/
// with the replay agent (no API key), into out/demo; prints the summary tables and
// where report.html is. The sandbox is stopped whatever happens (even when this
// process is killed: it watches its parent), started again if it stops on its own
// during the run, and the same sandbox already serving the ports is used as it is
// (runner/sandbox.mjs).

import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError, parseArgs } from './args.mjs';
import { ensureBuilt } from './build.mjs';
import { nativeBin, repoRoot } from './paths.mjs';
import { main as run } from './run.mjs';
import { keepSandbox, startSandbox } from './sandbox.mjs';

/** @param {string} line */
const say = (line) => process.stdout.write(`${line}\n`);

/**
 * @param {string[]} argv
 * @returns {Promise<number>} the exit status
 */
export async function demo(argv) {
  const defaults = { tasks: join(repoRoot, 'tasks'), out: join(repoRoot, 'out', 'demo') };
  let options;
  try {
    options = parseArgs(argv, defaults);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // run() prints the message with the usage.
    return run(argv, { defaults });
  }
  if (options.help) return run(argv, { defaults });
  // The demo's own folder starts fresh each time; a folder the person named keeps its
  // results (and re-runs skip them, as with ./build.sh run).
  if (!argv.some((a) => a === '--out' || a.startsWith('--out='))) {
    rmSync(defaults.out, { recursive: true, force: true });
  }
  ensureBuilt(say);
  say(`starting the sandbox (${nativeBin} sandbox)`);
  // The run handles Ctrl-C itself (runner/interrupt.mjs); the demo only makes sure the
  // sandbox goes down with it.
  /** @type {ReturnType<typeof keepSandbox> | null} */
  let sandbox = null;
  let interrupted = false;
  /** @type {string | null} */
  let report = null;
  const onSignal = () => {
    interrupted = true;
    sandbox?.stop();
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  signals.forEach((s) => process.on(s, onSignal));
  try {
    const first = await startSandbox(nativeBin, say);
    if (first.reused) {
      say(`sandbox: using the one already running (pid ${first.pid}); it is left running afterwards`);
    }
    sandbox = keepSandbox(first, () => startSandbox(nativeBin, say), say);
    if (interrupted) return 130;
    const status = await run(argv, { defaults, outage: sandbox.outage, command: 'demo' });
    // `defaults` gives `out` when the options do not.
    if (status === 0) report = join(/** @type {string} */ (options.out), 'report.html');
    return status;
  } catch (error) {
    process.stderr.write(`demo: ${/** @type {Error} */ (error).message}\n`);
    return 1;
  } finally {
    signals.forEach((s) => process.removeListener(s, onSignal));
    if (sandbox) {
      // Stopped even when it is someone else's (that stop does nothing to it): a
      // sandbox of our own being started in its place right now is stopped on arrival
      // instead of keeping this process, its parent, alive.
      const owned = sandbox.owned;
      await sandbox.stop();
      if (owned) say('sandbox stopped');
    }
    // Last, so the path is what stays on the screen.
    if (report) say(`demo done: open ${report} in a browser`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await demo(process.argv.slice(2));
}
