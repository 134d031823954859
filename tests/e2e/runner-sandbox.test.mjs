// The demo's sandbox handling (runner/sandbox.mjs): ready only on the sandbox's own
// `ready` line, a start that fails (ports taken) is an error rather than a silent use
// of whatever answers there, and stop() frees the ports.

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { startSandbox } from '../../runner/sandbox.mjs';
import { hopbenchBin } from './native.mjs';

// 11 consecutive ports for the test's sandbox. They are taken below Linux's ephemeral
// range (32768-60999: where outgoing connections and listen(0) servers of the other
// tests land) and checked free first, so the first start cannot collide by chance.
const SITES = 11;

const portFree = (port) => new Promise((resolve) => {
  const probe = createServer();
  probe.once('error', () => resolve(false));
  probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
});

async function freePortBase() {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const candidate = 20_000 + SITES * Math.floor(Math.random() * 1000);
    const checks = await Promise.all(Array.from({ length: SITES }, (_, i) => portFree(candidate + i)));
    if (checks.every(Boolean)) return candidate;
  }
  throw new Error(`no ${SITES} consecutive free ports found in 20000-31000 on 127.0.0.1`);
}

const answers = async (url) => {
  try {
    const reply = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return reply.status;
  } catch {
    return null; // Nothing listens.
  }
};

test('the sandbox starts, says ready, serves, and stops; a second one on the same ports fails', { timeout: 60_000 }, async () => {
  const base = await freePortBase();
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
