// The tier's skip path, checked without touching the machine: the installer and a tier
// test file run with a PATH that holds only node, sh and apt-get (so kiwix-serve,
// zimwriterfs and php look missing) and, when we are root, as a user who may not use
// apt-get (HOPBENCH_REALSW_NOT_ROOT=1: running them as `nobody` failed from a checkout
// only root may read, such as a clone in root's home folder). They must say "realsw:
// skipped: <reason>" and skip visibly: the test file reports a skipped suite, neither a
// pass nor a failure.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';

const here = resolve(fileURLToPath(new URL('.', import.meta.url)));
const aptGet = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).stdout.trim();

describe('real-software tier: a machine without the packages skips the tier and says why', { timeout: 120_000 }, () => {
  /** @type {string} */ let bin;
  /** @type {(args: string[]) => import('node:child_process').SpawnSyncReturns<string>} */ let run;

  before(() => {
    bin = mkdtempSync(join(tmpdir(), 'hopbench-realsw-path-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    symlinkSync('/bin/sh', join(bin, 'sh'));
    if (aptGet) symlinkSync(aptGet, join(bin, 'apt-get'));
    run = (args) => spawnSync(process.execPath, args, {
      cwd: here,
      env: { PATH: bin, HOME: bin, HOPBENCH_REALSW_NOT_ROOT: '1' },
      encoding: 'utf8',
      timeout: 90_000,
    });
  });

  after(() => {
    if (bin) rmSync(bin, { recursive: true, force: true });
  });

  const reason = aptGet
    ? /^realsw: skipped: missing kiwix-tools \(kiwix-serve\), zim-tools \(zimwriterfs\), .*php-cli.*; not root, so not installing: run as root, or sudo apt-get install -y --no-install-recommends kiwix-tools zim-tools mediawiki php-cli php-sqlite3$/m
    : /^realsw: skipped: missing kiwix-tools \(kiwix-serve\), .*, and there is no apt-get to install them$/m;

  test('install.mjs prints the reason and what to run, and exits 0', () => {
    const result = run([join(here, 'install.mjs')]);
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stdout, reason);
  });

  test('a tier test file prints the same reason and reports its suite as skipped', () => {
    const result = run(['--test', '--test-reporter=spec', join(here, 'realsw-servers.test.mjs')]);
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stdout, reason);
    assert.match(result.stdout, /^﹣ real-software tier: the URLs of kiwix-serve and MediaWiki \(.*\) # realsw: skipped: missing kiwix-tools/m);
    assert.match(result.stdout, /ℹ skipped 1\n/);
    assert.match(result.stdout, /ℹ pass 0\n/);
    assert.match(result.stdout, /ℹ fail 0\n/);
  });
});
