// The turns test runs on one machine take on the sandbox's default ports
// (tests/e2e/default-ports.mjs), on a lock file of the test's own.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { holdDefaultPorts } from '../e2e/default-ports.mjs';

describe('the default ports lock', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hopbench-ports-lock-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const lockFile = () => join(dir, `lock-${(n += 1)}`);

  test('a second taker waits for the first to give it back, saying whom it waits for', async () => {
    const lock = lockFile();
    const release = await holdDefaultPorts(1_000, () => undefined, lock);
    assert.equal(readFileSync(lock, 'utf8').trim(), String(process.pid));
    /** @type {string[]} */
    const said = [];
    let releasedAt = 0;
    setTimeout(() => {
      releasedAt = Date.now();
      release();
    }, 1_500);
    const second = await holdDefaultPorts(10_000, (line) => said.push(line), lock);
    assert.ok(releasedAt > 0 && Date.now() >= releasedAt, 'the second got it only after the first gave it back');
    assert.deepEqual(said, [`waiting for test process ${process.pid}, which runs the sandbox on its default ports`]);
    second();
    assert.ok(!existsSync(lock), 'given back');
  });

  test('a holder that does not give it back in time is named in the error', async () => {
    const lock = lockFile();
    const release = await holdDefaultPorts(1_000, () => undefined, lock);
    await assert.rejects(holdDefaultPorts(1_200, () => undefined, lock), {
      message: `the sandbox's default ports are still held by test process ${process.pid} after 1.2 s (${lock})`,
    });
    release();
  });

  test('a lock left by a process that is gone is taken over at once', async () => {
    const lock = lockFile();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(lock, `${gone.stdout}\n`);
    const started = Date.now();
    const release = await holdDefaultPorts(5_000, () => assert.fail('no wait for a process that is gone'), lock);
    assert.ok(Date.now() - started < 1_000);
    assert.equal(readFileSync(lock, 'utf8').trim(), String(process.pid));
    release();
  });

  test('giving back a lock someone has since taken over leaves theirs', async () => {
    const lock = lockFile();
    const release = await holdDefaultPorts(1_000, () => undefined, lock);
    writeFileSync(lock, '1\n');
    release();
    assert.equal(readFileSync(lock, 'utf8'), '1\n');
  });
});
