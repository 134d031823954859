// The demo's sandbox handling (runner/sandbox.mjs): ready only on the sandbox's own
// `ready` line, a start that fails (ports taken) is an error rather than a silent use
// of whatever answers there, and stop() frees the ports.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startSandbox } from '../../runner/sandbox.mjs';
import { freePortBase } from './free-ports.mjs';
import { hopbenchBin } from './native.mjs';

// The sandbox's 11 sites, on ports of the test's own (free-ports.mjs).
const SITES = 11;

const answers = async (url) => {
  try {
    const reply = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return reply.status;
  } catch {
    return null; // Nothing listens.
  }
};

test('the sandbox starts, says ready, serves, and stops; a second one on the same ports fails', { timeout: 60_000 }, async () => {
  const base = await freePortBase(SITES);
  const home = `http://127.0.0.1:${base}/`;
  const lines = [];
  const sandbox = await startSandbox(hopbenchBin(), (l) => lines.push(l), ['--port-base', String(base)])
    .catch((error) => {
      // The sandbox's own lines say why (a port in use names the port).
      throw new Error(`${error.message}\n${lines.join('\n')}`);
    });
  try {
    assert.ok(lines.some((l) => l.startsWith('sandbox: ready')), lines.join('\n'));
    assert.equal(await answers(home), 200);
    await assert.rejects(
      startSandbox(hopbenchBin(), () => undefined, ['--port-base', String(base)]),
      /the sandbox stopped before it was ready \(exit status 1\)/,
    );
  } finally {
    await sandbox.stop();
  }
  assert.equal(await answers(home), null);
});
