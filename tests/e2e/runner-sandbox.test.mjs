// The demo's sandbox handling (runner/sandbox.mjs): ready only on the sandbox's own
// `ready` line; a second start on ports the same sandbox serves uses that one (and
// leaves it running), while another program on the ports is an error rather than a
// silent use of whatever answers there; stop() frees the ports; a sandbox started by a
// process that is then killed with SIGKILL stops by itself; and the demo's keeper
// starts a sandbox that was killed again and says when it was down, and one of its own
// when a sandbox it used, someone else's, is stopped by its owner.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { keepSandbox, startSandbox } from '../../runner/sandbox.mjs';
import { freePortBase, processRunning } from './free-ports.mjs';
import { hopbenchBin } from './native.mjs';
import { repoRoot } from './paths.mjs';

const answers = async (/** @type {string} */ url) => {
  try {
    const reply = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return reply.status;
  } catch {
    return null; // Nothing listens.
  }
};

/**
 * @param {number} base
 */
async function started(base) {
  /** @type {string[]} */ const lines = [];
  return startSandbox(hopbenchBin(), (l) => lines.push(l), ['--port-base', String(base)]).then(
    (sandbox) => ({ sandbox, lines }),
    (error) => {
      // The sandbox's own lines say why (a port in use names the port).
      throw new Error(`${error.message}\n${lines.join('\n')}`);
    },
  );
}

test('the sandbox starts, says ready, serves, and stops; a second start on its ports uses it', { timeout: 60_000 }, async () => {
  const base = await freePortBase();
  const home = `http://127.0.0.1:${base}/`;
  const { sandbox, lines } = await started(base);
  try {
    assert.ok(lines.some((l) => l.startsWith('sandbox: ready')), lines.join('\n'));
    assert.equal(sandbox.reused, false);
    assert.equal(await answers(home), 200);
    const again = await started(base);
    assert.equal(again.sandbox.reused, true);
    assert.equal(again.sandbox.pid, sandbox.pid);
    assert.ok(again.lines.some((l) => /^sandbox: already running: the same hopbench sandbox .*pid \d+/.test(l)), again.lines.join('\n'));
    // Stopping the one that was reused leaves it running: it is not the caller's.
    await again.sandbox.stop();
    assert.equal(await answers(home), 200);
  } finally {
    await sandbox.stop();
  }
  assert.equal(await answers(home), null);
});

test('another program on the ports is an error naming the port, not a sandbox to use', { timeout: 60_000 }, async () => {
  const base = await freePortBase();
  // Any HTTP server: it answers every request (the sandbox's identity request too) with
  // a page that is not a sandbox's. Reading the request lets the connection close.
  const foreign = createServer((socket) => {
    socket.resume();
    socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi');
  });
  await /** @type {Promise<void>} */ (new Promise((resolve) => foreign.listen(base + 3, '127.0.0.1', () => resolve())));
  try {
    await assert.rejects(started(base), (/** @type {Error} */ error) => {
      assert.match(error.message, /the sandbox stopped before it was ready \(exit status 1\)/);
      assert.match(error.message, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${base + 3}: the port is already in use`));
      return true;
    });
  } finally {
    await new Promise((resolve) => foreign.close(resolve));
  }
});

test('the sandbox stops by itself when the process that started it is killed with SIGKILL', { timeout: 60_000 }, async () => {
  const base = await freePortBase();
  // A node process that starts the sandbox the way the demo does, prints its pid, and
  // is then killed without any chance to stop it.
  const script = `
    import { startSandbox } from ${JSON.stringify(join(repoRoot, 'runner', 'sandbox.mjs'))};
    const sandbox = await startSandbox(${JSON.stringify(hopbenchBin())}, () => {}, ['--port-base', '${base}']);
    console.log(sandbox.pid);
    setInterval(() => {}, 1000);`;
  const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = await new Promise((resolve, reject) => {
    parent.stdout.setEncoding('utf8').once('data', (text) => resolve(Number(text.trim())));
    parent.once('exit', (code) => reject(new Error(`the parent exited (${code}) before the sandbox was ready`)));
  });
  assert.equal(await answers(`http://127.0.0.1:${base}/`), 200);
  parent.kill('SIGKILL');
  const deadline = Date.now() + 10_000;
  while (processRunning(pid)) {
    assert.ok(Date.now() < deadline, `the sandbox (pid ${pid}) still runs 10 s after its parent was killed`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(await answers(`http://127.0.0.1:${base + 10}/`), null);
});

test("the keeper starts a killed sandbox again and names the outage to tasks that overlapped it", { timeout: 60_000 }, async () => {
  const base = await freePortBase();
  const home = `http://127.0.0.1:${base}/`;
  const { sandbox: first } = await started(base);
  /** @type {string[]} */ const said = [];
  const keeper = keepSandbox(first, () => started(base).then((s) => s.sandbox), (line) => said.push(line));
  try {
    const before = Date.now();
    assert.equal(keeper.outage(before), null);
    process.kill(first.pid, 'SIGKILL');
    const deadline = Date.now() + 20_000;
    while (keeper.pid === first.pid || (await answers(home)) !== 200) {
      assert.ok(Date.now() < deadline, `not serving again 20 s after the kill:\n${said.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(said.some((l) => l === 'sandbox: stopped unexpectedly (signal SIGKILL); starting it again'), said.join('\n'));
    // A task that started before the kill overlapped the outage; one started after the
    // restart did not.
    assert.equal(keeper.outage(before), 'the sandbox stopped during the task (signal SIGKILL)');
    assert.equal(keeper.outage(Date.now() + 1), null);
  } finally {
    await keeper.stop();
  }
  assert.equal(await answers(home), null);
});

test("the keeper of a sandbox someone else started puts its own in place when they stop theirs", { timeout: 60_000 }, async () => {
  const base = await freePortBase();
  const home = `http://127.0.0.1:${base}/`;
  // Another demo's sandbox, which this one finds serving and uses.
  const { sandbox: theirs } = await started(base);
  const { sandbox: borrowed } = await started(base);
  assert.equal(borrowed.reused, true);
  /** @type {string[]} */ const said = [];
  const keeper = keepSandbox(borrowed, () => started(base).then((s) => s.sandbox), (line) => said.push(line));
  try {
    assert.equal(keeper.owned, false);
    const before = Date.now();
    assert.equal(keeper.outage(before), null);
    // Their run ends and stops it. A task of ours that failed just then is told why at
    // once, before any watch had a turn.
    await theirs.stop();
    const lost = `the sandbox this run used (pid ${theirs.pid}, someone else's) stopped during the task`;
    assert.equal(keeper.outage(before), lost);
    const deadline = Date.now() + 20_000;
    while (!keeper.owned || (await answers(home)) !== 200) {
      assert.ok(Date.now() < deadline, `no sandbox of its own serving 20 s after theirs stopped:\n${said.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.notEqual(keeper.pid, theirs.pid);
    assert.deepEqual(said, [`sandbox: the sandbox in use (pid ${theirs.pid}, someone else's) stopped; starting it again`]);
    assert.equal(keeper.outage(before), lost);
    assert.equal(keeper.outage(Date.now() + 1), null);
  } finally {
    await keeper.stop();
    await theirs.stop();
  }
  // Ours stops with the keeper.
  assert.equal(await answers(home), null);
});

test('a keeper stopped while it starts its own in place of a borrowed one leaves nothing running', { timeout: 60_000 }, async () => {
  const base = await freePortBase();
  const home = `http://127.0.0.1:${base}/`;
  const { sandbox: theirs } = await started(base);
  const { sandbox: borrowed } = await started(base);
  /** @type {ReturnType<typeof startSandbox> | undefined} */ let starting;
  const keeper = keepSandbox(borrowed, () => (starting = started(base).then((s) => s.sandbox)), () => undefined);
  await theirs.stop();
  // The demo's run ends just as the keeper notices: its own is still starting.
  assert.ok(keeper.outage(0), 'the loss is noticed');
  assert.ok(starting, 'one of its own is being started');
  assert.equal(keeper.owned, false, 'its own is not serving yet');
  await keeper.stop();
  const ours = await /** @type {NonNullable<typeof starting>} */ (starting);
  const exit = await Promise.race([ours.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000))]);
  assert.notEqual(exit, 'still running', 'the sandbox that came up after the stop was stopped');
  assert.equal(await answers(home), null);
});
