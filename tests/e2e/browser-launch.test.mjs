// A Chromium that crashes while it starts (runner/browser.mjs): started once more, on
// a fresh profile, so one crash at launch does not fail a task or a test; a browser
// that keeps crashing is the error, and no profile folder is left behind either way.
// The crash is real: a wrapper script that dies of SIGSEGV instead of starting Chromium.

import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchWithExtension } from '../../runner/browser.mjs';
import { chromiumPath, distDir } from './paths.mjs';

describe('a browser that crashes while starting', { timeout: 90_000 }, () => {
  /** @type {string} */ let dir;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hopbench-launch-crash-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * A Chromium stand-in that crashes its first `crashes` starts, then runs Chromium.
   * Each start appends a line to `starts.log`.
   * @param {string} name
   * @param {number} crashes
   */
  const crashingChromium = (name, crashes) => {
    const log = join(dir, `${name}.starts.log`);
    const path = join(dir, name);
    writeFileSync(path, [
      '#!/bin/sh',
      `echo start >> '${log}'`,
      `if [ "$(wc -l < '${log}')" -le ${crashes} ]; then kill -SEGV $$; fi`,
      `exec '${chromiumPath}' "$@"`,
      '',
    ].join('\n'));
    chmodSync(path, 0o755);
    return { path, starts: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').length : 0) };
  };
  /**
   * Runs `launch` with the temp folder (where fresh profiles go) set to a folder of
   * this test's own, so that other tests' browsers cannot be mistaken for leftovers;
   * returns what it gave and the profile folders left there afterwards.
   * @template T
   * @param {string} name
   * @param {() => Promise<T>} launch
   */
  const inOwnTemp = async (name, launch) => {
    const temp = join(dir, `${name}.tmp`);
    mkdirSync(temp);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = temp;
    try {
      return await launch();
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  };
  const profilesIn = (/** @type {string} */ name) => readdirSync(join(dir, `${name}.tmp`));

  test('one crash at start: started again, and the extension runs', async () => {
    const chromium = crashingChromium('crashes-once', 1);
    const browser = await inOwnTemp('crashes-once', () => launchWithExtension({ extensionDir: distDir, chromiumPath: chromium.path }));
    try {
      assert.equal(chromium.starts(), 2);
      // One profile in use: the crashed start's is gone (Chromium keeps files of its own there too).
      const inUse = profilesIn('crashes-once').filter((n) => n.startsWith('hopbench-chromium-'));
      assert.equal(inUse.length, 1, profilesIn('crashes-once').join(' '));
      const name = await browser.worker.evaluate(() => chrome.runtime.getManifest().name);
      assert.equal(name, JSON.parse(readFileSync(join(distDir, 'manifest.json'), 'utf8')).name);
    } finally {
      await browser.close();
    }
    assert.deepEqual(profilesIn('crashes-once'), [], 'a profile folder was left behind');
  });

  test('crashing again: the launch fails with the crash, after two starts, leaving no profile', async () => {
    const chromium = crashingChromium('crashes-always', 99);
    await assert.rejects(
      inOwnTemp('crashes-always', () => launchWithExtension({ extensionDir: distDir, chromiumPath: chromium.path })),
      /signal=SIGSEGV/,
    );
    assert.equal(chromium.starts(), 2);
    assert.deepEqual(profilesIn('crashes-always'), [], 'a profile folder was left behind');
  });
});
